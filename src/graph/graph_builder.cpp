#include "graph/graph_builder.hpp"

#include <unordered_set>

#include "ops/ops.hpp"

namespace webnn {

GraphBuilder::GraphBuilder(uint64_t max_tensor_byte_length) : max_tensor_byte_length_(max_tensor_byte_length) {}

void GraphBuilder::check_can_build() const {
  if (built_) throw_error(ErrorKind::kInvalidStateError, "the graph builder has already built a graph");
}

// spec: #mloperanddescriptor-check-dimensions
void GraphBuilder::check_descriptor(const OperandDescriptor& desc, const std::string& what) const {
  if (desc.shape.size() > kMaxRank)
    throw_error(ErrorKind::kTypeError, what + ": rank " + std::to_string(desc.shape.size()) +
                                           " exceeds the supported maximum of " + std::to_string(kMaxRank));
  for (size_t i = 0; i < desc.shape.size(); ++i) {
    if (desc.shape[i] == 0 || desc.shape[i] > kMaxDimension)
      throw_error(ErrorKind::kTypeError, what + ": dimension " + std::to_string(i) + " of shape " +
                                             shape_to_string(desc.shape) + " is not a valid dimension");
  }
  auto count = desc.element_count();
  if (!count || *count > kMaxDimension)
    throw_error(ErrorKind::kTypeError,
                what + ": element count of shape " + shape_to_string(desc.shape) + " is not a valid dimension");
  auto bytes = desc.byte_length();
  if (!bytes || *bytes > max_tensor_byte_length_)
    throw_error(ErrorKind::kTypeError, what + ": byte length of " + desc.to_string() +
                                           " exceeds maxTensorByteLength (" + std::to_string(max_tensor_byte_length_) +
                                           ")");
}

OperandId GraphBuilder::add_input(const std::string& name, const OperandDescriptor& desc) {
  check_can_build();
  type_error_if(name.empty(), "input: the name must not be empty");
  for (const NamedOperand& in : graph_.inputs)
    type_error_if(in.name == name, "input: duplicate input name " + quote(name));
  check_descriptor(desc, "input " + quote(name));
  Operand operand;
  operand.desc = desc;
  operand.kind = OperandKind::kInput;
  operand.name = name;
  graph_.operands.push_back(std::move(operand));
  auto id = static_cast<OperandId>(graph_.operands.size() - 1);
  graph_.inputs.push_back({name, id});
  return id;
}

OperandId GraphBuilder::add_constant(const OperandDescriptor& desc, BufferRef data, std::string name) {
  check_can_build();
  const std::string what = name.empty() ? std::string("constant") : "constant " + quote(name);
  check_descriptor(desc, what);
  type_error_if(data.size != *desc.byte_length(), what + ": buffer holds " + std::to_string(data.size) + " bytes but " +
                                                      desc.to_string() + " needs " +
                                                      std::to_string(*desc.byte_length()));
  Operand operand;
  operand.desc = desc;
  operand.kind = OperandKind::kConstant;
  operand.name = std::move(name);
  operand.constant_index = static_cast<uint32_t>(graph_.constants.size());
  graph_.constants.push_back(std::move(data));
  graph_.operands.push_back(std::move(operand));
  return static_cast<OperandId>(graph_.operands.size() - 1);
}

std::vector<OperandId> GraphBuilder::add_operation(OpKind kind, std::vector<OperandId> inputs, Attributes attrs,
                                                   std::string label) {
  Operation op;
  op.kind = kind;
  op.inputs = std::move(inputs);
  op.attrs = std::move(attrs);
  op.label = std::move(label);
  std::vector<OperandDescriptor> outs = labelled(op.label, [&] {
    check_can_build();
    if (op.attrs.index() != default_attributes(kind).index())
      throw_error(ErrorKind::kTypeError, describe(op) + ": attributes of the wrong kind for this operator");
    // spec: "validating operand" — every operand must belong to this builder.
    for_each_input(op, [&](OperandId id) {
      type_error_if(!is_valid(id),
                    describe(op) + ": operand " + std::to_string(id) + " does not belong to this builder");
    });
    std::vector<OperandDescriptor> inferred = ops::infer(graph_, op);
    for (size_t i = 0; i < inferred.size(); ++i)
      check_descriptor(inferred[i], describe(op) + " output " + std::to_string(i));
    return inferred;
  });
  // Validation passed: only now does the builder change.
  for (OperandDescriptor& d : outs) {
    Operand operand;
    operand.desc = std::move(d);
    graph_.operands.push_back(std::move(operand));
    op.outputs.push_back(static_cast<OperandId>(graph_.operands.size() - 1));
  }
  graph_.operations.push_back(std::move(op));
  return graph_.operations.back().outputs;
}

void GraphBuilder::set_operand_name(OperandId id, std::string name) {
  type_error_if(!is_valid(id), "set_operand_name: unknown operand");
  graph_.operands[id].name = std::move(name);
}

std::shared_ptr<const Graph> GraphBuilder::build(const std::vector<NamedOperand>& outputs, std::string graph_name) {
  check_can_build();
  type_error_if(outputs.empty(), "build: at least one output is required");
  std::unordered_set<std::string> names;
  for (const NamedOperand& out : outputs) {
    type_error_if(out.name.empty(), "build: output names must not be empty");
    type_error_if(!names.insert(out.name).second, "build: duplicate output name " + quote(out.name));
    type_error_if(!is_valid(out.operand), "build: output " + quote(out.name) + " is not an operand of this builder");
    const Operand& operand = graph_.operands[out.operand];
    type_error_if(operand.kind == OperandKind::kInput,
                  "build: output " + quote(out.name) + " is the graph input " + quote(operand.name));
    type_error_if(operand.kind == OperandKind::kConstant, "build: output " + quote(out.name) + " is a constant");
  }

  // Keep what the outputs depend on: walk operations backwards marking needed operands.
  std::vector<char> needed(graph_.operands.size(), 0);
  for (const NamedOperand& out : outputs) needed[out.operand] = 1;
  std::vector<char> keep_op(graph_.operations.size(), 0);
  for (size_t i = graph_.operations.size(); i-- > 0;) {
    const Operation& op = graph_.operations[i];
    bool any = false;
    for (OperandId o : op.outputs) any |= needed[o] != 0;
    if (!any) continue;
    keep_op[i] = 1;
    for (OperandId o : op.outputs) needed[o] = 1;  // every result of a kept op stays
    for_each_input(op, [&](OperandId id) { needed[id] = 1; });
  }

  auto result = std::make_shared<Graph>();
  result->name = std::move(graph_name);
  std::vector<OperandId> remap(graph_.operands.size(), UINT32_MAX);
  for (OperandId id = 0; id < graph_.operands.size(); ++id) {
    if (!needed[id]) continue;
    Operand operand = graph_.operands[id];
    if (operand.kind == OperandKind::kConstant) {
      result->constants.push_back(graph_.constants[operand.constant_index]);
      operand.constant_index = static_cast<uint32_t>(result->constants.size() - 1);
    }
    remap[id] = static_cast<OperandId>(result->operands.size());
    result->operands.push_back(std::move(operand));
  }
  for (const NamedOperand& in : graph_.inputs)
    if (needed[in.operand]) result->inputs.push_back({in.name, remap[in.operand]});
  for (size_t i = 0; i < graph_.operations.size(); ++i) {
    if (!keep_op[i]) continue;
    Operation op = graph_.operations[i];
    for_each_input(op, [&](OperandId& id) { id = remap[id]; });
    for (OperandId& id : op.outputs) id = remap[id];
    result->operations.push_back(std::move(op));
  }
  for (const NamedOperand& out : outputs) result->outputs.push_back({out.name, remap[out.operand]});
  built_ = true;
  return result;
}

}  // namespace webnn
