#!/usr/bin/env bash
# `webnn serve` end to end through the CLI: the WPT sets through remote contexts on every backend,
# MobileNetV2's embedding bit-identical to the in-process run, token refusal, and a clean exit on
# SIGTERM that removes the socket.
#   check_serve.sh WEBNN_CLI SHARED_DIR WORK_DIR
set -euo pipefail
cli=$1 shared=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
sock=$work/webnn.sock
printf 'a token\n' >"$work/token"
printf 'another\n' >"$work/wrong"
"$cli" serve --socket "$sock" --token-file "$work/token" 2>"$work/serve.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { echo "the service did not start"; cat "$work/serve.log"; exit 1; }
[ "$(stat -c %a "$sock")" = 600 ] || { echo "socket mode $(stat -c %a "$sock"), expected 600"; exit 1; }
remote=(--remote "unix:$sock" --token-file "$work/token")

for set in conformance conformance-extra; do
  [ -d "$shared/wpt/$set" ] || { echo "no $shared/wpt/$set"; exit 1; }
  for backend in $("$cli" backends); do
    line=$("$cli" conformance "$shared/wpt/$set" --backend "$backend" "${remote[@]}" | tail -1)
    echo "remote $set ($backend): $line"
    case $line in *" 0 failed, 0 skipped") ;; *) exit 1 ;; esac
  done
done

model=$shared/models/mobilenetv2
"$cli" run "$model/mobilenetv2.json" --input "input=$model/input.npy" --output-dir "$work/local" >/dev/null
"$cli" run "$model/mobilenetv2.json" --input "input=$model/input.npy" --output-dir "$work/remote" "${remote[@]}" >/dev/null
cmp "$work/local/embedding.npy" "$work/remote/embedding.npy"
echo "MobileNetV2: the remote embedding is bit-identical"

if "$cli" info "$model/mobilenetv2.json" --remote "unix:$sock" --token-file "$work/wrong" 2>"$work/refused.txt"; then
  echo "a wrong token was accepted"
  exit 1
fi
grep -q "refused" "$work/refused.txt" || { echo "no refusal message:"; cat "$work/refused.txt"; exit 1; }
grep -q "the token was refused" "$work/serve.log" || { echo "the service did not log the refusal"; exit 1; }
echo "a wrong token is refused: $(cat "$work/refused.txt")"

kill -TERM $pid
wait $pid
trap - EXIT
[ ! -e "$sock" ] || { echo "the socket outlived the service"; exit 1; }
grep -q "stopped" "$work/serve.log"
echo "SIGTERM: clean exit, socket removed ($(grep -c accepted "$work/serve.log") connections logged)"
