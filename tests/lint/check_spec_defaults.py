#!/usr/bin/python3
"""Fails when code outside src/ops/ applies a spec default to an option.

Validation (src/ops/) resolves every option the spec gives a default (a webnn::Defaulted in
src/graph/attributes.hpp) and is the only place that may: Defaulted::resolve() is its one way in,
and the type has no value_or(). This check keeps the other ways out of the rest of the tree: a
call of resolve() outside src/ops/, and the helpers the tree used before (ops::dims_or,
value_or(std::vector...), an `if (attrs.axes)` test followed by a default list).

Usage: check_spec_defaults.py SOURCE_DIR
"""
import pathlib
import re
import sys

ROOTS = ["src", "python/src", "js/src", "tools", "bench", "include"]
RULES = [
    (re.compile(r"\.resolve\("), "Defaulted::resolve() outside src/ops/"),
    (re.compile(r"\bdims_or\("), "a default applied with dims_or()"),
    (re.compile(r"value_or\(\s*std::vector<"), "a default list applied with value_or()"),
]


def main() -> int:
    source = pathlib.Path(sys.argv[1])
    found = []
    checked = 0
    for root in ROOTS:
        for path in sorted((source / root).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".inc") or "node_modules" in path.parts:
                continue
            rel = path.relative_to(source).as_posix()
            if rel.startswith("src/ops/"):
                continue
            checked += 1
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for pattern, what in RULES:
                    if pattern.search(line):
                        found.append(f"{rel}:{number}: {what}: {line.strip()}")
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} spec default(s) outside src/ops/ (validation resolves them; read *option)")
        return 1
    print(f"no spec default outside src/ops/ ({checked} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
