#!/usr/bin/env python3
"""libwebnn.so's dynamic symbol table against its public headers (issue 26, item 4).

    check_exports.py LIBRARY INCLUDE_DIR

The library exports the C ABI (the functions include/webnn/webnn.h declares WEBNN_EXPORT) and the
C++ API (the classes and functions include/webnn/types.hpp and webnn.hpp declare WEBNN_EXPORT,
with their type information and vtables), and nothing else: a symbol of the library's layers
(webnn::detail, webnn::onednn, ...), of oneDNN or of the C++ standard library in the table fails
the test, and so does a function the headers declare WEBNN_EXPORT that the table lacks. Exits 0
and prints the counts, or 1 and lists what is wrong.
"""
import re
import subprocess
import sys
from pathlib import Path


def exported(library):
    """[(mangled, demangled)] of the defined dynamic symbols."""
    names = subprocess.run(["nm", "-D", "--defined-only", "--format=posix", library], check=True,
                           capture_output=True, text=True).stdout.split("\n")
    mangled = [line.split(" ")[0] for line in names if line.strip()]
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled), check=True, capture_output=True,
                               text=True).stdout.split("\n")
    return list(zip(mangled, demangled))


def declared(include_dir):
    """(C functions, C++ names) that the public headers mark WEBNN_EXPORT: a C++ name is a class
    (every member of it is public) or a free function of namespace webnn."""
    c_header = (include_dir / "webnn.h").read_text(encoding="utf-8")
    c_functions = set(re.findall(r"WEBNN_EXPORT\s[^;{]*?\b(webnn_\w+)\s*\(", c_header))
    cpp = "".join(path.read_text(encoding="utf-8") for path in sorted(include_dir.glob("*.hpp")))
    classes = set(re.findall(r"\b(?:class|struct)\s+WEBNN_EXPORT\s+(\w+)", cpp))
    functions = set(re.findall(r"WEBNN_EXPORT\s+[\w:<>,&*\s]*?\b(\w+|operator==)\s*\(", cpp))
    return c_functions, classes, functions


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    library, include_dir = sys.argv[1], Path(sys.argv[2])
    c_functions, classes, functions = declared(include_dir)
    if not c_functions or not classes or not functions:
        sys.exit(f"check_exports: no WEBNN_EXPORT declarations found under {include_dir}")
    symbols = exported(library)
    wrong, c_seen, functions_seen = [], set(), set()
    for mangled, name in symbols:
        if not mangled.startswith("_Z"):
            if mangled in c_functions:
                c_seen.add(mangled)
            else:
                wrong.append(f"{mangled} (a C symbol webnn.h does not declare WEBNN_EXPORT)")
            continue
        m = re.match(r"(?:typeinfo for |typeinfo name for |vtable for )?webnn::(operator==|\w+)", name)
        if m and m.group(1) in classes:
            continue
        if m and m.group(1) in functions and not name.startswith(("typeinfo", "vtable")):
            functions_seen.add(m.group(1))
            continue
        wrong.append(f"{name} (outside the public headers)")
    missing = [f"{f} (declared WEBNN_EXPORT in webnn.h)" for f in sorted(c_functions - c_seen)]
    missing += [f"webnn::{f} (declared WEBNN_EXPORT)" for f in sorted(functions - functions_seen)]
    for line in wrong:
        print(f"check_exports: exported but not public: {line}")
    for line in missing:
        print(f"check_exports: public but not exported: {line}")
    total = len(symbols)
    print(f"check_exports: {library}: {total} symbols, {len(c_seen)} of the C ABI, {total - len(c_seen)} of the C++ API;"
          f" {len(wrong)} outside the headers, {len(missing)} missing")
    return 1 if wrong or missing else 0


if __name__ == "__main__":
    sys.exit(main())
