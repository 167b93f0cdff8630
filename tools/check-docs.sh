#!/usr/bin/env bash
# The API reference: runs Doxygen (Debian's doxygen) over the public headers and the Markdown
# pages of docs/ (Doxyfile). Fails when the number of public entities without documentation
# exceeds the budget in docs/api/undocumented-budget (0: every public entity is documented), or
# when Doxygen warns about anything else (broken links or \ref targets, comment markup errors):
# no warning is expected, so none is exempt. Output: build/doxygen/html, the warnings in
# build/doxygen/warnings.log.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/doxygen
doxygen Doxyfile >/dev/null
log=build/doxygen/warnings.log
undocumented=$(grep -c "is not documented" "$log" || true)
total=$(grep -c "warning:" "$log" || true)
budget=$(cat docs/api/undocumented-budget)
echo "check-docs: Doxygen: $undocumented undocumented public entities (budget $budget), $total warnings in all"
status=0
if [ "$undocumented" -gt "$budget" ]; then
  echo "check-docs: undocumented public entities:"
  grep "is not documented" "$log" | head -50
  status=1
fi
# Every other warning fails the check.
other=$(grep "warning:" "$log" | grep -v "is not documented" || true)
if [ -n "$other" ]; then
  echo "check-docs: other Doxygen warnings (fix the comment or the page):"
  echo "$other" | head -50
  status=1
fi
exit $status
