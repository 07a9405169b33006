#!/usr/bin/env bash
# The whole test suite: builds with warnings as errors, runs every unit test (CTest) and the WPT
# conformance data of ../shared/wpt/conformance on every backend.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh -DWEBNN_WERROR=ON
ctest --test-dir build --output-on-failure -j"$(nproc)"
shared=../shared
if [ -d "$shared/wpt/conformance" ]; then
  for backend in reference; do
    echo "== conformance ($backend): $shared/wpt/conformance"
    build/webnn conformance "$shared/wpt/conformance" --backend "$backend"
  done
else
  echo "== conformance: $shared/wpt/conformance is absent; the WPT conformance run was not done"
fi
