#!/usr/bin/env bash
# The whole test suite: builds (scripts/build.sh: warnings are errors), runs every unit test
# (CTest), the Python tests (pytest, on the build tree's module and on a pip-installed copy), the
# JavaScript package's tests (node --test) and the WPT conformance data of
# ../shared/wpt/conformance and conformance-extra on every backend.
# Each suite without a time limit of its own (CTest has one per test) runs under scripts/bounded.sh,
# at about ten times its usual time: a hang prints every thread's stack and fails the run, and
# pytest prints where Python was after 300 s in one test (faulthandler_timeout).
set -euo pipefail
cd "$(dirname "$0")/.."
pytest=(/usr/bin/python3 -m pytest -q -p no:cacheprovider -o faulthandler_timeout=300)
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
if [ ! -d build/python/webnn ]; then
  echo "== python: build/python/webnn was not built (are pybind11-dev and python3-dev installed? scripts/setup.sh)"
  exit 1
fi
echo "== python: pytest tests/python (build tree)"
PYTHONPATH="$PWD/build/python" scripts/bounded.sh 1800 "${pytest[@]}" tests/python
echo "== python: pip install into a fresh virtual environment"
scripts/bounded.sh 1800 tests/python/check_pip_install.sh . build/pip-install-check
echo "== javascript: node --test js/test (the build tree's addon)"
if [ ! -f build/js/webnn.node ]; then
  echo "== javascript: build/js/webnn.node was not built (are the Node.js headers installed? scripts/setup.sh)"
  exit 1
fi
(cd js && WEBNN_BUILD_DIR="$PWD/../build" ../scripts/bounded.sh 1200 node --test test/)
shared=../shared
for set in conformance conformance-extra; do
  if [ -d "$shared/wpt/$set" ]; then
    for backend in $(build/webnn backends); do
      echo "== $set ($backend): $shared/wpt/$set"
      scripts/bounded.sh 600 build/webnn conformance "$shared/wpt/$set" --backend "$backend"
    done
  else
    echo "== $set: $shared/wpt/$set is absent; that WPT conformance run was not done"
  fi
done
