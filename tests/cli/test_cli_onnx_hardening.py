"""What a hostile ONNX model broke through the `webnn` command line (issue 27, docs/security.md),
one group per finding; each failed against the binary before its fix.

The models are built with Debian's onnx package. The memory cases run the CLI under an address-space
limit (`ulimit -v`: RLIMIT_AS) and report its peak resident memory (ru_maxrss of the child), which
must stay far below what the model once made the importer allocate.
"""
import os
import resource
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

CLI = os.environ.get("WEBNN_CLI", str(Path(__file__).resolve().parents[2] / "build" / "webnn"))
GiB = 1 << 30


def webnn(*args, timeout=120):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout)


SANITIZED = os.environ.get("WEBNN_SANITIZED") == "1"


def measured(*args, address_space=4 * GiB, timeout=300):
    """Runs the CLI under /usr/bin/time with RLIMIT_AS = address_space (`ulimit -v`):
    (returncode, stderr, peak RSS in MB, seconds). GNU time's own small process forks the CLI, so
    the peak is the CLI's (a child forked from this Python process would inherit its high-water
    mark).

    An AddressSanitizer build (WEBNN_SANITIZED=1, scripts/sanitize.sh) reserves terabytes of shadow
    address space at start, so RLIMIT_AS cannot hold it: there the same bound is ASan's own
    (max_allocation_size_mb and hard_rss_limit_mb), and peak/time figures are None, their bounds
    being checked on the plain build that CI runs too."""
    env = dict(os.environ)
    if SANITIZED:
        mb = address_space >> 20
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), f"max_allocation_size_mb={mb}",
                                                     f"hard_rss_limit_mb={mb}"]))

    def limit():
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    peak = Path(os.environ.get("TMPDIR", "/tmp")) / f"webnn_peak_{os.getpid()}"
    t0 = time.monotonic()
    r = subprocess.run(["/usr/bin/time", "-o", str(peak), "-f", "%M", CLI, *map(str, args)], capture_output=True,
                       text=True, timeout=timeout, preexec_fn=limit, env=env)
    seconds = time.monotonic() - t0
    peak_kb = int(peak.read_text().split()[-1])
    peak.unlink()
    if SANITIZED:
        return r.returncode, r.stderr, None, None
    return r.returncode, r.stderr, round(peak_kb / 1024), round(seconds, 2)


def within(value, bound):
    """value < bound; always true where the figure is not measured (a sanitizer build)."""
    return value is None or value < bound


def save(model, path, ir_version=8):
    # Serialized by hand: onnx.save() writes tensors' external data files (here: through the links).
    model.ir_version = ir_version
    Path(path).write_bytes(model.SerializeToString())
    return path


def model_of(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


# ---- 1. External data through a symbolic link ----

def external_model(tmp_path, location):
    w = TensorProto(name="w", data_type=TensorProto.UINT8, dims=[16])
    w.data_location = TensorProto.EXTERNAL
    w.external_data.add(key="location", value=location)
    m = model_of([helper.make_node("Add", ["x", "w"], ["y"])], [vi("x", TensorProto.UINT8, [16])],
                 [vi("y", TensorProto.UINT8, [16])], [w])
    return save(m, tmp_path / "model.onnx")


@pytest.mark.parametrize("link", ["directory", "file"])
def test_external_data_through_a_symlink_is_refused(tmp_path, link):
    if link == "directory":
        os.symlink("/etc", tmp_path / "linkdir")
        location = "linkdir/passwd"
    else:
        os.symlink("/etc/passwd", tmp_path / "w.bin")
        location = "w.bin"
    model = external_model(tmp_path, location)
    r = webnn("convert", model, "--to", "json", tmp_path / "out.json")
    assert r.returncode == 2, r.stderr
    assert f'initializer "w": external data "{location}" leaves the model\'s directory' in r.stderr
    assert not (tmp_path / "out.json").exists() and not (tmp_path / "out.weights").exists()


# ---- 2. The memory budget; 3. OneHot's depth ----

def int64_iota(name, n):
    return numpy_helper.from_array(np.arange(n, dtype=np.int64), name)


# The chains' lengths. The bounds on peak memory are checked on the plain build (`measured`); under
# the sanitizers a tenth of each chain runs the same import paths for memory errors, in a tenth of
# the time (the full chains took 95 s of the sanitizer build's CLI tests).
SCALE = 10 if SANITIZED else 1


def test_ten_thousand_negs_of_one_constant_import_in_bounded_memory(tmp_path):
    # 208 KB of model; held for the whole import the folded values reached 5.1 GB.
    n = 10000 // SCALE
    nodes = [helper.make_node("Neg", ["c"], [f"n{i}"]) for i in range(n)]
    m = model_of(nodes, [], [vi(f"n{n - 1}", TensorProto.INT64, [65536])], [int64_iota("c", 65536)])
    code, err, peak_mb, _ = measured("info", save(m, tmp_path / "negs.onnx"), address_space=2 * GiB)
    assert code == 0, err
    print(f"{n:,} Neg, one kept: peak RSS {peak_mb} MB")
    assert within(peak_mb, 300)


def test_values_kept_beyond_the_budget_are_refused_with_the_node_size_and_bound(tmp_path):
    nodes = [helper.make_node("Neg", ["c"], [f"n{i}"], name=f"neg{i}") for i in range(10000)]
    outputs = [vi(f"n{i}", TensorProto.INT64, [65536]) for i in range(10000)]
    model = save(model_of(nodes, [], outputs, [int64_iota("c", 65536)]), tmp_path / "kept.onnx")
    code, err, peak_mb, _ = measured("info", model, "--memory-budget", "64MiB", address_space=2 * GiB)
    assert code == 2, err
    assert 'NotSupportedError: ONNX import:' in err and '(Neg)' in err and "524288 bytes" in err
    assert "its memory budget is 67108864 bytes" in err and "unexpected error" not in err
    print(f"10,000 Neg, all kept, 64 MiB budget: refused, peak RSS {peak_mb} MB")
    assert within(peak_mb, 300)


def test_folded_results_of_ops_without_a_fold_of_their_own_are_not_held(tmp_path):
    # The importer computes any integer operation over known values as it adds it (fold_known);
    # its results were first kept for the whole import: 3,000 Splits of one 65,536-element int64
    # constant (Split has no fold of its own) held 1.57 GB. They are now held while their node is
    # lowered, then counted and released as every value is.
    nodes = [helper.make_node("Split", ["c", "sizes"], [f"s{i}"], axis=0) for i in range(3000)]
    m = model_of(nodes, [], [vi("s2999", TensorProto.INT64, [65536])],
                 [int64_iota("c", 65536), numpy_helper.from_array(np.array([65536], np.int64), "sizes")])
    code, err, peak_mb, _ = measured("info", save(m, tmp_path / "splits.onnx"), address_space=2 * GiB)
    assert code == 0, err
    print(f"3,000 Split, one kept: peak RSS {peak_mb} MB")
    assert within(peak_mb, 300)


def test_sixty_thousand_growing_concats_import_in_bounded_memory(tmp_path):
    # 2.5 MB of model; held together the values reached 7.9 GB and std::bad_alloc.
    nodes, prev = [], "one"
    n = 60000 // SCALE
    for i in range(n):
        nodes.append(helper.make_node("Concat", [prev, "one"], [f"c{i}"], axis=0))
        prev = f"c{i}"
    m = model_of(nodes, [], [vi(prev, TensorProto.INT64, [n + 1])], [int64_iota("one", 1)])
    path = save(m, tmp_path / "concats.onnx")
    code, err, peak_mb, seconds = measured("info", path, address_space=2 * GiB)
    assert code == 0, err
    print(f"{n:,} Concat: peak RSS {peak_mb} MB, {seconds} s")
    assert within(peak_mb, 300)
    if not SANITIZED:
        # Each folded value is 8 bytes longer than the last: with glibc's own thresholds each came
        # from fresh pages (1.3 million faults, 17 s); the CLI keeps them on its heap (17,400).
        faults = subprocess.run(["/usr/bin/time", "-f", "%R", CLI, "info", str(path)], capture_output=True,
                                text=True, timeout=300).stderr.split()[-1]
        assert int(faults) < 200_000, f"{faults} page faults"


def scalar(name, value):
    return numpy_helper.from_array(np.array(value, dtype=np.int64), name)


def test_unused_ranges_of_two_to_the_29_are_refused_at_the_fold_limit(tmp_path):
    nodes = [helper.make_node("Range", ["s", "l", "d"], [f"r{i}"], name=f"range{i}") for i in range(4)]
    nodes.append(helper.make_node("Relu", ["x"], ["y"]))
    m = model_of(nodes, [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, [2])],
                 [scalar("s", 0), scalar("l", 1 << 29), scalar("d", 1)])
    code, err, peak_mb, seconds = measured("info", save(m, tmp_path / "ranges.onnx"), address_space=2 * GiB)
    assert code == 2, err
    assert 'node "range0" (Range): a range of 536870912' in err and "(the fold limit)" in err
    print(f"4 Range of 2^29: refused, peak RSS {peak_mb} MB, {seconds} s")
    assert within(peak_mb, 200) and within(seconds, 10)


def test_large_constant_of_shapes_import_without_their_bytes(tmp_path):
    # Eight ConstantOfShape of 2 GiB each (847 bytes of model) were allocated: std::bad_alloc.
    nodes = [helper.make_node("ConstantOfShape", ["shape"], [f"z{i}"]) for i in range(8)]
    m = model_of(nodes, [], [vi(f"z{i}", TensorProto.FLOAT, [1 << 29]) for i in range(8)],
                 [numpy_helper.from_array(np.array([1 << 29], dtype=np.int64), "shape")])
    code, err, peak_mb, seconds = measured("info", save(m, tmp_path / "cos.onnx"), address_space=2 * GiB)
    assert code == 0, err
    print(f"8 ConstantOfShape of 2 GiB: peak RSS {peak_mb} MB, {seconds} s")
    assert within(peak_mb, 200)


@pytest.mark.parametrize("depth,message", [(1 << 31, "over WebNN's largest dimension (2147483647)"),
                                           (1 << 29, "maxTensorByteLength")])
def test_one_hot_depth_is_checked_before_anything_is_allocated(tmp_path, depth, message):
    m = model_of([helper.make_node("OneHot", ["i", "depth", "values"], ["y"], name="hot")],
                 [vi("i", TensorProto.INT64, [1])], [vi("y", TensorProto.FLOAT, [1, depth])],
                 [scalar("depth", depth), numpy_helper.from_array(np.array([0, 1], np.float32), "values")])
    code, err, peak_mb, seconds = measured("info", save(m, tmp_path / "onehot.onnx"), address_space=2 * GiB)
    assert code == 2, err
    assert 'node "hot" (OneHot)' in err and message in err and "unexpected error" not in err
    print(f"OneHot of depth {depth}: refused, peak RSS {peak_mb} MB, {seconds} s")
    assert within(peak_mb, 200) and within(seconds, 10)


def test_the_memory_budget_option_is_checked(tmp_path):
    m = model_of([helper.make_node("Relu", ["x"], ["y"])], [vi("x", TensorProto.FLOAT, [2])],
                 [vi("y", TensorProto.FLOAT, [2])])
    model = save(m, tmp_path / "m.onnx")
    assert webnn("validate", model, "--memory-budget", "2GiB").returncode == 0
    r = webnn("validate", model, "--memory-budget", "0")
    assert r.returncode != 0 and "--memory-budget" in r.stderr


# ---- 7. Inputs with a default value; inputs read only through Shape ----

def npy(path, array):
    np.save(path, array)
    return path


def test_an_input_with_a_default_runs_on_it_or_on_the_given_value(tmp_path):
    m = model_of([helper.make_node("Add", ["x", "w"], ["y"])],
                 [vi("x", TensorProto.FLOAT, [2]), vi("w", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, [2])],
                 [numpy_helper.from_array(np.array([10, 20], np.float32), "w")])
    model = save(m, tmp_path / "m.onnx")
    x = npy(tmp_path / "x.npy", np.array([1, 2], np.float32))
    r = webnn("info", model)
    assert r.returncode == 0, r.stderr
    assert "w: float32[2] (has a default value)" in r.stdout and "x: float32[2]\n" in r.stdout
    r = webnn("run", model, "--input", f"x={x}", "--output-dir", tmp_path / "a")
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "a" / "y.npy"), [11, 22])
    w = npy(tmp_path / "w.npy", np.array([100, 200], np.float32))
    r = webnn("run", model, "--input", f"x={x}", "--input", f"w={w}", "--output-dir", tmp_path / "b")
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "b" / "y.npy"), [101, 202])
    assert webnn("bench", model, "--iterations", "1", "--warmup", "0").returncode == 0


def test_a_default_the_model_needs_as_a_shape_is_frozen_and_says_so(tmp_path):
    m = model_of([helper.make_node("Reshape", ["x", "s"], ["y"], name="r")],
                 [vi("x", TensorProto.FLOAT, [12]), vi("s", TensorProto.INT64, [2])],
                 [vi("y", TensorProto.FLOAT, [3, 4])], [numpy_helper.from_array(np.array([3, 4], np.int64), "s")])
    model = save(m, tmp_path / "m.onnx")
    r = webnn("info", model)
    assert r.returncode == 0, r.stderr
    assert "frozen inputs:\n  s: frozen to its default value" in r.stdout
    x = npy(tmp_path / "x.npy", np.arange(12, dtype=np.float32))
    s = npy(tmp_path / "s.npy", np.array([4, 3], np.int64))
    r = webnn("run", model, "--input", f"x={x}", "--input", f"s={s}", "--output-dir", tmp_path / "o")
    assert r.returncode == 2
    assert '--input "s": the model\'s input "s" is a constant of the imported graph' in r.stderr
    assert 'node "r" (Reshape) needs its value (shape)' in r.stderr and "--freeze s=FILE.npy" in r.stderr
    r = webnn("run", model, "--freeze", f"s={s}", "--input", f"x={x}", "--output-dir", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    assert np.load(tmp_path / "o" / "y.npy").shape == (4, 3)


def test_an_input_read_only_through_shape_is_an_input(tmp_path):
    m = model_of([helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Reshape", ["w", "s"], ["y"])],
                 [vi("x", TensorProto.FLOAT, [2, 3])], [vi("y", TensorProto.FLOAT, [2, 3])],
                 [numpy_helper.from_array(np.arange(6, dtype=np.float32), "w")])
    model = save(m, tmp_path / "m.onnx")
    x = npy(tmp_path / "x.npy", np.zeros((2, 3), np.float32))
    r = webnn("run", model, "--input", f"x={x}", "--output-dir", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "o" / "y.npy"), np.arange(6).reshape(2, 3))
