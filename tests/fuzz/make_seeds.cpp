// Writes fuzz seeds from real data: every WPT conformance case as a graph file (JSON and text, as
// the formats write them), as an ONNX model (the export) and as the service's Cap'n Proto graph
// message, its constants as a weights manifest + file (in fuzz_weights' framing), and its input
// tensors as .npy files. scripts/fuzz.sh runs it
// with the WPT directories of ../shared; inputs larger than the fuzzers' max_len are left out.
// Usage: webnn_fuzz_seeds OUT_DIR WPT_DIR...
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "conformance/wpt.hpp"
#include "formats/formats.hpp"
#include "formats/onnx_export.hpp"
#include "ipc/graph_codec.hpp"

namespace {

constexpr size_t kMaxSeed = 65536;  // scripts/fuzz.sh's -max_len

void write(const std::filesystem::path& path, std::string_view bytes) {
  if (bytes.size() > kMaxSeed) return;
  std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

std::string_view text_of(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: webnn_fuzz_seeds OUT_DIR WPT_DIR...\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out = argv[1];
  for (const char* target :
       {"fuzz_graph_json", "fuzz_graph_text", "fuzz_weights", "fuzz_npy", "fuzz_onnx_import", "fuzz_ipc_graph"})
    fs::create_directories(out / target);
  const fs::path scratch = out / "scratch";
  size_t cases = 0, files = 0;
  try {
    for (int a = 2; a < argc; ++a) {
      for (const std::string& file : webnn::conformance::case_files(argv[a])) {
        webnn::conformance::for_each_case(file, "", [&](webnn::conformance::Case& c) {
          if (!c.graph) return;
          const std::string stem = fs::path(file).stem().string() + "_" + std::to_string(cases++);
          try {
            write(out / "fuzz_graph_json" / (stem + ".json"), webnn::formats::to_json(*c.graph));
            write(out / "fuzz_graph_text" / (stem + ".webnn"), webnn::formats::to_text(*c.graph));
            files += 2;
          } catch (const webnn::Error&) {
            // A name the text form cannot spell: the JSON seed is enough.
          }
          try {
            write(out / "fuzz_onnx_import" / (stem + ".onnx"), webnn::formats::export_onnx_bytes(*c.graph));
            ++files;
          } catch (const webnn::Error&) {
            // Not expressible in ONNX opset 17: no ONNX seed.
          }
          const std::vector<std::byte> message = webnn::ipc::serialize_graph(*c.graph);
          write(out / "fuzz_ipc_graph" / (stem + ".capnp"), text_of(message));
          ++files;
          fs::remove_all(scratch);
          fs::create_directories(scratch);
          webnn::formats::SaveOptions options;
          options.inline_limit = 0;
          webnn::formats::save_graph(*c.graph, (scratch / "g.json").string(), options);
          if (fs::exists(scratch / "g.manifest.json")) {  // uniform constants are written inline
            std::ifstream m(scratch / "g.manifest.json", std::ios::binary), w(scratch / "g.weights", std::ios::binary);
            const std::string manifest(std::istreambuf_iterator<char>(m), {}),
                weights(std::istreambuf_iterator<char>(w), {});
            const uint32_t n = uint32_t(manifest.size());
            const char len[4] = {char(n), char(n >> 8), char(n >> 16), char(n >> 24)};
            write(out / "fuzz_weights" / stem, std::string(len, 4) + manifest + weights);
            ++files;
          }
          for (const auto& [name, t] : c.inputs) {
            write(out / "fuzz_npy" / (stem + "_" + std::to_string(files++) + ".npy"),
                  text_of(webnn::formats::encode_npy(t.desc, t.data)));
          }
        });
      }
    }
  } catch (const webnn::Error& e) {
    std::cerr << "webnn_fuzz_seeds: " << e.what() << "\n";
    return 1;
  }
  fs::remove_all(scratch);
  std::printf("webnn_fuzz_seeds: %zu cases, %zu seed files in %s\n", cases, files, out.c_str());
  return 0;
}
