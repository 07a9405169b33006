// The wg-weights-manifest and the WGWT weights file it describes.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "formats/internal.hpp"

namespace webnn::formats {

namespace {

class NoWeights final : public WeightsSource {
 public:
  BufferRef get(const std::string& key, const OperandDescriptor&, const std::string& what) const override {
    fail(what + ": refers to weights key " + quote(key) + " but no weights file was given");
  }
};

// A read-only private mapping of a whole file, unmapped with its last BufferRef.
BufferRef map_file(const std::string& path) {
  int fd = open_regular_file(path, "weights file");
  struct stat st {};
  ::fstat(fd, &st);
  size_t size = size_t(st.st_size);
  if (size == 0) {
    ::close(fd);
    fail(path + ": the weights file is empty (expected the WGWT header)");
  }
  void* base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int err = errno;
  ::close(fd);
  if (base == MAP_FAILED) fail(path + ": cannot map weights file: " + std::strerror(err));
  std::shared_ptr<const std::byte> owner(static_cast<const std::byte*>(base),
                                         [size](const std::byte* p) { ::munmap(const_cast<std::byte*>(p), size); });
  return BufferRef{std::move(owner), size};
}

}  // namespace

const WeightsSource& no_weights() {
  static const NoWeights kNone;
  return kNone;
}

std::shared_ptr<WeightsFile> WeightsFile::open(const std::string& weights_path, const std::string& manifest_path) {
  std::string manifest = read_file(manifest_path, "weights manifest");
  std::shared_ptr<WeightsFile> w(new WeightsFile());
  w->file_ = map_file(weights_path);
  w->origin_ = weights_path;
  w->init(manifest, manifest_path);
  return w;
}

std::shared_ptr<WeightsFile> WeightsFile::from_memory(std::string_view manifest_text, BufferRef bytes,
                                                      const std::string& origin) {
  std::shared_ptr<WeightsFile> w(new WeightsFile());
  w->file_ = std::move(bytes);
  w->origin_ = origin;
  w->init(manifest_text, origin + " (manifest)");
  return w;
}

void WeightsFile::init(std::string_view manifest_text, const std::string& manifest_origin) {
  // The header first: magic, then version 1 as a little-endian u32.
  const std::byte* p = file_.data.get();
  if (file_.size < 8) fail(origin_ + ": too short for the WGWT header (" + std::to_string(file_.size) + " bytes)");
  if (std::memcmp(p, kWeightsMagic, 4) != 0) fail(origin_ + ": bad magic (expected \"WGWT\")");
  uint32_t version = uint32_t(p[4]) | uint32_t(p[5]) << 8 | uint32_t(p[6]) << 16 | uint32_t(p[7]) << 24;
  if (version != kWeightsVersion)
    fail(origin_ + ": unsupported weights file version " + std::to_string(version) + " (expected 1)");

  Json m = parse_json(manifest_text, manifest_origin);
  const std::string& mo = manifest_origin;
  if (!m.is_object()) fail(mo + ": the manifest must be a JSON object");
  auto format = m.find("format");
  if (format == m.end() || *format != "wg-weights-manifest") fail(mo + ": format must be \"wg-weights-manifest\"");
  auto mversion = m.find("version");
  if (mversion == m.end()) fail(mo + ": missing \"version\"");
  if (!mversion->is_number_unsigned() || mversion->get<uint64_t>() != 1)
    fail(mo + ": unsupported manifest version " + mversion->dump() + " (expected 1)");
  if (auto e = m.find("endianness"); e != m.end() && *e != "little")
    fail(mo + ": endianness " + e->dump() + " is not supported (expected \"little\")");
  auto tensors = m.find("tensors");
  if (tensors == m.end() || !tensors->is_object()) fail(mo + ": \"tensors\" must be an object");

  // Every entry is checked against its shape and the file size before anything is read.
  for (const auto& item : tensors->items()) {
    const std::string& key = item.key();
    const Json& t = item.value();
    std::string where = mo + ": tensor " + quote(key);
    if (!t.is_object()) fail(where + ": must be an object");
    for (const auto& [k, v] : t.items())
      if (k != "dataType" && k != "shape" && k != "byteOffset" && k != "byteLength" && k != "layout")
        fail(where + ": unknown key " + quote(k));
    auto get = [&](const char* name) -> const Json& {
      auto it = t.find(name);
      if (it == t.end()) fail(where + ": missing " + quote(name));
      return *it;
    };
    Entry e;
    e.desc.data_type = json_data_type(get("dataType"), where + ": dataType");
    e.desc.shape = json_shape(get("shape"), where + ": shape");
    e.byte_offset = json_uint64(get("byteOffset"), where + ": byteOffset");
    e.byte_length = json_uint64(get("byteLength"), where + ": byteLength");
    if (auto l = t.find("layout"); l != t.end() && *l != "row-major")
      fail(where + ": layout " + l->dump() + " is not supported (expected \"row-major\")");
    auto expected = e.desc.byte_length();
    if (!expected) fail(where + ": the byte length of shape " + shape_to_string(e.desc.shape) + " overflows");
    if (*expected != e.byte_length)
      fail(where + ": byteLength " + std::to_string(e.byte_length) + " does not match " + e.desc.to_string() + " (" +
           std::to_string(*expected) + " bytes)");
    if (e.byte_offset < 8)
      fail(where + ": byteOffset " + std::to_string(e.byte_offset) + " overlaps the 8-byte header");
    if (e.byte_offset > file_.size || e.byte_length > file_.size - e.byte_offset)
      fail(where + ": byteOffset " + std::to_string(e.byte_offset) + " + byteLength " + std::to_string(e.byte_length) +
           " is beyond the end of " + origin_ + " (" + std::to_string(file_.size) + " bytes)");
    entries_.emplace(key, std::move(e));
  }
}

BufferRef WeightsFile::tensor(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) fail(origin_ + ": no tensor " + quote(key) + " in the manifest");
  const Entry& e = it->second;
  const std::byte* p = file_.data.get() + e.byte_offset;
  // Kernels read elements in place; an offset the element type cannot be read at costs one copy.
  if (reinterpret_cast<uintptr_t>(p) % element_size(e.desc.data_type) != 0)
    return BufferRef::copy_of({p, size_t(e.byte_length)});
  return BufferRef{std::shared_ptr<const std::byte>(file_.data, p), size_t(e.byte_length)};
}

BufferRef WeightsFile::get(const std::string& key, const OperandDescriptor& desc, const std::string& what) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) fail(what + ": weights key " + quote(key) + " is not in the manifest of " + origin_);
  if (!(it->second.desc == desc))
    fail(what + ": is declared " + desc.to_string() + " but weights tensor " + quote(key) + " is " +
         it->second.desc.to_string());
  return tensor(key);
}

}  // namespace webnn::formats
