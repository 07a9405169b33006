// include/webnn/files.hpp over the file formats' own functions (src/formats/formats.hpp).
#include "webnn/files.hpp"

#include "formats/formats.hpp"

namespace webnn {

HostTensor read_npy(const std::string& path) {
  formats::NpyArray array = formats::read_npy(path);
  return {array.desc, std::move(array.data)};
}

void write_npy(const std::string& path, const HostTensor& tensor) {
  formats::write_npy(path, tensor.desc, tensor.data);
}

std::string output_file_name(std::string_view name) { return formats::output_file_name(name); }

void write_output_files(const std::string& dir, const NamedHostTensors& outputs) {
  std::vector<formats::OutputArray> files;
  for (const auto& [name, t] : outputs) files.push_back({name, t.desc, t.data});
  formats::write_output_files(dir, files);
}

std::string read_file(const std::string& path, const std::string& what) { return formats::read_file(path, what); }

void remove_temporaries_on_signals() { formats::remove_temporaries_on_signals(); }

}  // namespace webnn
