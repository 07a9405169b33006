"""The examples of examples/python run and print what they promise."""
import subprocess
import sys

from conftest import REPO, child_env, shared_path

EXAMPLES = REPO / "examples" / "python"


def run(*args):
    # The examples import the same webnn as these tests (build tree or installed package).
    return subprocess.run([sys.executable, *map(str, args)], check=True, capture_output=True, text=True,
                          env=child_env(), timeout=600).stdout


def test_build_graph_example():
    out = run(EXAMPLES / "build_graph.py")
    assert "webnn agrees with numpy" in out
    assert "dispatch():" in out and "asyncio:" in out


def test_run_model_example_on_an_image():
    model = shared_path("models", "mobilenetv2")
    out = run(EXAMPLES / "run_model.py", model / "mobilenetv2.json", model / "test.jpg", "--runs", "2")
    assert "output embedding: float32[1, 1280]" in out
    assert "first run (with compilation)" in out and "2 runs: median" in out


def test_run_model_example_on_npy(tmp_path):
    model = shared_path("models", "mobilenetv2")
    out = run(EXAMPLES / "run_model.py", model / "mobilenetv2.webnn", model / "input.npy", "--runs", "0", "--top", "3")
    assert "top 3:" in out
