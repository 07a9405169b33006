"""Decoder-only transformers through WebNN (issue 25; docs/transformers.md): the training example,
the generation example, and the graphs of examples/transformer_model.py against PyTorch.

Every expected value comes from PyTorch (examples/transformer_torch.py, the same hyper-parameters
written with PyTorch's operators), fed weights read from the checkpoint by a numpy reader of this
file, not by the code under test. The short training run (--steps 4) is shared by the tests.

WEBNN_TRANSFORMER_CHECKPOINT=DIR adds a checkpoint (a full training run) to the greedy and logits
comparisons; WEBNN_SMOLLM_STEPS=N sets the decode steps of the SmolLM-shaped comparison (default
32 on onednn, 8 on the reference backend).
"""
import dataclasses
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import webnn
from conftest import REPO, child_env

torch = pytest.importorskip("torch")

sys.path.insert(0, str(REPO / "examples"))
import train_text_model  # noqa: E402
import transformer_model as tm  # noqa: E402
import transformer_torch as tt  # noqa: E402

TRAIN = REPO / "examples" / "train_text_model.py"
GENERATE = REPO / "examples" / "text_generation_gpt.py"
BACKENDS = ["onednn", "reference"]
CORPUS = Path(train_text_model.DEFAULT_CORPUS)
# A socket that does not exist: a script that got as far as creating a context would fail on it,
# so an error message of its own proves that it stopped before any context (and any dispatch).
NO_SERVICE = "unix:/nonexistent/webnn-transformer-test.sock"


def run(script, *args, timeout=600):
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, env=child_env(),
                          timeout=timeout)


def read_checkpoint(directory):
    """(HyperParameters, weights) read with numpy from the manifest's offsets: independent of
    webnn.load_weights."""
    paths = tm.checkpoint_paths(directory)
    hp = tm.HyperParameters(**json.loads(Path(paths["hyper"]).read_text())["hyper_parameters"])
    manifest = json.loads(Path(paths["manifest"]).read_text())
    raw = Path(paths["weights"]).read_bytes()
    assert raw[:8] == b"WGWT\x01\x00\x00\x00"
    weights = {}
    for name, entry in manifest["tensors"].items():
        assert entry["dataType"] == "float32"
        start = entry["byteOffset"]
        weights[name] = np.frombuffer(raw[start:start + entry["byteLength"]], "<f4").reshape(entry["shape"])
    return hp, weights


def write_checkpoint(directory, hp, weights):
    directory.mkdir(parents=True, exist_ok=True)
    paths = tm.checkpoint_paths(directory)
    tm.write_weights(paths["weights"], paths["manifest"], weights)
    Path(paths["hyper"]).write_text(json.dumps(tm.hyper_parameters_document(hp)))
    return directory


@pytest.fixture(scope="session")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("trained")
    start = time.perf_counter()
    result = run(TRAIN, "--out", out, "--steps", 4)
    assert result.returncode == 0, result.stderr.decode()
    print(f"training --steps 4: {time.perf_counter() - start:.1f} s")
    return out


@pytest.fixture(scope="session")
def random_checkpoint(tmp_path_factory):
    """The trained model's shape with seeded random weights: its greedy tokens vary (a barely
    trained model's are mostly spaces), so a wrong token cannot hide. Learned positions, where
    the trained model has rotary ones: both kinds are compared with PyTorch."""
    hp = dataclasses.replace(train_text_model.HYPER_PARAMETERS, position="learned")
    weights = tm.random_weights(hp, seed=7)
    for name in weights:  # larger weights: sharper, more varied predictions
        if name.endswith(".weight") and "norm" not in name:
            weights[name] = weights[name] * 5
    return write_checkpoint(tmp_path_factory.mktemp("random"), hp, weights)


def checkpoints():
    kinds = ["trained", "random"]
    if os.environ.get("WEBNN_TRANSFORMER_CHECKPOINT"):
        kinds.append("env")
    return kinds


@pytest.fixture(params=checkpoints())
def checkpoint(request):
    if request.param == "env":
        return Path(os.environ["WEBNN_TRANSFORMER_CHECKPOINT"])
    return request.getfixturevalue({"trained": "trained", "random": "random_checkpoint"}[request.param])


def listing(*directories):
    return {str(p): p.stat().st_mtime_ns for d in directories for p in Path(d).rglob("*")}


# ---- Training ----

def test_training_loss_falls_and_the_checkpoint_is_what_was_trained(trained):
    doc = json.loads((trained / "model.json").read_text())
    record = doc["training"]
    assert record["steps"] == 4
    assert record["held_out_loss_after"] < record["held_out_loss_before"] - 0.3, record
    # The saved weights give the recorded loss on the same held-out windows (PyTorch).
    hp, weights = read_checkpoint(trained)
    model = tt.from_weights(hp, weights)
    data = np.frombuffer(CORPUS.read_bytes(), np.uint8)
    test = data[-(len(data) // 10):]
    T = hp.context_length
    batch = train_text_model.windows(test, np.linspace(0, len(test) - T - 1, 4).astype(int), T)
    with torch.no_grad():
        loss = float(train_text_model.loss_of(model, batch))
    assert loss == pytest.approx(record["held_out_loss_after"], abs=1e-3)
    # Everything the hyper-parameters name is there, and nothing else.
    assert set(weights) == set(tm.tensor_shapes(hp))
    assert not [p.name for p in trained.iterdir() if p.name.startswith(".")], "temporary files left"


def test_the_onnx_twin_is_a_valid_model_with_past_keys_and_values(trained):
    onnx = pytest.importorskip("onnx")
    model = onnx.load(str(trained / "model.onnx"))
    onnx.checker.check_model(model)
    inputs = [i.name for i in model.graph.input]
    outputs = [o.name for o in model.graph.output]
    assert inputs[:3] == ["input_ids", "past_key.0", "past_value.0"]
    assert outputs[:3] == ["logits", "present_key.0", "present_value.0"]
    assert len(inputs) == 1 + 2 * train_text_model.HYPER_PARAMETERS.layers


def run_in_ort(model, feeds, directory):
    """Runs model in ONNX Runtime (tools/ort/ort_run.mjs run, one thread) on feeds ({name: array});
    the outputs are written to directory/out/NAME.npy."""
    args = ["node", str(REPO / "tools" / "ort" / "ort_run.mjs"), "run", str(model), "--output-dir",
            str(directory / "out"), "--threads", "1"]
    for name, array in feeds.items():
        np.save(directory / f"{name}.npy", array)
        args += ["--input", f"{name}={directory / f'{name}.npy'}"]
    subprocess.run(args, check=True, capture_output=True, timeout=300)


def ort_available():
    return shutil.which("node") is not None and (REPO / "tools" / "ort" / "node_modules" / "onnxruntime-node").exists()


@pytest.mark.skipif(not ort_available(), reason="node or onnxruntime-node is missing (scripts/setup.sh)")
@pytest.mark.parametrize("length, past", [(5, 0), (1, 7)])
def test_the_onnx_twin_runs_in_onnx_runtime_like_pytorch(trained, tmp_path, length, past):
    """The export with dynamic lengths: a prompt with no past, one token after seven positions."""
    hp, weights = read_checkpoint(trained)
    rng = np.random.default_rng(length)
    ids = rng.integers(0, 256, (1, length)).astype(np.int64)
    cache = [tuple(rng.standard_normal((1, hp.kv_heads, past, hp.head_dim)).astype(np.float32) for _ in "kv")
             for _ in range(hp.layers)]
    feeds = {"input_ids": ids}
    for i, (k, v) in enumerate(cache):
        feeds[f"past_key.{i}"], feeds[f"past_value.{i}"] = k, v
    run_in_ort(trained / "model.onnx", feeds, tmp_path)
    with torch.no_grad():
        past_cache = [(torch.from_numpy(k), torch.from_numpy(v)) for k, v in cache] if past else None
        logits, present = tt.from_weights(hp, weights)(torch.from_numpy(ids), past_cache)
    np.testing.assert_allclose(np.load(tmp_path / "out" / "logits.npy"), logits.numpy(), rtol=0, atol=1e-4)
    last = hp.layers - 1
    np.testing.assert_allclose(np.load(tmp_path / "out" / f"present_value.{last}.npy"), present[last][1].numpy(),
                               rtol=0, atol=1e-5)


@pytest.mark.skipif(not ort_available(), reason="node or onnxruntime-node is missing (scripts/setup.sh)")
def test_bench_decode_drives_onnx_runtime_to_pytorchs_greedy_tokens_in_float32_and_int8(random_checkpoint, tmp_path):
    """bench/decode.py's ONNX Runtime runner: the Hugging Face-style export driven step by step by
    `ort_run.mjs decode` (presents fed back as pasts) chooses PyTorch's greedy tokens, and its int8
    rewrite (MatMulNBits, 8 bits, blocks of 32, accuracy level 0) those of PyTorch on
    quantize_int8(weights, 32)'s dequantized weights, which are webnn's int8 weights."""
    sys.path.insert(0, str(REPO / "bench"))
    import decode

    hp, weights = read_checkpoint(random_checkpoint)
    ids = np.random.default_rng(5).integers(0, 256, 40)
    np.save(tmp_path / "ids.npy", ids.astype(np.int64))
    steps, context = 6, 30
    paths = decode.export(hp, weights, str(tmp_path), 32, [0])
    prompt = ids[:context - steps].tolist()
    runs = {"float32": (paths["float32"], weights),
            "int8": (paths[0], tm.dequantized(tm.quantize_int8(weights, 32)))}
    for kind, (path, values) in runs.items():
        runner = decode.OrtRunner(path, str(tmp_path / "ids.npy"), 1, 8, [context], steps)
        try:
            result = runner.run()
        finally:
            runner.close()
        assert runner.process.returncode == 0
        expected = tt.greedy(tt.from_weights(hp, values), prompt, steps + 1)
        assert result["tokens"][context] == expected, kind
        assert result["first_ms"] > 0 and result["decode"][context] > 0
    # The rewrite's arithmetic: a prompt's logits are PyTorch's on the dequantized weights, and
    # differ from the float32 model's by more than that (the weights are quantized).
    feeds = {"input_ids": ids[None, :8].astype(np.int64)}
    empty = np.zeros((1, hp.kv_heads, 0, hp.head_dim), np.float32)
    for i in range(hp.layers):
        feeds[f"past_key.{i}"] = feeds[f"past_value.{i}"] = empty
    run_in_ort(paths[0], feeds, tmp_path)
    got = np.load(tmp_path / "out" / "logits.npy")
    with torch.no_grad():
        want = tt.from_weights(hp, runs["int8"][1])(torch.from_numpy(ids[None, :8].astype(np.int64)))[0].numpy()
        float32 = tt.from_weights(hp, weights)(torch.from_numpy(ids[None, :8].astype(np.int64)))[0].numpy()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)
    assert np.abs(got - float32).max() > 1e-2


def test_load_weights_reads_what_was_written(trained):
    hp, expected = read_checkpoint(trained)
    got = webnn.load_weights(trained / "model.manifest.json")
    assert set(got) == set(expected)
    for name, array in expected.items():
        assert got[name].dtype == np.float32 and not got[name].flags.writeable
        np.testing.assert_array_equal(got[name], array)


# ---- Correctness against PyTorch ----

@pytest.mark.parametrize("backend", BACKENDS)
def test_256_greedy_tokens_match_pytorch(checkpoint, backend):
    hp, weights = read_checkpoint(checkpoint)
    prompt = b"This License"
    expected = bytes(tt.greedy(tt.from_weights(hp, weights), list(prompt), 256))
    result = run(GENERATE, checkpoint, "--prompt", prompt.decode(), "--max-tokens", 256, "--greedy",
                 "--backend", backend)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected + b"\n"
    assert b"first token after" in result.stderr and b"tokens/s" in result.stderr
    if checkpoint.name.startswith("random"):
        assert len(set(expected)) > 20  # the comparison is not between two runs of one repeated byte


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prompt_length", [1, 64, 200])
def test_decode_logits_match_pytorch_at_positions_1_64_128_255(checkpoint, backend, prompt_length):
    # The cache's chunks are 64 positions (tm.CHUNK): a prompt of 1 leaves the prefill's row in the
    # chunk; a prompt of 64 fills the main cache and leaves the chunk empty; 128 and 255 come after
    # flushes of decode-written chunks. Both checkpoints have an attention window of 128: a prompt
    # of 200 narrows the prefill's mask, and every position from 128 on narrows the decode's.
    assert tm.CHUNK == 64
    assert train_text_model.HYPER_PARAMETERS.attention_window == 128
    hp, weights = read_checkpoint(checkpoint)
    tokens = list(CORPUS.read_bytes()[:256])
    with torch.no_grad():
        expected = tt.from_weights(hp, weights)(torch.tensor([tokens]))[0][0].numpy()
    checked = [p for p in (1, 64, 128, 255) if p >= prompt_length]
    context = webnn.ML().create_context(backend=backend)
    try:
        model = tm.Model(context, *tm.load_checkpoint(checkpoint))
        gen = model.generator(cache_length=hp.context_length, prompt_length=prompt_length)
        gen.prefill(tokens[:prompt_length])
        for position in range(prompt_length, 256):
            result = gen.step(tokens[position], want_logits=position in checked)
            if position in checked:
                np.testing.assert_allclose(result["logits"], expected[position], rtol=0, atol=1e-4,
                                           err_msg=f"position {position}")
                assert result["next"] == int(np.argmax(expected[position]))
    finally:
        context.destroy()


SMOLLM_PROMPT = 8


@pytest.fixture(scope="module")
def smollm():
    """SmolLM-135M's shape with seeded random weights, tokens, and the PyTorch twin's logits for the
    prompt and each of 32 decode steps (its own cache growing by concatenation)."""
    hp = tm.SMOLLM_135M
    weights = tm.random_weights(hp, seed=135)
    tokens = np.random.default_rng(0).integers(0, hp.vocab_size, SMOLLM_PROMPT + 32).tolist()
    reference = tt.from_weights(hp, weights)
    with torch.no_grad():
        logits, cache = reference(torch.tensor([tokens[:SMOLLM_PROMPT]]))
        expected = [logits[0, -1].numpy()]
        for t in tokens[SMOLLM_PROMPT:-1]:
            logits, cache = reference(torch.tensor([[t]]), cache)
            expected.append(logits[0, -1].numpy())
    return hp, weights, tokens, expected


@pytest.mark.parametrize("backend", BACKENDS)
def test_smollm_shaped_llama_matches_pytorch(smollm, backend):
    """The prompt's logits and those of each decode step within 1e-3 of the PyTorch twin's: 32
    steps on onednn, 8 on the reference backend (1.2 s a step here);
    WEBNN_SMOLLM_STEPS=32 runs all 32 on both."""
    hp, weights, tokens, expected = smollm
    steps = int(os.environ.get("WEBNN_SMOLLM_STEPS", "32" if backend == "onednn" else "8"))
    context = webnn.ML().create_context(backend=backend)
    try:
        gen = tm.Model(context, hp, weights).generator(cache_length=SMOLLM_PROMPT + steps,
                                                       prompt_length=SMOLLM_PROMPT)
        got = [gen.prefill(tokens[:SMOLLM_PROMPT], want_logits=True)["logits"]]
        got += [gen.step(t, want_logits=True)["logits"] for t in tokens[SMOLLM_PROMPT:SMOLLM_PROMPT + steps - 1]]
    finally:
        context.destroy()
    assert len(got) == steps
    for step, g in enumerate(got):
        np.testing.assert_allclose(g, expected[step], rtol=0, atol=1e-3, err_msg=f"decode step {step}")
    assert np.abs(np.array(expected)).max() > 0.1  # logits of a useful size, not all near zero


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("int8", ["channel", "32"])
def test_int8_weights_give_pytorchs_greedy_tokens_on_the_dequantized_weights(random_checkpoint, backend, int8):
    """Weight-only int8 (per output channel, blocks of 32): 128 greedy tokens of the example script
    identical to the PyTorch twin's on the dequantized weights."""
    hp, weights = read_checkpoint(random_checkpoint)
    quantized = tm.quantize_int8(weights, 0 if int8 == "channel" else int(int8))
    assert all(isinstance(quantized[n], tm.Int8Weight) for n in weights if n.endswith("mlp.up.weight"))
    prompt = b"This License"
    expected = bytes(tt.greedy(tt.from_weights(hp, tm.dequantized(quantized)), list(prompt), 128))
    result = run(GENERATE, random_checkpoint, "--prompt", prompt.decode(), "--max-tokens", 128, "--greedy",
                 "--backend", backend, "--int8", int8)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == expected + b"\n"
    assert len(set(expected)) > 20
    # int8 changes the model: the float32 weights' tokens differ somewhere (the comparison above is
    # with the dequantized twin, not the float32 one).
    assert expected != bytes(tt.greedy(tt.from_weights(hp, weights), list(prompt), 128))


@pytest.mark.parametrize("backend", BACKENDS)
def test_smollm_shaped_llama_in_int8_gives_pytorchs_greedy_tokens(smollm, backend):
    """The 135M model with int8 weights in blocks of 64: greedy tokens identical to the PyTorch
    twin's on the dequantized weights (16 on onednn, 4 on the reference backend), and its logits
    within 1e-3 of the twin's."""
    hp, weights, tokens, _ = smollm
    quantized = tm.quantize_int8(weights, 64)
    steps = 16 if backend == "onednn" else 4
    prompt = tokens[:SMOLLM_PROMPT]
    twin = tt.from_weights(hp, tm.dequantized(quantized))
    with torch.no_grad():
        expected_logits = twin(torch.tensor([prompt]))[0][0, -1].numpy()
    expected = tt.greedy(twin, prompt, steps)
    context = webnn.ML().create_context(backend=backend)
    try:
        gen = tm.Model(context, hp, quantized).generator(cache_length=SMOLLM_PROMPT + steps, prompt_length=SMOLLM_PROMPT)
        first = gen.prefill(prompt, want_logits=True)
        got = [first["next"]]
        while len(got) < steps:
            got.append(gen.step(got[-1])["next"])
    finally:
        context.destroy()
    np.testing.assert_allclose(first["logits"], expected_logits, rtol=0, atol=1e-3)
    assert got == expected


class _ExportStep(torch.nn.Module):
    """The decoder as Hugging Face's exports call it: ids and the past keys/values in, logits and
    the present keys/values out."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids, *past):
        logits, present = self.model(ids, [(past[2 * i], past[2 * i + 1]) for i in range(len(past) // 2)])
        return (logits, *[t for kv in present for t in kv])


@pytest.mark.parametrize("backend, size", [(backend, "cut") for backend in BACKENDS] + [("onednn", "full")])
def test_a_grouped_query_decoder_exported_by_pytorch_imports_and_runs(backend, size, tmp_path, request):
    """Item 6: the Llama decoder of SmolLM-135M's shape (9 query heads over 3 key/value heads,
    RMSNorm, rotary positions, SwiGLU) — "full": all of it, 30 layers and the 49,152-token
    vocabulary, with the weights of the other SmolLM tests; "cut": 2 layers and a 512-token
    vocabulary, on both backends — exported by torch.onnx.export (opset 17, static shapes: 3 new
    tokens after 7 past positions), imported and run by WebNN: logits and present keys/values
    within 1e-3 of PyTorch's. Its shape arithmetic (the rotary table's Einsum outer product, the
    key/value heads' expand) is known at import and folded."""
    onnx = pytest.importorskip("onnx")
    if size == "full":
        hp, weights = request.getfixturevalue("smollm")[:2]
    else:
        hp = dataclasses.replace(tm.SMOLLM_135M, vocab_size=512, layers=2, context_length=64)
        weights = tm.random_weights(hp, 3)
    model = tt.from_weights(hp, weights).eval()
    rng = np.random.default_rng(4)
    past = [rng.standard_normal((1, hp.kv_heads, 7, hp.head_dim)).astype(np.float32) for _ in range(2 * hp.layers)]
    ids = np.array([[5, 17, 42]], np.int64)
    names = [f"past{i}" for i in range(len(past))]
    path = tmp_path / "decoder.onnx"
    with torch.no_grad():
        step = _ExportStep(model)
        expected = [t.numpy() for t in step(torch.from_numpy(ids), *map(torch.from_numpy, past))]
        torch.onnx.export(step, (torch.from_numpy(ids), *map(torch.from_numpy, past)), str(path), opset_version=17,
                          input_names=["ids", *names], output_names=["logits", *[f"present{i}" for i in range(len(past))]])
    assert "Einsum" in {n.op_type for n in onnx.load(str(path)).graph.node}
    graph = webnn.load(str(path))
    context = webnn.ML().create_context(backend=backend)
    try:
        got = context.compute(graph, {"ids": ids, **dict(zip(names, past))})
    finally:
        context.destroy()
    np.testing.assert_allclose(got["logits"], expected[0], rtol=0, atol=1e-3)
    for i in range(len(past)):
        np.testing.assert_allclose(got[f"present{i}"], expected[1 + i], rtol=0, atol=1e-3)
    assert np.abs(expected[0]).max() > 0.1


def test_the_cache_never_crosses_to_host(random_checkpoint):
    context = webnn.ML().create_context(backend="reference")
    try:
        model = tm.Model(context, *tm.load_checkpoint(random_checkpoint))
        gen = model.generator(cache_length=16, prompt_length=2)
        gen.prefill([1, 2])
        gen.step(3)
        for cache in gen.caches + gen.chunks:
            for tensor in cache.values():
                assert not tensor.readable and not tensor.writable
                with pytest.raises(webnn.TypeError):
                    context.read_tensor(tensor)
        # Only these cross: the tokens and the position in, the logits and the id out.
        host = {gen.tokens, gen.token, gen.position_tensor, gen.start, gen.logits, gen.next}
        assert all(t.writable != t.readable for t in host)
    finally:
        context.destroy()


def test_generation_through_the_service_is_the_same(random_checkpoint, tmp_path):
    """--remote: the graphs, the constant weights and the caches live in the service's worker."""
    path = str(tmp_path / "webnn.sock")
    service = webnn.Service(path)
    try:
        remote = run(GENERATE, random_checkpoint, "--prompt", "The", "--max-tokens", 64, "--backend", "reference",
                     "--remote", "unix:" + path)
    finally:
        service.stop()
    local = run(GENERATE, random_checkpoint, "--prompt", "The", "--max-tokens", 64, "--backend", "reference")
    assert remote.returncode == 0, remote.stderr.decode()
    assert remote.stdout == local.stdout and len(remote.stdout) == 65


# ---- Sampling ----

def generate(checkpoint, *args):
    result = run(GENERATE, checkpoint, "--prompt", "The", "--max-tokens", 40, "--backend", "reference", *args)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def test_sampling_is_seeded_and_top_k_1_is_greedy(random_checkpoint):
    sampled = generate(random_checkpoint, "--temperature", "1.0", "--top-k", "20", "--seed", "5")
    assert sampled == generate(random_checkpoint, "--temperature", "1.0", "--top-k", "20", "--seed", "5")
    others = {generate(random_checkpoint, "--temperature", "1.0", "--top-k", "20", "--seed", str(s)) for s in (6, 7)}
    assert others - {sampled}
    assert generate(random_checkpoint, "--temperature", "0.7", "--top-k", "1", "--seed", "9") == \
        generate(random_checkpoint, "--greedy")


# ---- Bad input ----

def corrupt(checkpoint, tmp_path, how):
    bad = tmp_path / "bad"
    shutil.copytree(checkpoint, bad)
    paths = tm.checkpoint_paths(bad)
    doc = json.loads(Path(paths["hyper"]).read_text())
    if how == "hidden":
        doc["hyper_parameters"]["hidden"] = 256
    elif how == "layers":
        doc["hyper_parameters"]["layers"] = 5
    elif how == "heads":
        doc["hyper_parameters"]["heads"] = 5
    elif how == "window":
        doc["hyper_parameters"]["attention_window"] = 0
    elif how == "truncated":
        with open(paths["weights"], "r+b") as f:
            f.truncate(os.path.getsize(paths["weights"]) // 2)
    Path(paths["hyper"]).write_text(json.dumps(doc))
    return bad


@pytest.mark.parametrize("case, args, message", [
    ("long prompt", ["--prompt", "x" * 513], "the prompt is 513 tokens, longer than the model's context of 512"),
    ("empty prompt", ["--prompt", ""], "the prompt is empty"),
    ("max tokens", ["--prompt", "abc", "--max-tokens", "510"],
     "--max-tokens 510 goes past the model's context: the prompt's 3 tokens leave room for at most 509"),
    ("hidden", ["--prompt", "abc"], "tensor 'embedding.weight' has shape [256, 192], but the hyper-parameters"),
    ("layers", ["--prompt", "abc"], "tensor 'layers.4.attention_norm.weight' is missing"),
    ("heads", ["--prompt", "abc"], "hidden (192) must be a multiple of heads (5)"),
    ("window", ["--prompt", "abc"], "hyper-parameter attention_window must be a positive integer or null, got 0"),
    ("truncated", ["--prompt", "abc"], "is beyond the end of"),
])
def test_bad_input_is_an_error_before_any_dispatch(random_checkpoint, tmp_path, case, args, message):
    checkpoint = corrupt(random_checkpoint, tmp_path, case) if case in ("hidden", "layers", "heads", "window",
                                                                         "truncated") else random_checkpoint
    work = tmp_path / "cwd"
    work.mkdir()
    before = listing(checkpoint, work)
    result = subprocess.run([sys.executable, str(GENERATE), str(checkpoint), *args, "--remote", NO_SERVICE],
                            capture_output=True, env=child_env(), cwd=work, timeout=120)
    assert result.returncode == 2
    assert message in result.stderr.decode(), result.stderr.decode()
    assert result.stdout == b""
    assert listing(checkpoint, work) == before


def test_ctrl_c_stops_generation_leaving_nothing(random_checkpoint, tmp_path):
    work = tmp_path / "cwd"
    work.mkdir()
    before = listing(random_checkpoint, work)
    proc = subprocess.Popen([sys.executable, str(GENERATE), str(random_checkpoint), "--prompt", "a",
                             "--max-tokens", "500", "--backend", "reference"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(), cwd=work)
    try:
        assert proc.stdout.read(1)  # generating
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err.decode()
    assert b"interrupted" in err
    assert len(out) < 499  # stopped early
    assert listing(random_checkpoint, work) == before


def test_ctrl_c_stops_training_leaving_nothing(tmp_path):
    out = tmp_path / "never"
    proc = subprocess.Popen([sys.executable, str(TRAIN), "--out", str(out), "--steps", "1000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(), cwd=tmp_path)
    try:
        seen = b""
        deadline = time.monotonic() + 300
        while b"step 1/" not in seen and time.monotonic() < deadline:
            if select.select([proc.stderr], [], [], 1)[0]:
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
        assert b"step 1/" in seen, seen.decode()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, (seen + err).decode()
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
