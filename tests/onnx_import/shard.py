"""The share of a test's cases this run takes.

WEBNN_TEST_SHARD=K/N keeps every N-th case starting from the K-th (0-based); unset, every case.
CTest sets it in the sanitizer build (scripts/sanitize.sh), where the backends split each suite's
cases between them: every case runs under the sanitizers once, on one backend, and the Release
build runs them all on every backend. tests/onnx_import/onnx_backend_suite.cpp reads the same
variable."""
import os


def shard(cases):
    cases = list(cases)
    spec = os.environ.get("WEBNN_TEST_SHARD")
    if not spec:
        return cases
    try:
        k, n = (int(x) for x in spec.split("/"))
    except ValueError:
        k, n = -1, 0
    if not 0 <= k < n:
        raise SystemExit(f"WEBNN_TEST_SHARD={spec!r}: expected K/N with 0 <= K < N")
    print(f"shard {k}/{n}: {len(cases[k::n])} of {len(cases)} cases")
    return cases[k::n]
