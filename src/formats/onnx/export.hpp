// ONNX export of a graph (docs/onnx.md): an ONNX model of opset 17 (the highest the ONNX 1.12
// library's checker knows), built with the ONNX library's protobuf classes.
//
// Every op of the op table exports, as one ONNX node or as several where ONNX has no single
// equivalent; whatever cannot be expressed exactly throws NotSupportedError naming the op — the
// exporter never writes a model that computes something else. Constants become initializers
// (raw_data); graph inputs and outputs keep their names. A model is written only after it passes
// the ONNX checker and ONNX's strict type and shape inference, whose output shapes and types must
// equal the graph's.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "graph/graph.hpp"

namespace webnn::formats {

inline constexpr int kOnnxOpsetVersion = 17;

// The serialized ModelProto of `graph`, checked. Throws NotSupportedError for what ONNX opset 17
// cannot express (naming the op), UnknownError when the checker rejects the model (a bug here).
std::string export_onnx_bytes(const Graph& graph);

// Writes export_onnx_bytes(graph) to `path` atomically (temporary file + rename).
void export_onnx(const Graph& graph, const std::string& path);

// The ops of the op table the exporter cannot export at all (each one's export throws
// NotSupportedError naming it); docs/onnx.md gives the reasons. Currently empty.
std::span<const OpKind> onnx_unsupported_ops();

}  // namespace webnn::formats
