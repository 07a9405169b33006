"""The PyTorch twin of examples/transformer_model.py: the same decoders from the same
hyper-parameters and tensor names, written with PyTorch's own operators, with a KV cache that grows
by concatenation. examples/train_text_model.py trains it; the tests and the speed measurement use
it as the independent implementation the WebNN graphs are compared with.

    import torch, transformer_model as tm, transformer_torch as tt
    model = tt.Decoder(hp)                               # random init, or:
    model = tt.from_weights(hp, weights)                 # {name: ndarray}, as load_checkpoint gives
    logits, cache = model(torch.tensor([[72, 105]]))     # the prompt; cache: [(k, v)] per layer
    logits, cache = model(torch.tensor([[33]]), cache)   # one more token
"""
import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


class RMSNorm(nn.Module):
    def __init__(self, size, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def make_norm(hp):
    if hp.norm == "layer_norm":
        return nn.LayerNorm(hp.hidden, eps=hp.norm_eps)
    return RMSNorm(hp.hidden, hp.norm_eps)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


class Attention(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        hd = hp.head_dim
        self.q = nn.Linear(hp.hidden, hp.heads * hd, bias=hp.bias)
        self.k = nn.Linear(hp.hidden, hp.kv_heads * hd, bias=hp.bias)
        self.v = nn.Linear(hp.hidden, hp.kv_heads * hd, bias=hp.bias)
        self.o = nn.Linear(hp.heads * hd, hp.hidden, bias=hp.bias)

    def forward(self, x, start, rope, past):
        hp = self.hp
        batch, length, _ = x.shape
        q = self.q(x).view(batch, length, hp.heads, hp.head_dim).transpose(1, 2)
        k = self.k(x).view(batch, length, hp.kv_heads, hp.head_dim).transpose(1, 2)
        v = self.v(x).view(batch, length, hp.kv_heads, hp.head_dim).transpose(1, 2)
        if rope is not None:
            cos, sin = rope
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        present = (k, v)
        keys, values = k, v
        if hp.group > 1:  # query head j reads key/value head j // group
            # k.repeat_interleave(group, dim=1), written as an expand and a reshape (as Hugging Face's
            # repeat_kv is): torch.onnx.export's repeat_interleave reshapes with a 0 that copies the
            # wrong dimension, and the exported model fails in ONNX Runtime (docs/transformers.md).
            def repeat(t):
                b, kv, total, hd = t.shape
                return t[:, :, None].expand(b, kv, hp.group, total, hd).reshape(b, kv * hp.group, total, hd)

            keys, values = repeat(k), repeat(v)
        scores = q @ keys.transpose(-1, -2) / math.sqrt(hp.head_dim)
        total = keys.shape[2]
        # Query i (at position start + i) sees keys 0 .. start + i, and only the last attention_window
        # of them when the model has a window (written here apart from transformer_model.visible_keys:
        # the twin is the independent implementation).
        query, key = (start + torch.arange(length))[:, None], torch.arange(total)[None, :]
        allowed = key <= query
        if hp.attention_window is not None:
            allowed = allowed & (key > query - hp.attention_window)
        scores = scores.masked_fill(~allowed, float("-inf"))
        out = torch.softmax(scores, dim=-1) @ values
        return self.o(out.transpose(1, 2).reshape(batch, length, hp.heads * hp.head_dim)), present


class MLP(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.swiglu = hp.activation == "swiglu"
        if self.swiglu:
            self.gate = nn.Linear(hp.hidden, hp.mlp_hidden, bias=hp.bias)
        self.up = nn.Linear(hp.hidden, hp.mlp_hidden, bias=hp.bias)
        self.down = nn.Linear(hp.mlp_hidden, hp.hidden, bias=hp.bias)

    def forward(self, x):
        if self.swiglu:
            return self.down(F.silu(self.gate(x)) * self.up(x))
        return self.down(F.gelu(self.up(x)))


class Block(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.attention_norm = make_norm(hp)
        self.attention = Attention(hp)
        self.mlp_norm = make_norm(hp)
        self.mlp = MLP(hp)

    def forward(self, x, start, rope, past):
        attended, present = self.attention(self.attention_norm(x), start, rope, past)
        x = x + attended
        return x + self.mlp(self.mlp_norm(x)), present


class Decoder(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        self.embedding = nn.Embedding(hp.vocab_size, hp.hidden)
        if hp.position == "learned":
            self.position = nn.Embedding(hp.context_length, hp.hidden)
        self.layers = nn.ModuleList(Block(hp) for _ in range(hp.layers))
        self.norm = make_norm(hp)
        if not hp.tied_embeddings:
            self.lm_head = nn.Linear(hp.hidden, hp.vocab_size, bias=False)
        self.apply(self._init)

    @staticmethod
    def _init(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, std=0.02)
            if getattr(module, "bias", None) is not None:
                nn.init.zeros_(module.bias)

    def rope(self, start, length):
        hp = self.hp
        inv_freq = 1.0 / (hp.rope_theta ** (torch.arange(0, hp.head_dim, 2, dtype=torch.float32) / hp.head_dim))
        angles = torch.outer(torch.arange(start, start + length, dtype=torch.float32), inv_freq)
        angles = torch.cat([angles, angles], dim=-1)
        return angles.cos(), angles.sin()

    def forward(self, tokens, cache=None):
        """tokens [batch, length] at positions past_length .. past_length + length - 1; returns the
        logits [batch, length, vocab] and the cache [(k, v)] per layer, k and v [batch, kv_heads,
        past_length + length, head_dim]."""
        hp = self.hp
        start = cache[0][0].shape[2] if cache else 0
        length = tokens.shape[1]
        x = self.embedding(tokens)
        rope = None
        if hp.position == "learned":
            x = x + self.position(torch.arange(start, start + length))
        else:
            rope = self.rope(start, length)
        present = []
        for i, layer in enumerate(self.layers):
            x, kv = layer(x, start, rope, cache[i] if cache else None)
            present.append(kv)
        x = self.norm(x)
        table = self.embedding.weight if hp.tied_embeddings else self.lm_head.weight
        return x @ table.t(), present


def from_weights(hp, weights):
    """A Decoder holding copies of weights ({name: ndarray}, the names of tensor_shapes)."""
    model = Decoder(hp)
    state = {name: torch.from_numpy(np.array(array, np.float32)) for name, array in weights.items()}
    model.load_state_dict(state, strict=True)
    return model.eval()


def state_arrays(model):
    """The model's tensors as {name: float32 ndarray}, in the checkpoint's names."""
    return {name: t.detach().cpu().numpy().astype(np.float32) for name, t in model.state_dict().items()}


@torch.no_grad()
def greedy(model, prompt, count):
    """count greedy tokens after prompt (a list of ids), with the KV cache."""
    logits, cache = model(torch.tensor([prompt]))
    out = []
    for _ in range(count):
        token = int(logits[0, -1].argmax())
        out.append(token)
        logits, cache = model(torch.tensor([[token]]), cache)
    return out


class OnnxStep(torch.nn.Module):
    """forward(input_ids [1, S], past keys and values [1, kv_heads, past, head_dim] per layer) ->
    logits [1, S, vocab] and the present keys and values: the interface of Hugging Face's decoder
    exports, which ONNX Runtime runs with a growing past."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, *past):
        cache = [(past[2 * i], past[2 * i + 1]) for i in range(len(past) // 2)]
        logits, present = self.model(input_ids, cache)
        return (logits, *[t for kv in present for t in kv])


def export_onnx(model, path):
    """Writes model to path as ONNX (opset 17) with OnnxStep's interface, the lengths dynamic."""
    hp = model.hp
    names = [f"past_{kind}.{i}" for i in range(hp.layers) for kind in ("key", "value")]
    outputs = [f"present_{kind}.{i}" for i in range(hp.layers) for kind in ("key", "value")]
    past = [torch.zeros(1, hp.kv_heads, 1, hp.head_dim) for _ in names]
    axes = {"input_ids": {1: "sequence"}, "logits": {1: "sequence"}}
    axes.update({n: {2: "past"} for n in names})
    axes.update({n: {2: "total"} for n in outputs})
    torch.onnx.export(OnnxStep(model), (torch.zeros(1, 1, dtype=torch.int64), *past), path,
                      input_names=["input_ids", *names], output_names=["logits", *outputs],
                      dynamic_axes=axes, opset_version=17)
