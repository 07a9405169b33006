#!/usr/bin/env bash
# The README's Python install, as a user on a fresh machine runs it: a virtual environment from
# Debian's python3 with --system-site-packages, `pip install --no-build-isolation` of the checkout
# with --no-index (nothing may come from a package index), then `import webnn` and the pytest
# suite against the installed package (run from outside the source tree), the transformer tests
# excepted.
# Usage: check_pip_install.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$(cd "$1" && pwd) work=$2
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd)
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
# The flags of scripts/build.sh's tree, so that ccache serves the objects it compiled.
WEBNN_CMAKE_ARGS="-DWEBNN_WERROR=ON" "$work/venv/bin/pip" install --quiet --no-build-isolation --no-index "$src"
cd "$work"
"$work/venv/bin/python" - "$work" <<'PY'
import sys
import webnn
assert webnn.__file__.startswith(sys.argv[1]), f"imported {webnn.__file__}, not the installed package"
print(f"pip install: webnn {webnn.__version__} from {webnn.__file__}, {len(webnn.OPERATORS)} operators")
PY
# test_transformer.py tests the examples' models and the backends' kernels, which the build tree's
# run covers: the installed package runs the rest.
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider -o faulthandler_timeout=300 "$src/tests/python" --ignore "$src/tests/python/test_transformer.py"
