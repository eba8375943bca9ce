#!/usr/bin/env bash
# Formats our C++ sources with the repository's .clang-format (clang-format 14, the version
# scripts/install-deps.sh installs: another version lays some lines out differently).
#
#   scripts/format.sh            format every source in place
#   scripts/format.sh --check    list the sources that are not formatted and exit 1 if any;
#                                changes nothing
#
# Our sources are the tracked *.cpp, *.hpp and *.h files; generated code (Verilator's output and
# configured headers, all under build/) is never tracked, so never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=format
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "scripts/format.sh: expected --check or nothing, found '$1'" >&2; exit 2 ;;
esac
if [ $# -gt 1 ]; then
  echo "scripts/format.sh: expected at most one argument, found also '$2'" >&2
  exit 2
fi
clang_format=clang-format-14
if ! command -v "$clang_format" >/dev/null; then
  echo "scripts/format.sh: $clang_format not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

mapfile -t sources < <(git ls-files -- '*.cpp' '*.hpp' '*.h')
if [ "$mode" = format ]; then
  "$clang_format" -i --style=file "${sources[@]}"
  exit 0
fi
# One clang-format for the whole tree when it is formatted (the usual case); one per source only
# to name those that are not.
if "$clang_format" --style=file --dry-run --Werror "${sources[@]}" 2>/dev/null; then
  exit 0
fi
unformatted=0
for source in "${sources[@]}"; do
  if ! "$clang_format" --style=file --dry-run --Werror "$source" 2>/dev/null; then
    echo "$source"
    unformatted=$((unformatted + 1))
  fi
done
if [ "$unformatted" -gt 0 ]; then
  echo "scripts/format.sh: $unformatted of ${#sources[@]} sources are not formatted" \
       "(scripts/format.sh formats them)" >&2
  exit 1
fi
