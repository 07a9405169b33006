#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds the C examples (examples/c/) against it
# with -std=c99 -Wall -Wextra -Werror -pedantic, twice: with find_package(webnn) from a C-only
# CMake project and with pkg-config (webnn-c). Runs hello_webnn, then run_graph on MobileNetV2
# (when SHARED_DIR has it), whose embedding must be bit-identical to the CLI's (the C++ API) on
# the same backend.
# Usage: check_c_install.sh BUILD_DIR SOURCE_DIR WORK_DIR SHARED_DIR
set -euo pipefail
build=$1 src=$2 work=$3 shared=$4
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -f "$work/prefix/include/webnn/webnn.h"
export LD_LIBRARY_PATH="$work/prefix/lib"

cmake -S "$src/tests/install/c_consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DEXAMPLES_DIR="$src/examples/c" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/hello_webnn"

pc="$work/prefix/lib/pkgconfig"
for example in hello_webnn run_graph; do
  cc -std=c99 -Wall -Wextra -Werror -pedantic "$src/examples/c/$example.c" -o "$work/${example}_pc" \
    $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs webnn-c)
done
"$work/hello_webnn_pc"
# The header also compiles as C++ (extern "C").
printf '#include <webnn/webnn.h>\nint main() { return webnn_api_version() == WEBNN_API_VERSION ? 0 : 1; }\n' >"$work/cxx.cpp"
c++ -std=c++17 -Wall -Wextra -Werror -pedantic "$work/cxx.cpp" -o "$work/cxx" \
  $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs webnn-c)
"$work/cxx"

model="$shared/models/mobilenetv2"
if [ -d "$model" ]; then
  /usr/bin/python3 -c "import numpy as np, sys; np.load(sys.argv[1]).astype('<f4').tofile(sys.argv[2])" \
    "$model/input.npy" "$work/input.raw"
  for backend in reference default; do
    mkdir -p "$work/c-$backend" "$work/cpp-$backend"
    if [ "$backend" = default ]; then c_backend=() cli_backend=(); else c_backend=("$backend") cli_backend=(--backend "$backend"); fi
    "$work/cmake/run_graph" "$model/mobilenetv2.webnn" "$work/input.raw" "$work/c-$backend" "${c_backend[@]}"
    "$work/prefix/bin/webnn" run "$model/mobilenetv2.webnn" --input input="$model/input.npy" \
      --output-dir "$work/cpp-$backend" "${cli_backend[@]}" >/dev/null
    /usr/bin/python3 - "$work/c-$backend/embedding.raw" "$work/cpp-$backend/embedding.npy" "$backend" <<'PY'
import sys
import numpy as np
c = np.fromfile(sys.argv[1], dtype="<f4")
cpp = np.load(sys.argv[2]).astype("<f4").reshape(-1)
if c.shape != cpp.shape or c.tobytes() != cpp.tobytes():
    sys.exit(f"{sys.argv[3]}: the C example's embedding differs from the C++ API's ({c.shape} vs {cpp.shape})")
print(f"MobileNetV2 through the C ABI ({sys.argv[3]} backend): {c.size} values, bit-identical to the C++ API")
PY
  done
else
  echo "MobileNetV2: $model is absent; only the hand-built graph ran"
fi
echo "install (C): find_package(webnn) and pkg-config webnn-c consumers built with -std=c99 -pedantic -Werror and ran"
