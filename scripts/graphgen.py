"""Writes graphs in the webnn-graph formats (JSON + weights manifest + WGWT weights file) from
numpy arrays, for scripts/make_mobilenetv2.py, which must run before the Python module is built
(the quick start's network; bench/networks.py builds the benchmark networks through the Python
API instead). Weights are seeded random numbers: the outputs are deterministic but carry
no meaning; the networks have the real architectures and sizes."""
import json
import os
import struct

import numpy as np


class GraphWriter:
    def __init__(self, name, seed):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.inputs = {}   # name -> (dataType, shape)
        self.consts = {}   # name -> float32 array
        self.nodes = []    # (id, op, inputs, options)
        self.outputs = {}  # graph output name -> operand
        self.count = 0

    def fresh(self, prefix):
        self.count += 1
        return f"{prefix}{self.count}"

    def input(self, name, shape):
        self.inputs[name] = ("float32", list(shape))
        return name

    def const(self, prefix, array):
        name = self.fresh(prefix)
        self.consts[name] = np.asarray(array, dtype=np.float32)
        return name

    def he(self, prefix, shape, fan_in):
        return self.const(prefix, self.rng.standard_normal(shape) * np.sqrt(2.0 / fan_in))

    def small(self, prefix, shape, scale=0.01):
        return self.const(prefix, self.rng.standard_normal(shape) * scale)

    def op(self, op, inputs, options=None, prefix=None):
        out = self.fresh(prefix or op)
        self.nodes.append((out, op, list(inputs), options or {}))
        return out

    def output(self, name, operand):
        self.outputs[name] = operand

    def write(self, outdir, base_name):
        os.makedirs(outdir, exist_ok=True)
        base = os.path.join(outdir, base_name)
        manifest = {"format": "wg-weights-manifest", "version": 1, "endianness": "little", "tensors": {}}
        with open(base + ".weights", "wb") as f:
            f.write(b"WGWT" + struct.pack("<I", 1))
            offset = 8
            for name, arr in self.consts.items():
                data = arr.astype("<f4").tobytes()
                manifest["tensors"][name] = {"dataType": "float32", "shape": list(arr.shape), "byteOffset": offset,
                                             "byteLength": len(data), "layout": "row-major"}
                f.write(data)
                offset += len(data)
        with open(base + ".manifest.json", "w") as f:
            json.dump(manifest, f, indent=1)
        graph = {
            "format": "webnn-graph-json", "version": 2, "name": self.name,
            "inputs": {n: {"dataType": t, "shape": s} for n, (t, s) in self.inputs.items()},
            "consts": {n: {"dataType": "float32", "shape": list(a.shape), "init": {"kind": "weights", "ref": n}}
                       for n, a in self.consts.items()},
            "nodes": [{"id": i, "op": op, "inputs": ins, "options": opts, "outputs": [i]}
                      for i, op, ins, opts in self.nodes],
            "outputs": self.outputs,
        }
        with open(base + ".json", "w") as f:
            json.dump(graph, f, indent=1)
        rng = np.random.default_rng(7)
        for name, (_, shape) in self.inputs.items():
            np.save(os.path.join(outdir, f"{name}.npy"), rng.standard_normal(shape).astype(np.float32))
        print(f"wrote {base}.json ({len(self.nodes)} operations, {len(self.consts)} constants, "
              f"{sum(a.nbytes for a in self.consts.values())} weight bytes) and inputs "
              + ", ".join(f"{outdir}/{n}.npy" for n in self.inputs))
