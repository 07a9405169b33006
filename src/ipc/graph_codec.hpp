// The graph on the wire: an IR Graph written as the schema's `Graph` message (src/ipc/webnn.capnp)
// and a received message built again into a Graph. docs/service.md describes the message.
//
// Decoding trusts nothing: every operand and operation of the message goes through GraphBuilder,
// so the receiver runs the same validation (src/ops/) as the builder that made the graph, in the
// message's order, which must be topological. Ids, counts, byte lengths and the descriptors the
// sender inferred are checked against the receiver's own; any error is an Error naming the
// operand or operation, never a crash.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "ipc/webnn.capnp.h"

namespace webnn::ipc {

// Turns a message's `Bytes` into a constant's buffer; `where` names the constant for errors.
// The default takes inline bytes only (a copy: the message may go away) and refuses shared
// memory, which only a connection that received the region can map.
using BytesReader = std::function<BufferRef(wire::Bytes::Reader bytes, const std::string& where)>;
BufferRef read_inline_bytes(wire::Bytes::Reader bytes, const std::string& where);

// Decides how a constant's bytes travel (inline by default).
using BytesWriter = std::function<void(std::span<const std::byte> data, wire::Bytes::Builder out)>;
void write_inline_bytes(std::span<const std::byte> data, wire::Bytes::Builder out);

// An operand descriptor on the wire; reading checks the data type's ordinal (DataError naming
// `where`), not the shape, which the builder's checks judge.
void write_descriptor(const OperandDescriptor& desc, wire::OperandDescriptor::Builder out);
OperandDescriptor read_descriptor(wire::OperandDescriptor::Reader in, const std::string& where);

void encode_graph(const Graph& graph, wire::Graph::Builder out, const BytesWriter& write_bytes = write_inline_bytes);

// Rebuilds the graph `in` describes through GraphBuilder. Throws Error: the builder's own errors
// (TypeError, ...) for operations the spec refuses, DataError for a malformed message.
std::shared_ptr<const Graph> decode_graph(wire::Graph::Reader in, uint64_t max_tensor_byte_length,
                                          const BytesReader& read_bytes = read_inline_bytes);

// A whole message (Cap'n Proto's standard framing), for files, tests and the fuzz target.
std::vector<std::byte> serialize_graph(const Graph& graph);
// Parses untrusted bytes: any framing or pointer error is a DataError naming `origin`.
std::shared_ptr<const Graph> parse_graph_message(std::span<const std::byte> bytes, uint64_t max_tensor_byte_length,
                                                 const std::string& origin = "graph message");

}  // namespace webnn::ipc
