#!/usr/bin/python3
"""Regenerates the operator methods in python/webnn/__init__.pyi from the built module's op table.

Usage: PYTHONPATH=build/python scripts/gen_python_stub.py [--check]
--check exits 1 (and changes nothing) when the stub is out of date.
"""
import sys
from pathlib import Path

import webnn._ops

STUB = Path(__file__).resolve().parent.parent / "python" / "webnn" / "__init__.pyi"


def main():
    text = STUB.read_text(encoding="utf-8")
    updated = webnn._ops.splice_stub(text)
    if "--check" in sys.argv[1:]:
        if updated != text:
            print(f"{STUB} is out of date: run scripts/gen_python_stub.py", file=sys.stderr)
            return 1
        return 0
    if updated != text:
        STUB.write_text(updated, encoding="utf-8")
        print(f"updated {STUB}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
