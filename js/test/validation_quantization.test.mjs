// The spec's validation steps of dequantizeLinear (#api-mlgraphbuilder-dequantizelinear) and
// quantizeLinear (#api-mlgraphbuilder-quantizelinear): data types, equal ranks, scale and zeroPoint
// of one shape, blockwise broadcastable to the input.
import { defineOps, typeRows, dataTypes } from './validation_support.mjs';

const tables = {};
const q = (input, scale, zeroPoint, types) => (o) => [o(types[0], input), o(types[1], scale), o(types[2], zeroPoint)];

// ---- dequantizeLinear ----
// input: uint8, int8, uint32, int32; scale: float32, float16; zeroPoint: same as input; output: scale's type.
tables.dequantizeLinear = [
  { step: "output: scale's dataType and input's shape", args: q([4, 6], [2, 3], [2, 3], ['u8', 'f32', 'u8']), expect: ['f32', [4, 6]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['u8', 'i8', 'u32', 'i32'],
    (t) => q([4], [1], [1], [t, 'f32', t]),
    () => ['f32', [4]],
  ),
  ...typeRows(
    "If scale's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => q([4], [1], [1], ['i8', t, 'i8']),
    (t) => [t, [4]],
  ),
  ...dataTypes
    .filter((t) => t !== 'int8')
    .map((t) => ({
      step: "If zeroPoint's dataType is not one of its allowed data types (same as input) / not equal to input's dataType, then throw a TypeError",
      name: `int8 input, ${t} zeroPoint`,
      args: q([4], [1], [1], ['i8', 'f32', t]),
    })),
  { step: 'output: scalars', args: q([], [], [], ['u8', 'f16', 'u8']), expect: ['f16', []] },
  { step: 'output: per-tensor scale of shape [1, 1]', args: q([4, 6], [1, 1], [1, 1], ['i32', 'f32', 'i32']), expect: ['f32', [4, 6]] },
  { step: 'output: scale of the input\'s shape', args: q([4, 6], [4, 6], [4, 6], ['u32', 'f32', 'u32']), expect: ['f32', [4, 6]] },
  { step: "If scale's rank is not equal to input's rank, then throw a TypeError", args: q([4, 6], [6], [1, 6], ['u8', 'f32', 'u8']) },
  { step: "If zeroPoint's rank is not equal to input's rank, then throw a TypeError", args: q([4, 6], [1, 6], [6], ['u8', 'f32', 'u8']) },
  { step: "If scale's shape is not equal to zeroPoint's shape, then throw a TypeError", args: q([4, 6], [2, 3], [2, 6], ['u8', 'f32', 'u8']) },
  { step: "If blockwise broadcasting scale's shape and input's shape returns false, then throw a TypeError", args: q([4, 6], [3, 3], [3, 3], ['u8', 'f32', 'u8']) },
  { step: "If blockwise broadcasting scale's shape and input's shape returns false, then throw a TypeError", name: 'scale larger than input', args: q([4, 6], [8, 6], [8, 6], ['u8', 'f32', 'u8']) },
];

// ---- quantizeLinear ----
// input: float32, float16; scale: same as input; zeroPoint: uint8, int8, uint32, int32; output: zeroPoint's type.
tables.quantizeLinear = [
  { step: "output: zeroPoint's dataType and input's shape", args: q([4, 6], [2, 3], [2, 3], ['f32', 'f32', 'u8']), expect: ['u8', [4, 6]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => q([4], [1], [1], [t, t, 'i8']),
    () => ['i8', [4]],
  ),
  ...typeRows(
    "If zeroPoint's dataType is not one of its allowed data types, then throw a TypeError",
    ['u8', 'i8', 'u32', 'i32'],
    (t) => q([4], [1], [1], ['f32', 'f32', t]),
    (t) => [t, [4]],
  ),
  { step: "If scale's dataType is not equal to input's dataType, then throw a TypeError", args: q([4], [1], [1], ['f32', 'f16', 'u8']) },
  { step: "If scale's dataType is not one of its allowed data types, then throw a TypeError", args: q([4], [1], [1], ['f32', 'i32', 'u8']) },
  { step: 'output: scalars', args: q([], [], [], ['f16', 'f16', 'i32']), expect: ['i32', []] },
  { step: 'output: blockwise scale [2, 1]', args: q([4, 6], [2, 1], [2, 1], ['f32', 'f32', 'u32']), expect: ['u32', [4, 6]] },
  { step: "If scale's rank is not equal to input's rank, then throw a TypeError", args: q([4, 6], [1, 1, 1], [1, 1], ['f32', 'f32', 'u8']) },
  { step: "If zeroPoint's rank is not equal to input's rank, then throw a TypeError", args: q([4, 6], [1, 1], [1], ['f32', 'f32', 'u8']) },
  { step: "If scale's shape is not equal to zeroPoint's shape, then throw a TypeError", args: q([4, 6], [4, 1], [2, 1], ['f32', 'f32', 'u8']) },
  { step: "If blockwise broadcasting scale's shape and input's shape returns false, then throw a TypeError", args: q([4, 6], [4, 4], [4, 4], ['f32', 'f32', 'u8']) },
];

defineOps(tables);
