// The spec's validation steps of conv2d (#api-mlgraphbuilder-conv2d), convTranspose2d
// (#api-mlgraphbuilder-convtranspose2d), the pooling operations (#mlgraphbuilder-pooling-op) and
// resample2d (#api-mlgraphbuilder-resample2d-method), with output shapes from "calculate conv2d
// output sizes", "calculate convtranspose output size" and the resample steps.
import { defineOps, typeRows, dataTypes } from './validation_support.mjs';

const tables = {};

// ---- conv2d ----
// outputSize = floor((inputSize - ((filterSize - 1) * dilation + 1) + padBegin + padEnd) / stride + 1)
const conv = (input, filter, options) => (o) => [o('f32', input), o('f32', filter), ...(options ? [options(o)] : [])];
tables.conv2d = [
  { step: 'output: nchw input, oihw filter (defaults)', args: conv([1, 2, 5, 5], [4, 2, 3, 3]), expect: ['f32', [1, 4, 3, 3]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => (o) => [o(t, [1, 1, 3, 3]), o(t, [1, 1, 1, 1])],
    (t) => [t, [1, 1, 3, 3]],
  ),
  { step: 'output: padding and strides, floor(1 + (7 - 3 + 2) / 2) = 4', args: conv([1, 1, 7, 7], [1, 1, 3, 3], () => ({ padding: [1, 1, 1, 1], strides: [2, 2] })), expect: ['f32', [1, 1, 4, 4]] },
  { step: 'output: floor of a fractional size, floor(1 + (6 - 3) / 2) = 2', args: conv([1, 1, 6, 6], [1, 1, 3, 3], () => ({ strides: [2, 2] })), expect: ['f32', [1, 1, 2, 2]] },
  { step: 'output: dilations, effective filter (3 - 1) * 2 + 1 = 5', args: conv([1, 1, 7, 7], [1, 1, 3, 3], () => ({ dilations: [2, 2] })), expect: ['f32', [1, 1, 3, 3]] },
  { step: 'output: asymmetric padding [beginningHeight, endingHeight, beginningWidth, endingWidth]', args: conv([1, 1, 5, 6], [1, 1, 3, 3], () => ({ padding: [0, 1, 2, 3] })), expect: ['f32', [1, 1, 4, 9]] },
  { step: 'output: nhwc input, ohwi filter', args: conv([1, 5, 5, 2], [4, 3, 3, 2], () => ({ inputLayout: 'nhwc', filterLayout: 'ohwi' })), expect: ['f32', [1, 3, 3, 4]] },
  { step: 'output: nhwc input, hwio filter', args: conv([1, 5, 5, 2], [3, 3, 2, 4], () => ({ inputLayout: 'nhwc', filterLayout: 'hwio' })), expect: ['f32', [1, 3, 3, 4]] },
  { step: 'output: nchw input, ihwo filter', args: conv([1, 2, 5, 5], [2, 3, 3, 4], () => ({ filterLayout: 'ihwo' })), expect: ['f32', [1, 4, 3, 3]] },
  { step: 'output: depthwise, groups = inputChannels = outputChannels', args: conv([1, 2, 5, 5], [2, 1, 3, 3], () => ({ groups: 2 })), expect: ['f32', [1, 2, 3, 3]] },
  { step: 'output: grouped, outputChannels a multiple of groups', args: conv([1, 4, 5, 5], [6, 2, 3, 3], () => ({ groups: 2 })), expect: ['f32', [1, 6, 3, 3]] },
  { step: 'output: with bias of shape « outputChannels »', args: conv([1, 2, 5, 5], [4, 2, 3, 3], (o) => ({ bias: o('f32', [4]) })), expect: ['f32', [1, 4, 3, 3]] },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", args: conv([2, 5, 5], [4, 2, 3, 3]) },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", name: 'rank 5', args: conv([1, 1, 2, 5, 5], [4, 2, 3, 3]) },
  { step: "If filter's rank is not its allowed rank (4), then throw a TypeError", args: conv([1, 2, 5, 5], [2, 3, 3]) },
  { step: "If filter's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: (o) => [o('f32', [1, 2, 5, 5]), o('f16', [4, 2, 3, 3])] },
  { step: "Otherwise, if options.padding's size is not 4, then throw a TypeError", args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ padding: [1, 1] })) },
  { step: "Otherwise, if options.strides's size is not 2, then throw a TypeError", args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ strides: [1, 1, 1] })) },
  { step: 'If any item in options.strides is equal to 0, then throw a TypeError', args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ strides: [1, 0] })) },
  { step: "Otherwise, if options.dilations's size is not 2, then throw a TypeError", args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ dilations: [1] })) },
  { step: 'If any item in options.dilations is equal to 0, then throw a TypeError', args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ dilations: [0, 1] })) },
  { step: 'If options.groups is 0, then throw a TypeError', args: conv([1, 2, 5, 5], [4, 2, 3, 3], () => ({ groups: 0 })) },
  { step: 'If inputChannels % options.groups is not 0, then throw a TypeError', args: conv([1, 3, 5, 5], [4, 1, 3, 3], () => ({ groups: 2 })) },
  { step: 'Otherwise, if inputChannels / options.groups is not equal to filterInputChannels, then throw a TypeError', args: conv([1, 4, 5, 5], [4, 4, 3, 3], () => ({ groups: 2 })) },
  { step: 'Otherwise, if inputChannels / options.groups is not equal to filterInputChannels, then throw a TypeError', name: 'groups 1', args: conv([1, 2, 5, 5], [4, 3, 3, 3]) },
  { step: 'Otherwise, if inputChannels / options.groups is not equal to filterInputChannels, then throw a TypeError', name: 'nhwc input read as nchw channels', args: conv([1, 5, 5, 2], [4, 2, 3, 3]) },
  { step: 'If outputChannels % options.groups is not 0, then throw a TypeError', args: conv([1, 4, 5, 5], [3, 2, 3, 3], () => ({ groups: 2 })) },
  { step: "If options.bias's shape is not equal to « outputChannels », then throw a TypeError", args: conv([1, 2, 5, 5], [4, 2, 3, 3], (o) => ({ bias: o('f32', [2]) })) },
  { step: "If options.bias's shape is not equal to « outputChannels », then throw a TypeError", name: 'rank 2', args: conv([1, 2, 5, 5], [4, 2, 3, 3], (o) => ({ bias: o('f32', [1, 4]) })) },
  { step: "If options.bias's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: conv([1, 2, 5, 5], [4, 2, 3, 3], (o) => ({ bias: o('f16', [4]) })) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 1, 5, 5]) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: 'dilated filter wider than the input', args: conv([1, 1, 5, 5], [1, 1, 3, 3], () => ({ dilations: [1, 3] })) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: 'padding 2^32 - 1 (exact arithmetic, no wrap-around)', args: conv([1, 1, 3, 3], [1, 1, 1, 1], () => ({ padding: [4294967295, 4294967295, 0, 0] })) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: 'dilation 2^31 (exact arithmetic, no wrap-around)', args: conv([1, 1, 3, 3], [1, 1, 3, 3], () => ({ dilations: [2 ** 31, 1] })) },
];

// ---- convTranspose2d ----
// outputSize = (inputSize - 1) * stride + (filterSize - 1) * dilation + 1 - padBegin - padEnd (+ outputPadding)
tables.convTranspose2d = [
  { step: 'output: nchw input, iohw filter (defaults), (3 - 1) * 1 + 3 = 5', args: conv([1, 1, 3, 3], [1, 2, 3, 3]), expect: ['f32', [1, 2, 5, 5]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16'],
    (t) => (o) => [o(t, [1, 1, 3, 3]), o(t, [1, 1, 1, 1])],
    (t) => [t, [1, 1, 3, 3]],
  ),
  { step: 'output: strides, (3 - 1) * 2 + 3 = 7', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2] })), expect: ['f32', [1, 2, 7, 7]] },
  { step: 'output: outputPadding is added', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputPadding: [1, 0] })), expect: ['f32', [1, 2, 8, 7]] },
  { step: 'output: padding is subtracted, 7 - 1 - 1 = 5', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], padding: [1, 1, 0, 2] })), expect: ['f32', [1, 2, 5, 5]] },
  { step: 'output: dilations, (3 - 1) + (3 - 1) * 2 + 1 = 7', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ dilations: [2, 2] })), expect: ['f32', [1, 2, 7, 7]] },
  { step: 'output: outputChannels = filterOutputChannels * groups', args: conv([1, 2, 3, 3], [2, 3, 3, 3], () => ({ groups: 2 })), expect: ['f32', [1, 6, 5, 5]] },
  { step: 'output: nhwc input, hwoi filter', args: conv([1, 3, 3, 1], [3, 3, 2, 1], () => ({ inputLayout: 'nhwc', filterLayout: 'hwoi' })), expect: ['f32', [1, 5, 5, 2]] },
  { step: 'output: nhwc input, ohwi filter', args: conv([1, 3, 3, 1], [2, 3, 3, 1], () => ({ inputLayout: 'nhwc', filterLayout: 'ohwi' })), expect: ['f32', [1, 5, 5, 2]] },
  { step: 'output: outputSizes in [calculated, calculated + stride) are taken as given', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputSizes: [8, 7] })), expect: ['f32', [1, 2, 8, 7]] },
  { step: 'output: with outputSizes, outputPadding is ignored', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputPadding: [1, 1], outputSizes: [7, 7] })), expect: ['f32', [1, 2, 7, 7]] },
  { step: 'output: the outputPadding < strides check applies only when outputSizes does not exist', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ outputPadding: [1, 1], outputSizes: [5, 5] })), expect: ['f32', [1, 2, 5, 5]] },
  { step: 'output: with bias of shape « outputChannels »', args: conv([1, 1, 3, 3], [1, 2, 3, 3], (o) => ({ bias: o('f32', [2]) })), expect: ['f32', [1, 2, 5, 5]] },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", args: conv([1, 3, 3], [1, 2, 3, 3]) },
  { step: "If filter's rank is not its allowed rank (4), then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3]) },
  { step: "If filter's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: (o) => [o('f16', [1, 1, 3, 3]), o('f32', [1, 2, 3, 3])] },
  { step: "Otherwise, if options.padding's size is not 4, then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ padding: [0, 0, 0] })) },
  { step: "Otherwise, if options.strides's size is not 2, then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2] })) },
  { step: 'If any item in options.strides is equal to 0, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [0, 1] })) },
  { step: "Otherwise, if options.dilations's size is not 2, then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ dilations: [1, 1, 1] })) },
  { step: 'If any item in options.dilations is equal to 0, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ dilations: [1, 0] })) },
  { step: "Otherwise, if options.outputPadding's size is not 2, then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputPadding: [1] })) },
  { step: "If options.outputSizes exists and its size is not 2, then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ outputSizes: [5, 5, 5] })) },
  { step: 'If options.outputPadding[0] is greater than or equal to options.strides[0] ..., then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputPadding: [2, 0] })) },
  { step: '... or options.outputPadding[1] is greater than or equal to options.strides[1], then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ outputPadding: [0, 1] })) },
  { step: 'If options.groups is 0, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ groups: 0 })) },
  { step: 'If inputChannels is not equal to filterInputChannels, then throw a TypeError', args: conv([1, 2, 3, 3], [3, 2, 3, 3]) },
  { step: 'If inputChannels is not equal to filterInputChannels, then throw a TypeError', name: 'hwoi filter read with its input channels last', args: conv([1, 1, 3, 3], [3, 3, 2, 2], () => ({ filterLayout: 'hwoi' })) },
  { step: 'If outputChannels (filterOutputChannels * groups) is not a valid dimension, then throw a TypeError', args: conv([1, 1, 1, 1], [1, 65536, 1, 1], () => ({ groups: 32768 })) },
  { step: "If options.bias's shape is not equal to « outputChannels », then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], (o) => ({ bias: o('f32', [1]) })) },
  { step: "If options.bias's dataType is not one of its allowed data types (same as input), then throw a TypeError", args: conv([1, 1, 3, 3], [1, 2, 3, 3], (o) => ({ bias: o('f16', [2]) })) },
  { step: 'If outputHeight is less than calculatedOutputHeight, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputSizes: [6, 7] })) },
  { step: 'If outputHeight is greater than or equal to calculatedOutputHeight + strides[0], then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputSizes: [9, 7] })) },
  { step: 'If outputWidth is less than calculatedOutputWidth, then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ strides: [2, 2], outputSizes: [7, 6] })) },
  { step: 'If outputWidth is greater than or equal to calculatedOutputWidth + strides[1], then throw a TypeError', args: conv([1, 1, 3, 3], [1, 2, 3, 3], () => ({ outputSizes: [5, 6] })) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', args: conv([1, 1, 1, 1], [1, 1, 1, 1], () => ({ padding: [1, 1, 0, 0] })) },
  { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: '(3 - 1) * (2^31 + 1) + 1 (exact arithmetic, no wrap-around)', args: conv([1, 1, 3, 3], [1, 1, 1, 1], () => ({ strides: [2 ** 31 + 1, 1] })) },
];

// ---- averagePool2d, l2Pool2d, maxPool2d ----
// The steps "If options.outputSizes exists ... set options.padding to « 0, 0, 0, 0 »" and "If its
// items are not smaller than the items ... for options.strides, then throw a TypeError" are not
// tested: the implementation departs from them on purpose (docs/choices.md), and the succeeding
// outputSizes rows they would forbid are left out with them (reported).
const pool = (input, options, t = 'f32') => (o) => [o(t, input), ...(options ? [options] : [])];
function poolRows(op, allowed) {
  return [
    { step: 'output: windowDimensions default to the input\'s height and width (global pooling)', args: pool([1, 2, 5, 5]), expect: ['f32', [1, 2, 1, 1]] },
    ...typeRows(
      "If allowedDataTypes is given and it does not contain input's dataType, then throw a TypeError",
      allowed,
      (t) => pool([1, 2, 3, 3], undefined, t),
      (t) => [t, [1, 2, 1, 1]],
    ),
    { step: 'output: window [3, 3], floor(1 + (5 - 3) / 1) = 3', args: pool([1, 2, 5, 5], { windowDimensions: [3, 3] }), expect: ['f32', [1, 2, 3, 3]] },
    { step: 'output: strides, floor(1 + (5 - 3) / 2) = 2', args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], strides: [2, 2] }), expect: ['f32', [1, 2, 2, 2]] },
    { step: 'output: padding, floor(1 + (5 - 3 + 2) / 2) = 3', args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], strides: [2, 2], padding: [1, 1, 1, 1] }), expect: ['f32', [1, 2, 3, 3]] },
    { step: 'output: asymmetric padding [beginningHeight, endingHeight, beginningWidth, endingWidth]', args: pool([1, 1, 5, 5], { windowDimensions: [3, 3], padding: [1, 0, 0, 2] }), expect: ['f32', [1, 1, 4, 5]] },
    { step: 'output: outputShapeRounding "floor", floor(1 + (6 - 3) / 2) = 2', args: pool([1, 1, 6, 6], { windowDimensions: [3, 3], strides: [2, 2] }), expect: ['f32', [1, 1, 2, 2]] },
    { step: 'output: outputShapeRounding "ceil", ceil(1 + (6 - 3) / 2) = 3', args: pool([1, 1, 6, 6], { windowDimensions: [3, 3], strides: [2, 2], outputShapeRounding: 'ceil' }), expect: ['f32', [1, 1, 3, 3]] },
    { step: 'output: dilations, effective window (3 - 1) * 2 + 1 = 5', args: pool([1, 1, 7, 7], { windowDimensions: [3, 3], dilations: [2, 2] }), expect: ['f32', [1, 1, 3, 3]] },
    { step: 'output: nhwc layout', args: pool([1, 5, 5, 2], { windowDimensions: [3, 3], layout: 'nhwc' }), expect: ['f32', [1, 3, 3, 2]] },
    { step: 'output: nhwc layout, default window', args: pool([1, 4, 6, 3], { layout: 'nhwc' }), expect: ['f32', [1, 1, 1, 3]] },
    { step: "If input's rank is not 4, then throw a TypeError", args: pool([2, 5, 5]) },
    { step: "If input's rank is not 4, then throw a TypeError", name: 'rank 5', args: pool([1, 1, 2, 5, 5]) },
    { step: "If options.windowDimensions's size is not 2, then throw a TypeError", args: pool([1, 2, 5, 5], { windowDimensions: [3] }) },
    { step: 'If any item in options.windowDimensions is equal to 0, then throw a TypeError', args: pool([1, 2, 5, 5], { windowDimensions: [0, 3] }) },
    { step: "If options.padding's size is not 4, then throw a TypeError", args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], padding: [1, 1] }) },
    { step: "If options.strides's size is not 2, then throw a TypeError", args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], strides: [1, 1, 1] }) },
    { step: 'If any item in options.strides is 0, then throw a TypeError', args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], strides: [1, 0] }) },
    { step: "If options.outputSizes exists and its size is not 2, then throw a TypeError", args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], outputSizes: [3] }) },
    { step: "If options.dilations's size is not 2, then throw a TypeError", args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], dilations: [1] }) },
    { step: 'If any item in options.dilations is 0, then throw a TypeError', args: pool([1, 2, 5, 5], { windowDimensions: [3, 3], dilations: [0, 0] }) },
    {
      step: 'If outputSizes is neither « floor(h), floor(w) » nor « ceil(h), ceil(w) », then throw a TypeError (floor height with ceil width)',
      args: pool([1, 1, 7, 7], { windowDimensions: [2, 2], strides: [2, 2], outputSizes: [3, 4] }),
    },
    {
      step: 'If outputSizes is neither « floor(h), floor(w) » nor « ceil(h), ceil(w) », then throw a TypeError (larger than both)',
      args: pool([1, 1, 7, 7], { windowDimensions: [2, 2], strides: [2, 2], outputSizes: [5, 5] }),
    },
    { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', args: pool([1, 1, 3, 3], { windowDimensions: [5, 5] }) },
    { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: 'dilated window wider than the input', args: pool([1, 1, 5, 5], { windowDimensions: [3, 3], dilations: [1, 3] }) },
    { step: 'If either outputHeight or outputWidth is not a valid dimension, then throw a TypeError', name: 'padding 2^32 - 1 (exact arithmetic, no wrap-around)', args: pool([1, 1, 3, 3], { windowDimensions: [1, 1], padding: [4294967295, 4294967295, 0, 0] }) },
    { step: 'output: a stride of 2^32 - 1 leaves one window', args: pool([1, 1, 3, 3], { windowDimensions: [1, 1], strides: [4294967295, 4294967295] }), expect: ['f32', [1, 1, 1, 1]] },
  ];
}
tables.averagePool2d = poolRows('averagePool2d', ['f32', 'f16']);
tables.l2Pool2d = poolRows('l2Pool2d', ['f32', 'f16']);
tables.maxPool2d = poolRows('maxPool2d', dataTypes);

// ---- resample2d ----
const resample = (input, options, t = 'f32') => (o) => [o(t, input), ...(options ? [options] : [])];
tables.resample2d = [
  { step: 'output: scales default to [1.0, 1.0] and axes to [2, 3]', args: resample([1, 1, 2, 3]), expect: ['f32', [1, 1, 2, 3]] },
  ...typeRows(
    "If input's dataType is not one of its allowed data types, then throw a TypeError",
    ['f32', 'f16', 'u8', 'i8'],
    (t) => resample([1, 1, 2, 3], { sizes: [4, 6] }, t),
    (t) => [t, [1, 1, 4, 6]],
  ),
  { step: 'output: size = floor(inputSize * scale)', args: resample([1, 1, 2, 3], { scales: [2, 3] }), expect: ['f32', [1, 1, 4, 9]] },
  { step: 'output: size = floor(inputSize * scale), fractional scales', args: resample([1, 1, 4, 5], { scales: [0.5, 0.5] }), expect: ['f32', [1, 1, 2, 2]] },
  { step: 'output: size = floor(3 * 1.5) = 4', args: resample([1, 1, 3, 3], { scales: [1.5, 1.5] }), expect: ['f32', [1, 1, 4, 4]] },
  { step: 'output: sizes are taken as given', args: resample([1, 1, 2, 3], { sizes: [5, 6] }), expect: ['f32', [1, 1, 5, 6]] },
  { step: 'output: sizes win over scales', args: resample([1, 1, 2, 3], { scales: [2, 2], sizes: [3, 3] }), expect: ['f32', [1, 1, 3, 3]] },
  { step: 'output: axes [1, 2] (nhwc)', args: resample([1, 2, 3, 1], { axes: [1, 2], sizes: [4, 5] }), expect: ['f32', [1, 4, 5, 1]] },
  { step: 'output: sizes[index] goes to axes[index] (axes [3, 2])', args: resample([1, 1, 2, 3], { axes: [3, 2], sizes: [7, 8] }), expect: ['f32', [1, 1, 8, 7]] },
  { step: 'output: axes [0, 1]', args: resample([2, 3, 4, 5], { axes: [0, 1], scales: [2, 2] }), expect: ['f32', [4, 6, 4, 5]] },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", args: resample([1, 2, 3]) },
  { step: "If input's rank is not its allowed rank (4), then throw a TypeError", name: 'rank 5', args: resample([1, 1, 1, 2, 3]) },
  { step: 'Otherwise, if any of options.scales items is less than or equal to 0, then throw a TypeError', args: resample([1, 1, 2, 3], { scales: [1, 0] }) },
  { step: 'Otherwise, if any of options.scales items is less than or equal to 0, then throw a TypeError', name: 'negative', args: resample([1, 1, 2, 3], { scales: [-1, 1] }) },
  { step: "Otherwise, if options.scales's size is not 2, then throw a TypeError", args: resample([1, 1, 2, 3], { scales: [2, 2, 2] }) },
  { step: "If options.sizes exists and its size is not 2, then throw a TypeError", args: resample([1, 1, 2, 3], { sizes: [4] }) },
  { step: 'If options.sizes exists and any of its items is 0, then throw a TypeError', args: resample([1, 1, 2, 3], { sizes: [4, 0] }) },
  { step: 'Otherwise, if options.axes contains duplicate values, then throw a TypeError', args: resample([1, 1, 2, 3], { axes: [2, 2] }) },
  { step: 'Otherwise, if any of options.axes items is not in the range 0 to rank, exclusive, then throw a TypeError', args: resample([1, 1, 2, 3], { axes: [2, 4] }) },
  { step: 'If size = floor(inputSize * scale) is not a valid dimension, then throw a TypeError', args: resample([1, 1, 4, 5], { scales: [0.1, 1] }) },
  { step: 'If size = floor(inputSize * scale) is not a valid dimension, then throw a TypeError', name: 'larger than 2^31 - 1', args: resample([1, 1, 2, 3], { scales: [2 ** 31, 1] }) },
];

defineOps(tables);
