#!/usr/bin/env bash
# Proves one target on several machines at once (docs/proofs.md, "Proving on many hosts"): the
# target's open moves (`bookgen open`) become jobs, and when there are more slots than moves, the
# open moves below them too; each job is one `bookgen prove` of its line on a hard-linked copy of
# the database folder, on a host GNU parallel logs in to. The segments the jobs wrote come back
# (parallel --return) and `bookgen merge` adds them to the database as one new segment. At the end
# it prints each job's result, the target's proof and disproof numbers combined from them, and
# `bookgen classes`.
#
#   scripts/prove_shards.sh --moves '2 1' --winner opponent --sshlogin 2/: -- --hours 1 --threads 1
#   scripts/prove_shards.sh --moves '1 0' --winner opponent --sshlogin 2/me@a,2/me@b --dir /srv/yavalath -- --hours 8
#
# Options: --moves 'X Y; ...' the target (required); --winner mover|opponent (required): whose
# win is claimed there, as for `bookgen prove`; --sshlogin [J/]LOGIN (parallel's: J jobs at a time
# there; repeatable) [":" = this machine]; --slots N: jobs wanted [the sum of the J's, 1 for a
# login without one]; --dir DIR: the checkout on every host [this one's path]; --db FOLDER
# [book/book.db]; --nice N [19]. After `--`: options of each `bookgen prove` (--hours, --threads,
# --table ...). Every host needs a built checkout (build/bin/bookgen) at DIR with the database
# folder (older is fine: a job only searches again what it lacks).
# A host that dies (or a job that fails) loses only its job: the others are merged. Ctrl-C (or
# SIGTERM) stops every job on its host, which saves its last checkpoint; what came back is still
# merged, and the script exits 130.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/shards.sh

moves="" winner="" dir=$PWD db=book/book.db niceness=19 slots=0 line="" jobwinner="" back="" job=0
logins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --moves) moves=$2; shift 2 ;;
    --winner) winner=$2; shift 2 ;;
    --sshlogin) logins+=(--sshlogin "$2"); shift 2 ;;
    --slots) slots=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --nice) niceness=$2; shift 2 ;;
    --one-job) line=$2 jobwinner=$3 back=$4 job=$5; shift 5 ;;  # internal: what each parallel job runs on its host
    --) shift; break ;;
    -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "prove_shards.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# One job, on its host: proves its line on a hard-linked copy of the folder (segments are never
# modified in place, so the copy shares them safely), then keeps the segments the run wrote and its
# log under BACK/job-N (N: the job's number).
if [ -n "$line" ]; then
  work=$back/work-$job out=$back/job-$job
  mkdir -p "$work" "$out"
  rm -rf "$work/db"
  cp -al "$db" "$work/db" 2>/dev/null || cp -a "$db" "$work/db"
  set +e
  # tee ignores SIGINT, so that the lines bookgen prints while it saves still reach the log.
  run_stoppable "$work/pid" nice -n "$niceness" build/bin/bookgen prove --db "$work/db" --moves "$line" \
    --winner "$jobwinner" "$@" 2>&1 | (trap '' INT && exec tee "$out/prove.log")
  status=${PIPESTATUS[0]}
  set -e
  copy_new_segments "$work/db" "$db" "$out"
  rm -rf "$work"
  exit $status
fi

[ -n "$moves" ] || { echo "prove_shards.sh: --moves is required (the target)" >&2; exit 2; }
case "$winner" in mover | opponent) ;; *) echo "prove_shards.sh: --winner expects mover or opponent, got '$winner'" >&2; exit 2 ;; esac
case "$slots" in '' | *[!0-9]*) echo "prove_shards.sh: --slots expects a number, got '$slots'" >&2; exit 2 ;; esac
. scripts/deps.sh
ensure_shard_deps
[ -d "$db" ] || { echo "prove_shards.sh: $db is not a database folder (bookgen migrate $db makes it one)" >&2; exit 2; }
[ -x build/bin/bookgen ] || { echo "prove_shards.sh: build/bin/bookgen is missing (./scripts/build.sh)" >&2; exit 2; }
[ ${#logins[@]} -gt 0 ] || logins=(--sshlogin ":")
if [ "$slots" = 0 ]; then
  for ((i = 1; i < ${#logins[@]}; i += 2)); do
    IFS=, read -ra each <<< "${logins[$i]}"
    for l in "${each[@]}"; do
      j=${l%%/*}
      if [ "$j" != "$l" ] && [ -n "$j" ] && [ -z "${j//[0-9]/}" ]; then slots=$((slots + j)); else slots=$((slots + 1)); fi
    done
  done
fi
flip() { [ "$1" = mover ] && echo opponent || echo mover; }

# The jobs: the target's open moves, then, while there are fewer lines than slots, each open line
# in turn replaced by its own open moves (a line the book settles is dropped).
open_moves() { build/bin/bookgen open --db "$db" --moves "$1" 2>/dev/null; }
lines=()
while IFS= read -r m; do lines+=("$moves; $m"); done < <(open_moves "$moves")
[ ${#lines[@]} -gt 0 ] || { echo "prove_shards.sh: '$moves' has no open move: the book settles it (bookgen show --moves '$moves')"; exit 0; }
depth=1  # plies below the target
if [ ${#lines[@]} -lt "$slots" ]; then
  deeper=()
  for l in "${lines[@]}"; do
    below=()
    while IFS= read -r m; do below+=("$l; $m"); done < <(open_moves "$l")
    deeper+=("${below[@]}")
  done
  if [ ${#deeper[@]} -gt 0 ]; then lines=("${deeper[@]}") depth=2; fi
fi
jobwinner=$(flip "$winner")
[ "$depth" = 2 ] && jobwinner=$winner
back=proofs-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$back"
printf '%s\n' "${lines[@]}" > "$back/lines"
echo "== '$moves' for the $winner: ${#lines[@]} jobs ($depth ply below it, $slots slots), --winner $jobwinner each, segments back under $back (bookgen prove ${*:-})"
# Ctrl-C stops every job on its host (each saves); what came back is then merged (run_jobs).
run_jobs "$dir" "$back" "${logins[@]}" --workdir "$dir" --return "$back/job-{#}" --line-buffer --tagstring "job {#}: {}" \
  scripts/prove_shards.sh --db "$db" --nice "$niceness" --one-job {} "$jobwinner" "$back" {#} -- "$@" \
  :::: "$back/lines"
status=$jobs_status

# Each job's last numbers ("target ... (pn P, dn D)"), and the target's combined from them: where
# the attacker moves, the least proof number and the sum of the disproof numbers; where the
# defender moves, the sum and the least. Two plies below, the lines are grouped by their first move.
# A job that came back without its last line counts as a fresh line (pn 1, dn 1).
python3 - "$back" "$winner" "$depth" <<'EOF'
import re, sys
back, winner, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
INF = float("inf")
def num(t): return INF if t == "inf" else int(t)
lines = open(f"{back}/lines").read().splitlines()
results, lost = {}, 0
for n, line in enumerate(lines, 1):
    try:
        log = open(f"{back}/job-{n}/prove.log", errors="replace").read()
    except OSError:
        log = ""
    found = re.findall(r"^target (.*) \(pn (\S+), dn (\S+)\)", log, re.M)
    if found:
        verdict, pn, dn = found[-1]
        results[line] = (num(pn), num(dn))
        print(f"  {line}: {verdict.split(':')[0]} (pn {pn}, dn {dn})")
    else:
        lost += 1
        results[line] = (1, 1)
        print(f"  {line}: no result came back (its host failed or it was stopped early)")
def combine(children, attacker_moves):
    pns, dns = [c[0] for c in children], [c[1] for c in children]
    return (min(pns), sum(dns)) if attacker_moves else (sum(pns), min(dns))
attacker_at_target = winner == "mover"
if depth == 1:
    pn, dn = combine(list(results.values()), attacker_at_target)
else:
    groups = {}
    for line, r in results.items():
        groups.setdefault(line.rsplit(";", 1)[0], []).append(r)
    middle = [combine(rs, not attacker_at_target) for rs in groups.values()]
    pn, dn = combine(middle, attacker_at_target)
show = lambda x: "inf" if x == INF else str(x)
settled = sum(1 for r in results.values() if r[0] == 0 or r[1] == 0)
print(f"== the target from its {len(lines)} jobs ({lost} without a result): pn {show(pn)}, dn {show(dn)}; "
      f"{settled} lines settled")
EOF
segments=("$back"/job-*/*.seg)
if [ ! -e "${segments[0]}" ]; then
  echo "prove_shards.sh: no job saved a segment (parallel's status $status); $back kept" >&2
  exit 1
fi
build/bin/bookgen merge "$db" "${segments[@]}"
echo "== merged ${#segments[@]} job segments into $db (parallel's status $status: the number of jobs that failed or were stopped)"
build/bin/bookgen classes --db "$db"
rm -rf "$back"
if [ "$jobs_interrupted" = 1 ]; then
  echo "prove_shards.sh: interrupted: the jobs were stopped; what they had saved is merged above" >&2
  exit 130
fi
exit $status
