#!/usr/bin/env bash
# Formats the C++ sources with clang-format (.clang-format: Google's style, 120 columns), or with
# --check reports the files that are not formatted and fails (CI runs the check: scripts/test.sh).
# The generated book (book/embedded_book.h) is left as its packer writes it.
#   scripts/format.sh [--check]
# Installs clang-format (Debian's package) when it is missing. Exit status 1 when --check finds a
# file to format, 2 on a usage error.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "format.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null 2>&1 || install_packages clang-format
# Another major version formats some lines differently: the check is for the version the tree was
# formatted with (Debian 12's), and notes the skip elsewhere rather than failing by chance.
version=$(clang-format --version | grep -o 'version [0-9]*' | grep -o '[0-9]*$')
if [ "$check" = 1 ] && [ "$version" != 14 ]; then
  echo "format: note: clang-format $version is not 14, the tree's formatter; check skipped" >&2
  exit 0
fi
# The sources by folder, not by git: the build and the tests never need git (tests/test_light_clone.cpp).
mapfile -t files < <(find src bot tools tests train \( -name '*.h' -o -name '*.cpp' \) | LC_ALL=C sort)
if [ "$check" = 0 ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || unformatted+=("$f")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "format: ${#unformatted[@]} of ${#files[@]} files are not formatted (run scripts/format.sh):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted ($(clang-format --version | grep -o 'version [0-9.]*'))"
