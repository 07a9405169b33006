#!/usr/bin/env bash
# Installs the dependencies, builds, writes a complete MobileNetV2 with seeded weights and runs it:
# validate, convert to the text form, run on an input, benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
model=build/models/mobilenetv2
/usr/bin/python3 scripts/make_mobilenetv2.py "$model"
build/webnn validate "$model/mobilenetv2.json"
build/webnn convert "$model/mobilenetv2.json" --to webnn "$model/mobilenetv2.webnn"
build/webnn info "$model/mobilenetv2.webnn" --backend reference
build/webnn run "$model/mobilenetv2.webnn" --input input="$model/input.npy" --output-dir build/out
build/webnn bench "$model/mobilenetv2.json" --iterations 10 --warmup 1
