#!/usr/bin/env bash
# usage: early_exit.sh SECONDS mpirun ARGS...
# Runs the job under `timeout`; passes when the job fails by itself (a rank exited early and
# mpirun ended the others) and fails when it succeeds or hangs until the timeout.
limit="$1"
shift
start=$(date +%s)
timeout --kill-after=10 "$limit" "$@"
rc=$?
echo "early_exit.sh: exit status $rc after $(( $(date +%s) - start )) s"
if [ "$rc" -eq 0 ]; then
  echo "early_exit.sh: FAIL: the job succeeded although a rank exited early"
  exit 1
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "early_exit.sh: FAIL: the job hung until the ${limit} s timeout"
  exit 1
fi
echo "early_exit.sh: PASS: the job ended with an error"
