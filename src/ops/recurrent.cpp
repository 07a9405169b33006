// Recurrent operators (gru, gruCell, lstm, lstmCell): validation and output shapes.
//
// The four algorithms share their steps: the tensor-limits checks of the positional operands, the
// shapes of the weights, biases and states in terms of numDirections, the number of gates (3 for
// gru, 4 for lstm) and hiddenSize, the "hiddenSize * 2 * gates is a valid dimension" rule and the
// length of `activations`. All failures are TypeErrors; hiddenSize is checked before the shapes
// that are computed from it so that a hiddenSize of 0 is reported as such rather than as a shape
// mismatch (the order of the spec's TypeError steps is otherwise unobservable).
#include "ops/families.hpp"
#include "ops/ops.hpp"
#include "ops/shape_helpers.hpp"

namespace webnn::ops {

namespace {

// Expected shapes in 64 bits: 4 * hiddenSize can exceed uint32 for a hostile hiddenSize, and such
// a shape then matches no operand.
using Dims = std::vector<uint64_t>;

std::string dims_to_string(const Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

void check_shape(const std::string& who, const char* name, const OperandDescriptor& desc, const Dims& expected) {
  bool equal = desc.shape.size() == expected.size();
  for (size_t i = 0; equal && i < expected.size(); ++i) equal = desc.shape[i] == expected[i];
  if (!equal)
    throw_error(ErrorKind::kTypeError, who + ": " + name + " must have shape " + dims_to_string(expected) + ", got " +
                                           shape_to_string(desc.shape));
}

// A positional operand after the input: its tensor-limits row (data type equal to the input's,
// rank), then its shape.
void check_operand(const Operation& op, const std::string& who, const char* name, const OperandDescriptor& desc,
                   const OperandDescriptor& input, const Dims& expected) {
  check_tensor_limit(op.kind, name, desc, &input);
  check_shape(who, name, desc, expected);
}

// An operand-valued option, when present.
void check_option(const Graph& graph, const Operation& op, const std::string& who, const char* name,
                  const std::optional<OperandRef>& ref, const OperandDescriptor& input, const Dims& expected) {
  if (ref) check_operand(op, who, name, graph.desc(ref->id), input, expected);
}

// spec: "If hiddenSize * 6 (gru) / * 8 (lstm) is not a valid dimension": some platforms hold
// bias and recurrentBias as one tensor of 2 * gates * hiddenSize elements.
void check_hidden_size(const std::string& who, uint32_t hidden_size, uint32_t gates) {
  const uint64_t combined = uint64_t{hidden_size} * 2 * gates;
  type_error_if(hidden_size == 0, who + ": hiddenSize must be greater than 0");
  type_error_if(!is_valid_dimension(static_cast<int64_t>(combined)),
                who + ": hiddenSize * " + std::to_string(2 * gates) + " (" + std::to_string(combined) +
                    ") must be a valid dimension (at most " + std::to_string(kMaxDimension) + ")");
}

// The defaults: gru's and gruCell's [sigmoid, tanh] (count 2), lstm's and lstmCell's
// [sigmoid, tanh, tanh] (count 3).
void resolve_activations(const std::string& who, DefaultedActivations& activations, size_t count) {
  std::vector<RecurrentActivation> fallback = {RecurrentActivation::kSigmoid, RecurrentActivation::kTanh};
  if (count == 3) fallback.push_back(RecurrentActivation::kTanh);
  activations.resolve(std::move(fallback));
  type_error_if(activations->size() != count, who + ": activations must list " + std::to_string(count) +
                                                  " functions, got " + std::to_string(activations->size()));
}

// spec: "steps must equal input.shape[0]" (lstm also says "If steps is 0"; a dimension is never 0,
// so gru's check covers that case too).
void check_steps(const std::string& who, uint32_t steps, const OperandDescriptor& input) {
  type_error_if(steps == 0, who + ": steps must be greater than 0");
  type_error_if(input.shape[0] != steps, who + ": steps (" + std::to_string(steps) +
                                             ") must equal the input's first dimension, got input shape " +
                                             shape_to_string(input.shape));
}

uint64_t num_directions(RecurrentDirection direction) { return direction == RecurrentDirection::kBoth ? 2 : 1; }

// spec: #api-mlgraphbuilder-gru
std::vector<OperandDescriptor> infer_gru(const Graph& graph, Operation& op) {
  expect_input_count(op, 3);
  auto& a = std::get<GruAttrs>(op.attrs);
  const std::string who = op_prefix(op);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "weight", input_desc(graph, op, 1), &input);
  check_tensor_limit(op.kind, "recurrentWeight", input_desc(graph, op, 2), &input);
  check_steps(who, a.steps, input);
  const uint64_t batch = input.shape[1], input_size = input.shape[2], hidden = a.hidden_size;
  const uint64_t dirs = num_directions(a.direction);
  check_hidden_size(who, a.hidden_size, 3);
  check_shape(who, "weight", input_desc(graph, op, 1), {dirs, 3 * hidden, input_size});
  check_shape(who, "recurrentWeight", input_desc(graph, op, 2), {dirs, 3 * hidden, hidden});
  check_option(graph, op, who, "bias", a.bias, input, {dirs, 3 * hidden});
  check_option(graph, op, who, "recurrentBias", a.recurrent_bias, input, {dirs, 3 * hidden});
  check_option(graph, op, who, "initialHiddenState", a.initial_hidden_state, input, {dirs, batch, hidden});
  resolve_activations(who, a.activations, 2);
  const Shape state{uint32_t(dirs), uint32_t(batch), a.hidden_size};
  std::vector<OperandDescriptor> outs{{input.data_type, state}};
  if (a.return_sequence) outs.push_back({input.data_type, {a.steps, uint32_t(dirs), uint32_t(batch), a.hidden_size}});
  return outs;
}

// spec: #api-mlgraphbuilder-grucell
std::vector<OperandDescriptor> infer_gru_cell(const Graph& graph, Operation& op) {
  expect_input_count(op, 4);
  auto& a = std::get<GruCellAttrs>(op.attrs);
  const std::string who = op_prefix(op);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "weight", input_desc(graph, op, 1), &input);
  check_tensor_limit(op.kind, "recurrentWeight", input_desc(graph, op, 2), &input);
  check_tensor_limit(op.kind, "hiddenState", input_desc(graph, op, 3), &input);
  const uint64_t batch = input.shape[0], input_size = input.shape[1], hidden = a.hidden_size;
  check_hidden_size(who, a.hidden_size, 3);
  check_shape(who, "weight", input_desc(graph, op, 1), {3 * hidden, input_size});
  check_shape(who, "recurrentWeight", input_desc(graph, op, 2), {3 * hidden, hidden});
  check_shape(who, "hiddenState", input_desc(graph, op, 3), {batch, hidden});
  check_option(graph, op, who, "bias", a.bias, input, {3 * hidden});
  check_option(graph, op, who, "recurrentBias", a.recurrent_bias, input, {3 * hidden});
  resolve_activations(who, a.activations, 2);
  return {{input.data_type, {uint32_t(batch), a.hidden_size}}};
}

// spec: #api-mlgraphbuilder-lstm
std::vector<OperandDescriptor> infer_lstm(const Graph& graph, Operation& op) {
  expect_input_count(op, 3);
  auto& a = std::get<LstmAttrs>(op.attrs);
  const std::string who = op_prefix(op);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "weight", input_desc(graph, op, 1), &input);
  check_tensor_limit(op.kind, "recurrentWeight", input_desc(graph, op, 2), &input);
  check_steps(who, a.steps, input);
  const uint64_t batch = input.shape[1], input_size = input.shape[2], hidden = a.hidden_size;
  const uint64_t dirs = num_directions(a.direction);
  check_hidden_size(who, a.hidden_size, 4);
  check_shape(who, "weight", input_desc(graph, op, 1), {dirs, 4 * hidden, input_size});
  check_shape(who, "recurrentWeight", input_desc(graph, op, 2), {dirs, 4 * hidden, hidden});
  check_option(graph, op, who, "bias", a.bias, input, {dirs, 4 * hidden});
  check_option(graph, op, who, "recurrentBias", a.recurrent_bias, input, {dirs, 4 * hidden});
  check_option(graph, op, who, "peepholeWeight", a.peephole_weight, input, {dirs, 3 * hidden});
  check_option(graph, op, who, "initialHiddenState", a.initial_hidden_state, input, {dirs, batch, hidden});
  check_option(graph, op, who, "initialCellState", a.initial_cell_state, input, {dirs, batch, hidden});
  resolve_activations(who, a.activations, 3);
  const OperandDescriptor state{input.data_type, {uint32_t(dirs), uint32_t(batch), a.hidden_size}};
  std::vector<OperandDescriptor> outs{state, state};
  if (a.return_sequence) outs.push_back({input.data_type, {a.steps, uint32_t(dirs), uint32_t(batch), a.hidden_size}});
  return outs;
}

// spec: #api-mlgraphbuilder-lstmcell
std::vector<OperandDescriptor> infer_lstm_cell(const Graph& graph, Operation& op) {
  expect_input_count(op, 5);
  auto& a = std::get<LstmCellAttrs>(op.attrs);
  const std::string who = op_prefix(op);
  const OperandDescriptor& input = input_desc(graph, op, 0);
  check_tensor_limit(op.kind, "input", input);
  check_tensor_limit(op.kind, "weight", input_desc(graph, op, 1), &input);
  check_tensor_limit(op.kind, "recurrentWeight", input_desc(graph, op, 2), &input);
  check_tensor_limit(op.kind, "hiddenState", input_desc(graph, op, 3), &input);
  check_tensor_limit(op.kind, "cellState", input_desc(graph, op, 4), &input);
  const uint64_t batch = input.shape[0], input_size = input.shape[1], hidden = a.hidden_size;
  check_hidden_size(who, a.hidden_size, 4);
  check_shape(who, "weight", input_desc(graph, op, 1), {4 * hidden, input_size});
  check_shape(who, "recurrentWeight", input_desc(graph, op, 2), {4 * hidden, hidden});
  check_shape(who, "hiddenState", input_desc(graph, op, 3), {batch, hidden});
  check_shape(who, "cellState", input_desc(graph, op, 4), {batch, hidden});
  check_option(graph, op, who, "bias", a.bias, input, {4 * hidden});
  check_option(graph, op, who, "recurrentBias", a.recurrent_bias, input, {4 * hidden});
  check_option(graph, op, who, "peepholeWeight", a.peephole_weight, input, {3 * hidden});
  resolve_activations(who, a.activations, 3);
  const OperandDescriptor state{input.data_type, {uint32_t(batch), a.hidden_size}};
  return {state, state};
}

}  // namespace

std::vector<OperandDescriptor> infer_recurrent(const Graph& graph, Operation& op) {
  switch (op.kind) {
    case OpKind::kGru:
      return infer_gru(graph, op);
    case OpKind::kGruCell:
      return infer_gru_cell(graph, op);
    case OpKind::kLstm:
      return infer_lstm(graph, op);
    case OpKind::kLstmCell:
      return infer_lstm_cell(graph, op);
    default:
      break;
  }
  throw_error(ErrorKind::kNotSupportedError, op_prefix(op) + ": not a recurrent operator");
}

}  // namespace webnn::ops
