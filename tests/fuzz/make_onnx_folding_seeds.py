"""Writes the ONNX models of issue 27's memory findings into tests/fuzz/regressions/: each folding
producer (Range, ConstantOfShape, OneHot, Tile, Expand, Concat of constants) asked for far more than
a model of its size should get. They seed fuzz_onnx_import (scripts/fuzz.sh copies the directory)
and FormatsHardening.FuzzRegressionsStayFixed replays them: each imports or is refused with
webnn::Error, within the import's memory budget. Run with Debian's python3 (onnx 1.12)."""
import sys
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "regressions"


def save(name, nodes, outputs, initializers, inputs=()):
    graph = helper.make_graph(nodes, name, list(inputs), outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    (OUT / f"onnx_{name}.onnx").write_bytes(model.SerializeToString())


def i64(name, value):
    return numpy_helper.from_array(np.array(value, dtype=np.int64), name)


def out(name, elem=TensorProto.INT64):
    return helper.make_tensor_value_info(name, elem, None)


# Range of 2^29 values, four times: 4 GB vectors each before the fold limit held it.
save("range_2_29", [helper.make_node("Range", ["s", "l", "d"], [f"r{i}"]) for i in range(4)],
     [out("r0")], [i64("s", 0), i64("l", 1 << 29), i64("d", 1)])
# ConstantOfShape of 2 GiB, eight times: allocated before; now expand of one value.
save("constant_of_shape_2gib", [helper.make_node("ConstantOfShape", ["shape"], [f"z{i}"]) for i in range(8)],
     [out(f"z{i}", TensorProto.FLOAT) for i in range(8)], [i64("shape", [1 << 29])])
# OneHot of depth 2^31: std::bad_alloc before depth was checked.
save("one_hot_depth_2_31", [helper.make_node("OneHot", ["i", "depth", "values"], ["y"])], [out("y", TensorProto.FLOAT)],
     [i64("i", [0]), i64("depth", 1 << 31), numpy_helper.from_array(np.array([0, 1], np.float32), "values")])
# A chain of growing Concats of constants, then Tile and Expand of the result past the fold limit.
nodes, prev = [], "one"
for i in range(300):
    nodes.append(helper.make_node("Concat", [prev, "one"], [f"c{i}"], axis=0))
    prev = f"c{i}"
nodes += [helper.make_node("Tile", [prev, "reps"], ["tiled"]),
          helper.make_node("Unsqueeze", [prev, "zero"], ["row"]),
          helper.make_node("Expand", ["row", "rows"], ["wide"]),
          helper.make_node("Neg", ["wide"], ["neg"])]
save("concat_tile_expand_chain", nodes, [out("tiled"), out("neg")],
     [i64("one", [1]), i64("reps", [1 << 12]), i64("zero", [0]), i64("rows", [1 << 10, 301])])
