# Sourced by the README commands: installs what the build needs when it is missing.
# Usage: ensure_deps [gtest]
ensure_deps() {
  local pkgs=()
  command -v cmake >/dev/null 2>&1 || pkgs+=(cmake)
  command -v g++ >/dev/null 2>&1 || pkgs+=(g++)
  command -v make >/dev/null 2>&1 || pkgs+=(make)
  command -v python3 >/dev/null 2>&1 || pkgs+=(python3)
  # (ls fails when any of its arguments is missing: one pattern at a time)
  if [ "${1:-}" = gtest ] && ! ls /usr/lib/*/libgtest.a >/dev/null 2>&1 && ! [ -e /usr/lib/libgtest.a ]; then
    pkgs+=(libgtest-dev)
  fi
  install_packages "${pkgs[@]}"
}

# Installs the Debian packages given (none: nothing to do). Every apt-get waits up to 5 minutes for
# the dpkg lock (and update for the lists lock) that another install may hold, instead of failing.
install_packages() {
  [ $# -eq 0 ] && return 0
  echo "== installing missing packages: $*"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
  $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null \
    || { echo "error: could not install $* (run as root, or install them yourself)" >&2; return 1; }
}

# GNU parallel, and rsync, with which it brings files back from other hosts: scripts/grow_shards.sh,
# scripts/prove_shards.sh and their test (scripts/test.sh).
ensure_shard_deps() {
  local pkgs=()
  command -v parallel >/dev/null 2>&1 || pkgs+=(parallel)
  command -v rsync >/dev/null 2>&1 || pkgs+=(rsync)
  install_packages "${pkgs[@]}"
}

# CodinGame compiles with g++ 11: the submission checks also use it when it is installed.
# Best effort: a machine without the package still builds and tests with its own g++.
ensure_codingame_gxx() {
  command -v g++-11 >/dev/null 2>&1 || command -v g++-10 >/dev/null 2>&1 && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo=sudo
  echo "== installing g++-11 (CodinGame's compiler version) for the submission checks"
  { $sudo apt-get -o DPkg::Lock::Timeout=300 update -qq \
    && DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq g++-11 >/dev/null; } \
    || echo "note: g++-11 is not available; the submission is checked with $(g++ -dumpversion) only" >&2
}
