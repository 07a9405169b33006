#!/usr/bin/env bash
# MobileNetV2 exported to ONNX and run in ONNX Runtime, against the reference backend on the same
# input: largest |difference| <= 1e-4 x largest |reference value|. Runs on the network the
# repository generates and, when ../shared is present, on the pretrained one there. Exits 77
# (skipped) when node or onnxruntime-node is missing.
# Usage: check_mobilenet_ort.sh WEBNN_ORT_CHECK SOURCE_DIR SHARED_DIR WORK_DIR
set -euo pipefail
check=$1 src=$2 shared=$3 work=$4
rm -rf "$work" && mkdir -p "$work"

/usr/bin/python3 "$src/scripts/make_mobilenetv2.py" "$work/generated" >/dev/null
"$check" reference "$work/generated/mobilenetv2.json" --input input="$work/generated/input.npy" --rtol 1e-4 \
  --work "$work/generated-ort"

model=$shared/models/mobilenetv2
if [ -d "$model" ]; then
  "$check" reference "$model/mobilenetv2.webnn" --input input="$model/input.npy" --rtol 1e-4 --work "$work/pretrained-ort"
else
  echo "pretrained: $model is absent; only the generated network was checked"
fi
