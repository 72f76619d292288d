# Sourced by scripts/grow_shards.sh and scripts/prove_shards.sh: what both do with the jobs GNU
# parallel runs on other hosts, and with the segments those bring back (docs/database.md).

# Copies into OUT the segments of COPY (a hard-linked copy of FOLDER that a run grew) that FOLDER
# lacks: the ones the run wrote (at the folder's top or in its YYYY-MM/DD/ subfolders).
copy_new_segments() {
  local copy=$1 folder=$2 out=$3 rel
  while IFS= read -r rel; do
    [ -e "$folder/$rel" ] || cp "$copy/$rel" "$out/"
  done < <(cd "$copy" && find . -type f -name '*.seg')
}

# On a job's host: runs a command (a bookgen) as the process whose pid is written to PIDFILE, so that
# stop_jobs can send it SIGINT from the machine that started the jobs.
#   run_stoppable PIDFILE COMMAND...
run_stoppable() {
  local pidfile=$1
  shift
  (echo "$BASHPID" > "$pidfile" && exec "$@")
}

# Sends SIGINT to the command of every job still running (run_stoppable's pid files, BACK/work-*/pid
# under DIR) on each host of LOGINS (parallel's --sshlogin values: [J/]LOGIN[,...], ":" for this
# machine), all hosts at once; a host that cannot be reached is skipped after ssh's own timeout.
#   stop_jobs DIR BACK LOGIN...
stop_jobs() {
  local dir=$1 back=$2 spec login each
  shift 2
  local kill_here="kill -INT \$(cat $back/work-*/pid 2>/dev/null) 2>/dev/null || true"
  for spec in "$@"; do
    IFS=, read -ra each <<< "$spec"
    for login in "${each[@]}"; do
      login=${login#*/}
      case "$login" in
        : | '') (cd "$dir" 2>/dev/null && eval "$kill_here") ;;
        *' '*) $login "cd $dir && $kill_here" </dev/null & ;;  # a login that is an ssh command of its own
        *) ${PARALLEL_SSH:-ssh} -o ConnectTimeout=10 "$login" "cd $dir && $kill_here" </dev/null & ;;
      esac
    done
  done
  wait
}

# Runs GNU parallel with the given arguments in a session of its own, so that Ctrl-C (SIGINT to this
# script's process group) or SIGTERM reaches this script only. Parallel would end its jobs by
# killing the ssh that runs each one: a remote job is then killed by parallel's wrapper on its host
# 375 ms later, before it can save, and nothing comes back. Instead this tells parallel to start no
# new job (SIGHUP) and sends SIGINT to each running job's bookgen on its host (stop_jobs, again every
# 2 s until parallel ends): each saves its checkpoint and exits, and parallel brings its files back
# (--return) as for a job that ended by itself. Sets jobs_status (parallel's: the number of jobs
# that failed or were stopped) and jobs_interrupted (1 after a signal).
#   run_jobs DIR BACK [--sshlogin LOGIN]... PARALLEL-ARGUMENTS...
run_jobs() {
  local dir=$1 back=$2 logins=() arg prev="" session parallel_pid=""
  shift 2
  for arg in "$@"; do
    if [ "$prev" = --sshlogin ]; then logins+=("$arg"); fi
    prev=$arg
  done
  jobs_interrupted=0 jobs_status=255
  trap '[ "$jobs_interrupted" != 0 ] || jobs_interrupted=1' INT TERM
  # The session's shell writes parallel's pid, then its status, next to the lines of the jobs.
  mkdir -p "$back"
  rm -f "$back/parallel.pid" "$back/parallel.status"
  setsid bash -c 'parallel "$@" & echo $! > "$0.pid"; wait $!; echo $? > "$0.status"' "$back/parallel" "$@" &
  session=$!
  while kill -0 "$session" 2>/dev/null; do
    wait "$session" || true  # returns at the end, or on a signal
    [ "$jobs_interrupted" = 1 ] || continue
    echo "== interrupted: no new job starts; the running ones are stopped on their hosts (each saves), then what came back is merged" >&2
    jobs_interrupted=2
    while kill -0 "$session" 2>/dev/null; do
      [ -n "$parallel_pid" ] || parallel_pid=$(cat "$back/parallel.pid" 2>/dev/null || true)
      [ -z "$parallel_pid" ] || kill -HUP "$parallel_pid" 2>/dev/null || true
      stop_jobs "$dir" "$back" "${logins[@]}"
      sleep 2 || true
    done
  done
  jobs_status=$(cat "$back/parallel.status" 2>/dev/null || echo 255)
  rm -f "$back/parallel.pid" "$back/parallel.status"
  [ "$jobs_interrupted" = 0 ] || jobs_interrupted=1
  trap - INT TERM
}
