#!/usr/bin/env bash
# Configures and builds the Release tree in build/ (the CLI is build/webnn), warnings as errors in
# the project's own code (this is the project's build, on the compiler it supports; the quick start
# and the test suite share it). Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEBNN_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
