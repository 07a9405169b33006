// Files as the command-line tools use them (not in the spec): .npy arrays, a directory of output
// arrays written all or nothing, whole files read safely, and the clean-up of writes in progress.
// Every failure is a webnn::Error naming the file.
#pragma once

#include <string>
#include <string_view>

#include "webnn/webnn.hpp"

namespace webnn {

// A .npy array: little-endian <f4 <f2 <i4 <u4 <i8 <u8 |i1 |u1 in C order, header versions 1.0, 2.0
// and 3.0. DataError naming the file and the problem otherwise.
WEBNN_EXPORT HostTensor read_npy(const std::string& path);
// Writes `tensor` as a .npy array, atomically (a temporary file renamed into place).
WEBNN_EXPORT void write_npy(const std::string& path, const HostTensor& tensor);

// The file name (never a path) write_output_files gives output `name`: bytes other than ASCII
// letters, digits, '_', '-' and a '.' after the first byte become %XX, then ".npy" is appended
// ("/layer1/out" -> "%2Flayer1%2Fout.npy"). One-to-one: two outputs never share a file.
WEBNN_EXPORT std::string output_file_name(std::string_view name);
// Writes every output as DIR/output_file_name(name), all or nothing: each goes to a temporary
// file, and they are renamed into place together once all are complete. DIR is created when
// missing.
WEBNN_EXPORT void write_output_files(const std::string& dir, const NamedHostTensors& outputs);

// The whole of a regular file; anything else (a FIFO, a directory, a device) is a DataError before
// anything is read, so no read can block. `what` names the file's role in errors.
WEBNN_EXPORT std::string read_file(const std::string& path, const std::string& what = "file");

// Installs SIGINT and SIGTERM handlers that remove every temporary file this library is writing
// and then end the process by the same signal (for programs; a library user with handlers of its
// own need not call it).
WEBNN_EXPORT void remove_temporaries_on_signals();

}  // namespace webnn
