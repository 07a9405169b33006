// The real MobileNetV2 in /work/shared/models/mobilenetv2: both graph files load into the same IR,
// constants come from the weights file, and save/convert/load round-trips exactly.
#include <cstring>
#include <filesystem>

#include "formats_test_util.hpp"

namespace webnn::formats {
namespace {

using testing::expect_same_graph;
using testing::mobilenet_dir;
using testing::TempDir;

class MobileNet : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(mobilenet_dir() + "/mobilenetv2.json"))
      GTEST_SKIP() << "shared MobileNetV2 files not found at " << mobilenet_dir()
                   << " (WEBNN_SHARED_DIR); skipping the real-model tests";
  }
  std::string json_path() const { return mobilenet_dir() + "/mobilenetv2.json"; }
  std::string text_path() const { return mobilenet_dir() + "/mobilenetv2.webnn"; }
};

TEST_F(MobileNet, JsonAndTextLoadIntoIdenticalGraphs) {
  auto from_json = load_graph(json_path());
  auto from_text = load_graph(text_path());
  // README.md: 99 operations, 104 constants, one input 1x3x224x224, output 1x1280.
  EXPECT_EQ(from_json->operations.size(), 99u);
  EXPECT_EQ(from_json->constants.size(), 104u);
  ASSERT_EQ(from_json->inputs.size(), 1u);
  EXPECT_EQ(from_json->inputs[0].name, "input");
  EXPECT_EQ(from_json->desc(from_json->inputs[0].operand), (OperandDescriptor{DataType::kFloat32, {1, 3, 224, 224}}));
  ASSERT_EQ(from_json->outputs.size(), 1u);
  EXPECT_EQ(from_json->outputs[0].name, "embedding");
  EXPECT_EQ(from_json->desc(from_json->outputs[0].operand), (OperandDescriptor{DataType::kFloat32, {1, 1280}}));
  EXPECT_EQ(from_json->name, "mobilenetv2_features");
  expect_same_graph(*from_json, *from_text);
}

TEST_F(MobileNet, AttributesAndWeightsAreReadExactly) {
  auto g = load_graph(json_path());
  // The first node: conv0 = conv2d(input, w0, bias=b0, padding=[1,1,1,1], strides=[2,2]).
  const Operation& conv0 = g->operations[0];
  ASSERT_EQ(conv0.kind, OpKind::kConv2d);
  const auto& attrs = std::get<Conv2dAttrs>(conv0.attrs);
  EXPECT_EQ(attrs.padding, (std::vector<uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(attrs.strides, (std::vector<uint32_t>{2, 2}));
  EXPECT_FALSE(attrs.dilations.given());
  EXPECT_EQ(*attrs.dilations, (std::vector<uint32_t>{1, 1}));  // resolved
  EXPECT_EQ(attrs.groups, 1u);
  ASSERT_TRUE(attrs.bias.has_value());
  EXPECT_EQ(g->operands[attrs.bias->id].name, "b0");
  EXPECT_EQ(g->operands[conv0.outputs[0]].name, "conv0");
  // clamp(0, 6)
  const auto& clamp = std::get<ClampAttrs>(g->operations[1].attrs);
  EXPECT_EQ(clamp.min_value, Number(0.0));
  EXPECT_EQ(clamp.max_value, Number(6.0));

  // w0's bytes are the manifest's slice of the weights file, read independently here.
  std::string weights = testing::slurp(mobilenet_dir() + "/mobilenetv2.weights");
  const BufferRef& w0 = g->constant_data(conv0.inputs[1]);
  ASSERT_EQ(w0.size, 32u * 3 * 3 * 3 * 4);
  EXPECT_EQ(0, std::memcmp(w0.data.get(), weights.data() + 8, w0.size));  // manifest: byteOffset 8
}

TEST_F(MobileNet, SaveAndConvertRoundTrip) {
  TempDir dir;
  auto original = load_graph(json_path());
  save_graph(*original, dir.file("m.webnn"));
  EXPECT_TRUE(std::filesystem::exists(dir.file("m.weights")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("m.manifest.json")));
  auto from_text = load_graph(dir.file("m.webnn"));
  expect_same_graph(*original, *from_text);
  save_graph(*from_text, dir.file("n.json"));
  auto from_json = load_graph(dir.file("n.json"));
  expect_same_graph(*original, *from_json);
}

TEST_F(MobileNet, WeightsFileValidatesEveryEntry) {
  auto w = WeightsFile::open(mobilenet_dir() + "/mobilenetv2.weights", mobilenet_dir() + "/mobilenetv2.manifest.json");
  EXPECT_EQ(w->entries().size(), 104u);
  const auto& e = w->entries().at("w0");
  EXPECT_EQ(e.byte_offset, 8u);
  EXPECT_EQ(e.byte_length, 3456u);
  EXPECT_EQ(w->tensor("b0").size, 128u);
}

TEST_F(MobileNet, InputNpyReads) {
  NpyArray a = read_npy(mobilenet_dir() + "/input.npy");
  EXPECT_EQ(a.desc, (OperandDescriptor{DataType::kFloat32, {1, 3, 224, 224}}));
  EXPECT_EQ(a.data.size(), 3u * 224 * 224 * 4);
  // The header is 128 bytes (v1.0, padded); the first float follows it.
  std::string raw = testing::slurp(mobilenet_dir() + "/input.npy");
  EXPECT_EQ(0, std::memcmp(a.data.data(), raw.data() + 128, a.data.size()));
}

}  // namespace
}  // namespace webnn::formats
