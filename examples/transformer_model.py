"""Decoder-only transformers through the WebNN Python API, with the KV cache in MLTensors.

One module builds every model of docs/transformers.md from its hyper-parameters: the small
byte-level GPT that examples/train_text_model.py trains (LayerNorm, learned positions, GELU, biases)
and the Llama-architecture decoder with SmolLM-135M's shape (RMSNorm, rotary positions, SwiGLU,
grouped-query attention, tied embeddings), and anything between them. numpy and webnn only: no
PyTorch here (examples/transformer_torch.py is the independent PyTorch twin).

    import webnn, transformer_model as tm
    hp, weights = tm.load_checkpoint("DIR")             # DIR/model.json + model.manifest.json + model.weights
    context = webnn.ML().create_context(backend="onednn")
    model = tm.Model(context, hp, weights)             # weights become constant MLTensors, once
    gen = model.generator(cache_length=256, prompt_length=5)
    first = gen.prefill(np.array([72, 101, 108, 108, 111]))     # {"next": id, "logits": ...}
    out = gen.step(first["next"])                      # one token in; the caches stay in MLTensors

The cache design (docs/transformers.md, "The graphs and the cache"): each layer keeps K
transposed, [kv_heads, head_dim, T], and V as [kv_heads, T, head_dim], for a cache length T fixed
when the graphs are built, in two parts: the main cache, which holds the positions of finished
chunks of C positions and which a decode step only reads, and the chunk, [.., C] / [C, ..], which
holds the positions of the chunk being filled. A dispatch may not read and write one tensor, so
each part has two sets of tensors: a decode step reads one chunk set and writes the other,
putting the new column / row in with scatterElements at the position's offset in its chunk (a
copy of C positions, not of T); once a chunk is full, a flush dispatch writes it into the other
main set (a copy of T positions once every C steps). Attention reads both parts, with a -inf bias
on the positions not yet written, computed in the graph from the int32 position input. Only the
token and the position go in, only the logits and the arg-max id come out.

Weight-only int8 (docs/transformers.md, "int8"): quantize_int8(weights, block) turns every linear
layer's matrix and the embedding table into Int8Weight (int8 values, a float32 scale per row or per
block of a row, zero points 0); the graphs then read them through dequantizeLinear, which the
onednn backend runs inside the matrix products, never writing the float32 copy.

    model = tm.Model(context, hp, tm.quantize_int8(weights, block=32))
"""
import dataclasses
import json
import math
import os

import numpy as np

CHECKPOINT_NAME = "model"
FORMAT = "webnn-cpp-transformer"
# The constant tensors of an Int8Weight `name`: name (int8), name + SCALE, name + ZERO.
SCALE, ZERO = "#scale", "#zero"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: the message names the file, the tensor or the field."""


def _is_positive_int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


@dataclasses.dataclass(frozen=True)
class HyperParameters:
    vocab_size: int
    context_length: int
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    mlp_hidden: int
    norm: str = "layer_norm"  # or "rms_norm"
    norm_eps: float = 1e-5
    position: str = "learned"  # or "rope"
    rope_theta: float = 10000.0
    activation: str = "gelu"  # or "swiglu" (SiLU-gated)
    bias: bool = True  # biases on every linear layer
    tied_embeddings: bool = True  # the output projection is the embedding matrix
    tokenizer: str = "bytes"  # "bytes": token i is byte i; "none": ids only
    # None: a position sees every earlier one; W: itself and the W - 1 before it (a sliding
    # window, as Mistral's; docs/transformers.md)
    attention_window: int | None = None

    @property
    def head_dim(self):
        return self.hidden // self.heads

    @property
    def group(self):
        """Query heads per key/value head."""
        return self.heads // self.kv_heads

    def check(self):
        """Raises CheckpointError naming the first field that is out of range or inconsistent."""
        for name in ("vocab_size", "context_length", "layers", "hidden", "heads", "kv_heads", "mlp_hidden"):
            value = getattr(self, name)
            if not _is_positive_int(value):
                raise CheckpointError(f"hyper-parameter {name} must be a positive integer, got {value!r}")
        choices = {"norm": ("layer_norm", "rms_norm"), "position": ("learned", "rope"),
                   "activation": ("gelu", "swiglu"), "tokenizer": ("bytes", "none")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise CheckpointError(f"hyper-parameter {name} must be one of {', '.join(allowed)}, "
                                      f"got {getattr(self, name)!r}")
        for name in ("bias", "tied_embeddings"):
            if not isinstance(getattr(self, name), bool):
                raise CheckpointError(f"hyper-parameter {name} must be true or false")
        for name in ("norm_eps", "rope_theta"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise CheckpointError(f"hyper-parameter {name} must be a positive number, got {value!r}")
        window = self.attention_window
        if window is not None and not _is_positive_int(window):
            raise CheckpointError("hyper-parameter attention_window must be a positive integer or null, "
                                  f"got {window!r}")
        if self.hidden % self.heads:
            raise CheckpointError(f"hidden ({self.hidden}) must be a multiple of heads ({self.heads})")
        if self.heads % self.kv_heads:
            raise CheckpointError(f"heads ({self.heads}) must be a multiple of kv_heads ({self.kv_heads})")
        if self.position == "rope" and self.head_dim % 2:
            raise CheckpointError(f"rotary positions need an even head size, got {self.head_dim}")
        if self.tokenizer == "bytes" and self.vocab_size != 256:
            raise CheckpointError(f"a byte-level tokenizer needs vocab_size 256, got {self.vocab_size}")

    def to_json(self):
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, fields, origin="hyper-parameters"):
        if not isinstance(fields, dict):
            raise CheckpointError(f"{origin}: expected a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise CheckpointError(f"{origin}: unknown hyper-parameter {unknown[0]!r}")
        required = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING}
        missing = sorted(required - set(fields))
        if missing:
            raise CheckpointError(f"{origin}: hyper-parameter {missing[0]!r} is missing")
        hp = cls(**fields)
        try:
            hp.check()
        except CheckpointError as e:
            raise CheckpointError(f"{origin}: {e}") from None
        return hp


# SmolLM-135M's shape (issue 25, item 4): weights are seeded random (random_weights), not SmolLM's.
SMOLLM_135M = HyperParameters(vocab_size=49152, context_length=2048, layers=30, hidden=576, heads=9,
                              kv_heads=3, mlp_hidden=1536, norm="rms_norm", norm_eps=1e-5,
                              position="rope", rope_theta=10000.0, activation="swiglu", bias=False,
                              tied_embeddings=True, tokenizer="none")


def tensor_shapes(hp):
    """Every tensor of a checkpoint with these hyper-parameters: {name: shape}. Linear layers are
    [out_features, in_features], as PyTorch stores them."""
    d, hd = hp.hidden, hp.head_dim
    shapes = {"embedding.weight": (hp.vocab_size, d)}
    if hp.position == "learned":
        shapes["position.weight"] = (hp.context_length, d)

    def linear(name, out_features, in_features):
        shapes[name + ".weight"] = (out_features, in_features)
        if hp.bias:
            shapes[name + ".bias"] = (out_features,)

    def norm(name):
        shapes[name + ".weight"] = (d,)
        if hp.norm == "layer_norm":
            shapes[name + ".bias"] = (d,)

    for i in range(hp.layers):
        p = f"layers.{i}."
        norm(p + "attention_norm")
        linear(p + "attention.q", hp.heads * hd, d)
        linear(p + "attention.k", hp.kv_heads * hd, d)
        linear(p + "attention.v", hp.kv_heads * hd, d)
        linear(p + "attention.o", d, hp.heads * hd)
        norm(p + "mlp_norm")
        if hp.activation == "swiglu":
            linear(p + "mlp.gate", hp.mlp_hidden, d)
        linear(p + "mlp.up", hp.mlp_hidden, d)
        linear(p + "mlp.down", d, hp.mlp_hidden)
    norm("norm")
    if not hp.tied_embeddings:
        shapes["lm_head.weight"] = (hp.vocab_size, d)
    return shapes


def parameter_count(hp):
    return sum(math.prod(s) for s in tensor_shapes(hp).values())


def check_tensors(hp, weights, origin="checkpoint"):
    """Raises CheckpointError when the tensors are not exactly those the hyper-parameters imply."""
    expected = tensor_shapes(hp)
    for name, shape in expected.items():
        if name not in weights:
            raise CheckpointError(f"{origin}: tensor {name!r} is missing (the hyper-parameters need it, "
                                  f"shape {list(shape)})")
        array = weights[name]
        if isinstance(array, Int8Weight):
            array = array.q if is_quantizable(name, shape) else None
            if array is None:
                raise CheckpointError(f"{origin}: tensor {name!r} cannot be int8 (only the matrices are)")
        elif array.dtype != np.float32:
            raise CheckpointError(f"{origin}: tensor {name!r} is {array.dtype}, expected float32")
        if tuple(array.shape) != shape:
            raise CheckpointError(f"{origin}: tensor {name!r} has shape {list(array.shape)}, but the "
                                  f"hyper-parameters ({describe(hp)}) make it {list(shape)}")
    extra = sorted(set(weights) - set(expected))
    if extra:
        raise CheckpointError(f"{origin}: tensor {extra[0]!r} is not part of a model with these "
                              f"hyper-parameters ({describe(hp)})")


def describe(hp):
    return (f"layers {hp.layers}, hidden {hp.hidden}, heads {hp.heads}, kv_heads {hp.kv_heads}, "
            f"mlp_hidden {hp.mlp_hidden}, vocab_size {hp.vocab_size}, context_length {hp.context_length}")


# ---- Checkpoint files: DIR/model.json, DIR/model.manifest.json, DIR/model.weights ----

def checkpoint_paths(directory):
    base = os.path.join(os.fspath(directory), CHECKPOINT_NAME)
    return {"hyper": base + ".json", "manifest": base + ".manifest.json", "weights": base + ".weights",
            "onnx": base + ".onnx"}


def write_weights(weights_path, manifest_path, tensors):
    """Writes tensors ({name: float32 ndarray}) as a WGWT weights file and its wg-weights-manifest
    (docs/formats.md): an 8-byte header, each tensor at a 64-byte boundary."""
    entries = {}
    with open(weights_path, "wb") as f:
        f.write(b"WGWT" + (1).to_bytes(4, "little"))
        offset = 8
        for name, array in tensors.items():
            array = np.ascontiguousarray(array, dtype="<f4")
            pad = -offset % 64
            f.write(b"\0" * pad)
            offset += pad
            f.write(array.tobytes())
            entries[name] = {"dataType": "float32", "shape": list(array.shape), "byteOffset": offset,
                             "byteLength": array.nbytes, "layout": "row-major"}
            offset += array.nbytes
    with open(manifest_path, "w") as f:
        json.dump({"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": entries},
                  f, indent=1)
        f.write("\n")


def hyper_parameters_document(hp, **extra):
    return {"format": FORMAT, "version": 1, "hyper_parameters": hp.to_json(), **extra}


def load_hyper_parameters(directory):
    path = checkpoint_paths(directory)["hyper"]
    try:
        with open(path) as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise CheckpointError(f"{path}: no such file (a checkpoint directory holds {CHECKPOINT_NAME}.json, "
                              f"{CHECKPOINT_NAME}.manifest.json and {CHECKPOINT_NAME}.weights)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CheckpointError(f"{path}: cannot be read as JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") != 1:
        raise CheckpointError(f"{path}: not a {FORMAT} version 1 file")
    return HyperParameters.from_json(doc.get("hyper_parameters"), path), doc


def load_checkpoint(directory):
    """(HyperParameters, {name: read-only float32 ndarray}), every tensor checked against the
    hyper-parameters. The weights file is read through webnn.load_weights, which checks the
    manifest against the file (a truncated file is a DataError naming the tensor)."""
    import webnn

    hp, _ = load_hyper_parameters(directory)
    paths = checkpoint_paths(directory)
    weights = webnn.load_weights(paths["manifest"], paths["weights"])
    check_tensors(hp, weights, paths["manifest"])
    return hp, weights


def random_weights(hp, seed):
    """Seeded random weights for these hyper-parameters: linear layers and embeddings N(0, 0.02),
    as Llama and GPT-2 initialise them; norm scales 1 + N(0, 0.1) and biases N(0, 0.02), so that
    none is an identity a bug could hide behind."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, shape in tensor_shapes(hp).items():
        if name.endswith("norm.weight"):
            out[name] = (1 + 0.1 * rng.standard_normal(shape, np.float32)).astype(np.float32)
        else:
            out[name] = (0.02 * rng.standard_normal(shape, np.float32)).astype(np.float32)
    return out


class Int8Weight:
    """A weight-only int8 matrix: q int8 [rows, cols] and scale float32 [rows, cols // block], one
    per row's block of `block` columns (block == cols: one per row, i.e. per output channel of a
    linear layer), zero points 0. Its value is q * scale, in float32, as dequantizeLinear gives it."""

    def __init__(self, q, scale):
        self.q = np.ascontiguousarray(q, np.int8)
        self.scale = np.ascontiguousarray(scale, np.float32)
        if self.q.ndim != 2 or self.scale.ndim != 2 or self.scale.shape[0] != self.q.shape[0] or \
                self.scale.shape[1] == 0 or self.q.shape[1] % self.scale.shape[1]:
            raise ValueError(f"Int8Weight: scale {list(self.scale.shape)} does not divide q {list(self.q.shape)} "
                             "into blocks of rows")
        self.shape, self.dtype = self.q.shape, np.dtype(np.float32)
        self.block = self.q.shape[1] // self.scale.shape[1]

    def dequantized(self):
        return self.q.astype(np.float32) * np.repeat(self.scale, self.block, axis=1)


def is_quantizable(name, shape):
    """The matrices quantize_int8 turns into int8: every linear layer's weight and the embedding
    tables (norm scales, biases and learned positions stay float32)."""
    return len(shape) == 2 and name.endswith(".weight") and name != "position.weight"


def quantize_int8(weights, block=0):
    """Weight-only int8 of a checkpoint's tensors: each quantizable matrix (is_quantizable) as an
    Int8Weight, symmetric, with one scale per row (block 0) or per `block` columns of a row (32, 64,
    128: block-wise, as dequantizeLinear's block scales express); scale = max |w| / 127 over the
    block, q = round(w / scale). The other tensors are returned as they are."""
    return {name: quantize_matrix(w, block, name) if is_quantizable(name, w.shape) else w
            for name, w in weights.items()}


def quantize_matrix(w, block=0, name="matrix"):
    """One [rows, cols] matrix as quantize_int8 quantizes it: an Int8Weight with one scale per row
    (block 0) or per `block` columns of a row."""
    rows, cols = w.shape
    size = cols if block == 0 else block
    if size <= 0 or cols % size:
        raise ValueError(f"quantize_int8: block {block} does not divide the {cols} columns of {name!r}")
    blocks = np.asarray(w, np.float32).reshape(rows, cols // size, size)
    scale = np.abs(blocks).max(axis=2) / 127
    scale[scale == 0] = 1
    q = np.clip(np.rint(blocks / scale[:, :, None]), -127, 127).astype(np.int8)
    return Int8Weight(q.reshape(rows, cols), scale.astype(np.float32))


def dequantized(weights):
    """The float32 values of quantize_int8's result (what the int8 graphs compute with)."""
    return {name: w.dequantized() if isinstance(w, Int8Weight) else w for name, w in weights.items()}


def rope_tables(hp, length):
    """cos and sin [length, head_dim] in float32, computed as PyTorch computes them in float32:
    inv_freq = 1 / theta^(2i / head_dim), angle = position * inv_freq, the half repeated."""
    hd = hp.head_dim
    inv_freq = (1.0 / (np.float32(hp.rope_theta) ** (np.arange(0, hd, 2, dtype=np.float32) / np.float32(hd))))
    inv_freq = inv_freq.astype(np.float32)
    angles = np.outer(np.arange(length, dtype=np.float32), inv_freq).astype(np.float32)
    angles = np.concatenate([angles, angles], axis=1)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


# ---- Graphs ----

# Positions in the chunk of the cache that decode steps write (docs/transformers.md, "The graphs
# and the cache"): a step copies its chunk, and a flush copies the main cache once per CHUNK steps.
CHUNK = 64


def visible_keys(hp, query, key):
    """Whether a query at position query sees the key at position key (numpy broadcasting): the
    causal mask, narrowed to the attention window when the model has one."""
    seen = key <= query
    return seen if hp.attention_window is None else seen & (key > query - hp.attention_window)


def chunk_length(cache_length):
    return min(CHUNK, cache_length)


class _Graph:
    """Helpers over one MLGraphBuilder; the model's weights come from shared constant tensors."""

    def __init__(self, model):
        self.hp = model.hp
        self.b = model.context.create_graph_builder()
        self._constants = model.constants
        self._operands = {}

    def w(self, name):
        """The tensor `name` as an operand: dequantizeLinear of its int8 values for an Int8Weight."""
        if name not in self._operands:
            if name + SCALE in self._constants:
                self._operands[name] = self.b.dequantize_linear(*self._int8_parts(name))
            else:
                self._operands[name] = self.b.constant(self._constants[name])
        return self._operands[name]

    def _int8_parts(self, name):
        return [self.b.constant(self._constants[name + suffix]) for suffix in ("", SCALE, ZERO)]

    def rows(self, name, ids):
        """Rows `ids` of the table `name` (an embedding lookup). For an Int8Weight the int8 rows and
        their scales are gathered and only those rows dequantized, so that the whole table's
        dequantizeLinear has the output projection as its only reader."""
        if name + SCALE not in self._constants:
            return self.b.gather(self.w(name), ids, axis=0)
        return self.b.dequantize_linear(*[self.b.gather(part, ids, axis=0) for part in self._int8_parts(name)])

    def const(self, value, dtype=np.float32):
        return self.b.constant(np.asarray(value, dtype))

    def linear(self, x, name):
        """x [rows, in] times the PyTorch-layout weight [out, in], transposed in the gemm."""
        bias = self.w(name + ".bias") if self.hp.bias else None
        return self.b.gemm(x, self.w(name + ".weight"), b_transpose=True, c=bias)

    def norm(self, x, name):
        b, hp = self.b, self.hp
        if hp.norm == "layer_norm":
            return b.layer_normalization(x, scale=self.w(name + ".weight"), bias=self.w(name + ".bias"),
                                         axes=[1], epsilon=hp.norm_eps)
        mean_square = b.reduce_mean(b.mul(x, x), axes=[1], keep_dimensions=True)
        rms = b.sqrt(b.add(mean_square, self.const(hp.norm_eps)))
        return b.mul(b.div(x, rms), self.w(name + ".weight"))

    def rope(self, x, heads, cos, sin):
        """x [rows, heads * head_dim] rotated: x * cos + rotate_half(x) * sin, with cos and sin
        [rows, 1, head_dim] broadcast over the heads."""
        b, hd = self.b, self.hp.head_dim
        rows = x.shape[0]
        x = b.reshape(x, [rows, heads, hd])
        first = b.slice(x, [0, 0, 0], [rows, heads, hd // 2])
        second = b.slice(x, [0, 0, hd // 2], [rows, heads, hd // 2])
        rotated = b.concat([b.neg(second), first], 2)
        out = b.add(b.mul(x, cos), b.mul(rotated, sin))
        return b.reshape(out, [rows, heads * hd])

    def attention_inputs(self, x, p, rope):
        """The layer `p`'s queries, keys and values of x [rows, hidden] after its attention norm,
        rotated by `rope` = (cos, sin) when the model has rotary positions (None otherwise)."""
        hp = self.hp
        h = self.norm(x, p + "attention_norm")
        q = self.linear(h, p + "attention.q")
        k = self.linear(h, p + "attention.k")
        v = self.linear(h, p + "attention.v")
        if rope is not None:
            q = self.rope(q, hp.heads, *rope)
            k = self.rope(k, hp.kv_heads, *rope)
        return q, k, v

    def mlp(self, x, p):
        b = self.b
        if self.hp.activation == "swiglu":
            gate = self.linear(x, p + "mlp.gate")
            h = b.mul(b.mul(gate, b.sigmoid(gate)), self.linear(x, p + "mlp.up"))
        else:
            h = b.gelu(self.linear(x, p + "mlp.up"))
        return self.linear(h, p + "mlp.down")

    def head(self, x):
        """The final norm and the output projection of x [1, hidden]: logits [1, vocab] and their
        arg-max [1] (int32; the first of equal maxima, as torch.argmax)."""
        b = self.b
        x = self.norm(x, "norm")
        table = "embedding.weight" if self.hp.tied_embeddings else "lm_head.weight"
        logits = b.gemm(x, self.w(table), b_transpose=True)
        return logits, b.arg_max(logits, 1, keep_dimensions=False, output_data_type="int32")


def build_prefill(model, prompt_length, cache_length):
    """Inputs: tokens int32 [P]. Outputs: logits [1, vocab] and next [1] for the last position,
    and per layer the main cache present_k.i [kv_heads, head_dim, T] / present_v.i [kv_heads, T,
    head_dim] (the prompt's rows, zeros after) and, when P is not a multiple of the chunk length
    C, the chunk present_chunk_k.i [kv_heads, head_dim, C] / present_chunk_v.i [kv_heads, C,
    head_dim] holding the prompt's rows from the start of the chunk of position P."""
    hp, P, T = model.hp, prompt_length, cache_length
    C = chunk_length(T)
    start = P - P % C  # the chunk that decode steps fill first starts here
    g = _Graph(model)
    b = g.b
    kv, G, hd, H = hp.kv_heads, hp.group, hp.head_dim, hp.heads
    tokens = b.input("tokens", [P], "int32")
    x = g.rows("embedding.weight", tokens)
    rope = None
    if hp.position == "learned":
        x = b.add(x, b.slice(g.w("position.weight"), [0, 0], [P, hp.hidden]))
    else:
        cos, sin = rope_tables(hp, P)
        rope = g.const(cos[:, None, :]), g.const(sin[:, None, :])
    positions = np.arange(P)
    mask = g.const(np.where(visible_keys(hp, positions[:, None], positions[None, :]), 0, -np.inf))
    scale = g.const(1 / math.sqrt(hd))
    outputs = {}
    for i in range(hp.layers):
        p = f"layers.{i}."
        q, k, v = g.attention_inputs(x, p, rope)
        kt = b.transpose(b.reshape(k, [P, kv, hd]), permutation=[1, 2, 0])  # [kv, hd, P]
        vt = b.transpose(b.reshape(v, [P, kv, hd]), permutation=[1, 0, 2])  # [kv, P, hd]
        outputs[f"present_k.{i}"] = b.pad(kt, [0, 0, 0], [0, 0, T - P]) if T > P else b.identity(kt)
        outputs[f"present_v.{i}"] = b.pad(vt, [0, 0, 0], [0, T - P, 0]) if T > P else b.identity(vt)
        if start < P:
            rows = P - start
            chunk_k = b.slice(kt, [0, 0, start], [kv, hd, rows])
            chunk_v = b.slice(vt, [0, start, 0], [kv, rows, hd])
            outputs[f"present_chunk_k.{i}"] = b.pad(chunk_k, [0, 0, 0], [0, 0, C - rows]) if rows < C else chunk_k
            outputs[f"present_chunk_v.{i}"] = b.pad(chunk_v, [0, 0, 0], [0, C - rows, 0]) if rows < C else chunk_v
        # Query head j uses key/value head j // G (grouped-query attention).
        qt = b.transpose(b.reshape(q, [P, kv, G, hd]), permutation=[1, 2, 0, 3])
        scores = b.matmul(b.reshape(qt, [kv, G * P, hd]), kt)  # [kv, G * P, P]
        scores = b.add(b.mul(b.reshape(scores, [kv, G, P, P]), scale), mask)
        probs = b.reshape(b.softmax(scores, 3), [kv, G * P, P])
        attended = b.reshape(b.matmul(probs, vt), [kv, G, P, hd])
        attended = b.reshape(b.transpose(attended, permutation=[2, 0, 1, 3]), [P, H * hd])
        x = b.add(x, g.linear(attended, p + "attention.o"))
        x = b.add(x, g.mlp(g.norm(x, p + "mlp_norm"), p))
    last = b.slice(x, [P - 1, 0], [1, hp.hidden])
    outputs["logits"], outputs["next"] = g.head(last)
    return b.build(outputs)


def build_decode(model, cache_length):
    """Inputs: token int32 [1], position int32 [1] (where the token goes, 0 <= position < T), and
    per layer the main cache past_k.i / past_v.i (the positions of the chunks before the
    position's) and the chunk chunk_k.i [kv_heads, head_dim, C] / chunk_v.i [kv_heads, C,
    head_dim] (the positions of the position's chunk before it). Outputs: logits, next, and
    present_chunk_k.i / present_chunk_v.i: the chunk with the token's key and value in at the
    position's offset."""
    hp, T = model.hp, cache_length
    C = chunk_length(T)
    g = _Graph(model)
    b = g.b
    kv, G, hd, H = hp.kv_heads, hp.group, hp.head_dim, hp.heads
    token = b.input("token", [1], "int32")
    position = b.input("position", [1], "int32")
    x = g.rows("embedding.weight", token)  # [1, hidden]
    rope = None
    if hp.position == "learned":
        x = b.add(x, b.gather(g.w("position.weight"), position, axis=0))
    else:
        rope = tuple(b.reshape(b.gather(g.const(table), position, axis=0), [1, 1, hd]) for table in rope_tables(hp, T))
    # The main cache's positions of earlier chunks and the chunk's offsets up to the position's
    # are visible: bias 0 there, -inf elsewhere, over the T + C keys.
    chunk_of = g.const(np.arange(T) // C, np.int32)
    offset = b.gather(g.const(np.arange(T) % C, np.int32), position, axis=0)  # [1]
    chunk_offsets = g.const(np.arange(C), np.int32)
    visible = b.concat([b.lesser(chunk_of, b.gather(chunk_of, position, axis=0)),
                        b.lesser_or_equal(chunk_offsets, offset)], 0)
    if hp.attention_window is not None:  # and within the window: key position > position - W
        window = g.const([hp.attention_window], np.int32)
        visible = b.logical_and(visible, b.concat([b.greater(g.const(np.arange(T), np.int32), b.sub(position, window)),
                                                   b.greater(chunk_offsets, b.sub(offset, window))], 0))
    bias = b.where(visible, g.const(0.0), g.const(-np.inf))  # [T + C]
    where_k = b.expand(b.reshape(offset, [1, 1, 1]), [kv, hd, 1])
    where_v = b.expand(b.reshape(offset, [1, 1, 1]), [kv, 1, hd])
    scale = g.const(1 / math.sqrt(hd))
    outputs = {}
    for i in range(hp.layers):
        p = f"layers.{i}."
        past_k = b.input(f"past_k.{i}", [kv, hd, T], "float32")
        past_v = b.input(f"past_v.{i}", [kv, T, hd], "float32")
        chunk_k = b.input(f"chunk_k.{i}", [kv, hd, C], "float32")
        chunk_v = b.input(f"chunk_v.{i}", [kv, C, hd], "float32")
        q, k, v = g.attention_inputs(x, p, rope)
        keys = b.scatter_elements(chunk_k, where_k, b.reshape(k, [kv, hd, 1]), axis=2)
        values = b.scatter_elements(chunk_v, where_v, b.reshape(v, [kv, 1, hd]), axis=1)
        outputs[f"present_chunk_k.{i}"] = keys
        outputs[f"present_chunk_v.{i}"] = values
        q = b.reshape(q, [kv, G, hd])
        scores = b.concat([b.matmul(q, past_k), b.matmul(q, keys)], 2)  # [kv, G, T + C]
        probs = b.softmax(b.add(b.mul(scores, scale), bias), 2)
        attended = b.add(b.matmul(b.slice(probs, [0, 0, 0], [kv, G, T]), past_v),
                         b.matmul(b.slice(probs, [0, 0, T], [kv, G, C]), values))
        x = b.add(x, g.linear(b.reshape(attended, [1, H * hd]), p + "attention.o"))
        x = b.add(x, g.mlp(g.norm(x, p + "mlp_norm"), p))
    outputs["logits"], outputs["next"] = g.head(x)
    return b.build(outputs)


def build_flush(model, cache_length):
    """Inputs: start int32 [1] (a multiple of the chunk length C, start + C <= T), and per layer
    the main cache past_k.i / past_v.i and a full chunk chunk_k.i / chunk_v.i. Outputs:
    present_k.i / present_v.i, the main cache with the chunk in at positions start .. start + C - 1."""
    hp, T = model.hp, cache_length
    C = chunk_length(T)
    b = model.context.create_graph_builder()
    kv, hd = hp.kv_heads, hp.head_dim
    start = b.input("start", [1], "int32")
    positions = b.add(start, b.constant(np.arange(C, dtype=np.int32)))  # [C]
    where_k = b.expand(b.reshape(positions, [1, 1, C]), [kv, hd, C])
    where_v = b.expand(b.reshape(positions, [1, C, 1]), [kv, C, hd])
    outputs = {}
    for i in range(hp.layers):
        past_k = b.input(f"past_k.{i}", [kv, hd, T], "float32")
        past_v = b.input(f"past_v.{i}", [kv, T, hd], "float32")
        chunk_k = b.input(f"chunk_k.{i}", [kv, hd, C], "float32")
        chunk_v = b.input(f"chunk_v.{i}", [kv, C, hd], "float32")
        outputs[f"present_k.{i}"] = b.scatter_elements(past_k, where_k, chunk_k, axis=2)
        outputs[f"present_v.{i}"] = b.scatter_elements(past_v, where_v, chunk_v, axis=1)
    return b.build(outputs)


class Model:
    """A model's weights as constant MLTensors of one context, shared by every graph built from
    them (builder.constant(tensor) copies nothing)."""

    def __init__(self, context, hp, weights):
        hp.check()
        check_tensors(hp, weights)
        self.context, self.hp = context, hp
        self.constants = {}
        for name, array in weights.items():
            if isinstance(array, Int8Weight):
                parts = {name: array.q, name + SCALE: array.scale, name + ZERO: np.zeros_like(array.scale, np.int8)}
            else:
                parts = {name: array}
            for key, value in parts.items():
                self.constants[key] = context.create_constant_tensor(np.ascontiguousarray(value))

    def generator(self, cache_length, prompt_length):
        return Generator(self, cache_length, prompt_length)

    def destroy(self):
        for tensor in self.constants.values():
            tensor.destroy()


class Generator:
    """The prefill, decode and flush graphs for a prompt of prompt_length tokens and a cache of
    cache_length positions, and their tensors. The main cache and the chunk are two sets of
    MLTensors each, neither readable nor writable: they never cross to host memory."""

    def __init__(self, model, cache_length, prompt_length):
        hp = model.hp
        if not 1 <= prompt_length <= cache_length <= hp.context_length:
            raise ValueError(f"need 1 <= prompt length ({prompt_length}) <= cache length ({cache_length}) "
                             f"<= the model's context ({hp.context_length})")
        self.model, self.hp, self.context = model, hp, model.context
        self.cache_length, self.prompt_length = cache_length, prompt_length
        self.chunk_length = C = chunk_length(cache_length)
        self.prefill_graph = build_prefill(model, prompt_length, cache_length)
        self.decode_graph = build_decode(model, cache_length)
        self.flush_graph = build_flush(model, cache_length)
        c = self.context
        kv, hd, T = hp.kv_heads, hp.head_dim, cache_length

        def cache_set(length):
            tensors = {}
            for i in range(hp.layers):
                tensors[f"k.{i}"] = c.create_tensor([kv, hd, length], "float32")
                tensors[f"v.{i}"] = c.create_tensor([kv, length, hd], "float32")
            return tensors

        self.caches = [cache_set(T), cache_set(T)]  # the main cache
        self.chunks = [cache_set(C), cache_set(C)]
        self.tokens = c.create_tensor([prompt_length], "int32", writable=True)
        self.token = c.create_tensor([1], "int32", writable=True)
        self.position_tensor = c.create_tensor([1], "int32", writable=True)
        self.start = c.create_tensor([1], "int32", writable=True)
        self.logits = c.create_tensor([1, hp.vocab_size], "float32", readable=True)
        self.next = c.create_tensor([1], "int32", readable=True)
        self.current = 0  # which main set holds the finished chunks
        self.current_chunk = 0  # which chunk set holds the latest rows
        self.position = 0  # where the next token goes
        # Host buffers a step reuses: the token and position it writes, the id it reads back.
        self._token_host, self._position_host = np.zeros(1, np.int32), np.zeros(1, np.int32)
        self._next_host = np.zeros(1, np.int32)
        # The decode dispatch's inputs and outputs for each (main set, chunk set) holding the
        # latest rows, made once: building two dictionaries of 2 x layers entries per step cost
        # 136 us of the 135M model's step.
        self._step_io = {}
        for main in (0, 1):
            for chunk in (0, 1):
                inputs = {"token": self.token, "position": self.position_tensor}
                inputs.update(self._named("past", self.caches[main]))
                inputs.update(self._named("chunk", self.chunks[chunk]))
                outputs = {"logits": self.logits, "next": self.next}
                outputs.update(self._named("present_chunk", self.chunks[1 - chunk]))
                self._step_io[main, chunk] = inputs, outputs

    def _named(self, prefix, tensors):
        """{prefix_k.i: tensors[k.i], prefix_v.i: tensors[v.i]} for every layer."""
        return {f"{prefix}_{name}": tensor for name, tensor in tensors.items()}

    def _result(self, want_logits):
        result = {"next": int(self.context.read_tensor(self.next, out=self._next_host)[0])}
        if want_logits:
            result["logits"] = self.context.read_tensor(self.logits)[0]
        return result

    def prefill(self, tokens, want_logits=False):
        """Runs the prompt; returns {"next": the arg-max id, "logits": [vocab] when asked}."""
        tokens = np.asarray(tokens, np.int32)
        if tokens.shape != (self.prompt_length,):
            raise ValueError(f"prefill: expected {self.prompt_length} tokens, got {tokens.shape[0]}")
        self.context.write_tensor(self.tokens, tokens)
        self.current = self.current_chunk = 0
        outputs = {"logits": self.logits, "next": self.next}
        outputs.update(self._named("present", self.caches[0]))
        if self.prompt_length % self.chunk_length:
            outputs.update(self._named("present_chunk", self.chunks[0]))
        self.context.dispatch(self.prefill_graph, {"tokens": self.tokens}, outputs)
        self.position = self.prompt_length
        return self._result(want_logits)

    def step(self, token, want_logits=False):
        """Feeds one token at the next position; returns as prefill does."""
        if self.position >= self.cache_length:
            raise ValueError(f"step: the cache of {self.cache_length} positions is full")
        c = self.context
        if self.position % self.chunk_length == 0 and self.position > self.prompt_length:
            self._flush(self.position - self.chunk_length)
        self._token_host[0], self._position_host[0] = token, self.position
        c.write_tensor(self.token, self._token_host)
        c.write_tensor(self.position_tensor, self._position_host)
        c.dispatch(self.decode_graph, *self._step_io[self.current, self.current_chunk])
        self.current_chunk = 1 - self.current_chunk
        self.position += 1
        return self._result(want_logits)

    def _flush(self, start):
        """Writes the full chunk of positions start .. start + C - 1 into the other main set."""
        inputs = {"start": self.start}
        inputs.update(self._named("past", self.caches[self.current]))
        inputs.update(self._named("chunk", self.chunks[self.current_chunk]))
        self.context.write_tensor(self.start, np.array([start], np.int32))
        self.context.dispatch(self.flush_graph, inputs, self._named("present", self.caches[1 - self.current]))
        self.current = 1 - self.current

    def destroy(self):
        for graph in (self.prefill_graph, self.decode_graph, self.flush_graph):
            graph.destroy()
        for tensor in [self.tokens, self.token, self.position_tensor, self.start, self.logits, self.next]:
            tensor.destroy()
        for tensors in self.caches + self.chunks:
            for tensor in tensors.values():
                tensor.destroy()


def sample(logits, temperature, top_k, rng):
    """A token drawn from softmax(logits / temperature) restricted to the top_k largest (0: all)."""
    logits = np.asarray(logits, np.float64) / temperature
    if 0 < top_k < logits.size:
        kth = np.partition(logits, -top_k)[-top_k]
        logits = np.where(logits >= kth, logits, -np.inf)
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    return int(rng.choice(logits.size, p=probs))
