#!/usr/bin/env bash
# Installs every build and test dependency from Debian 12's archive. Idempotent: packages already
# present are left alone. Runs as root, or through sudo.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git ccache
  # scripts/bounded.sh: a hung test's stacks
  gdb
  nlohmann-json3-dev libfp16-dev libcli11-dev libfmt-dev libdnnl-dev libsleef-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libseccomp-dev
  clang libclang-rt-14-dev clang-format clang-tidy
  python3 python3-numpy
  libonnx-dev libprotobuf-dev libonnx-testdata capnproto libcapnp-dev graphviz python3-torch python3-torchvision python3-onnx
  python3-dev pybind11-dev python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-pil
  # OpenBLAS as the system BLAS (Debian's alternatives pick it over netlib's reference BLAS): python3-torch's
  # matrix products, 2.8 GFLOP/s on netlib, for examples/train_text_model.py (docs/transformers.md)
  libopenblas0-pthread
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

# Node.js (Debian's nodejs and npm when the machine has none), for the JavaScript package and the
# ONNX Runtime peer (tools/ort: onnxruntime-node, pinned by tools/ort/package-lock.json;
# --ignore-scripts: the package ships its prebuilt libonnxruntime, and its install script would
# only try to download a GPU build).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing nodejs npm"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi
root="$(cd "$(dirname "$0")/.." && pwd)"

# The Node.js headers the JavaScript addon (js/) builds against: the machine's own Node.js ships
# them in /usr/include/node; Debian's Node 18 has them in libnode-dev (and libuv's uv.h, which the
# addon uses too, in libuv1-dev, a dependency). Node-API is ABI-stable, and libuv keeps its ABI
# through its 1.x releases, so an addon built against either loads in both.
if [ ! -f /usr/include/node/node_api.h ] && [ ! -f /usr/local/include/node/node_api.h ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing libnode-dev (the Node.js headers)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends libnode-dev
fi

# npm packages pinned by a package-lock.json: installed with `npm ci` when the one named is not
# at the locked version.
npm_ci() {
  local dir=$1 package=$2 flags=${3:-}
  local wanted installed
  wanted=$(node -p "require('$dir/package-lock.json').packages['node_modules/$package'].version")
  installed=$(node -p "try { require('$dir/node_modules/$package/package.json').version } catch (e) { '' }")
  if [ "$installed" != "$wanted" ]; then
    echo "setup: installing the npm packages of ${dir#$root/} ($package $wanted)"
    (cd "$dir" && npm ci $flags --no-audit --no-fund --loglevel=error)
  else
    echo "setup: ${dir#$root/}'s npm packages present ($package $installed)"
  fi
}
npm_ci "$root/tools/ort" onnxruntime-node --ignore-scripts
# The JavaScript package's test tools: webidl2 (the IDL check) and typescript (index.d.ts).
npm_ci "$root/js" webidl2
