#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds the C++ example against it twice: with
# find_package(webnn) and with pkg-config. Both programs must run and print the right result.
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
echo "install: find_package(webnn) and pkg-config consumers built and ran"
