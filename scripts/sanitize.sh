#!/usr/bin/env bash
# Builds the unit tests with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/) and runs
# them; any report fails the run. Then the JavaScript addon of the same build (build-asan/js/
# webnn.node; WEBNN_BUILD_JS is on there) runs the bad-input walk (js/test/bad_input.test.mjs) and
# the seeded random driver js/tools/fuzz.mjs for WEBNN_JS_FUZZ_SECONDS (default 30) under the
# sanitizers: a memory error in the addon or the library aborts node. A longer run: see
# docs/javascript.md, "Bad input". The node runs are bounded (scripts/bounded.sh: a hang prints
# every thread's stack and fails).
set -euo pipefail
cd "$(dirname "$0")/.."
# -O1, as AddressSanitizer's documentation advises: the tests run several times faster than at -O0,
# with the same reports (asserts stay on: a Debug build). -g1: line tables only, what a report's
# stack trace needs, at a fraction of full debug information's compile time.
# The benchmarks are left out (their smoke tests run in the plain build), as are the generated-file
# checks and the ONNX Runtime comparisons (CMakeLists.txt, WEBNN_CHECK_TOOLS). The ONNX suites (the
# backend test suite, the PyTorch models, the compositions) share their cases between the backends
# here: each case runs instrumented once, on one backend (tests/onnx_import/shard.py); the plain
# build runs every case on every backend.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" \
  -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DWEBNN_SANITIZE=ON -DWEBNN_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# install_package builds an uninstrumented consumer, which cannot link an instrumented library.
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" -E install_package

addon=$PWD/build-asan/js/webnn.node
if [ ! -f "$addon" ]; then
  echo "sanitize: $addon was not built (are the Node.js headers installed? scripts/setup.sh)"
  exit 1
fi
# node is not instrumented: the sanitizer runtime the addon was built with is preloaded (gcc's
# libasan, which the addon links; clang's runtime is not linked into a shared object). Leak
# checking is off: node does not free everything at exit, by design.
runtime=$(ldd "$addon" | awk '/libasan|libclang_rt\.asan/ { print $3; exit }')
[ -n "$runtime" ] || runtime=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
js_env=(env LD_PRELOAD="$runtime" ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 WEBNN_NODE_ADDON="$addon"
        WEBNN_BUILD_DIR="$PWD/build-asan")
echo "== javascript under ASan + UBSan: the bad-input walk"
(cd js && ../scripts/bounded.sh 1200 "${js_env[@]}" node --test test/bad_input.test.mjs)
seconds=${WEBNN_JS_FUZZ_SECONDS:-30}
seed=${WEBNN_JS_FUZZ_SEED:-$(date +%s)}
echo "== javascript under ASan + UBSan: js/tools/fuzz.mjs --seconds $seconds --seed $seed"
scripts/bounded.sh $((seconds + 600)) "${js_env[@]}" node js/tools/fuzz.mjs --seconds "$seconds" --seed "$seed"
