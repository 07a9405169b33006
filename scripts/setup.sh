#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12's archive. Idempotent: packages already
# present are left alone. Runs as root, or through sudo.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  nlohmann-json3-dev libfp16-dev libcli11-dev libfmt-dev libdnnl-dev libsleef-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libseccomp-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  python3 python3-numpy
  libonnx-dev libprotobuf-dev libonnx-testdata capnproto libcapnp-dev graphviz python3-torch python3-torchvision python3-onnx
  python3-dev pybind11-dev python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-pil
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all dependencies present"
fi

# The ONNX Runtime peer (tools/ort): Node.js (Debian's nodejs and npm when the machine has none)
# and onnxruntime-node, pinned by tools/ort/package-lock.json. --ignore-scripts: the package ships
# its prebuilt libonnxruntime, and its install script would only try to download a GPU build.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing nodejs npm"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi
ort_dir="$(cd "$(dirname "$0")/.." && pwd)/tools/ort"
wanted=$(node -p "require('$ort_dir/package-lock.json').packages['node_modules/onnxruntime-node'].version")
installed=$(node -p "try { require('$ort_dir/node_modules/onnxruntime-node/package.json').version } catch (e) { '' }")
if [ "$installed" != "$wanted" ]; then
  echo "setup: installing onnxruntime-node $wanted into tools/ort/node_modules"
  (cd "$ort_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
else
  echo "setup: onnxruntime-node $installed present"
fi
