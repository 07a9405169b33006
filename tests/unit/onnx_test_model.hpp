// ONNX models built in tests with the ONNX protobuf classes: a graph of inputs, initializers,
// nodes and outputs, serialized and imported (formats, runtime and C ABI tests).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "formats/onnx/import.hpp"

namespace webnn::formats::testing {

constexpr int32_t kOnnxFloat = onnx::TensorProto::FLOAT;
constexpr int32_t kOnnxInt64 = onnx::TensorProto::INT64;

struct OnnxModel {
  onnx::ModelProto m;
  onnx::GraphProto* g;
  explicit OnnxModel(int64_t opset = 17, int64_t ir_version = 8) {
    m.set_ir_version(ir_version);
    auto* o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    g = m.mutable_graph();
    g->set_name("test");
  }
  // dims: a negative value is the symbolic dimension "N".
  void input(const std::string& name, int32_t type, const std::vector<int64_t>& dims) {
    auto* vi = g->add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    auto* shape = tt->mutable_shape();
    for (int64_t d : dims) {
      if (d < 0)
        shape->add_dim()->set_dim_param("N");
      else
        shape->add_dim()->set_dim_value(d);
    }
  }
  void output(const std::string& name) { g->add_output()->set_name(name); }
  onnx::NodeProto* node(const std::string& op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, const std::string& name = {}) {
    auto* n = g->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) n->add_output(o);
    return n;
  }
  onnx::TensorProto* initializer(const std::string& name, int32_t type, const std::vector<int64_t>& dims) {
    auto* t = g->add_initializer();
    t->set_name(name);
    t->set_data_type(type);
    for (int64_t d : dims) t->add_dims(d);
    return t;
  }
  onnx::TensorProto* int64s(const std::string& name, const std::vector<int64_t>& v) {
    auto* t = initializer(name, kOnnxInt64, {int64_t(v.size())});
    for (int64_t x : v) t->add_int64_data(x);
    return t;
  }
  // A 0-D int64 initializer.
  onnx::TensorProto* int64_scalar(const std::string& name, int64_t v) {
    auto* t = initializer(name, kOnnxInt64, {});
    t->add_int64_data(v);
    return t;
  }
  onnx::TensorProto* floats(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& v) {
    auto* t = initializer(name, kOnnxFloat, dims);
    for (float x : v) t->add_float_data(x);
    return t;
  }
  // `count` int64 values 0, 1, ... as raw_data (compact for large constants).
  onnx::TensorProto* int64_iota(const std::string& name, int64_t count) {
    auto* t = initializer(name, kOnnxInt64, {count});
    std::string raw(size_t(count) * 8, '\0');
    for (int64_t i = 0; i < count; ++i) std::memcpy(raw.data() + i * 8, &i, 8);
    t->set_raw_data(raw);
    return t;
  }
  std::string bytes() const { return m.SerializeAsString(); }
  std::shared_ptr<const Graph> import(const OnnxImportOptions& options = {}, const std::string& dir = {}) const {
    return import_onnx_bytes(bytes(), dir, "test.onnx", options);
  }
};

inline void onnx_attr_i(onnx::NodeProto* n, const std::string& name, int64_t v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

inline void onnx_attr_s(onnx::NodeProto* n, const std::string& name, const std::string& v) {
  auto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

}  // namespace webnn::formats::testing
