#!/usr/bin/env bash
# Writes the certificate of each opening class given ('3 3' '4 4' ...), checks it with the
# independent checker and records a manifest in book/proofs/X_Y.manifest (docs/proofs.md).
# The certificates themselves go to build/certificates/ (several MB each; not committed).
# Usage: scripts/certify.sh [--db DIR] 'X Y' ['X Y' ...]
set -euo pipefail
cd "$(dirname "$0")/.."
db=book/book.db
if [ "${1:-}" = --db ]; then db=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: scripts/certify.sh [--db DIR] 'X Y' ['X Y' ...]" >&2; exit 2; }
[ -x build/bin/bookgen ] && [ -x build/bin/proof_check ] || ./scripts/build.sh >/dev/null
mkdir -p build/certificates book/proofs
for class in "$@"; do
  name=${class// /_}
  cert=build/certificates/$name.cert
  start=$(date +%s.%N)
  build/bin/bookgen certificate --db "$db" --moves "$class" --out "$cert" 2> "build/certificates/$name.log" ||
    { echo "$class: no certificate (build/certificates/$name.log)"; tail -1 "build/certificates/$name.log"; continue; }
  written=$(date +%s.%N)
  verdict=$(build/bin/proof_check "$cert" 2>/dev/null) && status=0 || status=$?
  checked=$(date +%s.%N)
  {
    echo "class: $class (the player to move after it, no steal)"
    grep '^# claim' "$cert" | sed 's/^# //'
    grep '^value ' "$cert" | sed 's/^value /value for the player to move: /'
    grep '^positions ' "$cert" | sed 's/^positions /table positions: /'
    grep '^threat-depth ' "$cert" | sed 's/^threat-depth /threat depth: /'
    echo "bytes: $(stat -c %s "$cert")"
    echo "checker: exit $status: $verdict"
    python3 -c "import sys; a, b, c = map(float, sys.argv[1:]); print(f'seconds: written {b - a:.1f}, checked {c - b:.1f}')" "$start" "$written" "$checked"
    # The segments by name, wherever they lie in the folder (its top or YYYY-MM/DD/).
    echo "database: $db ($( [ -d "$db" ] && find "$db" -name '*.seg' -printf '%f\n' | sort | tr '\n' ' ' || echo single file))"
    echo "regenerate: build/bin/bookgen certificate --db $db --moves '$class' --out $cert && build/bin/proof_check $cert"
  } > "book/proofs/$name.manifest"
  echo "$class: $(grep '^checker' "book/proofs/$name.manifest")"
done
