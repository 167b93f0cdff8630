#!/usr/bin/env bash
# The changelog rule (issue 43): every change that lands on main after .ci/changelog-base (or the
# commit given as $1) and changes what a user sees - a public header added or removed
# (include/shade/), a Python module file added or removed (python/shade/), or a Python binding
# added (a new `.def(` / `m.attr(` line in python/src/) - also edits CHANGELOG.md, unless its
# message says "[no changelog]" (a pure refactor, a test, a typo). A change is a commit on main's
# first-parent line: a merge counts with everything its branch brings (a branch may add its
# changelog line in a later commit than the code). Exit 1 with the offending changes.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-$(cat .ci/changelog-base)}"
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  echo "check-changelog: base commit ${base:0:12} not in this clone; nothing to check"
  exit 0
fi
bad=()
for c in $(git rev-list --first-parent "$base"..HEAD); do
  files="$(git diff --name-status "$c^1" "$c")"
  grep -q $'\tCHANGELOG.md$' <<<"$files" && continue
  git show -s --format=%B "$c" | grep -qF "[no changelog]" && continue
  visible=""
  if grep -qE $'^[AD]\t(include/shade/|python/shade/)' <<<"$files"; then
    visible="adds or removes a public file"
  elif git diff --unified=0 "$c^1" "$c" -- python/src | grep -qE '^\+.*(\.def\(|m\.attr\()'; then
    visible="adds a Python binding"
  fi
  if [ -n "$visible" ]; then bad+=("$(git show -s --format='%h %s' "$c" | cut -c1-90) ($visible)"); fi
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check-changelog: these commits change the public API without a CHANGELOG.md line"
  echo "(add one, or say [no changelog] in the message when nothing user-visible changed):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-changelog: every user-visible commit since ${base:0:12} has a CHANGELOG.md line"
