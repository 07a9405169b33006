#!/usr/bin/python3
"""The ONNX import's control flow (If, Loop and Scan, lowered by inlining their bodies) and
sequences against numpy: each case's expected values come from running the model's steps in
Python here.

- If: a condition known only at run time (both branches run and where() takes each output;
  both values of the condition, float and bool outputs, branches that read the enclosing graph),
  a known condition whose branches give different shapes, an If nested in a branch.
- Loop: a for loop (M, no condition) with loop-carried values and scan outputs, a while loop
  (a condition the body computes from the iteration number), M and a condition ending the loop
  early, M with a condition known only at run time (the iterations masked; true and false from
  the start), M = 0 (the initial values pass through), a carried value that grows each iteration, a loop
  nested in a loop whose body reads the outer body's iteration number, an initializer in the body
  and an If in the body choosing its branch by the iteration number.
- Scan: opset 9+ with two scan inputs (one reversed, scan_input_axes 1 and 0) and two scan
  outputs (scan_output_axes 1 and -1, one reversed); opset 8's batched form with directions and
  a sequence_lens of whole sequences.
- Sequences (lists of operands known when the graph is built): SplitToSequence with keepdims 0,
  by one size and by sizes, along axes 0 and 1, by a size of 2^63 - 1 (one piece); SequenceMap with a sequence and a tensor input
  and two outputs (float and bool); ConcatFromSequence with and without new_axis (axis -1 and
  0, 1); SequenceAt (-1 and 1), SequenceLength, SequenceInsert at the front, SequenceErase; a
  sequence appended to in a Loop from SequenceEmpty; an If whose branch gives a sequence.
- Refused: a loop whose condition is known only at run time and that has no M, one that also has
  scan outputs, an If of branches of different
  shapes under a run-time condition, a subgraph that defines a name of its enclosing graph
  again, a loop with neither M nor a condition, a loop of 10^8 iterations (past the memory
  budget), scan inputs of different lengths, a sequence_lens shorter than the sequence; a sequence
  as a graph output, a sequence carried by a Loop of a run-time condition, ConcatFromSequence of an
  empty sequence, SequenceAt of a run-time position or beyond the end, Add of a sequence,
  SplitToSequence into 2^20 pieces (past the memory budget).

Usage: compositions_control.py WEBNN_CLI WORK_DIR BACKEND. Exits 77 without python3-onnx.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    from onnx import TensorProto, helper, numpy_helper
    from compositions import check_cases, check_refused
    from shard import shard
except ImportError as e:  # pragma: no cover - the skip path
    print(f"skipped: {e}")
    sys.exit(77)

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
node = helper.make_node


def info(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def declared(outputs):
    """Output declarations: float, or bool for the names of conditions and comparisons."""
    bools = ("cond_out", "c_out", "c1_out", "c2_out", "gt", "lt", "b")
    return [info(o, B if o in bools else F, None) for o in outputs]


def model(nodes, inputs, outputs, inits=(), opset=17):
    m = helper.make_model(helper.make_graph(nodes, "control", inputs, declared(outputs), list(inits)),
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def body(nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, "body", inputs, declared(outputs), list(inits))


def if_runtime_case(rng, cond):
    x, y = rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((2, 3)).astype(np.float32)
    then_branch = body([node("Add", ["x", "y"], ["sum"]), node("Greater", ["x", "y"], ["gt"])], [], ["sum", "gt"])
    else_branch = body([node("Mul", ["x", "y"], ["prod"]), node("Less", ["x", "y"], ["lt"])], [], ["prod", "lt"])
    m = model([node("If", ["c"], ["v", "b"], then_branch=then_branch, else_branch=else_branch)],
              [info("c", B, []), info("x", F, [2, 3]), info("y", F, [2, 3])], ["v", "b"])
    want = {"v": x + y if cond else x * y, "b": (x > y if cond else x < y)}
    return m, {"c": np.array(cond, np.uint8), "x": x, "y": y}, want


def if_known_case(rng):
    # The condition is an initializer: only the branch taken is lowered, so the branches may give
    # different shapes; the branch taken holds an If of its own on a run-time condition.
    x = rng.standard_normal((2, 3)).astype(np.float32)
    inner_then = body([node("Neg", ["x"], ["n"])], [], ["n"])
    inner_else = body([node("Abs", ["x"], ["a"])], [], ["a"])
    then_branch = body([node("If", ["d"], ["inner"], then_branch=inner_then, else_branch=inner_else),
                        node("Reshape", ["inner", "shape"], ["flat"])], [], ["flat"], [const("shape", [6])])
    else_branch = body([node("Identity", ["x"], ["same"])], [], ["same"])
    m = model([node("If", ["c"], ["v"], then_branch=then_branch, else_branch=else_branch)],
              [info("x", F, [2, 3]), info("d", B, [1])], ["v"], [const("c", np.array(True))])
    return m, {"x": x, "d": np.array([0], np.uint8)}, {"v": np.abs(x).reshape(6)}


def loop_for_case(rng):
    # for i in range(4): acc = acc * 2 + x[i]; scan: acc, and i as float.
    x = rng.standard_normal((4, 3)).astype(np.float32)
    b = body([node("Identity", ["cond_in"], ["cond_out"]),
              node("Gather", ["x", "i"], ["row"], axis=0),
              node("Mul", ["acc_in", "two"], ["twice"]), node("Add", ["twice", "row"], ["acc_out"]),
              node("Cast", ["i"], ["i_f"], to=F)],
             [info("i", I64, []), info("cond_in", B, []), info("acc_in", F, [3])], ["cond_out", "acc_out", "acc_out", "i_f"],
             [const("two", np.float32(2))])
    m = model([node("Loop", ["M", "", "acc0"], ["acc", "accs", "iters"], body=b)],
              [info("x", F, [4, 3]), info("acc0", F, [3])], ["acc", "accs", "iters"], [const("M", np.int64(4))])
    acc0 = rng.standard_normal(3).astype(np.float32)
    acc, accs = acc0.astype(np.float64), []
    for i in range(4):
        acc = acc * 2 + x[i]
        accs.append(acc)
    return m, {"x": x, "acc0": acc0}, {"acc": acc, "accs": np.stack(accs), "iters": np.arange(4, dtype=np.float64)}


def loop_while_case(rng, trips):
    # i = 0; while True: v = v + x * (i + 1); keep going while i + 1 < 3 (ends at i = 2), or at M.
    x = rng.standard_normal((2, 2)).astype(np.float32)
    b = body([node("Add", ["i", "one"], ["next"]), node("Less", ["next", "three"], ["cond_out"]),
              node("Cast", ["next"], ["next_f"], to=F), node("Mul", ["x", "next_f"], ["step"]),
              node("Add", ["v_in", "step"], ["v_out"])],
             [info("i", I64, []), info("cond_in", B, []), info("v_in", F, [2, 2])], ["cond_out", "v_out", "step"],
             [const("one", np.int64(1)), const("three", np.int64(3))])
    inits = [const("go", np.array(True))] + ([const("M", np.int64(trips))] if trips is not None else [])
    m = model([node("Loop", ["M" if trips is not None else "", "go", "v0"], ["v", "steps"], body=b)],
              [info("x", F, [2, 2]), info("v0", F, [2, 2])], ["v", "steps"], inits)
    v0 = rng.standard_normal((2, 2)).astype(np.float32)
    v, steps = v0.astype(np.float64), []
    for i in range(3 if trips is None else min(3, trips)):
        steps.append(x * (i + 1.0))
        v = v + steps[-1]
    return m, {"x": x, "v0": v0}, {"v": v, "steps": np.stack(steps)}


def loop_masked_case(rng, go):
    # A while loop bounded by M = 6 whose condition is known only at run time: v = v * 0.5 + x
    # while sum(v) < limit (a graph input), starting from the run-time condition `go`.
    x = np.abs(rng.standard_normal(3)).astype(np.float32) + 0.5
    v0 = np.zeros(3, np.float32)
    limit = np.float32(1.6 * x.sum())  # 3 iterations: sums of 1, 1.5 and 1.75 times x.sum()
    b = body([node("Mul", ["v_in", "half"], ["halved"]), node("Add", ["halved", "x"], ["v_out"]),
              node("ReduceSum", ["v_out"], ["total"], keepdims=0), node("Less", ["total", "limit"], ["cond_out"])],
             [info("i", I64, []), info("c", B, []), info("v_in", F, [3])], ["cond_out", "v_out"],
             [const("half", np.float32(0.5))])
    m = model([node("Loop", ["M", "go", "v0"], ["v"], body=b)],
              [info("x", F, [3]), info("v0", F, [3]), info("limit", F, []), info("go", B, [])], ["v"],
              [const("M", np.int64(6))])
    v, i, cond = v0.astype(np.float64), 0, go
    while i < 6 and cond:
        v = v * 0.5 + x
        cond = v.sum() < limit
        i += 1
    return m, {"x": x, "v0": v0, "limit": np.array(limit), "go": np.array(go, np.uint8)}, {"v": v}


def loop_zero_case(rng):
    b = body([node("Identity", ["c"], ["c_out"]), node("Relu", ["v_in"], ["v_out"])],
             [info("i", I64, []), info("c", B, []), info("v_in", F, [3])], ["c_out", "v_out"])
    m = model([node("Loop", ["M", "", "v0"], ["v"], body=b)], [info("v0", F, [3])], ["v"], [const("M", np.int64(0))])
    v0 = np.array([-1, 2, -3], np.float32)
    return m, {"v0": v0}, {"v": v0.astype(np.float64)}


def loop_growing_case(rng):
    # acc = concat(acc, x * i) along 0, three times: [1, 2] grows to [4, 2].
    x = rng.standard_normal((1, 2)).astype(np.float32)
    b = body([node("Identity", ["c"], ["c_out"]), node("Cast", ["i"], ["i_f"], to=F), node("Mul", ["x", "i_f"], ["row"]),
              node("Concat", ["acc_in", "row"], ["acc_out"], axis=0)],
             [info("i", I64, []), info("c", B, []), info("acc_in", F, None)], ["c_out", "acc_out"])
    m = model([node("Loop", ["M", "", "x"], ["acc"], body=b)], [info("x", F, [1, 2])], ["acc"], [const("M", np.int64(3))])
    acc = x.astype(np.float64)
    for i in range(3):
        acc = np.concatenate([acc, x * float(i)])
    return m, {"x": x}, {"acc": acc}


def loop_nested_case(rng):
    # for i in range(2): for j in range(3): s = s + w[i * 3 + j] * (10 i + j); the inner body reads
    # the outer body's i and the graph's w; an If in the outer body adds w[0] on even i only.
    w = rng.standard_normal((6, 2)).astype(np.float32)
    inner = body([node("Identity", ["c2"], ["c2_out"]), node("Mul", ["i", "three"], ["base"]),
                  node("Add", ["base", "j"], ["k"]), node("Gather", ["w", "k"], ["row"], axis=0),
                  node("Mul", ["i", "ten"], ["tens"]), node("Add", ["tens", "j"], ["coef"]),
                  node("Cast", ["coef"], ["coef_f"], to=F), node("Mul", ["row", "coef_f"], ["term"]),
                  node("Add", ["s2", "term"], ["s2_out"])],
                 [info("j", I64, []), info("c2", B, []), info("s2", F, [2])], ["c2_out", "s2_out"],
                 [const("three", np.int64(3)), const("ten", np.int64(10))])
    even_then = body([node("Gather", ["w", "zero"], ["w0"], axis=0), node("Add", ["s_in", "w0"], ["s_even"])], [],
                     ["s_even"], [const("zero", np.int64(0))])
    even_else = body([node("Identity", ["s_in"], ["s_odd"])], [], ["s_odd"])
    outer = body([node("Identity", ["c1"], ["c1_out"]),
                  node("Loop", ["N", "", "s1"], ["s_in"], body=inner),
                  node("Mod", ["i", "two"], ["parity"]), node("Equal", ["parity", "zero1"], ["even"]),
                  node("If", ["even"], ["s1_out"], then_branch=even_then, else_branch=even_else)],
                 [info("i", I64, []), info("c1", B, []), info("s1", F, [2])], ["c1_out", "s1_out"],
                 [const("N", np.int64(3)), const("two", np.int64(2)), const("zero1", np.int64(0))])
    m = model([node("Loop", ["M", "", "s0"], ["s"], body=outer)], [info("w", F, [6, 2]), info("s0", F, [2])], ["s"],
              [const("M", np.int64(2))])
    s0 = rng.standard_normal(2).astype(np.float32)
    s = s0.astype(np.float64)
    for i in range(2):
        for j in range(3):
            s = s + w[i * 3 + j] * float(10 * i + j)
        if i % 2 == 0:
            s = s + w[0]
    return m, {"w": w, "s0": s0}, {"s": s}


def scan9_case(rng, opset):
    # State: a running sum of a's items. Scan inputs: a (3, 4) along axis 1 (4 steps), b (4, 2)
    # along axis 0, reversed. Scan outputs: the sum (stacked on axis 1) and a*2 + b[0] (reversed,
    # stacked on the last axis).
    a, b_in = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal((4, 2)).astype(np.float32)
    s0 = rng.standard_normal(3).astype(np.float32)
    b = body([node("Add", ["s_in", "ai"], ["s_out"]), node("Identity", ["s_out"], ["sum_item"]),
              node("Slice", ["bi", "z", "o"], ["b0"]), node("Mul", ["ai", "two"], ["a2"]),
              node("Add", ["a2", "b0"], ["mix"])],
             [info("s_in", F, [3]), info("ai", F, [3]), info("bi", F, [2])], ["s_out", "sum_item", "mix"],
             [const("z", np.array([0], np.int64)), const("o", np.array([1], np.int64)), const("two", np.float32(2))])
    m = model([node("Scan", ["s0", "a", "bb"], ["s", "sums", "mixes"], body=b, num_scan_inputs=2,
                    scan_input_axes=[1, 0], scan_input_directions=[0, 1], scan_output_axes=[1, -1],
                    scan_output_directions=[0, 1])],
              [info("s0", F, [3]), info("a", F, [3, 4]), info("bb", F, [4, 2])], ["s", "sums", "mixes"], opset=opset)
    s, sums, mixes = s0.astype(np.float64), [], []
    for t in range(4):
        s = s + a[:, t]
        sums.append(s)
        mixes.append(a[:, t] * 2.0 + b_in[3 - t, 0])
    return m, {"s0": s0, "a": a, "bb": b_in}, {"s": s, "sums": np.stack(sums, axis=1),
                                                "mixes": np.stack(mixes[::-1], axis=-1)}


def scan8_case(rng, lens):
    # Opset 8: batch 2; the state a running product, the scan input read backwards (directions 1).
    x = (rng.standard_normal((2, 3, 2)) * 0.5 + 1).astype(np.float32)
    p0 = rng.standard_normal((2, 2)).astype(np.float32)
    b = body([node("Mul", ["p_in", "xi"], ["p_out"]), node("Neg", ["p_out"], ["item"])],
             [info("p_in", F, [2]), info("xi", F, [2])], ["p_out", "item"])
    inits = [const("lens", np.array(lens, np.int64))] if lens is not None else []
    m = model([node("Scan", ["lens" if lens is not None else "", "p0", "x"], ["p", "items"], body=b,
                    num_scan_inputs=1, directions=[1])],
              [info("p0", F, [2, 2]), info("x", F, [2, 3, 2])], ["p", "items"], inits, opset=8)
    ps, items = [], []
    for n in range(2):
        p, row = p0[n].astype(np.float64), []
        for t in range(3):
            p = p * x[n, 2 - t]
            row.append(-p)
        ps.append(p)
        items.append(np.stack(row))
    return m, {"p0": p0, "x": x}, {"p": np.stack(ps), "items": np.stack(items)}


def seq_info(name, elem):
    return helper.make_value_info(name, helper.make_sequence_type_proto(helper.make_tensor_type_proto(elem, None)))


def split_map_concat_case(rng):
    # The rows of x (SplitToSequence, keepdims 0), each mapped to row * 2 + b and to row > 0
    # (SequenceMap), stacked on a new last axis and concatenated on axis 0 (ConcatFromSequence).
    x, b = rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    mapped = helper.make_graph(
        [node("Mul", ["row", "two"], ["twice"]), node("Add", ["twice", "b"], ["out"]),
         node("Greater", ["row", "zero"], ["positive"])], "map",
        [info("row", F, [4]), info("bb", F, [4])],
        [info("out", F, None), info("positive", B, None)], [const("two", np.float32(2)), const("zero", np.float32(0))])
    m = model([node("SplitToSequence", ["x"], ["rows"], keepdims=0),
               node("SequenceMap", ["rows", "b"], ["outs", "signs"], body=mapped),
               node("ConcatFromSequence", ["outs"], ["stacked"], axis=-1, new_axis=1),
               node("ConcatFromSequence", ["signs"], ["joined"], axis=0)],
              [info("x", F, [3, 4]), info("b", F, [4])], ["stacked", "joined"])
    m.graph.output[1].type.tensor_type.elem_type = B
    return m, {"x": x, "b": b}, {"stacked": (x * 2.0 + b).T, "joined": (x > 0).reshape(12)}


def split_pieces_case(rng):
    # SplitToSequence into pieces of 2 (2, 2, 1) along axis 1; the last piece (SequenceAt -1), the
    # length; pieces [1, 3] along axis 0, a tensor inserted in front, position 1 erased, the rest
    # concatenated along axis 0.
    x, y = rng.standard_normal((4, 5)).astype(np.float32), rng.standard_normal((2, 5)).astype(np.float32)
    m = model([node("SplitToSequence", ["x", "two"], ["cols"], axis=1),
               node("SequenceAt", ["cols", "minus_one"], ["last"]), node("SequenceLength", ["cols"], ["count"]),
               node("SplitToSequence", ["x", "sizes"], ["parts"]),
               node("SequenceInsert", ["parts", "y", "zero"], ["with_y"]),
               node("SequenceErase", ["with_y", "one"], ["without"]),
               node("ConcatFromSequence", ["without"], ["rest"], axis=0)],
              [info("x", F, [4, 5]), info("y", F, [2, 5])], ["last", "count", "rest"],
              [const("two", np.int64(2)), const("minus_one", np.int64(-1)), const("sizes", np.array([1, 3], np.int64)),
               const("zero", np.int64(0)), const("one", np.int64(1))])
    m.graph.output[1].type.tensor_type.elem_type = I64
    return m, {"x": x, "y": y}, {"last": x[:, 4:5], "count": np.array(3, np.int64),
                                 "rest": np.concatenate([y, x[1:4]])}


def split_whole_case(rng):
    # A split size of 2^63 - 1: one piece, the whole input (the piece count must not overflow).
    x = rng.standard_normal((2, 3)).astype(np.float32)
    m = model([node("SplitToSequence", ["x", "huge"], ["pieces"], axis=1),
               node("ConcatFromSequence", ["pieces"], ["y"], axis=0)],
              [info("x", F, [2, 3])], ["y"], [const("huge", np.int64(2**63 - 1))])
    return m, {"x": x}, {"y": x}


def loop_append_case(rng):
    # A list appended to in a loop (SequenceEmpty, SequenceInsert of x * i), stacked afterwards.
    x = rng.standard_normal((2, 3)).astype(np.float32)
    b = body([node("Identity", ["c"], ["c_out"]), node("Cast", ["i"], ["i_f"], to=F), node("Mul", ["x", "i_f"], ["xi"]),
              node("SequenceInsert", ["acc_in", "xi"], ["acc_out"])],
             [info("i", I64, []), info("c", B, []), seq_info("acc_in", F)], ["c_out"])
    b.output.append(seq_info("acc_out", F))
    m = model([node("SequenceEmpty", [], ["empty"], dtype=F), node("Loop", ["M", "", "empty"], ["acc"], body=b),
               node("ConcatFromSequence", ["acc"], ["stacked"], axis=0, new_axis=1)],
              [info("x", F, [2, 3])], ["stacked"], [const("M", np.int64(4))])
    return m, {"x": x}, {"stacked": np.stack([x * float(i) for i in range(4)])}


def if_sequences_case(rng):
    # An If on a known condition whose branch gives a sequence (SequenceConstruct of three
    # tensors), read by SequenceAt and ConcatFromSequence on axis 1.
    a, b_in = rng.standard_normal((2, 2)).astype(np.float32), rng.standard_normal((2, 3)).astype(np.float32)
    then_branch = body([node("SequenceConstruct", ["a", "b", "a"], ["three"])], [], [])
    then_branch.output.append(seq_info("three", F))
    else_branch = body([node("SequenceConstruct", ["b"], ["one"])], [], [])
    else_branch.output.append(seq_info("one", F))
    m = model([node("If", ["yes"], ["parts"], then_branch=then_branch, else_branch=else_branch),
               node("SequenceAt", ["parts", "one_i"], ["middle"]),
               node("ConcatFromSequence", ["parts"], ["wide"], axis=1)],
              [info("a", F, [2, 2]), info("b", F, [2, 3])], ["middle", "wide"],
              [const("yes", np.array(True)), const("one_i", np.int64(1))])
    return m, {"a": a, "b": b_in}, {"middle": b_in, "wide": np.concatenate([a, b_in, a], axis=1)}


def refused_sequence_cases():
    x = np.ones((2, 3), np.float32)
    split = [node("SplitToSequence", ["x"], ["rows"])]
    out_seq = model(split, [info("x", F, [2, 3])], [])
    out_seq.graph.output.append(seq_info("rows", F))
    empty = model([node("SequenceEmpty", [], ["e"]), node("ConcatFromSequence", ["e"], ["y"], axis=0)],
                  [info("x", F, [2, 3])], ["y"])
    runtime_at = model(split + [node("SequenceAt", ["rows", "p"], ["y"])], [info("x", F, [2, 3]), info("p", I64, [])],
                       ["y"])
    added = model(split + [node("Add", ["rows", "x"], ["y"])], [info("x", F, [2, 3])], ["y"])
    beyond = model(split + [node("SequenceAt", ["rows", "five"], ["y"])], [info("x", F, [2, 3])], ["y"],
                   [const("five", np.int64(5))])
    pieces = model([node("SplitToSequence", ["big"], ["bytes"]), node("SequenceLength", ["bytes"], ["n"])],
                   [info("big", TensorProto.UINT8, [1 << 20])], ["n"])
    masked = loop_append_case(np.random.default_rng(0))[0]  # its Loop given a run-time condition
    masked.graph.node[1].input[1] = "go"
    masked.graph.input.append(info("go", B, []))
    return [("a sequence as a graph output", out_seq, {"x": x}, "is a sequence, where a tensor is needed"),
            ("a sequence carried by a Loop of a run-time condition", masked,
             {"x": x, "go": np.array(1, np.uint8)}, "is a sequence, which a loop whose condition"),
            ("ConcatFromSequence of an empty sequence", empty, {"x": x}, "the sequence is empty"),
            ("SequenceAt of a run-time position", runtime_at, {"x": x, "p": np.array(0, np.int64)},
             "must be known when the graph is built"),
            ("Add of a sequence", added, {"x": x}, "is a sequence, where Add takes a tensor"),
            ("SequenceAt beyond the end", beyond, {"x": x}, "position 5 is outside [-2, 1]"),
            ("SplitToSequence into 2^20 pieces", pieces, {"big": np.zeros(1 << 20, np.uint8)}, "1048576 pieces")]


def refused_cases(rng):
    x = np.ones((2, 2), np.float32)
    runtime_cond = body([node("ReduceSum", ["v_in"], ["total"], keepdims=0), node("Less", ["total", "ten"], ["c_out"]),
                         node("Add", ["v_in", "v_in"], ["v_out"])],
                        [info("i", I64, []), info("c", B, []), info("v_in", F, [2, 2])], ["c_out", "v_out"],
                        [const("ten", np.float32(10))])
    while_runtime = model([node("Loop", ["", "go", "x"], ["v"], body=runtime_cond)], [info("x", F, [2, 2])], ["v"],
                          [const("go", np.array(True))])
    shapes = model([node("If", ["c"], ["v"], then_branch=body([node("Identity", ["x"], ["a"])], [], ["a"]),
                         else_branch=body([node("Reshape", ["x", "s"], ["f"])], [], ["f"], [const("s", [4])]))],
                   [info("c", B, []), info("x", F, [2, 2])], ["v"])
    shadow = model([node("If", ["c"], ["v"], then_branch=body([node("Neg", ["x"], ["x"])], [], ["x"]),
                         else_branch=body([node("Abs", ["x"], ["a"])], [], ["a"]))],
                   [info("c", B, []), info("x", F, [2, 2])], ["v"])
    masked_scan = body([node("Identity", ["v_in"], ["v_out"]), node("ReduceSum", ["v_in"], ["t"], keepdims=0),
                        node("Less", ["t", "ten"], ["c_out"]), node("Identity", ["v_in"], ["scan"])],
                       [info("i", I64, []), info("c", B, []), info("v_in", F, [2, 2])], ["c_out", "v_out", "scan"],
                       [const("ten", np.float32(10))])
    scans_runtime = model([node("Loop", ["M", "go", "x"], ["v", "scans"], body=masked_scan)], [info("x", F, [2, 2])],
                          ["v", "scans"], [const("go", np.array(True)), const("M", np.int64(3))])
    pass_through = body([node("Identity", ["c"], ["c_out"]), node("Identity", ["v_in"], ["v_out"])],
                        [info("i", I64, []), info("c", B, []), info("v_in", F, [2, 2])], ["c_out", "v_out"])
    endless = model([node("Loop", ["", "", "x"], ["v"], body=pass_through)], [info("x", F, [2, 2])], ["v"])
    huge = model([node("Loop", ["M", "", "x"], ["v"], body=pass_through)], [info("x", F, [2, 2])], ["v"],
                 [const("M", np.int64(10**8))])
    sum_body = body([node("Add", ["s_in", "a_i"], ["s_out"]), node("Add", ["s_out", "b_i"], ["o_i"])],
                    [info("s_in", F, [2]), info("a_i", F, [2]), info("b_i", F, [2])], ["s_out", "o_i"])
    lengths = model([node("Scan", ["s0", "a", "b"], ["s", "o"], body=sum_body, num_scan_inputs=2)],
                    [info("s0", F, [2]), info("a", F, [3, 2]), info("b", F, [4, 2])], ["s", "o"], opset=11)
    short = scan8_case(rng, [3, 2])[0]
    c = {"c": np.array(1, np.uint8), "x": x}
    return [("Loop with a run-time condition", while_runtime, {"x": x}, "known only at run time"),
            ("If with branches of different shapes, a run-time condition", shapes, c, "needs one type and shape"),
            ("If whose branch defines the enclosing graph's name again", shadow, c,
             "is already defined by an enclosing graph"),
            ("Loop with neither M nor a condition", endless, {"x": x}, "the loop never ends"),
            ("Loop with a run-time condition and scan outputs", scans_runtime, {"x": x},
             "scan outputs would have a length known only at run time"),
            ("Loop of 10^8 iterations", huge, {"x": x}, "memory budget"),
            ("Scan inputs of different lengths", lengths, {"s0": np.zeros(2, np.float32), "a": np.zeros((3, 2), np.float32),
                                                          "b": np.zeros((4, 2), np.float32)}, "items along its axis"),
            ("Scan (opset 8) with a shorter sequence_lens", short, {"p0": np.ones((2, 2), np.float32),
                                                                    "x": np.ones((2, 3, 2), np.float32)},
             "only whole sequences")]


def main():
    cli, work, backend = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(5)
    cases = [("If, run-time condition true", if_runtime_case(rng, True), False),
             ("If, run-time condition false", if_runtime_case(rng, False), False),
             ("If, known condition, branches of different shapes, a nested If", if_known_case(rng), False),
             ("Loop for (M = 4), carried value and scan outputs", loop_for_case(rng), False),
             ("Loop while (the body's condition ends it at 3)", loop_while_case(rng, None), False),
             ("Loop with M = 2 and a condition", loop_while_case(rng, 2), False),
             ("Loop with M = 10 ended early by its condition", loop_while_case(rng, 10), False),
             ("Loop with M = 0", loop_zero_case(rng), False),
             ("Loop with M and a run-time condition (masked iterations)", loop_masked_case(rng, True), False),
             ("Loop with M and a run-time condition false from the start", loop_masked_case(rng, False), False),
             ("Loop whose carried value grows", loop_growing_case(rng), False),
             ("Loop in a Loop, reading the outer body's values, with an If", loop_nested_case(rng), False),
             ("Scan opset 11, axes and directions", scan9_case(rng, 11), False),
             ("Scan opset 16, axes and directions", scan9_case(rng, 16), False),
             ("Scan opset 8, batch 2, directions", scan8_case(rng, None), False),
             ("Scan opset 8, whole sequence_lens", scan8_case(rng, [3, 3]), False),
             ("SplitToSequence, SequenceMap, ConcatFromSequence (new_axis and not)", split_map_concat_case(rng), False),
             ("SplitToSequence by a size and by sizes, SequenceAt, Length, Insert, Erase", split_pieces_case(rng),
              False),
             ("A sequence appended to in a Loop, stacked", loop_append_case(rng), False),
             ("SplitToSequence by a size of 2^63 - 1 (one piece)", split_whole_case(rng), False),
             ("An If giving a sequence", if_sequences_case(rng), False)]
    refused = refused_cases(rng) + refused_sequence_cases()
    failed = check_refused(cli, work, backend, refused)
    cases = shard(cases)
    failed += check_cases(cli, work, backend, cases)
    print(f"{len(cases) + len(refused) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
