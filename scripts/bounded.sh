#!/usr/bin/env bash
# bounded.sh SECONDS COMMAND...: runs COMMAND and exits with its status. A command still running
# after SECONDS is taken for a hang: the stack of every thread of each of its processes is printed
# (gdb, which scripts/setup.sh installs), the processes are killed and the exit status is 124 — a
# failure that says where it stopped, instead of a run that uses up CI's time and says nothing.
# The suites' commands in scripts/test.sh and scripts/sanitize.sh run under it (README, "More").
set -uo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/bounded.sh SECONDS COMMAND..." >&2
  exit 2
fi
limit=$1
shift

descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}

# The command runs in the foreground (a background command of a script would ignore SIGINT, which
# its children inherit: the Ctrl-C tests would fail); the watchdog is the background job.
marker=$(mktemp)
watch() {
  sleep "$limit" &
  local sleeper=$!
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  wait "$sleeper"
  trap - TERM
  local procs=() p
  for p in $(pgrep -P $$); do
    [ "$p" != "$BASHPID" ] && procs+=("$p" $(descendants "$p"))
  done
  echo "== bounded: '$*' still runs after $limit s; the stacks of its processes follow" >&2
  for p in "${procs[@]}"; do
    echo "== bounded: process $p: $(ps -o args= -p "$p" | cut -c1-200)" >&2
    if command -v gdb >/dev/null; then
      timeout 120 gdb -batch -nx -p "$p" -ex "thread apply all bt" 2>&1 |
        grep -v -e '^\[New LWP' -e '^\[Thread debugging' -e '^Using host libthread_db' >&2
    fi
  done
  echo killed >"$marker"
  kill -KILL "${procs[@]}" 2>/dev/null
}
watch "$@" &
watchdog=$!
"$@"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
if [ -s "$marker" ]; then
  echo "== bounded: '$*' was killed after $limit s" >&2
  status=124
fi
rm -f "$marker"
exit "$status"
