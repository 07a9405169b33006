// The recurrent and quantization methods of MLGraphBuilder: option strings, result lists, and a
// dispatch through the reference backend.
#include <gtest/gtest.h>

#include <functional>

#include "api/impl.hpp"
#include "runtime_fake_backend.hpp"
#include "webnn/webnn.hpp"

namespace webnn {
namespace {

using testing::to_bytes;
using testing::to_floats;

const OperandDescriptor kInput{DataType::kFloat32, {3, 2, 4}};  // steps 3, batch 2, inputSize 4

class ApiRecurrentQuantTest : public ::testing::Test {
 protected:
  MLContext context_ = ML::create_context({});
  MLGraphBuilder b_{context_};
  MLOperand f32(const std::string& name, Shape shape) { return b_.input(name, {DataType::kFloat32, std::move(shape)}); }
};

TEST_F(ApiRecurrentQuantTest, GruReturnsTheSequenceOnlyWhenAsked) {
  MLOperand x = b_.input("x", kInput);
  MLGruOptions o;
  o.direction = "both";
  o.layout = "rzn";
  o.activations = std::vector<std::string>{"relu", "tanh"};
  o.return_sequence = true;
  o.reset_after = false;
  auto out = b_.gru(x, f32("w", {2, 15, 4}), f32("r", {2, 15, 5}), 3, 5, o);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].shape(), (Shape{2, 2, 5}));
  EXPECT_EQ(out[1].shape(), (Shape{3, 2, 2, 5}));
  const auto& attrs = std::get<GruAttrs>(detail::impl_of(b_)->ir.graph().operations.back().attrs);
  EXPECT_EQ(attrs.direction, RecurrentDirection::kBoth);
  EXPECT_EQ(attrs.layout, GruWeightLayout::kRzn);
  EXPECT_EQ(attrs.activations, (DefaultedActivations{{RecurrentActivation::kRelu, RecurrentActivation::kTanh}}));
  EXPECT_FALSE(attrs.reset_after);
  EXPECT_EQ(b_.gru(x, f32("w1", {1, 15, 4}), f32("r1", {1, 15, 5}), 3, 5).size(), 1u);
  EXPECT_EQ(b_.gru_cell(f32("xc", {2, 4}), f32("wc", {15, 4}), f32("rc", {15, 5}), f32("h", {2, 5}), 5).shape(),
            (Shape{2, 5}));
}

TEST_F(ApiRecurrentQuantTest, LstmReturnsHiddenCellAndSequence) {
  MLOperand x = b_.input("x", kInput);
  MLLstmOptions o;
  o.return_sequence = true;
  o.layout = "ifgo";
  o.peephole_weight = f32("p", {1, 15});
  auto out = b_.lstm(x, f32("w", {1, 20, 4}), f32("r", {1, 20, 5}), 3, 5, o);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[1].shape(), (Shape{1, 2, 5}));
  EXPECT_EQ(out[2].shape(), (Shape{3, 1, 2, 5}));
  auto cell =
      b_.lstm_cell(f32("xc", {2, 4}), f32("wc", {20, 4}), f32("rc", {20, 5}), f32("h", {2, 5}), f32("c", {2, 5}), 5);
  EXPECT_EQ(cell.size(), 2u);
}

TEST_F(ApiRecurrentQuantTest, UnknownOptionStringsAreTypeErrors) {
  MLOperand x = b_.input("x", kInput);
  MLOperand w = f32("w", {1, 15, 4}), r = f32("r", {1, 15, 5});
  MLGruOptions bad_activation;
  bad_activation.activations = std::vector<std::string>{"sigmoid", "softmax"};
  MLGruOptions bad_direction;
  bad_direction.direction = "sideways";
  MLLstmOptions bad_layout;
  bad_layout.layout = "zrn";  // a gru layout
  for (auto call : std::vector<std::function<void()>>{
           [&] { b_.gru(x, w, r, 3, 5, bad_activation); }, [&] { b_.gru(x, w, r, 3, 5, bad_direction); },
           [&] {
             b_.lstm(x, f32("lw", {1, 20, 4}), f32("lr", {1, 20, 5}), 3, 5, bad_layout);
           }}) {
    try {
      call();
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kTypeError) << e.what();
    }
  }
}

TEST_F(ApiRecurrentQuantTest, QuantizeTypesFollowTheOperands) {
  MLOperand x = f32("x", {4, 6});
  MLOperand scale = f32("s", {2, 3});
  MLOperand zp = b_.input("zp", {DataType::kInt8, {2, 3}});
  MLOperand q = b_.quantize_linear(x, scale, zp);
  EXPECT_EQ(q.data_type(), DataType::kInt8);
  EXPECT_EQ(q.shape(), (Shape{4, 6}));
  MLOperand y = b_.dequantize_linear(q, scale, zp);
  EXPECT_EQ(y.data_type(), DataType::kFloat32);
}

TEST(ApiRecurrentQuantDispatch, GruCellAndQuantizationOnTheReferenceBackend) {
  MLContextOptions options;
  options.backend = "reference";
  MLContext ctx = ML::create_context(options);
  MLGraphBuilder b(ctx);
  // hiddenSize 1, zero weights: z = r = sigmoid(0) = 1/2, n = tanh(0) = 0, so h' = h / 2.
  const OperandDescriptor one{DataType::kFloat32, {1, 1}};
  MLOperand x = b.input("x", one);
  MLOperand h = b.input("h", one);
  MLOperand w = b.constant({DataType::kFloat32, {3, 1}}, to_bytes({0, 0, 0}));
  MLOperand next = b.gru_cell(x, w, w, h, 1);
  // quantize h' with scale 0.25 and zero point 10, then dequantize.
  MLOperand scale = b.constant(one, to_bytes({0.25f}));
  const std::vector<std::byte> ten{std::byte{10}};
  MLOperand zp = b.constant({DataType::kUint8, {1, 1}}, ten);
  MLOperand q = b.quantize_linear(next, scale, zp);
  MLGraph graph = b.build({{"h", next}, {"q", q}, {"y", b.dequantize_linear(q, scale, zp)}});
  NamedHostTensors out = ctx.compute(graph, {{"x", {one, to_bytes({3})}}, {"h", {one, to_bytes({-1.5f})}}});
  EXPECT_EQ(to_floats(out.at("h").data), (std::vector<float>{-0.75f}));
  // -0.75 / 0.25 = -3, + 10 = 7.
  ASSERT_EQ(out.at("q").data.size(), 1u);
  EXPECT_EQ(std::to_integer<int>(out.at("q").data[0]), 7);
  EXPECT_EQ(to_floats(out.at("y").data), (std::vector<float>{-0.75f}));
}

}  // namespace
}  // namespace webnn
