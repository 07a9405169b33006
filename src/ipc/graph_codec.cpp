#include "ipc/graph_codec.hpp"

#include <capnp/dynamic.h>
#include <capnp/serialize.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <type_traits>

#include "graph/graph_builder.hpp"

namespace webnn::ipc {

namespace {

[[noreturn]] void malformed(const std::string& message) { throw_error(ErrorKind::kDataError, message); }

capnp::Text::Reader text(const std::string& s) { return {s.c_str(), s.size()}; }
std::string str(capnp::Text::Reader t) { return {t.cStr(), t.size()}; }

uint16_t data_type_ordinal(DataType type) {
  for (int i = 0; i < kDataTypeCount; ++i)
    if (kAllDataTypes[i] == type) return static_cast<uint16_t>(i);
  malformed("graph message: unknown data type");
}

DataType data_type_of(uint16_t ordinal, const std::string& where) {
  if (ordinal >= kDataTypeCount) malformed(where + ": data type " + std::to_string(ordinal) + " is unknown");
  return kAllDataTypes[ordinal];
}

template <SpecEnum E>
E enum_of(uint16_t ordinal, const std::string& where) {
  constexpr size_t n = std::size(EnumNames<E>::kNames);
  if (ordinal >= n)
    malformed(where + ": value " + std::to_string(ordinal) + " is not one of the enum's " + std::to_string(n));
  return static_cast<E>(ordinal);
}

template <class List>
std::vector<uint32_t> dims_of(List list) {
  std::vector<uint32_t> out;
  out.reserve(list.size());
  for (uint32_t v : list) out.push_back(v);
  return out;
}

// Writes each attribute field into the op's options struct, by the field's spec name.
struct FieldWriter {
  capnp::DynamicStruct::Builder s;

  capnp::StructSchema::Field field(const char* name) { return s.getSchema().getFieldByName(name); }
  void operator()(const char* n, const bool& v) { s.set(n, v); }
  void operator()(const char* n, const uint32_t& v) { s.set(n, v); }
  void operator()(const char* n, const int32_t& v) { s.set(n, v); }
  void operator()(const char* n, const double& v) { s.set(n, v); }
  void operator()(const char* n, const Number& v) {
    auto out = s.init(n).as<wire::Number>();
    switch (v.kind()) {
      case Number::Kind::kDouble:
        out.setFloat64(v.as_double());
        break;
      case Number::Kind::kInt64:
        out.setInt64(v.int64_value());
        break;
      case Number::Kind::kUint64:
        out.setUint64(v.uint64_value());
        break;
    }
  }
  void operator()(const char* n, const DataType& v) {
    s.set(n, capnp::DynamicEnum(field(n).getType().asEnum(), data_type_ordinal(v)));
  }
  template <SpecEnum E>
  void operator()(const char* n, const E& v) {
    s.set(n, capnp::DynamicEnum(field(n).getType().asEnum(), static_cast<uint16_t>(v)));
  }
  void operator()(const char* n, const std::vector<uint32_t>& v) {
    auto list = s.init(n, static_cast<unsigned>(v.size())).as<capnp::List<uint32_t>>();
    for (unsigned i = 0; i < list.size(); ++i) list.set(i, v[i]);
  }
  void operator()(const char* n, const OptionalDims& v) {
    auto out = s.init(n).as<wire::OptionalDims>();
    if (!v) return out.setAbsent();
    auto list = out.initValues(static_cast<unsigned>(v->size()));
    for (unsigned i = 0; i < list.size(); ++i) list.set(i, (*v)[i]);
  }
  void operator()(const char* n, const std::optional<std::vector<float>>& v) {
    auto out = s.init(n).as<wire::OptionalFloats>();
    if (!v) return out.setAbsent();
    auto list = out.initValues(static_cast<unsigned>(v->size()));
    for (unsigned i = 0; i < list.size(); ++i) list.set(i, (*v)[i]);
  }
  void operator()(const char* n, const std::optional<std::vector<RecurrentActivation>>& v) {
    auto out = s.init(n).as<capnp::DynamicStruct>();
    if (!v) return out.set("absent", capnp::VOID);
    auto list = out.init("values", static_cast<unsigned>(v->size())).as<capnp::DynamicList>();
    for (unsigned i = 0; i < list.size(); ++i)
      list.set(i, capnp::DynamicEnum(list.getSchema().getEnumElementType(), static_cast<uint16_t>((*v)[i])));
  }
  // An option the spec gives a default travels as the caller wrote it; the receiver's builder
  // resolves it again.
  template <class T>
  void operator()(const char* n, const Defaulted<T>& v) {
    (*this)(n, v.caller_value());
  }
  void operator()(const char* n, const std::optional<OperandRef>& v) {
    auto out = s.init(n).as<wire::OptionalOperand>();
    v ? out.setOperand(v->id) : out.setAbsent();
  }
  void operator()(const char* n, const SplitSpec& v) {
    auto out = s.init(n).as<wire::Splits>();
    if (const uint32_t* count = std::get_if<uint32_t>(&v)) return out.setCount(*count);
    const auto& sizes = std::get<std::vector<uint32_t>>(v);
    auto list = out.initSizes(static_cast<unsigned>(sizes.size()));
    for (unsigned i = 0; i < list.size(); ++i) list.set(i, sizes[i]);
  }
};

// Reads each attribute field from the op's options struct; operand-valued options are mapped to
// the receiver's operand ids by `operand`.
struct FieldReader {
  capnp::DynamicStruct::Reader s;
  const std::string& where;
  const std::function<OperandId(uint32_t, const std::string&)>& operand;

  std::string at(const char* n) const { return where + ": option " + n; }
  void operator()(const char* n, bool& v) { v = s.get(n).as<bool>(); }
  void operator()(const char* n, uint32_t& v) { v = s.get(n).as<uint32_t>(); }
  void operator()(const char* n, int32_t& v) { v = s.get(n).as<int32_t>(); }
  void operator()(const char* n, double& v) { v = s.get(n).as<double>(); }
  void operator()(const char* n, Number& v) {
    auto in = s.get(n).as<wire::Number>();
    switch (in.which()) {
      case wire::Number::FLOAT64:
        v = Number(in.getFloat64());
        return;
      case wire::Number::INT64:
        v = Number::from_int64(in.getInt64());
        return;
      case wire::Number::UINT64:
        v = Number::from_uint64(in.getUint64());
        return;
    }
    malformed(at(n) + ": unknown number kind");
  }
  void operator()(const char* n, DataType& v) { v = data_type_of(s.get(n).as<capnp::DynamicEnum>().getRaw(), at(n)); }
  template <SpecEnum E>
  void operator()(const char* n, E& v) {
    v = enum_of<E>(s.get(n).as<capnp::DynamicEnum>().getRaw(), at(n));
  }
  void operator()(const char* n, std::vector<uint32_t>& v) { v = dims_of(s.get(n).as<capnp::List<uint32_t>>()); }
  void operator()(const char* n, OptionalDims& v) {
    auto in = s.get(n).as<wire::OptionalDims>();
    if (in.isValues())
      v = dims_of(in.getValues());
    else if (in.isAbsent())
      v.reset();
    else
      malformed(at(n) + ": unknown union member");
  }
  void operator()(const char* n, std::optional<std::vector<float>>& v) {
    auto in = s.get(n).as<wire::OptionalFloats>();
    if (in.isAbsent()) return v.reset();
    if (!in.isValues()) malformed(at(n) + ": unknown union member");
    v.emplace();
    for (float f : in.getValues()) v->push_back(f);
  }
  void operator()(const char* n, std::optional<std::vector<RecurrentActivation>>& v) {
    auto in = s.get(n).as<capnp::DynamicStruct>();
    KJ_IF_MAYBE (member, in.which()) {
      if (member->getProto().getName() == "absent") return v.reset();
      v.emplace();
      for (auto item : in.get("values").as<capnp::DynamicList>())
        v->push_back(enum_of<RecurrentActivation>(item.as<capnp::DynamicEnum>().getRaw(), at(n)));
      return;
    }
    malformed(at(n) + ": unknown union member");
  }
  template <class T>
  void operator()(const char* n, Defaulted<T>& v) {
    std::optional<T> given;
    (*this)(n, given);
    v = std::move(given);
  }
  void operator()(const char* n, std::optional<OperandRef>& v) {
    auto in = s.get(n).as<wire::OptionalOperand>();
    if (in.isAbsent()) return v.reset();
    if (!in.isOperand()) malformed(at(n) + ": unknown union member");
    v = OperandRef{operand(in.getOperand(), at(n))};
  }
  void operator()(const char* n, SplitSpec& v) {
    auto in = s.get(n).as<wire::Splits>();
    if (in.isCount())
      v = in.getCount();
    else if (in.isSizes())
      v = dims_of(in.getSizes());
    else
      malformed(at(n) + ": unknown union member");
  }
};

class Decoder {
 public:
  Decoder(wire::Graph::Reader in, uint64_t max_bytes, const BytesReader& read_bytes)
      : in_(in), builder_(max_bytes), read_bytes_(read_bytes) {}

  std::shared_ptr<const Graph> run() {
    auto operands = in_.getOperands();
    local_.assign(operands.size(), std::nullopt);
    declared_.resize(operands.size());
    for (unsigned i = 0; i < operands.size(); ++i) add_operand(i, operands[i]);
    auto operations = in_.getOperations();
    for (unsigned j = 0; j < operations.size(); ++j) decode_operation(j, operations[j]);
    std::vector<NamedOperand> outputs;
    for (auto out : in_.getOutputs()) {
      const std::string name = str(out.getName());
      outputs.push_back({name, operand(out.getOperand(), "output " + quote(name))});
    }
    return builder_.build(outputs, str(in_.getName()));
  }

 private:
  struct Declared {
    OperandDescriptor desc;
    std::string name;
    bool intermediate = false;
  };

  void add_operand(unsigned i, wire::Operand::Reader o) {
    const std::string where = "operand " + std::to_string(i);
    Declared& d = declared_[i];
    d.desc = read_descriptor(o.getDescriptor(), where);
    d.name = str(o.getName());
    switch (o.which()) {
      case wire::Operand::INPUT:
        local_[i] = builder_.add_input(d.name, d.desc);
        return;
      case wire::Operand::CONSTANT: {
        builder_.check_descriptor(d.desc, where);
        BufferRef data = read_bytes_(o.getConstant(), where);
        const uint64_t n = *d.desc.byte_length();
        if (data.size != n)
          malformed(where + ": the constant holds " + std::to_string(data.size) + " bytes but " + d.desc.to_string() +
                    " needs " + std::to_string(n));
        local_[i] = builder_.add_constant(d.desc, std::move(data), d.name);
        return;
      }
      case wire::Operand::INTERMEDIATE:
        d.intermediate = true;
        return;
    }
    malformed(where + ": unknown operand kind");
  }

  OperandId operand(uint32_t id, const std::string& where) const {
    if (id >= local_.size())
      malformed(where + ": operand " + std::to_string(id) + " does not exist (the graph has " +
                std::to_string(local_.size()) + ")");
    if (!local_[id])
      malformed(where + ": operand " + std::to_string(id) +
                " is used before an operation produces it (operations must be in topological order)");
    return *local_[id];
  }

  void decode_operation(unsigned j, wire::Operation::Reader op) {
    std::string where = "operation " + std::to_string(j);
    capnp::DynamicStruct::Reader dyn = capnp::toDynamic(op);
    KJ_IF_MAYBE (member, dyn.which()) {
      const std::string name = member->getProto().getName();
      std::optional<OpKind> kind = parse_op_name(name);
      if (!kind) malformed(where + ": " + name + " is not an operation");
      where += " (" + name + ")";
      std::vector<OperandId> inputs;
      for (uint32_t id : op.getInputs()) inputs.push_back(operand(id, where));
      Attributes attrs = default_attributes(*kind);
      const std::function<OperandId(uint32_t, const std::string&)> map = [this](uint32_t id, const std::string& w) {
        return operand(id, w);
      };
      std::visit(
          [&](auto& a) {
            using A = std::decay_t<decltype(a)>;
            if (member->getType().isStruct())
              A::fields(a, FieldReader{dyn.get(*member).as<capnp::DynamicStruct>(), where, map});
          },
          attrs);
      std::vector<OperandId> produced =
          builder_.add_operation(*kind, std::move(inputs), std::move(attrs), str(op.getLabel()));
      auto outputs = op.getOutputs();
      if (outputs.size() != produced.size())
        malformed(where + ": the message lists " + std::to_string(outputs.size()) + " outputs but the operation has " +
                  std::to_string(produced.size()));
      for (unsigned k = 0; k < outputs.size(); ++k) define(outputs[k], produced[k], where);
      return;
    }
    malformed(where + ": unknown operation");
  }

  // Binds the message's operand `id` to the operation's result `local`, which must match the
  // descriptor the sender declared (a sender built from another op table disagrees here).
  void define(uint32_t id, OperandId local, const std::string& where) {
    const std::string who = where + ": output operand " + std::to_string(id);
    if (id >= local_.size()) malformed(who + " does not exist");
    const Declared& d = declared_[id];
    if (!d.intermediate) malformed(who + " is not declared as an intermediate operand");
    if (local_[id]) malformed(who + " is produced twice");
    if (builder_.desc(local) != d.desc)
      malformed(who + " is declared " + d.desc.to_string() + " but the operation produces " +
                builder_.desc(local).to_string());
    local_[id] = local;
    if (!d.name.empty()) builder_.set_operand_name(local, d.name);
  }

  wire::Graph::Reader in_;
  GraphBuilder builder_;
  const BytesReader& read_bytes_;
  std::vector<std::optional<OperandId>> local_;  // message operand id -> builder operand id
  std::vector<Declared> declared_;
};

}  // namespace

void write_descriptor(const OperandDescriptor& desc, wire::OperandDescriptor::Builder out) {
  out.setDataType(static_cast<wire::DataType>(data_type_ordinal(desc.data_type)));
  auto shape = out.initShape(static_cast<unsigned>(desc.shape.size()));
  for (unsigned i = 0; i < shape.size(); ++i) shape.set(i, desc.shape[i]);
}

OperandDescriptor read_descriptor(wire::OperandDescriptor::Reader in, const std::string& where) {
  OperandDescriptor desc;
  desc.data_type = data_type_of(static_cast<uint16_t>(in.getDataType()), where);
  for (uint32_t d : in.getShape()) desc.shape.push_back(d);
  return desc;
}

BufferRef read_inline_bytes(wire::Bytes::Reader bytes, const std::string& where) {
  if (!bytes.isInline()) malformed(where + ": shared memory is not available here; the bytes must be inline");
  auto data = bytes.getInline();
  return BufferRef::copy_of({reinterpret_cast<const std::byte*>(data.begin()), data.size()});
}

void write_inline_bytes(std::span<const std::byte> data, wire::Bytes::Builder out) {
  out.setInline({reinterpret_cast<const capnp::byte*>(data.data()), data.size()});
}

void encode_graph(const Graph& graph, wire::Graph::Builder out, const BytesWriter& write_bytes) {
  out.setName(text(graph.name));
  auto operands = out.initOperands(static_cast<unsigned>(graph.operands.size()));
  for (unsigned i = 0; i < operands.size(); ++i) {
    const Operand& operand = graph.operands[i];
    auto o = operands[i];
    write_descriptor(operand.desc, o.initDescriptor());
    o.setName(text(operand.name));
    switch (operand.kind) {
      case OperandKind::kInput:
        o.setInput();
        break;
      case OperandKind::kConstant:
        write_bytes(graph.constant_data(i).span(), o.initConstant());
        break;
      case OperandKind::kIntermediate:
        o.setIntermediate();
        break;
    }
  }
  auto operations = out.initOperations(static_cast<unsigned>(graph.operations.size()));
  for (unsigned j = 0; j < operations.size(); ++j) {
    const Operation& op = graph.operations[j];
    auto w = operations[j];
    auto inputs = w.initInputs(static_cast<unsigned>(op.inputs.size()));
    for (unsigned k = 0; k < inputs.size(); ++k) inputs.set(k, op.inputs[k]);
    auto outputs = w.initOutputs(static_cast<unsigned>(op.outputs.size()));
    for (unsigned k = 0; k < outputs.size(); ++k) outputs.set(k, op.outputs[k]);
    w.setLabel(text(op.label));
    capnp::DynamicStruct::Builder dyn = capnp::toDynamic(w);
    const std::string name(op_name(op.kind));
    const capnp::StructSchema::Field member = dyn.getSchema().getFieldByName(name);
    if (!member.getType().isStruct()) {
      dyn.set(member, capnp::VOID);
      continue;
    }
    auto options = dyn.init(member).as<capnp::DynamicStruct>();
    std::visit([&](const auto& a) { std::decay_t<decltype(a)>::fields(a, FieldWriter{options}); }, op.attrs);
  }
  auto write_named = [](const std::vector<NamedOperand>& named, capnp::List<wire::NamedOperand>::Builder list) {
    for (unsigned i = 0; i < list.size(); ++i) {
      list[i].setName(text(named[i].name));
      list[i].setOperand(named[i].operand);
    }
  };
  write_named(graph.inputs, out.initInputs(static_cast<unsigned>(graph.inputs.size())));
  write_named(graph.outputs, out.initOutputs(static_cast<unsigned>(graph.outputs.size())));
}

std::shared_ptr<const Graph> decode_graph(wire::Graph::Reader in, uint64_t max_tensor_byte_length,
                                          const BytesReader& read_bytes) {
  try {
    return Decoder(in, max_tensor_byte_length, read_bytes).run();
  } catch (const kj::Exception& e) {  // a pointer out of bounds, a wrong pointer kind, a limit hit
    malformed(std::string("graph message: ") + e.getDescription().cStr());
  }
}

std::vector<std::byte> serialize_graph(const Graph& graph) {
  // One first segment large enough for the constants, so they are not copied while it grows.
  capnp::MallocMessageBuilder message(static_cast<unsigned>(
      std::min<uint64_t>(graph.constant_bytes() / sizeof(capnp::word) + 1024, uint64_t{1} << 28)));
  encode_graph(graph, message.initRoot<wire::Graph>());
  std::vector<std::byte> bytes(capnp::computeSerializedSizeInWords(message) * sizeof(capnp::word));
  kj::ArrayOutputStream out(kj::arrayPtr(reinterpret_cast<kj::byte*>(bytes.data()), bytes.size()));
  capnp::writeMessage(out, message);
  return bytes;
}

std::shared_ptr<const Graph> parse_graph_message(std::span<const std::byte> bytes, uint64_t max_tensor_byte_length,
                                                 const std::string& origin) {
  if (bytes.size() % sizeof(capnp::word) != 0)
    malformed(origin + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of 8-byte words");
  // Aligned copy: the reader needs word alignment, and `bytes` may come from anywhere.
  kj::Array<capnp::word> words = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
  if (!bytes.empty()) std::memcpy(words.begin(), bytes.data(), bytes.size());
  try {
    capnp::ReaderOptions options;
    // A bound proportional to the message: pointers that alias one struct cannot make the reader
    // visit it without end.
    options.traversalLimitInWords = 8 * words.size() + 1024;
    capnp::FlatArrayMessageReader reader(words, options);
    if (reader.getEnd() != words.end()) malformed(origin + ": bytes follow the message");
    return decode_graph(reader.getRoot<wire::Graph>(), max_tensor_byte_length);
  } catch (const kj::Exception& e) {
    malformed(origin + ": " + e.getDescription().cStr());
  }
}

}  // namespace webnn::ipc
