"""Writes seeds for fuzz_onnx_import that reach the importer's compositions the ONNX backend suite
has no model of: RNN activations with alpha and beta, an antialiased Resize with axes and
keep_aspect_ratio_policy, Det by elimination, MaxPool's Indices in 1-D and 3-D, GRU, LSTM and RNN
with short sequence_lens (known at import and given at run time), control flow (If on a run-time
condition, nested Loops with an If, a Loop masked by a run-time condition, Scan in both forms),
sequences (SplitToSequence, SequenceMap, ConcatFromSequence, a sequence appended to in a Loop),
the bitwise operators, Einsum's general forms (ellipses, diagonals, three operands), an
InstanceNormalization of rank 5 and shapes folded through Mod and an empty slice. The models are the cases of tests/onnx_import/compositions*.py.
scripts/fuzz.sh runs it with Debian's python3 (onnx 1.12).

Usage: make_onnx_composition_seeds.py OUT_DIR"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "onnx_import"))
import compositions as C  # noqa: E402
import compositions_control as F  # noqa: E402
import compositions_quantized as Q  # noqa: E402


def main():
    out = Path(sys.argv[1])
    rng = np.random.default_rng(1)
    models = {
        "rnn_activations": C.rnn_case(rng, "bidirectional", 0, 0.5, ["HardSigmoid", "Elu"], (0.3, 0.7), (0.4,)),
        "resize_antialias": C.resize_case(rng, (1, 1, 8, 10), "linear", "half_pixel", scales=[1, 1, 0.5, 0.5],
                                          antialias=1, opset=19),
        "resize_axes_aspect": C.resize_case(rng, (1, 1, 10, 14), "cubic", "half_pixel", sizes=[3, 3], axes=[2, 3],
                                            keep_aspect_ratio_policy="not_smaller", antialias=1, opset=19),
        "det_6x6": C.det_case(rng, (3, 6, 6)),
        "maxpool_indices_3d": C.max_pool_indices_case(rng, (1, 2, 5, 4, 6), (2, 2, 3), (1, 2, 2), (0, 1, 1, 1, 0, 0),
                                                      dilations=(2, 1, 1), ceil_mode=1, storage_order=1),
        "maxpool_indices_1d": C.max_pool_indices_case(rng, (2, 3, 11), (3,), (2,), (1, 1)),
        "gru_lens_input": Q.recurrent_case(rng, "GRU", "reverse", sequence_lens=[1, 3, 4], lens_input=True,
                                           linear_before_reset=1),
        "lstm_lens_activations": Q.recurrent_case(rng, "LSTM", "bidirectional", sequence_lens=[4, 2, 0],
                                                  activations=["sigmoid", "leakyrelu", "tanh", "Sigmoid", "Tanh",
                                                               "Elu"], alphas=(0.05, 0.8)),
        "rnn_lens_input": Q.recurrent_case(rng, "RNN", "reverse", sequence_lens=[0, 2, 4], lens_input=True,
                                           initial=False),
        "if_runtime": F.if_runtime_case(rng, True),
        "loop_nested_if": F.loop_nested_case(rng),
        "loop_while": F.loop_while_case(rng, 10),
        "loop_masked": F.loop_masked_case(rng, True),
        "scan_axes": F.scan9_case(rng, 16),
        "scan_batched": F.scan8_case(rng, [3, 3]),
        "sequence_map": F.split_map_concat_case(rng),
        "sequence_pieces": F.split_pieces_case(rng),
        "sequence_in_loop": F.loop_append_case(rng),
        "bitwise_xor_int8": C.bitwise_case(rng, np.int8, "BitwiseXor"),
        "bitwise_not_uint64": C.bitwise_case(rng, np.uint64, "BitwiseNot"),
        "einsum_ellipsis": C.einsum_case(rng, "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
        "einsum_diagonal": C.einsum_case(rng, "bii->b", [(3, 4, 4)]),
        "einsum_three": C.einsum_case(rng, "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
        "einsum_implicit_int": C.einsum_case(rng, "ij,jk", [(3, 4), (4, 2)], np.int64),
        "instance_norm_5d": C.instance_norm_case(rng, (2, 3, 4, 5, 6)),
        "folded_pads": C.folded_pads_case(rng),
    }
    for name, case in models.items():
        (out / f"composition_{name}.onnx").write_bytes(case[0].SerializeToString())


if __name__ == "__main__":
    main()
