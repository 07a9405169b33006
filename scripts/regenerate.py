#!/usr/bin/python3
"""Regenerates every generated file of the tree, or (--check) lists the stale ones.

One command for all of them, run by the build's `regenerate` target and, with --check, by the
CTest `generated_files_up_to_date`:

  file(s)                                   generator                  source
  src/ops/tensor_limits.inc                 gen_tensor_limits.py       the spec's tensor-limits tables
  src/graph/op_signatures.def               gen_op_signatures.py       the spec's IDL
  include/webnn/webnn.h (operators),        gen_api.py                 the op table, through webnn_describe
    src/capi/ops.gen.inc, tests/capi/replay.gen.inc, docs/c-api.md (operators),
    include/webnn/webnn.hpp (options, operator methods), src/api/ops.gen.inc,
    tests/unit/api_replay.gen.inc
  src/ipc/webnn.capnp (operators)           gen_ipc_schema.py          the op table, through webnn_describe
  js/src/*.gen.*, js/lib/*.gen.*            gen_js.py                  the op table and the spec's IDL
  python/webnn/__init__.pyi (operators)     gen_python_stub.py         the built Python module's op table

When the spec's generators rewrite a file (a new op in the spec), the op-table generators stop
there: the tools they read are built from those files, so the build is run once more and then
this again (exit status 3 says so).

Usage: scripts/regenerate.py --build BUILD_DIR [--spec webnn.bs] [--check]
"""
import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
PYTHON = "/usr/bin/python3"


def from_stdout(path):
    """A generator that prints the file: compare with (--check) or write `path`. Returns the stale
    messages and whether it wrote the file."""
    def finish(out, check):
        target = ROOT / path
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == out:
            return [], False
        if not check:
            target.write_text(out, encoding="utf-8")
            print(f"updated {target}")
            return [], True
        return [f"{target} is out of date"], False
    return finish


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="the build directory (webnn_describe, python/)")
    ap.add_argument("--spec", default=str(ROOT.parent / "shared" / "spec" / "webnn.bs"))
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 when a file is stale")
    args = ap.parse_args()
    build = Path(args.build).resolve()
    describe = build / "webnn_describe"
    python_dir = build / "python"
    for needed, what in ((Path(args.spec), "the spec"), (describe, "the built webnn_describe tool"),
                         (python_dir / "webnn", "the built Python module")):
        if not needed.exists():
            print(f"regenerate: {what} ({needed}) is missing; build first (scripts/build.sh)", file=sys.stderr)
            return 2
    check = ["--check"] if args.check else []
    # (name, command, finish): finish(stdout, check) -> stale messages, or None when the generator
    # writes (or, with --check, checks) its files itself and reports through its exit status.
    generators = [
        ("tensor limits", [PYTHON, SCRIPTS / "gen_tensor_limits.py", args.spec], from_stdout("src/ops/tensor_limits.inc")),
        ("op signatures", [PYTHON, SCRIPTS / "gen_op_signatures.py", args.spec],
         from_stdout("src/graph/op_signatures.def")),
        ("C and C++ APIs", [PYTHON, SCRIPTS / "gen_api.py", "--describe", describe, *check], None),
        ("IPC schema", [PYTHON, SCRIPTS / "gen_ipc_schema.py", "--describe", describe, *check], None),
        ("JavaScript", [PYTHON, SCRIPTS / "gen_js.py", "--describe", describe, "--spec", args.spec, *check], None),
        ("Python stub", [PYTHON, SCRIPTS / "gen_python_stub.py", *check], None),
    ]
    env = dict(os.environ, PYTHONPATH=str(python_dir))
    stale = []
    wrote_spec_files = []  # the spec's generators that rewrote their file
    for name, command, finish in generators:
        if finish is None and wrote_spec_files:
            # The tools the op-table generators read were built from the files just rewritten.
            print(f"regenerate: the spec changed {', '.join(wrote_spec_files)}; rebuild and run again for the "
                  f"rest (cmake --build {args.build} --target regenerate)", file=sys.stderr)
            return 3
        result = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env, cwd=ROOT)
        sys.stdout.write(result.stdout if finish is None else "")
        sys.stderr.write(result.stderr)
        if finish is not None:
            if result.returncode != 0:
                stale.append(f"{name}: the generator failed (status {result.returncode})")
            else:
                messages, wrote = finish(result.stdout, args.check)
                stale += messages
                if wrote:
                    wrote_spec_files.append(name)
        elif result.returncode != 0:
            stale.append(f"{name}: " + ("stale" if args.check else f"the generator failed (status {result.returncode})"))
    for s in stale:
        print(s, file=sys.stderr)
    if stale:
        if args.check:
            print(f"{len(stale)} stale: run scripts/regenerate.py --build {args.build} (or cmake --build "
                  f"{args.build} --target regenerate)", file=sys.stderr)
        return 1
    print(f"regenerate: {len(generators)} generators, every generated file "
          + ("up to date" if args.check else "written"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
