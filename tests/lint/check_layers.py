#!/usr/bin/python3
"""Checks that the build holds the layers: each layer's sources see the headers of the layers it
may depend on and no others.

Each layer is a CMake object library whose include path holds its own include root,
build/layers/<layer>/ (links to the paths of src/ it owns), and the roots of the layers it
depends on (CMakeLists.txt, webnn_layer). For every layer this script takes the compile command
the build uses for one of its sources (compile_commands.json) and preprocesses, with exactly those
flags, a one-line file that includes one header of every other layer: the include must succeed
for a layer below it in EXPECTED and fail ("No such file") for every other. It also checks that
the layers' include paths are exactly EXPECTED's, so a new dependency is a decision recorded here
and in docs/design.md ("Layers"), and that no source reaches around the roots with a "../" include.

Usage: tests/lint/check_layers.py BUILD_DIR
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# Each layer and the layers whose headers it may include (transitively closed below), bottom to
# top. The order of ARCHITECTURE.md: the IR and validation at the bottom, the backends over the
# IR, the formats over the reference kernels (the ONNX importer folds constants with them), the
# runtime over the backends, the API over the runtime and the formats, and the front ends (the C
# ABI, the service) over the API.
EXPECTED = {
    "webnn_core": [],
    "webnn_reference": ["webnn_core"],
    "webnn_onednn": ["webnn_reference"],
    "webnn_backends": ["webnn_reference", "webnn_onednn"],
    "webnn_formats": ["webnn_reference"],
    "webnn_runtime": ["webnn_reference"],
    "webnn_api": ["webnn_runtime", "webnn_formats"],
    "webnn_conformance": ["webnn_api"],
    "webnn_capi": [],  # the public headers only
    "webnn_wire": ["webnn_core"],
    "webnn_ipc": ["webnn_wire", "webnn_api"],
}


def closure(layer, present):
    out, todo = set(), list(EXPECTED[layer])
    while todo:
        d = todo.pop()
        if d in present and d not in out:
            out.add(d)
            todo += EXPECTED[d]
    return out


def one_header(root):
    """A header the layer owns, as an include path relative to its root."""
    found = sorted(Path(d, f).relative_to(root) for d, _, files in os.walk(root, followlinks=True)
                   for f in files if f.endswith(".hpp"))
    return str(found[0]) if found else None


def main():
    build = Path(sys.argv[1]).resolve()
    layers_dir = build / "layers"
    present = sorted(p.name for p in layers_dir.iterdir()) if layers_dir.is_dir() else []
    problems = []
    unknown = set(present) - set(EXPECTED)
    if unknown:
        problems.append(f"layers not in EXPECTED: {sorted(unknown)} (add them with their dependencies)")
    commands = json.loads((build / "compile_commands.json").read_text())
    headers = {layer: one_header(layers_dir / layer) for layer in present}
    probes = 0
    with tempfile.TemporaryDirectory() as tmp:
        for layer in present:
            if layer not in EXPECTED:
                continue
            entry = next((c for c in commands if f"/{layer}.dir/" in c.get("output", "") + c["command"]), None)
            if entry is None:
                problems.append(f"{layer}: no compile command in compile_commands.json")
                continue
            args = shlex.split(entry["command"])
            roots = {Path(a[2:]).name for a in args if a.startswith("-I") and Path(a[2:]).parent == layers_dir}
            allowed = closure(layer, present) | {layer}
            if roots != allowed:
                problems.append(f"{layer}: its include path holds the roots of {sorted(roots)}, "
                                f"expected {sorted(allowed)}")
            # The build's own command, preprocessing a probe instead of compiling the source.
            base = [a for a in args if a not in ("-c", entry["file"])]
            if "-o" in base:
                i = base.index("-o")
                del base[i:i + 2]
            for other, header in headers.items():
                if header is None:
                    continue
                probe = Path(tmp) / f"{layer}__{other}.cpp"
                probe.write_text(f'#include "{header}"\n')
                result = subprocess.run(base + ["-E", "-o", "/dev/null", str(probe)], cwd=entry["directory"],
                                        capture_output=True, text=True)
                probes += 1
                if other in allowed and result.returncode != 0:
                    problems.append(f"{layer} cannot include {header} ({other}, a layer it depends on):\n"
                                    + result.stderr[:600])
                elif other not in allowed and ("No such file" not in result.stderr or result.returncode == 0):
                    problems.append(f"{layer} can include {header} of {other}, a layer above it or beside it")
    for source in sorted((ROOT / "src").rglob("*")):
        if source.suffix in (".cpp", ".hpp", ".inc", ".h") and re.search(r'#include\s+"\.\./', source.read_text()):
            problems.append(f"{source.relative_to(ROOT)}: an include with \"../\" reaches around the layers")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    print(f"layers: {len(present)} layers, {probes} includes probed, each allowed only from above")
    return 0


if __name__ == "__main__":
    sys.exit(main())
