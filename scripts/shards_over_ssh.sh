#!/usr/bin/env bash
# The remote path of scripts/grow_shards.sh and scripts/prove_shards.sh through a real ssh, end to
# end, on one machine (docs/proofs.md, "Proving on many hosts"): starts an sshd (Debian's
# openssh-server, installed when missing) on 127.0.0.1 with a throwaway host key, client key and
# config of its own, copies the checkout's bookgen, scripts and a copy of the database to a "remote"
# checkout over that ssh (rsync), and runs both scripts with `--sshlogin 1/USER@127.0.0.1 --dir
# REMOTE`: transfer, run, return, merge. The prove run also names a host that is down (127.0.0.2,
# nothing listening), which loses its job and only that. Then Ctrl-C: prove_shards.sh again, and
# SIGINT to its process group (what a terminal's Ctrl-C sends) once its jobs search; it checks that
# no bookgen is left running on the "remote" side, that what the jobs saved came back and was
# merged, and that the script exited non-zero. Everything lives in a temporary folder, removed at
# the end with the sshd stopped; book/book.db is only read (the merges go into a copy).
#
#   scripts/shards_over_ssh.sh                       # 2 shards x 0.02 h, then '3 2; 3 3; 4 3' x 0.02 h
#   scripts/shards_over_ssh.sh --grow-hours 0.05 --prove-moves '2 1; 5 3' --prove-winner mover
#
# Options: --grow-hours H [0.02], --prove-hours H [0.02], --prove-moves M ['3 2; 3 3; 4 3'],
# --prove-winner mover|opponent [opponent], --db FOLDER [book/book.db], --keep (leave the folder),
# --steps LIST [grow,prove,ctrl-c]: which of the three to run.
# Prints each step, then: shards, searched positions, distinct share after the merge; prove jobs,
# positions proven, distinct share; after Ctrl-C: the exit status, the bookgen processes left on
# the remote side, the segments merged.
set -euo pipefail
cd "$(dirname "$0")/.."

grow_hours=0.02 prove_hours=0.02 prove_moves='3 2; 3 3; 4 3' prove_winner=opponent db=book/book.db keep=0
steps=grow,prove,ctrl-c
while [ $# -gt 0 ]; do
  case "$1" in
    --grow-hours) grow_hours=$2; shift 2 ;;
    --prove-hours) prove_hours=$2; shift 2 ;;
    --prove-moves) prove_moves=$2; shift 2 ;;
    --prove-winner) prove_winner=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --steps) steps=$2; shift 2 ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "shards_over_ssh.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
. scripts/deps.sh
ensure_shard_deps
[ -x /usr/sbin/sshd ] || install_packages openssh-server
[ -x build/bin/bookgen ] || { echo "shards_over_ssh.sh: build/bin/bookgen is missing (./scripts/build.sh)" >&2; exit 2; }
[ -d "$db" ] || { echo "shards_over_ssh.sh: $db is not a database folder" >&2; exit 2; }

user=$(id -un)
tmp=$(mktemp -d /tmp/shards-ssh.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
  [ -f "$tmp/sshd.pid" ] && kill "$(cat "$tmp/sshd.pid")" 2>/dev/null || true
  if [ "$keep" = 1 ]; then echo "== kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

# The sshd: its own host key, config, authorized key and log; 127.0.0.1 only.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/client_key"
cp "$tmp/client_key.pub" "$tmp/authorized_keys"
chmod 600 "$tmp/authorized_keys"
cat > "$tmp/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $tmp/host_key
PidFile $tmp/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
LogLevel ERROR
EOF
mkdir -p /run/sshd 2>/dev/null || true  # its privilege separation folder
/usr/sbin/sshd -f "$tmp/sshd_config" -E "$tmp/sshd.log"
# The client: this key and port for 127.0.0.1; 127.0.0.2 is a host that is down (nothing listens).
cat > "$tmp/ssh_config" <<EOF
Host 127.0.0.1 127.0.0.2
  Port $port
  IdentityFile $tmp/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $tmp/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  ConnectTimeout 5
EOF
export PARALLEL_SSH="ssh -F $tmp/ssh_config"  # GNU parallel's ssh, for the jobs and --return's rsync
for _ in $(seq 50); do $PARALLEL_SSH "$user@127.0.0.1" true 2>/dev/null && break; sleep 0.1; done
echo "== sshd on 127.0.0.1:$port (config $tmp/sshd_config); $($PARALLEL_SSH "$user@127.0.0.1" 'echo logged in as $(id -un) on $(hostname)')"

# This side: a checkout of its own (bookgen, the scripts, a copy of the database), so that the merges
# go into the copy. The "remote" checkout: the same, sent over that ssh.
here=$tmp/local remote=$tmp/remote
mkdir -p "$here/build/bin" "$here/book"
cp -a build/bin/bookgen "$here/build/bin/"
cp -a scripts "$here/"
cp -a book/embedded_book.h "$here/book/"  # the shipped book, whose moves growth keeps
cp -a "$db" "$here/book/book.db"
local_db=$here/book/book.db
$PARALLEL_SSH "$user@127.0.0.1" "mkdir -p $remote/build/bin $remote/book"
rsync -a -e "$PARALLEL_SSH" build/bin/bookgen "$user@127.0.0.1:$remote/build/bin/"
rsync -a -e "$PARALLEL_SSH" scripts "$user@127.0.0.1:$remote/"
rsync -a -e "$PARALLEL_SSH" book/embedded_book.h "$user@127.0.0.1:$remote/book/"
rsync -a -e "$PARALLEL_SSH" "$db/" "$user@127.0.0.1:$remote/book/book.db/"
echo "== sent build/bin/bookgen, scripts/, book/embedded_book.h and $db ($(du -sh "$db" | cut -f1)) to $user@127.0.0.1:$remote"

# From `bookgen merge`'s lines ("merged IN: ...; S searched positions, T of them new"): the sums of
# S and of T over the segments that came back.
merged() {
  grep "^merged .*$2" "$1" | sed 's/.*; \([0-9]*\) searched positions, \([0-9]*\) of them new.*/\1 \2/' \
    | awk '{ s += $1; t += $2 } END { print s + 0, t + 0 }'
}

step() { case ",$steps," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
# Shows a log without the progress lines of the jobs (parallel tags them: "TAG<tab>prove: ...").
quiet() { grep -v -e $'\tprove: ' -e $'\t[0-9:]* positions [0-9]* (+' || true; }
share() { python3 -c "import sys; a, b = int(sys.argv[1]), int(sys.argv[2]); print(f'{a / b:.1%}' if b else 'n/a')" "$1" "$2"; }
summary=()

if step grow; then
  echo "== grow_shards.sh: 2 shards on $user@127.0.0.1, $grow_hours h each, 1 thread"
  log=$tmp/grow.log
  "$here/scripts/grow_shards.sh" --shards 2 --sshlogin "2/$user@127.0.0.1" --dir "$remote" --nice 19 \
    -- --hours "$grow_hours" --threads 1 --progress 30 2>&1 | tee "$log" | quiet || true  # its status: in the summary
  grow_segments=$(grep -c '^merged .*shard-' "$log" || true)
  read -r grow_sum grow_new < <(merged "$log" shard-)
  summary+=("grow: $grow_segments shard segments came back, $grow_sum searched positions in them, $grow_new of them new to the database: distinct share $(share "$grow_new" "$grow_sum")")
fi

if step prove; then
  echo "== prove_shards.sh: '$prove_moves' for the $prove_winner on 2/$user@127.0.0.1 and 1/$user@127.0.0.2 (down), $prove_hours h a job, 1 thread"
  log=$tmp/prove.log
  "$here/scripts/prove_shards.sh" --moves "$prove_moves" --winner "$prove_winner" --sshlogin "2/$user@127.0.0.1" \
    --sshlogin "1/$user@127.0.0.2" --dir "$remote" \
    -- --hours "$prove_hours" --threads 1 --progress 30 --table 4000000 2>&1 | tee "$log" | quiet || true
  jobs=$(grep -c '^  .*: \(PROVEN\|DISPROVEN\|open\|no result\)' "$log" || true)
  failed=$(grep -c 'no result came back' "$log" || true)
  read -r proven_sum proven_new < <(merged "$log" job-)
  summary+=("prove: $jobs jobs ($failed without a result: the host that is down), $proven_sum positions recorded in the segments that came back (settled by the searches), $proven_new of them new to the database: distinct share $(share "$proven_new" "$proven_sum")")
fi

# The bookgen processes running in the remote checkout (their working folder), as that host lists them.
list_remote="for p in \$(pgrep -x bookgen); do [ \"\$(readlink /proc/\$p/cwd)\" = $remote ] && ps -o pid=,etime=,args= -p \$p; done; true"
remote_bookgens() { $PARALLEL_SSH "$user@127.0.0.1" "$list_remote"; }

if step ctrl-c; then
  echo "== Ctrl-C: prove_shards.sh '$prove_moves' for the $prove_winner on 2/$user@127.0.0.1, 1 h a job; SIGINT to its process group once both jobs search"
  log=$tmp/ctrl-c.log
  # A terminal's Ctrl-C: SIGINT to the foreground process group, whose processes have SIGINT at its
  # default (a shell script's background job would ignore it, so python starts the group).
  ctrl=$(python3 - "$log" "$PARALLEL_SSH $user@127.0.0.1" "$list_remote" "$here/scripts/prove_shards.sh" --moves "$prove_moves" --winner "$prove_winner" \
    --sshlogin "2/$user@127.0.0.1" --dir "$remote" -- --hours 1 --threads 1 --progress 2 --table 4000000 <<'PY'
import os, re, signal, subprocess, sys, time
log, ssh, listing, cmd = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4:]
signal.signal(signal.SIGINT, signal.SIG_DFL)
with open(log, "w") as out:
    start = time.time()
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    while p.poll() is None and len(set(re.findall(r"^job (\d+): .*\tprove: ", open(log, errors="replace").read(), re.M))) < 2:
        time.sleep(0.2)
    running = subprocess.run(ssh + [listing], capture_output=True, text=True).stdout.strip().splitlines()
    print(f"ctrl-c: both jobs searching after {time.time() - start:.1f} s, {len(running)} bookgen processes on the remote side: SIGINT to process group {p.pid}", flush=True)
    os.killpg(p.pid, signal.SIGINT)
    stopped = time.time()
    status = p.wait()
print(f"ctrl-c: prove_shards.sh exited with status {status}, {time.time() - stopped:.1f} s after the SIGINT", flush=True)
PY
)
  quiet < "$log"
  echo "$ctrl"
  left=$(remote_bookgens)
  sleep 5
  later=$(remote_bookgens)
  merged_jobs=$(grep -c '^merged .*job-' "$log" || true)
  read -r stop_sum stop_new < <(merged "$log" job-)
  echo "remote bookgen processes in $remote: at the exit: ${left:-none}; 5 s later: ${later:-none}"
  summary+=("${ctrl##*$'\n'}")
  summary+=("ctrl-c: $merged_jobs job segments came back and were merged ($stop_sum positions, $stop_new new); remote bookgen left running: ${later:-none}")
fi

echo "== summary"
printf '%s\n' "${summary[@]}"
