#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds the C++ example against it twice: with
# find_package(webnn) and with pkg-config, and tests/install/consumer/api_surface.cpp, which goes
# through the C++ API's surface. Every program must run and print the right result.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/webnn"
ls "$work/prefix/lib"/libwebnn.so.* >/dev/null
cmake -S "$src/tests/install/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DEXAMPLE_SOURCE="$src/examples/cpp/hello_webnn.cpp" >/dev/null
cmake --build "$work/cmake" >/dev/null
LD_LIBRARY_PATH="$work/prefix/lib" "$work/cmake/hello"
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" g++ "$src/examples/cpp/hello_webnn.cpp" -o "$work/hello_pc" \
  $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs webnn)
LD_LIBRARY_PATH="$work/prefix/lib" "$work/hello_pc"
# The C++ API's surface through the installed (sealed) library, an error caught by its type included.
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" g++ "$src/tests/install/consumer/api_surface.cpp" -o "$work/api_surface" \
  $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs webnn)
LD_LIBRARY_PATH="$work/prefix/lib" "$work/api_surface" "$work"
# The JavaScript package, when the addon was built: the installed copy runs the JS example from
# outside the source tree, with the addon found beside its index.js.
if [ -f "$build/js/webnn.node" ]; then
  test -f "$work/prefix/lib/node_modules/webnn/webnn.node"
  (cd "$work" && NODE_PATH="$work/prefix/lib/node_modules" node -e "
    const { ml, MLGraphBuilder } = require('webnn');
    (async () => {
      const c = await ml.createContext();
      const b = new MLGraphBuilder(c);
      const g = await b.build({ y: b.relu(b.input('x', { dataType: 'float32', shape: [2] })) });
      const x = await c.createTensor({ dataType: 'float32', shape: [2], writable: true });
      const y = await c.createTensor({ dataType: 'float32', shape: [2], readable: true });
      c.writeTensor(x, new Float32Array([-1, 2]));
      c.dispatch(g, { x }, { y });
      const r = new Float32Array(await c.readTensor(y));
      if (r[0] !== 0 || r[1] !== 2) throw new Error('wrong result ' + r);
      console.log('install: the JavaScript package ran from', require.resolve('webnn'));
    })();")
fi
echo "install: find_package(webnn) and pkg-config consumers built and ran"
