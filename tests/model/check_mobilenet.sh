#!/usr/bin/env bash
# End-to-end: MobileNetV2 through the CLI on BACKEND. The JSON and text forms of the same network
# must give bit-identical outputs, and both must match an independent numpy forward pass
# (largest |difference| <= 1e-4 x largest |value|); a backend other than the reference one must
# also match the reference backend's output within the same bound. Runs on the network the repository writes
# itself and, when ../shared is present, on the pretrained one there.
# Usage: check_mobilenet.sh WEBNN_CLI SOURCE_DIR SHARED_DIR WORK_DIR BACKEND
set -euo pipefail
cli=$1 src=$2 shared=$3 work=$4 backend=$5
rm -rf "$work" && mkdir -p "$work"

check() {  # check NAME DIR_WITH_mobilenetv2.{json,webnn} INPUT.npy
  local name=$1 dir=$2 input=$3
  "$cli" run "$dir/mobilenetv2.json" --input input="$input" --output-dir "$work/$name-json" --backend "$backend"
  "$cli" run "$dir/mobilenetv2.webnn" --input input="$input" --output-dir "$work/$name-text" --backend "$backend"
  cmp "$work/$name-json/embedding.npy" "$work/$name-text/embedding.npy"
  echo "$name: JSON and text outputs are bit-identical"
  /usr/bin/python3 "$src/tests/model/numpy_forward.py" "$dir/mobilenetv2.json" "$input" "$work/$name-json/embedding.npy"
  if [ "$backend" != reference ]; then
    "$cli" run "$dir/mobilenetv2.json" --input input="$input" --output-dir "$work/$name-reference" --backend reference
    /usr/bin/python3 - "$work/$name-json/embedding.npy" "$work/$name-reference/embedding.npy" <<'PY'
import sys
import numpy as np
actual, reference = np.load(sys.argv[1]), np.load(sys.argv[2])
ratio = float(np.abs(actual - reference).max() / np.abs(reference).max())
print(f"against the reference backend: max |diff| / max |reference| = {ratio:.3g}")
sys.exit(0 if ratio <= 1e-4 else 1)
PY
  fi
}

/usr/bin/python3 "$src/scripts/make_mobilenetv2.py" "$work/generated" >/dev/null
"$cli" convert "$work/generated/mobilenetv2.json" --to webnn "$work/generated/mobilenetv2.webnn" >/dev/null
check generated "$work/generated" "$work/generated/input.npy"

if [ -d "$shared/models/mobilenetv2" ]; then
  check pretrained "$shared/models/mobilenetv2" "$shared/models/mobilenetv2/input.npy"
else
  echo "pretrained: $shared/models/mobilenetv2 is absent; only the generated network was checked"
fi
