# The WebNN service's wire schema (docs/service.md): the graph a client builds, as the service
# receives it to validate again and compile, and the interfaces of the service.
#
# The section between the GENERATED markers is written by scripts/gen_ipc_schema.py from the op
# table (src/graph/op_table.def) and each attribute struct's fields() reflection
# (src/graph/attributes.hpp): one enum per spec enum, one options struct per attribute struct and
# the operation union with one member per op. The CTest generated_files_up_to_date fails when it is
# stale. Both ends are built from the same table; `opTableHash` (generated) is what a client
# presents so that a service built from another table refuses it instead of misreading ordinals.
@0x85fa4acf9c0fbbba;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("webnn::ipc::wire");

# ---- Value types the generated options use ----

# An MLNumber: the three kinds the IR keeps (a double, or an integer beyond 2^53 exactly).
struct Number {
  union {
    float64 @0 :Float64;
    int64 @1 :Int64;
    uint64 @2 :UInt64;
  }
}

# An optional sequence<unsigned long>: absent means the spec's default, which differs from empty.
struct OptionalDims {
  union {
    absent @0 :Void;
    values @1 :List(UInt32);
  }
}

struct OptionalFloats {
  union {
    absent @0 :Void;
    values @1 :List(Float32);
  }
}

# An operand-valued option (bias, scale, c, ...): an operand index of the same graph.
struct OptionalOperand {
  union {
    absent @0 :Void;
    operand @1 :UInt32;
  }
}

# split()'s `splits`: a number of equal parts, or the parts' sizes.
struct Splits {
  union {
    count @0 :UInt32;
    sizes @1 :List(UInt32);
  }
}

# ---- The graph ----

struct OperandDescriptor {
  dataType @0 :DataType;
  shape @1 :List(UInt32);
}

# Bytes of a constant, a tensor write or a compute input: inline in the message, or a slice of the
# one shared-memory region the enclosing graph or call carries (docs/service.md says when each is
# used and what the receiver checks). One region per message: a descriptor travels per capability
# in the message, and a message carries few of them.
struct Bytes {
  union {
    inline @0 :Data;
    shared @1 :Slice;
  }
}

struct Slice {
  offset @0 :UInt64;
  size @1 :UInt64;
}

# A capability whose only content is a file descriptor (Capability::Server::getFd()): a sealed
# memfd of `size` bytes.
interface Region {}

struct SharedRegion {
  region @0 :Region;
  size @1 :UInt64;
}

struct Operand {
  # Index in Graph.operands is the operand's id; operations and options name operands by it.
  descriptor @0 :OperandDescriptor;
  # Inputs: the input's name. Others: a name kept from a graph file, or empty.
  name @1 :Text;
  union {
    input @2 :Void;
    constant @3 :Bytes;
    # Produced by an operation; the descriptor is what the client inferred, and the receiver
    # checks it against its own inference.
    intermediate @4 :Void;
  }
}

struct NamedOperand {
  name @0 :Text;
  operand @1 :UInt32;
}

struct Graph {
  name @0 :Text;
  operands @1 :List(Operand);
  operations @2 :List(Operation);  # in topological order
  inputs @3 :List(NamedOperand);
  outputs @4 :List(NamedOperand);
  shared @5 :SharedRegion;  # the region the constants' `shared` slices refer to, if any
}

# ---- The service's interfaces ----
#
# Cap'n Proto orders calls per capability (E-order), and the service handles each call to a
# Context in full before it takes the next. Every step the spec puts on a context's timeline is a
# method of Context, whatever object it concerns (tensors and graphs are named by ids the client
# chose, valid only inside their context), so the order the client issued is the order the
# service runs. A client can name only what it created in its own contexts.

# The bootstrap capability of a connection.
interface Service {
  # `opTableHash` must equal the service's; `token` must match the service's token file, when it
  # has one; the service must have room for one more client. Otherwise the call fails with the
  # reason. `maxMessageBytes` is the largest message the service reads: the client checks a graph
  # against it before sending, since a larger message ends the connection.
  connect @0 (opTableHash :UInt64, token :Data) -> (ml :ML, maxMessageBytes :UInt64);
}

interface ML {
  createContext @0 (options :ContextOptions) -> (context :Context, info :ContextInfo, failure :Failure);
}

struct ContextOptions {
  backend @0 :Text;  # "" = the service's best
  numThreads @1 :Int32;
  accelerated @2 :Bool = true;
  powerPreference @3 :UInt8;
}

struct ContextInfo {
  backend @0 :Text;
  accelerated @1 :Bool;
  numThreads @2 :Int32;
}

# An error the API reports (the spec's kind and the message), as opposed to a broken protocol,
# which ends the connection.
struct Failure {
  kind @0 :UInt8;  # webnn::ErrorKind
  message @1 :Text;
}

struct NamedTensor {
  name @0 :Text;
  tensor @1 :UInt32;
}

struct NamedBytes {
  name @0 :Text;
  bytes @1 :Bytes;
}

# ---- A context's timeline steps ----

struct CreateTensorStep {
  tensor @0 :UInt32;
  descriptor @1 :OperandDescriptor;
  readable @2 :Bool;
  writable @3 :Bool;
}

# Above the inline limit the bytes are a slice of `shared` (writeTensor), or, in `steps`, the
# whole of the tensor's attached region (attachRegion): a step carries no region of its own.
struct WriteTensorStep {
  tensor @0 :UInt32;
  bytes @1 :Bytes;
  shared @2 :SharedRegion;
}

# Above the inline limit the client passes a writable region of the tensor's size as
# `destination` (readTensor), or, in `steps`, sets `attached` to have the bytes written to the
# tensor's attached region; the service fills it and the result's bytes are then empty.
struct ReadTensorStep {
  tensor @0 :UInt32;
  destination @1 :Region;
  attached @2 :Bool;
}

struct ReadResult {
  bytes @0 :Data;
  failure @1 :Failure;
}

struct DispatchStep {
  graph @0 :UInt32;
  inputs @1 :List(NamedTensor);
  outputs @2 :List(NamedTensor);
}

struct Step {
  union {
    createTensor @0 :CreateTensorStep;
    writeTensor @1 :WriteTensorStep;
    readTensor @2 :ReadTensorStep;
    destroyTensor @3 :UInt32;
    dispatch @4 :DispatchStep;
    destroyGraph @5 :UInt32;
  }
}

interface Context {
  # Timeline steps in the client's order, as one call: the client sends every step it has queued
  # when its connection thread wakes, so a write, a dispatch and the read after them cost one
  # message and one reply. The service runs them in order; `reads` holds one result per
  # readTensor step, in order. Bytes travel inline here (a step's region would need a descriptor of
  # its own): larger writes and reads are the calls below.
  steps @0 (steps :List(Step)) -> (reads :List(ReadResult));
  writeTensor @1 WriteTensorStep;
  readTensor @2 ReadTensorStep -> ReadResult;
  build @3 (graph :UInt32, description :Graph) -> (placement :List(Text), failure :Failure);
  # Outputs above the inline limit go to the slices `destinations` names, of a writable region the
  # client passes as `destination`; the result then holds those slices instead of the bytes.
  compute @4 (graph :UInt32, inputs :List(NamedBytes), shared :SharedRegion, destination :SharedRegion,
              destinations :List(NamedBytes)) -> (outputs :List(NamedBytes), failure :Failure);
  destroy @5 ();
  # A writable region of the tensor's byte length (sealed against shrinking, growing and
  # sealing) that the client keeps for the tensor's large writes and reads: the service checks and
  # maps it once, and drops it with the tensor. The client writes it only while no step of its
  # is in flight, and reads it only after the reply of the step that filled it.
  attachRegion @6 (tensor :UInt32, region :Region);
}

# ---- BEGIN GENERATED by scripts/gen_ipc_schema.py from the op table; do not edit ----
enum DataType {
  float32 @0;
  float16 @1;
  int32 @2;
  uint32 @3;
  int64 @4;
  uint64 @5;
  int8 @6;
  uint8 @7;
}

enum InputLayout {
  nchw @0;
  nhwc @1;
}

enum Conv2dFilterLayout {
  oihw @0;
  hwio @1;
  ohwi @2;
  ihwo @3;
}

enum ConvTranspose2dFilterLayout {
  iohw @0;
  hwoi @1;
  ohwi @2;
}

enum RoundingType {
  floor @0;
  ceil @1;
}

enum InterpolationMode {
  nearestNeighbor @0;
  linear @1;
}

enum PaddingMode {
  constant @0;
  edge @1;
  reflection @2;
}

enum RecurrentDirection {
  forward @0;
  backward @1;
  both @2;
}

enum GruWeightLayout {
  zrn @0;
  rzn @1;
}

enum RecurrentActivation {
  relu @0;
  sigmoid @1;
  tanh @2;
}

enum LstmWeightLayout {
  iofg @0;
  ifgo @1;
}

struct OptionalRecurrentActivationList {
  union {
    absent @0 :Void;
    values @1 :List(RecurrentActivation);
  }
}

struct EluOptions {
  alpha @0 :Float64;
}

struct HardSigmoidOptions {
  alpha @0 :Float64;
  beta @1 :Float64;
}

struct LeakyReluOptions {
  alpha @0 :Float64;
}

struct LinearOptions {
  alpha @0 :Float64;
  beta @1 :Float64;
}

struct ClampOptions {
  minValue @0 :Number;
  maxValue @1 :Number;
}

struct CastOptions {
  dataType @0 :DataType;
}

struct Conv2dOptions {
  padding @0 :OptionalDims;
  strides @1 :OptionalDims;
  dilations @2 :OptionalDims;
  groups @3 :UInt32;
  inputLayout @4 :InputLayout;
  filterLayout @5 :Conv2dFilterLayout;
  bias @6 :OptionalOperand;
}

struct ConvTranspose2dOptions {
  padding @0 :OptionalDims;
  strides @1 :OptionalDims;
  dilations @2 :OptionalDims;
  outputPadding @3 :OptionalDims;
  outputSizes @4 :OptionalDims;
  groups @5 :UInt32;
  inputLayout @6 :InputLayout;
  filterLayout @7 :ConvTranspose2dFilterLayout;
  bias @8 :OptionalOperand;
}

struct Pool2dOptions {
  windowDimensions @0 :OptionalDims;
  padding @1 :OptionalDims;
  strides @2 :OptionalDims;
  dilations @3 :OptionalDims;
  layout @4 :InputLayout;
  outputShapeRounding @5 :RoundingType;
  outputSizes @6 :OptionalDims;
}

struct Resample2dOptions {
  mode @0 :InterpolationMode;
  scales @1 :OptionalFloats;
  sizes @2 :OptionalDims;
  axes @3 :OptionalDims;
}

struct GemmOptions {
  c @0 :OptionalOperand;
  alpha @1 :Float64;
  beta @2 :Float64;
  aTranspose @3 :Bool;
  bTranspose @4 :Bool;
}

struct BatchNormalizationOptions {
  scale @0 :OptionalOperand;
  bias @1 :OptionalOperand;
  axis @2 :UInt32;
  epsilon @3 :Float64;
}

struct InstanceNormalizationOptions {
  scale @0 :OptionalOperand;
  bias @1 :OptionalOperand;
  epsilon @2 :Float64;
  layout @3 :InputLayout;
}

struct LayerNormalizationOptions {
  scale @0 :OptionalOperand;
  bias @1 :OptionalOperand;
  axes @2 :OptionalDims;
  epsilon @3 :Float64;
}

struct SoftmaxOptions {
  axis @0 :UInt32;
}

struct ReduceOptions {
  axes @0 :OptionalDims;
  keepDimensions @1 :Bool;
}

struct ArgMinMaxOptions {
  axis @0 :UInt32;
  keepDimensions @1 :Bool;
  outputDataType @2 :DataType;
}

struct CumulativeSumOptions {
  axis @0 :UInt32;
  exclusive @1 :Bool;
  reversed @2 :Bool;
}

struct ReshapeOptions {
  newShape @0 :List(UInt32);
}

struct TransposeOptions {
  permutation @0 :OptionalDims;
}

struct ConcatOptions {
  axis @0 :UInt32;
}

struct SplitOptions {
  splits @0 :Splits;
  axis @1 :UInt32;
}

struct SliceOptions {
  starts @0 :List(UInt32);
  sizes @1 :List(UInt32);
  strides @2 :OptionalDims;
}

struct ExpandOptions {
  newShape @0 :List(UInt32);
}

struct PadOptions {
  beginningPadding @0 :List(UInt32);
  endingPadding @1 :List(UInt32);
  mode @2 :PaddingMode;
  value @3 :Number;
}

struct ReverseOptions {
  axes @0 :OptionalDims;
}

struct TileOptions {
  repetitions @0 :List(UInt32);
}

struct TriangularOptions {
  upper @0 :Bool;
  diagonal @1 :Int32;
}

struct GatherOptions {
  axis @0 :UInt32;
}

struct ScatterOptions {
  axis @0 :UInt32;
}

struct GruOptions {
  steps @0 :UInt32;
  hiddenSize @1 :UInt32;
  bias @2 :OptionalOperand;
  recurrentBias @3 :OptionalOperand;
  initialHiddenState @4 :OptionalOperand;
  resetAfter @5 :Bool;
  returnSequence @6 :Bool;
  direction @7 :RecurrentDirection;
  layout @8 :GruWeightLayout;
  activations @9 :OptionalRecurrentActivationList;
}

struct GruCellOptions {
  hiddenSize @0 :UInt32;
  bias @1 :OptionalOperand;
  recurrentBias @2 :OptionalOperand;
  resetAfter @3 :Bool;
  layout @4 :GruWeightLayout;
  activations @5 :OptionalRecurrentActivationList;
}

struct LstmOptions {
  steps @0 :UInt32;
  hiddenSize @1 :UInt32;
  bias @2 :OptionalOperand;
  recurrentBias @3 :OptionalOperand;
  peepholeWeight @4 :OptionalOperand;
  initialHiddenState @5 :OptionalOperand;
  initialCellState @6 :OptionalOperand;
  returnSequence @7 :Bool;
  direction @8 :RecurrentDirection;
  layout @9 :LstmWeightLayout;
  activations @10 :OptionalRecurrentActivationList;
}

struct LstmCellOptions {
  hiddenSize @0 :UInt32;
  bias @1 :OptionalOperand;
  recurrentBias @2 :OptionalOperand;
  peepholeWeight @3 :OptionalOperand;
  layout @4 :LstmWeightLayout;
  activations @5 :OptionalRecurrentActivationList;
}

struct Operation {
  inputs @0 :List(UInt32);  # positional operands, in the spec's order
  outputs @1 :List(UInt32);  # every result, in order
  label @2 :Text;
  union {
    add @3 :Void;
    sub @4 :Void;
    mul @5 :Void;
    div @6 :Void;
    max @7 :Void;
    min @8 :Void;
    pow @9 :Void;
    abs @10 :Void;
    ceil @11 :Void;
    cos @12 :Void;
    erf @13 :Void;
    exp @14 :Void;
    floor @15 :Void;
    identity @16 :Void;
    log @17 :Void;
    neg @18 :Void;
    reciprocal @19 :Void;
    roundEven @20 :Void;
    sin @21 :Void;
    sign @22 :Void;
    sqrt @23 :Void;
    tan @24 :Void;
    relu @25 :Void;
    sigmoid @26 :Void;
    tanh @27 :Void;
    gelu @28 :Void;
    elu @29 :EluOptions;
    hardSigmoid @30 :HardSigmoidOptions;
    hardSwish @31 :Void;
    leakyRelu @32 :LeakyReluOptions;
    linear @33 :LinearOptions;
    prelu @34 :Void;
    softplus @35 :Void;
    softsign @36 :Void;
    clamp @37 :ClampOptions;
    cast @38 :CastOptions;
    equal @39 :Void;
    notEqual @40 :Void;
    greater @41 :Void;
    greaterOrEqual @42 :Void;
    lesser @43 :Void;
    lesserOrEqual @44 :Void;
    logicalNot @45 :Void;
    logicalAnd @46 :Void;
    logicalOr @47 :Void;
    logicalXor @48 :Void;
    isNaN @49 :Void;
    isInfinite @50 :Void;
    where @51 :Void;
    conv2d @52 :Conv2dOptions;
    convTranspose2d @53 :ConvTranspose2dOptions;
    averagePool2d @54 :Pool2dOptions;
    l2Pool2d @55 :Pool2dOptions;
    maxPool2d @56 :Pool2dOptions;
    resample2d @57 :Resample2dOptions;
    matmul @58 :Void;
    gemm @59 :GemmOptions;
    batchNormalization @60 :BatchNormalizationOptions;
    instanceNormalization @61 :InstanceNormalizationOptions;
    layerNormalization @62 :LayerNormalizationOptions;
    softmax @63 :SoftmaxOptions;
    reduceL1 @64 :ReduceOptions;
    reduceL2 @65 :ReduceOptions;
    reduceLogSum @66 :ReduceOptions;
    reduceLogSumExp @67 :ReduceOptions;
    reduceMax @68 :ReduceOptions;
    reduceMean @69 :ReduceOptions;
    reduceMin @70 :ReduceOptions;
    reduceProduct @71 :ReduceOptions;
    reduceSum @72 :ReduceOptions;
    reduceSumSquare @73 :ReduceOptions;
    argMax @74 :ArgMinMaxOptions;
    argMin @75 :ArgMinMaxOptions;
    cumulativeSum @76 :CumulativeSumOptions;
    reshape @77 :ReshapeOptions;
    transpose @78 :TransposeOptions;
    concat @79 :ConcatOptions;
    split @80 :SplitOptions;
    slice @81 :SliceOptions;
    expand @82 :ExpandOptions;
    pad @83 :PadOptions;
    reverse @84 :ReverseOptions;
    tile @85 :TileOptions;
    triangular @86 :TriangularOptions;
    gather @87 :GatherOptions;
    gatherElements @88 :GatherOptions;
    gatherND @89 :Void;
    scatterElements @90 :ScatterOptions;
    scatterND @91 :Void;
    gru @92 :GruOptions;
    gruCell @93 :GruCellOptions;
    lstm @94 :LstmOptions;
    lstmCell @95 :LstmCellOptions;
    quantizeLinear @96 :Void;
    dequantizeLinear @97 :Void;
  }
}

const opTableHash :UInt64 = 0xcfde7d3d3ba7c6b0;
# ---- END GENERATED ----
