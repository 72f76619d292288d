#!/usr/bin/env bash
# Grows the book on several machines at once without repeating work (docs/database.md): shard I of
# N runs `bookgen run --shard I/N` (it searches only the positions whose key hashes to I) on a
# hard-linked copy of the database folder, on a host GNU parallel logs in to; the segments the
# shards wrote come back (parallel --return) and `bookgen merge` adds them to the database as one
# new segment.
#
#   scripts/grow_shards.sh --shards 2 --sshlogin 2/: -- --hours 8              # two shards here
#   scripts/grow_shards.sh --shards 3 --sshlogin 1/me@a,1/me@b,1/me@c --dir /srv/yavalath -- --hours 8 --threads 2
#
# Options: --shards N [2]; --sshlogin [J/]LOGIN (parallel's: J shards at a time there; repeatable)
# [":" = this machine];
# --dir DIR: the checkout on every host [this one's path]; --db FOLDER [book/book.db];
# --nice N [10]: niceness of each shard's bookgen. After `--`: options of `bookgen run`.
# Every host needs a built checkout (build/bin/bookgen) at DIR with the same database folder.
# Ctrl-C (or SIGTERM) stops every shard on its host, which saves its last checkpoint; what came back
# is still merged, and the script exits 130. A host that dies loses only its shard's unfinished work.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/shards.sh

shards=2 dir=$PWD db=book/book.db niceness=10 one=0 back=""
logins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --sshlogin) logins+=(--sshlogin "$2"); shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --nice) niceness=$2; shift 2 ;;
    --one-shard) one=$2 back=$3; shift 3 ;;  # internal: what each parallel job runs on its host
    --) shift; break ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "grow_shards.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$shards" in '' | *[!0-9]* | 0) echo "grow_shards.sh: --shards expects a positive number, got '$shards'" >&2; exit 2 ;; esac

# One shard, on its host: grows a hard-linked copy of the folder (segments are never modified in
# place, so the copy shares them safely), then keeps the segments the run wrote under BACK/shard-I.
if [ "$one" != 0 ]; then
  work=$back/work-$one out=$back/shard-$one
  mkdir -p "$work" "$out"
  rm -rf "$work/db"
  cp -al "$db" "$work/db" 2>/dev/null || cp -a "$db" "$work/db"
  status=0
  run_stoppable "$work/pid" nice -n "$niceness" build/bin/bookgen run --db "$work/db" --shard "$one/$shards" "$@" || status=$?
  copy_new_segments "$work/db" "$db" "$out"
  rm -rf "$work"
  exit $status
fi

. scripts/deps.sh
ensure_shard_deps
[ -d "$db" ] || { echo "grow_shards.sh: $db is not a database folder (bookgen migrate $db makes it one)" >&2; exit 2; }
[ -x build/bin/bookgen ] || { echo "grow_shards.sh: build/bin/bookgen is missing (./scripts/build.sh)" >&2; exit 2; }
[ ${#logins[@]} -gt 0 ] || logins=(--sshlogin ":")
back=shards/$(date -u +%Y%m%d-%H%M%S)
echo "== $shards shards of $db, each segment back under $back (bookgen run ${*:-})"
# Ctrl-C stops every shard on its host (each saves); what came back is then merged (run_jobs).
run_jobs "$dir" "$back" "${logins[@]}" --workdir "$dir" --return "$back/shard-{}" --line-buffer --tagstring "shard {}/$shards" \
  scripts/grow_shards.sh --shards "$shards" --db "$db" --nice "$niceness" --one-shard {} "$back" -- "$@" \
  ::: $(seq 1 "$shards")
status=$jobs_status
segments=("$back"/shard-*/*.seg)
if [ ! -e "${segments[0]}" ]; then
  echo "grow_shards.sh: no shard saved a segment (parallel's status $status)" >&2
  exit 1
fi
build/bin/bookgen merge "$db" "${segments[@]}"
rm -rf "$back"
rmdir shards 2>/dev/null || true
echo "== merged ${#segments[@]} shard segments into $db (parallel's status $status: the number of shards that failed or were stopped)"
if [ "$jobs_interrupted" = 1 ]; then
  echo "grow_shards.sh: interrupted: the shards were stopped; what they had saved is merged above" >&2
  exit 130
fi
exit $status
