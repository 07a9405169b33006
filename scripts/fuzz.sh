#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, build-fuzz/) and runs each for N seconds (default 30; the
# first argument overrides; --long shares one hour among them, about 8.5 minutes each for the seven).
# Seeds: every WPT case of ../shared/wpt as a graph file (JSON and text), an ONNX model and a Cap'n
# Proto graph message (the service's), a recorded service session for every 8th case, its
# constants as weights files and its inputs as .npy (build/tests/webnn_fuzz_seeds), the ONNX
# backend suite's models and models of the importer's compositions, numpy-written .npy files, the shared MobileNetV2 and small hand-made
# files; each target has a dictionary of its format's words. The corpus is kept
# in build-fuzz/corpus/<target> between runs. Prints executions, coverage and corpus size per
# target (also in build-fuzz/summary.txt), with its peak RSS. Each target runs under a memory
# ceiling: a memory blow-up (RSS past 2 GiB, or one allocation of 1 GiB or more) is a finding like
# a crash. Exits non-zero if any target crashes, runs out of memory or times out; the inputs are
# left in build-fuzz/artifacts/ (crash-*, oom-*, timeout-*).
# Usage: scripts/fuzz.sh [SECONDS | --long]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
long=0
if [ "$seconds" = "--long" ]; then long=1; fi
root=$PWD
build=$root/build-fuzz
shared=${WEBNN_SHARED_DIR:-$root/../shared}
model=$shared/models/mobilenetv2

# Line tables only (-gline-tables-only): what a crash's stack trace needs, compiled much faster than
# full debug information. -O1 for a short run (CI's), -O2 for --long, where executions count more
# than the compile.
opt=-O1
if [ "${1:-}" = "--long" ]; then opt=-O2; fi
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt -gline-tables-only -DNDEBUG" -DWEBNN_FUZZ=ON -DWEBNN_BUILD_TESTS=OFF >/dev/null
targets=(fuzz_graph_json fuzz_graph_text fuzz_weights fuzz_npy fuzz_onnx_import fuzz_ipc_graph fuzz_ipc_service)
if ((long)); then seconds=$((3600 / ${#targets[@]})); fi  # one hour for them all
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_graph_json,fuzz_graph_text,fuzz_weights,fuzz_npy,fuzz_onnx_import,fuzz_ipc_graph,fuzz_ipc_service} "$build/artifacts"

# ---- Seeds ----
cat >"$seeds/fuzz_graph_json/small.json" <<'JSON'
{"format": "webnn-graph-json", "version": 2, "name": "small",
 "inputs": {"x": {"dataType": "float32", "shape": [1, 2, 4, 4]}},
 "consts": {"w": {"dataType": "float32", "shape": [2, 2, 1, 1], "init": {"kind": "scalar", "value": 0.5}},
            "b": {"dataType": "float32", "shape": [2], "init": {"kind": "inlineBytes", "bytes": [0, 0, 128, 63, 0, 0, 0, 0]}},
            "k": {"dataType": "int64", "shape": [1], "init": {"kind": "weights", "ref": "k"}}},
 "nodes": [
  {"id": "c", "op": "conv2d", "inputs": ["x", "w"], "options": {"bias": "b", "padding": [0, 0, 0, 0], "groups": 1}},
  {"id": "r", "op": "clamp", "inputs": ["c"], "options": {"minValue": 0.0, "maxValue": "9007199254740993", "label": "relu6"}},
  {"id": "p", "op": "averagePool2d", "inputs": ["r"], "options": {"windowDimensions": [2, 2], "strides": [2, 2], "outputShapeRounding": "ceil"}},
  {"id": "s", "op": "split", "inputs": ["p"], "options": {"splits": [1, 1], "axis": 1}, "outputs": ["s0", "s1"]},
  {"id": "t", "op": "transpose", "inputs": ["s0"], "options": {"permutation": [0, 2, 3, 1]}},
  {"id": "m", "op": "reduceMean", "inputs": ["t"], "options": {"axes": [1, 2], "keepDimensions": true}},
  {"id": "g", "op": "gemm", "inputs": ["q", "q"], "options": {"alpha": 2.0, "bTranspose": true}},
  {"id": "q", "op": "reshape", "inputs": ["m"], "options": {"newShape": [1, 1]}},
  {"id": "n", "op": "layerNormalization", "inputs": ["g"], "options": {"axes": [1], "epsilon": 1e-3}},
  {"id": "cast", "op": "cast", "inputs": ["n"], "options": {"dataType": "float16"}},
  {"id": "sm", "op": "softmax", "inputs": ["g"], "options": {"axis": 1}},
  {"id": "cc", "op": "concat", "inputs": ["sm", "n"], "options": {"axis": 0}},
  {"id": "sl", "op": "slice", "inputs": ["cc"], "options": {"starts": [0, 0], "sizes": [1, 1], "strides": [1, 1]}}
 ],
 "outputs": {"out": "sl", "half": "cast", "other": "s1"}}
JSON
cat >"$seeds/fuzz_graph_text/small.webnn" <<'TEXT'
webnn_graph "small" v2 {
  inputs { x: f32[2, 3]; /scope/y.0: f32[2, 3]; }
  consts { one: f32[1] @scalar(1.0); h: f16[2] @bytes([0, 60, 0, 192]); k: i32[3] @weights("k"); }
  nodes {
    a = add(x, one);   # broadcast
    [p, q] = split(a, splits=[1, 2], axis=1, label="parts");
    c = concat([p, q, /scope/y.0], axis=1);
    m = maxPool2d(r4, windowDimensions=[1, 2], layout="nhwc", outputSizes=[2, 2], dilations=[1, 1]);
    r4 = reshape(c, newShape=[1, 2, 3, 2]);
    s = clamp(x, minValue=-1, maxValue="inf");
    e = erf(s);
  }
  outputs { m; e; named = c; }
}
TEXT
# The ONNX importer: the small models of the ONNX backend test suite (libonnx-testdata).
onnx_data=/usr/share/libonnx-testdata/data/node
if [ -d "$onnx_data" ]; then
  for d in "$onnx_data"/test_{conv,relu,reshape,gather,slice,resize,lstm,gru,softmax,concat,split}*; do
    [ -f "$d/model.onnx" ] && cp "$d/model.onnx" "$seeds/fuzz_onnx_import/$(basename "$d").onnx"
  done
fi
# The importer's compositions that the suite has no model of (sequence_lens, recurrent activations,
# Resize's antialias, axes and keep_aspect_ratio_policy, Det by elimination, MaxPool's Indices in
# 1-D and 3-D): models of tests/onnx_import/compositions*.py, where python3-onnx is installed.
/usr/bin/python3 tests/fuzz/make_onnx_composition_seeds.py "$seeds/fuzz_onnx_import" 2>/dev/null ||
  echo "fuzz.sh: no composition seeds (python3-onnx missing)"
# Inputs that once crashed a target (tests/fuzz/regressions/, also a unit test).
cp tests/fuzz/regressions/*.json "$seeds/fuzz_graph_json/"
cp tests/fuzz/regressions/*.onnx "$seeds/fuzz_onnx_import/"
cp tests/fuzz/regressions/ipc_service_*.bin "$seeds/fuzz_ipc_service/"
if [ -f "$model/mobilenetv2.json" ]; then
  cp "$model/mobilenetv2.json" "$seeds/fuzz_graph_json/"
  cp "$model/mobilenetv2.webnn" "$seeds/fuzz_graph_text/"
fi

# The WPT cases as graph files, weights and .npy inputs, written by the formats' own writers from
# the Release tree's seed tool (built here when missing).
wpt_dirs=()
for set in conformance conformance-extra; do
  [ -d "$shared/wpt/$set" ] && wpt_dirs+=("$shared/wpt/$set")
done
if ((${#wpt_dirs[@]})); then
  if [ ! -x build/tests/webnn_fuzz_seeds ]; then
    [ -f build/build.ninja ] || cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j"$(nproc)" --target webnn_fuzz_seeds >/dev/null
  fi
  build/tests/webnn_fuzz_seeds "$seeds/wpt" "${wpt_dirs[@]}"
  for t in "${targets[@]}"; do
    mv "$seeds/wpt/$t" "$seeds/$t/wpt"
  done
  rm -rf "$seeds/wpt"
fi

/usr/bin/python3 - "$seeds" "$model" <<'PY'
import json, os, struct, sys
seeds, model = sys.argv[1], sys.argv[2]

def npy(descr, shape, data, major=1, fortran=False):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, repr(tuple(shape)))
    prefix = 10 if major == 1 else 12
    total = (prefix + len(d) + 1 + 63) // 64 * 64
    d = d + " " * (total - prefix - len(d) - 1) + "\n"
    size = struct.pack("<H" if major == 1 else "<I", len(d))
    return b"\x93NUMPY" + bytes([major, 0]) + size + d.encode() + data

out = os.path.join(seeds, "fuzz_npy")
cases = {
    "f32.npy": npy("<f4", (2, 2), struct.pack("<4f", 1, 2, 3, 4)),
    "f16.npy": npy("<f2", (3,), b"\x00\x3c\x00\xc0\x00\x38"),
    "i8_scalar.npy": npy("|i1", (), b"\xfb"),
    "u8.npy": npy("|u1", (4,), b"\x01\x02\x03\x04"),
    "i64_v2.npy": npy("<i8", (1,), struct.pack("<q", -1), major=2),
    "u32_v3.npy": npy("<u4", (1, 1), struct.pack("<I", 7), major=3),
    "bool.npy": npy("|b1", (1,), b"\x01"),
    "fortran.npy": npy("<f4", (1,), b"\0\0\0\0", fortran=True),
}
for name, data in cases.items():
    open(os.path.join(out, name), "wb").write(data)
try:
    import numpy as np  # real files as numpy writes them: every dtype, ranks 0 to 4, both orders
    for dt in ["<f4", "<f2", "<i4", "<u4", "<i8", "<u8", "|i1", "|u1", ">f4", "<f8", "|b1"]:
        for shape in [(), (3,), (2, 3), (1, 2, 1, 2)]:
            a = (np.arange(int(np.prod(shape)) or 1)[: int(np.prod(shape))].reshape(shape)).astype(dt)
            np.save(os.path.join(out, "numpy_%s_%d.npy" % (dt.strip("<>|"), len(shape))), a)
        np.save(os.path.join(out, "numpy_%s_fortran.npy" % dt.strip("<>|")),
                np.asfortranarray(np.arange(6).reshape(2, 3).astype(dt)))
except ImportError:
    pass
if os.path.exists(os.path.join(model, "input.npy")):
    # The header and the first values of the real input (the whole file is 600 KB).
    raw = open(os.path.join(model, "input.npy"), "rb").read()
    open(os.path.join(out, "input_head.npy"), "wb").write(raw[:128] + raw[128:128 + 64])

def weights_seed(manifest_text, weights):
    m = manifest_text.encode()
    return struct.pack("<I", len(m)) + m + weights

out = os.path.join(seeds, "fuzz_weights")
w = b"WGWT" + struct.pack("<I", 1) + struct.pack("<4f", 1, 2, 3, 4) + b"\x01\x02"
manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {
    "a": {"dataType": "float32", "shape": [2, 2], "byteOffset": 8, "byteLength": 16, "layout": "row-major"},
    "b": {"dataType": "uint8", "shape": [2], "byteOffset": 24, "byteLength": 2}}}
open(os.path.join(out, "small"), "wb").write(weights_seed(json.dumps(manifest), w))
if os.path.exists(os.path.join(model, "mobilenetv2.manifest.json")):
    m = json.load(open(os.path.join(model, "mobilenetv2.manifest.json")))
    keep = {k: v for k, v in list(m["tensors"].items())[:2]}
    end = max(v["byteOffset"] + v["byteLength"] for v in keep.values())
    raw = open(os.path.join(model, "mobilenetv2.weights"), "rb").read()[:end]
    m["tensors"] = keep
    open(os.path.join(out, "mobilenet_head"), "wb").write(weights_seed(json.dumps(m), raw))
PY

# A dictionary of the graph formats' words: op names and option names from the op table and the
# attribute declarations, enum values, keywords.
dict=$build/graph.dict
{
  grep -o 'WEBNN_OP([A-Za-z0-9]*, "[A-Za-z0-9]*"' src/graph/op_table.def | sed -E 's/.*(".*")/\1/'
  grep -o 'v("[A-Za-z]*"' src/graph/attributes.hpp | sed -E 's/v\(//'
  grep -o 'kNames\[\] = {[^}]*}' src/graph/attributes.hpp | grep -o '"[a-z]*"'
  printf '"%s"\n' webnn_graph inputs consts nodes outputs @weights @scalar @bytes @quantized label \
    f32 f16 i32 u32 i64 u64 i8 u8 float32 float16 int32 uint32 int64 uint64 int8 uint8 \
    webnn-graph-json dataType shape init kind weights inlineBytes scalar ref bytes value id op options \
    format version name true false null inf nan
} | sort -u >"$dict"
npy_dict=$build/npy.dict
{
  printf '"%s"\n' "\x93NUMPY" "descr" "fortran_order" "shape" "True" "False" "'descr': " "'shape': (" \
    "'fortran_order': False" "<f4" "<f2" "<f8" "<i4" "<u4" "<i8" "<u8" "|i1" "|u1" "|b1" ">f4" "<c8" "{" "}" "(" ")" "," "L"
} >"$npy_dict"
# ONNX: the op types and attribute names the importer knows (from its own tables) and protobuf's
# field names.
onnx_dict=$build/onnx.dict
{
  grep -ohE '\{"[A-Z][A-Za-z0-9]+"' src/formats/onnx/import*.cpp | tr -d '{' | sort -u
  sed -nE 's/^WEBNN_ONNX_OP\(([A-Za-z0-9]+),.*/"\1"/p' src/formats/onnx/op_map.def
  grep -ohE '"[a-z][a-z_]+"' src/formats/onnx/import_*.cpp | sort -u
  printf '"%s"\n' ai.onnx NOTSET SAME_UPPER SAME_LOWER VALID external_data location offset length \
    model.onnx raw_data float_data int64_data
  # Einsum's equation syntax (its parser takes the attribute's bytes).
  printf '"%s"\n' '->' '...' 'ii' 'ij,jk' 'bii->b'
  # The folding producers as NodeProto op_type fields (tag 0x22, then the length), so that mutations
  # splice whole nodes of them; their seeds are tests/fuzz/regressions/onnx_*.onnx (issue 27).
  for op in Range ConstantOfShape OneHot Tile Expand Concat Neg Shape; do
    printf '"\\x22\\x%02x%s"\n' "${#op}" "$op"
  done
  # An int64 dims field of 2^29 and 2^31 (tag 0x08, varint), the sizes the producers were asked for.
  printf '"%s"\n' '\x08\x80\x80\x80\x80\x02' '\x08\x80\x80\x80\x80\x08'
} | sort -u >"$onnx_dict"
weights_dict=$build/weights.dict
{
  printf '"%s"\n' WGWT wg-weights-manifest format version endianness little big tensors dataType shape \
    byteOffset byteLength layout row-major float32 float16 int32 uint32 int64 uint64 int8 uint8 int4 \
    '{' '}' '[' ']' ':' ',' '"'
} >"$weights_dict"
# The IPC graph message is binary: boundary integers (ids, counts, ordinals) and Cap'n Proto
# pointer words (a far pointer, a list of 2^29-1 bytes, a struct pointer with no data).
ipc_dict=$build/ipc.dict
{
  printf '"%s"\n' '\xff\xff\xff\xff' '\x00\x00\x00\x80' '\x01\x00\x00\x00' '\xfe\xff\xff\xff' \
    '\x02\x00\x00\x00\x00\x00\x00\x00' '\x01\x00\x00\x00\xfa\xff\xff\xff' '\x00\x00\x00\x00\x01\x00\x01\x00'
} >"$ipc_dict"

# ---- Run ----
# The memory ceiling. RSS: 2 GiB (issue 27), the size of the largest tensor the library accepts
# (maxTensorByteLength). A target's peak over its seeds and a 20 s run is 400-600 MiB here, ASan's
# quarantine (256 MiB) included (docs/security.md). One allocation: 1 GiB, half the RSS ceiling, so
# a single block that would take most of the budget is reported at the malloc, with its stack,
# before it is touched. An input is at most 64 KiB (-max_len), so that is an amplification of
# 16,000 times or more; no target needs it for valid input: tensors read from files are backed by
# the input's own bytes, the graph targets' weights source hands out at most 16 MiB, and
# fuzz_ipc_service serves with quotas inside the ceiling (fuzz_ipc_service.cpp).
rss_limit_mb=2048
malloc_limit_mb=1024
failed=()
summary=()
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  mkdir -p "$corpus"
  echo "== $t: ${seconds}s"
  case $t in
    fuzz_graph_*) dict_file=$dict ;;
    fuzz_npy) dict_file=$npy_dict ;;
    fuzz_weights) dict_file=$weights_dict ;;
    fuzz_onnx_import) dict_file=$onnx_dict ;;
    fuzz_ipc_*) dict_file=$ipc_dict ;;
  esac
  # libFuzzer reads the seed directory recursively, wpt/ included.
  finding=""
  if ! "$build/fuzz/$t" "$corpus" "$seeds/$t" -dict="$dict_file" -max_total_time="$seconds" -timeout=20 \
      -rss_limit_mb=$rss_limit_mb -malloc_limit_mb=$malloc_limit_mb -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" 2>"$build/$t.log"; then
    tail -40 "$build/$t.log"
    failed+=("$t")
    # libFuzzer's own words for what ended the run.
    if grep -q 'libFuzzer: out-of-memory (malloc' "$build/$t.log"; then
      finding="FINDING: out of memory, one allocation of $malloc_limit_mb MiB or more"
    elif grep -q 'libFuzzer: out-of-memory' "$build/$t.log"; then
      finding="FINDING: out of memory, RSS past $rss_limit_mb MiB"
    elif grep -q 'libFuzzer: timeout' "$build/$t.log"; then
      finding="FINDING: timeout"
    else
      finding="FINDING: crash"
    fi
  fi
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$t.log" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -oE '(DONE|pulse|NEW|REDUCE|INITED) +cov: [0-9]+' "$build/$t.log" | tail -1 | grep -oE '[0-9]+$' || echo "?")
  ft=$(grep -oE 'ft: [0-9]+' "$build/$t.log" | tail -1 | grep -oE '[0-9]+$' || echo "?")
  rss=$(grep -oE 'stat::peak_rss_mb: +[0-9]+' "$build/$t.log" | grep -oE '[0-9]+$' || echo "?")
  line="$t: ${seconds}s, $execs executions, coverage $cov edges ($ft features), corpus $(ls "$corpus" | wc -l) files,"
  line+=" peak RSS $rss MiB (limits: RSS $rss_limit_mb MiB, one allocation $malloc_limit_mb MiB)${finding:+; $finding}"
  echo "$line"
  summary+=("$line")
done
printf '%s\n' "${summary[@]}" >"$build/summary.txt"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings (crash, out of memory or timeout) in: ${failed[*]} (inputs in $build/artifacts/)"
  exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds}s each without a crash, a timeout or passing the memory ceiling" \
  "(RSS $rss_limit_mb MiB, one allocation $malloc_limit_mb MiB)"
