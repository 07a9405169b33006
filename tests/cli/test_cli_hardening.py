"""What a hostile user broke through the `webnn` command line, one test per finding (docs/security.md).

Run by CTest as `python3 -m pytest tests/cli` with WEBNN_CLI naming the binary; each test failed
against the binary before the fixes (c3b208c).
"""
import json
import os
import signal
import struct
import subprocess
import time
from pathlib import Path

import pytest

CLI = os.environ.get("WEBNN_CLI", str(Path(__file__).resolve().parents[2] / "build" / "webnn"))


def webnn(*args, timeout=60, **kwargs):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout, **kwargs)


def npy_f32(path, values, shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % (tuple(shape),)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    Path(path).write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() +
                           struct.pack("<%df" % len(values), *values))


def graph(path, outputs, nodes=None, consts=None, inputs=None):
    doc = {"format": "webnn-graph-json", "version": 2, "name": "g",
           "inputs": inputs if inputs is not None else {"x": {"dataType": "float32", "shape": [2]}},
           "consts": consts or {},
           "nodes": nodes if nodes is not None else [{"id": "y", "op": "relu", "inputs": ["x"]}],
           "outputs": outputs}
    Path(path).write_text(json.dumps(doc))
    return path


def listing(root):
    return sorted(str(p.relative_to(root)) for p in Path(root).rglob("*"))


# ---- 1. Output names become paths ----

def test_output_names_never_leave_the_output_directory(tmp_path):
    g = graph(tmp_path / "g.json", {"/abs/x": "y", "../x": "y", "a": "y", "./a": "y"})
    npy_f32(tmp_path / "x.npy", [1, -2], [2])
    out = tmp_path / "out"
    r = webnn("run", g, "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", out)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(out)) == ["%2E%2Fa.npy", "%2E.%2Fx.npy", "%2Fabs%2Fx.npy", "a.npy"]
    assert not (tmp_path / "x").exists()
    assert sorted(os.listdir(tmp_path)) == ["g.json", "out", "x.npy"]
    assert "-> " + str(out / "%2Fabs%2Fx.npy") in r.stdout


# ---- 2. Partial output ----

def test_a_failing_second_output_leaves_no_first(tmp_path):
    # The second output's file name is longer than the file system allows: nothing is written.
    g = graph(tmp_path / "g.json", {"a": "y", "b" * 300: "y"})
    npy_f32(tmp_path / "x.npy", [1, 2], [2])
    r = webnn("run", g, "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", tmp_path / "out")
    assert r.returncode != 0
    assert "file name would be" in r.stderr
    assert not (tmp_path / "out").exists()


def big_graph(tmp_path, megabytes):
    """A graph whose one constant lives in a weights file of `megabytes` MB."""
    n = megabytes * (1 << 20) // 4
    weights = tmp_path / "big.weights"
    with open(weights, "wb") as f:
        f.write(b"WGWT" + struct.pack("<I", 1) + b"\0" * 56)
        f.write(os.urandom(4096) * (n * 4 // 4096))
    manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {
        "w": {"dataType": "float32", "shape": [n], "byteOffset": 64, "byteLength": n * 4}}}
    (tmp_path / "big.manifest.json").write_text(json.dumps(manifest))
    return graph(tmp_path / "big.json", {"y": "y"},
                 inputs={"x": {"dataType": "float32", "shape": [n]}},
                 consts={"w": {"dataType": "float32", "shape": [n], "init": {"kind": "weights", "ref": "w"}}},
                 nodes=[{"id": "y", "op": "add", "inputs": ["x", "w"]}])


def test_convert_whose_manifest_cannot_be_written_leaves_no_weights(tmp_path):
    g = big_graph(tmp_path, 4)
    out = tmp_path / "out"
    out.mkdir()
    (out / "copy.manifest.json").mkdir()  # the manifest's path is taken by a directory
    r = webnn("convert", g, "--to", "json", out / "copy.json")
    assert r.returncode != 0
    assert "copy.manifest.json" in r.stderr and "is a directory" in r.stderr
    assert listing(out) == ["copy.manifest.json"]


def test_ctrl_c_during_convert_leaves_no_temporary(tmp_path):
    g = big_graph(tmp_path, 256)
    out = tmp_path / "out"
    out.mkdir()
    # Interrupt as soon as the temporary file shows up (the export writes it last).
    proc = subprocess.Popen([CLI, "convert", str(g), "--to", "onnx", str(out / "big.onnx")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    seen = False
    while proc.poll() is None and time.monotonic() < deadline:
        if any(".tmp." in name for name in os.listdir(out)):
            seen = True
            proc.send_signal(signal.SIGINT)
            break
    proc.wait(timeout=120)
    if not seen:
        pytest.fail("the conversion ended before its temporary file was seen; make the graph larger")
    assert proc.returncode == -signal.SIGINT
    # No temporary; the model itself only if the signal came while the files were being renamed
    # into place (held back until then) - then it is complete.
    assert os.listdir(out) in ([], ["big.onnx"])


# ---- 3. A huge thread count ----

@pytest.mark.parametrize("threads", ["100000", "257", "-1"])
def test_thread_counts_out_of_range_are_refused(tmp_path, threads):
    g = graph(tmp_path / "g.json", {"y": "y"})
    r = webnn("bench", g, "--iterations", "1", f"--threads={threads}")
    assert r.returncode == 2, r.stderr
    assert "num_threads must be in [0, 256]" in r.stderr
    assert "e+308" not in r.stderr and "1.797" not in r.stderr


# ---- 5. FIFOs hang ----

@pytest.mark.parametrize("which", ["graph", "manifest", "weights", "input", "conformance"])
def test_fifos_are_refused_not_waited_on(tmp_path, which):
    g = graph(tmp_path / "g.json", {"y": "y"}, consts={
        "c": {"dataType": "float32", "shape": [2], "init": {"kind": "weights", "ref": "c"}}},
        nodes=[{"id": "y", "op": "add", "inputs": ["x", "c"]}])
    fifo = {"graph": tmp_path / "f.json", "manifest": tmp_path / "g.manifest.json",
            "weights": tmp_path / "g.weights", "input": tmp_path / "x.npy",
            "conformance": tmp_path / "case.json"}[which]
    if which == "manifest":
        (tmp_path / "g.weights").write_bytes(b"WGWT\x01\0\0\0" + b"\0" * 8)
    if which == "weights":
        (tmp_path / "g.manifest.json").write_text(json.dumps({
            "format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {
                "c": {"dataType": "float32", "shape": [2], "byteOffset": 8, "byteLength": 8}}}))
    os.mkfifo(fifo)
    args = {"graph": ["validate", fifo], "manifest": ["validate", g], "weights": ["validate", g],
            "input": ["run", graph(tmp_path / "r.json", {"y": "y"}), "--input", f"x={fifo}",
                      "--output-dir", tmp_path / "o"],
            "conformance": ["conformance", fifo]}[which]
    r = webnn(*args, timeout=30)  # a regression hangs here and fails by the timeout
    assert r.returncode != 0
    assert "not a regular file" in r.stderr


# ---- 7. Invalid input accepted ----

@pytest.mark.parametrize("op,options,missing", [
    ("softmax", {}, "axis"), ("concat", {}, "axis"), ("cumulativeSum", {}, "axis"), ("cast", {}, "dataType")])
def test_required_parameters_have_no_default(tmp_path, op, options, missing):
    g = graph(tmp_path / "g.json", {"y": "y"}, nodes=[{"id": "y", "op": op, "inputs": ["x"], "options": options}])
    r = webnn("validate", g)
    assert r.returncode == 2
    assert f'{op} needs its required parameter "{missing}"' in r.stderr


def test_split_without_splits_is_refused(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"},
              nodes=[{"id": "s", "op": "split", "inputs": ["x"], "options": {"axis": 0}, "outputs": ["y"]}])
    r = webnn("validate", g)
    assert r.returncode == 2 and 'needs its required parameter "splits"' in r.stderr


def test_garbage_after_a_nul_is_refused(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"})
    with open(g, "ab") as f:
        f.write(b"\0garbage")
    r = webnn("validate", g)
    assert r.returncode == 2 and "NUL byte" in r.stderr


def test_conformance_without_cases_fails(tmp_path):
    r = webnn("conformance", tmp_path)
    assert r.returncode != 0 and "no conformance case found" in r.stderr
    case = {"tests": [{"name": "relu x", "graph": {
        "inputs": {"x": {"data": [1.0], "descriptor": {"shape": [1], "dataType": "float32"}}},
        "operators": [{"name": "relu", "arguments": [{"input": "x"}], "outputs": "y"}],
        "expectedOutputs": {"y": {"data": [1.0], "descriptor": {"shape": [1], "dataType": "float32"}}}}}]}
    (tmp_path / "relu.json").write_text(json.dumps(case))
    assert webnn("conformance", tmp_path, "--backend", "reference").returncode == 0
    r = webnn("conformance", tmp_path, "--filter", "no such case")
    assert r.returncode != 0 and 'no conformance case matches --filter "no such case"' in r.stderr


def test_conformance_data_out_of_range_is_an_error(tmp_path):
    case = {"tests": [{"name": "int8 1000", "graph": {
        "inputs": {"x": {"data": [1000], "descriptor": {"shape": [1], "dataType": "int8"}}},
        "operators": [{"name": "relu", "arguments": [{"input": "x"}], "outputs": "y"}],
        "expectedOutputs": {"y": {"data": [-24], "descriptor": {"shape": [1], "dataType": "int8"}}}}}]}
    (tmp_path / "relu.json").write_text(json.dumps(case))
    r = webnn("conformance", tmp_path, "--backend", "reference")
    assert r.returncode == 1
    assert 'value "1000" does not fit int8' in r.stdout


def test_repeated_input_is_refused(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"})
    npy_f32(tmp_path / "a.npy", [1, 2], [2])
    npy_f32(tmp_path / "b.npy", [3, 4], [2])
    r = webnn("run", g, "--input", f"x={tmp_path / 'a.npy'}", "--input", f"x={tmp_path / 'b.npy'}",
              "--output-dir", tmp_path / "out")
    assert r.returncode == 2 and '--input "x" is given twice' in r.stderr
    assert not (tmp_path / "out").exists()


# ---- 8. Unclear errors ----

def test_output_directory_that_is_a_file(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"})
    npy_f32(tmp_path / "x.npy", [1, 2], [2])
    (tmp_path / "file").write_text("x")
    r = webnn("run", g, "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", tmp_path / "file")
    assert r.returncode == 2 and "not a directory" in r.stderr and "unexpected error" not in r.stderr
    r = webnn("run", g, "--input", f"x={tmp_path / 'x.npy'}", "--output-dir", "")
    assert r.returncode == 2 and "output directory is an empty path" in r.stderr


def test_messages_quote_bad_input_briefly(tmp_path):
    # A 100 KB name (the most one argument may hold), a 100 KB number, a 10^7-dimension shape: the message stays short.
    r = webnn("run", graph(tmp_path / "g.json", {"y": "y"}), "--input", "n" * 100000 + "=x.npy",
              "--output-dir", tmp_path / "o")
    assert r.returncode == 2 and len(r.stderr) < 1000 and "(100000 bytes)" in r.stderr
    g = tmp_path / "n.json"
    g.write_text(json.dumps({"format": "webnn-graph-json", "version": 2, "inputs": {}, "consts": {},
                             "nodes": [{"id": "y", "op": "softmax", "inputs": ["x"],
                                        "options": {"axis": "9" * 100000}}], "outputs": {"y": "y"}}))
    r = webnn("validate", g)
    assert r.returncode == 2 and len(r.stderr) < 1000, r.stderr[:300]
    g.write_text('{"format": "webnn-graph-json", "version": 2, "inputs": {"x": {"dataType": "float32", "shape": ['
                 + ",".join(["1"] * 10_000_000) + ']}}, "consts": {}, "nodes": [], "outputs": {"x": "x"}}')
    r = webnn("validate", g, timeout=120)
    assert r.returncode == 2 and len(r.stderr) < 1000, r.stderr[:300]


def test_a_nul_in_a_name_does_not_cut_the_message(tmp_path):
    g = graph(tmp_path / "g.json", {"y": "y"}, nodes=[{"id": "y", "op": "relu", "inputs": ["x\u0000hidden"]}])
    r = webnn("validate", g)
    assert r.returncode == 2 and '"x\\x00hidden"' in r.stderr


def test_info_with_a_bad_backend_prints_nothing(tmp_path):
    r = webnn("info", graph(tmp_path / "g.json", {"y": "y"}), "--backend", "bad")
    assert r.returncode == 2 and r.stdout == ""
    assert 'no backend named "bad"' in r.stderr
