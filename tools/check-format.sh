#!/usr/bin/env bash
# clang-format check of changed lines: every C++ line added or changed since the commit in
# .ci/format-base (or the commit given as $1) must be formatted as .clang-format says. Lines
# nobody touched keep their history; new code cannot drift. Exit 1 with the needed diff.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v git-clang-format >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq clang-format git >/dev/null
fi
base="${1:-$(cat .ci/format-base)}"
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  # A shallow clone without the base: check what the last commit changed, if it has a parent.
  if git cat-file -e "HEAD~1^{commit}" 2>/dev/null; then
    base="$(git rev-parse HEAD~1)"
    echo "check-format: base commit not in this clone; checking the last commit's lines"
  else
    echo "check-format: base commit not in this clone and HEAD has no parent; nothing to compare"
    exit 0
  fi
fi
out="$(git clang-format --diff --extensions h,cc,cu,cuh "$base" HEAD -- include src tests bench \
  examples fuzz python 2>&1 || true)"
case "$out" in
  *"no modified files to format"* | *"did not modify any files"* | "")
    echo "check-format: lines changed since ${base:0:12} are clang-formatted"
    ;;
  *)
    echo "$out"
    echo "check-format: the lines above need clang-format (run: git clang-format ${base:0:12})"
    exit 1
    ;;
esac
