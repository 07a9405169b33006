// batchNormalization, instanceNormalization, layerNormalization and softmax.
// spec: #api-mlgraphbuilder-batchnorm, #api-mlgraphbuilder-instancenorm,
// #api-mlgraphbuilder-layernorm, #api-mlgraphbuilder-softmax-method
//
// Statistics (mean, variance, the softmax denominator) accumulate in double; each output is
// computed in double and rounded once to the operand type. epsilon is first cast to the input's
// data type, as the spec's steps say.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// epsilon cast to T (the spec's step) and widened back for the double arithmetic.
template <class T>
double epsilon_of(double epsilon) {
  return static_cast<double>(load(ops::cast_number<T>(Number(epsilon))));
}

// (x - mean) / sqrt(variance + epsilon) * scale + bias, where `stddev` is sqrt(variance +
// epsilon) and absent scale and bias are 1 and 0.
template <class T>
T normalize(T x, double mean, double stddev, const T* scale, const T* bias, size_t channel) {
  double y = (static_cast<double>(load(x)) - mean) / stddev;
  if (scale) y *= static_cast<double>(load(scale[channel]));
  if (bias) y += static_cast<double>(load(bias[channel]));
  return round_from_double<T>(y);
}

// batchNormalization: the statistics are given, one per index along `axis`.
template <class T>
Kernel batch_norm_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<BatchNormalizationAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), mean_id = op.inputs.at(1), var_id = op.inputs.at(2);
  const OperandId out_id = op.outputs.at(0);
  const Shape& shape = graph.desc(in_id).shape;
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < attrs.axis; ++d) outer *= shape[d];
  for (size_t d = attrs.axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const size_t channels = shape.at(attrs.axis);
  const double epsilon = epsilon_of<T>(attrs.epsilon);
  const bool has_scale = attrs.scale.has_value(), has_bias = attrs.bias.has_value();
  const OperandId scale_id = has_scale ? attrs.scale->id : 0, bias_id = has_bias ? attrs.bias->id : 0;
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    const T* mean = typed<T>(v[mean_id]);
    const T* variance = typed<T>(v[var_id]);
    const T* scale = has_scale ? typed<T>(v[scale_id]) : nullptr;
    const T* bias = has_bias ? typed<T>(v[bias_id]) : nullptr;
    T* out = typed<T>(v[out_id]);
    for (size_t c = 0; c < channels; ++c) {
      const double m = static_cast<double>(load(mean[c]));
      const double stddev = std::sqrt(static_cast<double>(load(variance[c])) + epsilon);
      for (size_t o = 0; o < outer; ++o) {
        const size_t base = (o * channels + c) * inner;
        for (size_t i = 0; i < inner; ++i) out[base + i] = normalize(in[base + i], m, stddev, scale, bias, c);
      }
    }
  };
}

// instanceNormalization: the mean and population variance of each (batch, channel) plane over
// the spatial dimensions.
template <class T>
Kernel instance_norm_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<InstanceNormalizationAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const ImageDims dims = image_dims(graph.desc(in_id).shape, attrs.layout);
  const size_t batches = dims.batches, channels = dims.channels, plane = size_t{dims.height} * dims.width;
  // Element strides of a channel and of a spatial position within one batch.
  const bool nhwc = attrs.layout == InputLayout::kNhwc;
  const size_t channel_stride = nhwc ? 1 : plane, position_stride = nhwc ? channels : 1;
  const double epsilon = epsilon_of<T>(attrs.epsilon);
  const bool has_scale = attrs.scale.has_value(), has_bias = attrs.bias.has_value();
  const OperandId scale_id = has_scale ? attrs.scale->id : 0, bias_id = has_bias ? attrs.bias->id : 0;
  return [=](Values v) {
    const T* in = typed<T>(v[in_id]);
    const T* scale = has_scale ? typed<T>(v[scale_id]) : nullptr;
    const T* bias = has_bias ? typed<T>(v[bias_id]) : nullptr;
    T* out = typed<T>(v[out_id]);
    for (size_t n = 0; n < batches; ++n)
      for (size_t c = 0; c < channels; ++c) {
        const size_t base = n * channels * plane + c * channel_stride;
        double sum = 0;
        for (size_t p = 0; p < plane; ++p) sum += static_cast<double>(load(in[base + p * position_stride]));
        const double mean = sum / static_cast<double>(plane);
        double m2 = 0;
        for (size_t p = 0; p < plane; ++p) {
          const double d = static_cast<double>(load(in[base + p * position_stride])) - mean;
          m2 += d * d;
        }
        const double stddev = std::sqrt(m2 / static_cast<double>(plane) + epsilon);
        for (size_t p = 0; p < plane; ++p) {
          const size_t i = base + p * position_stride;
          out[i] = normalize(in[i], mean, stddev, scale, bias, c);
        }
      }
  };
}

// layerNormalization: (x - mean) / sqrt(variance + epsilon) * scale + bias, with the mean and the
// population variance taken over `axes`; scale and bias (absent: 1 and 0) have the sizes of the
// input at `axes`, in the order of `axes`.
template <class T>
Kernel layer_norm_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<LayerNormalizationAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const Shape shape = graph.desc(in_id).shape;
  const size_t rank = shape.size();
  const std::vector<uint32_t>& axes = *attrs.axes;
  // Strides of each input dimension into the statistics (the kept dimensions, row-major) and into
  // scale/bias (the reduced dimensions, in the order of `axes`).
  std::vector<bool> reduced(rank, false);
  for (uint32_t a : axes) reduced.at(a) = true;
  std::vector<size_t> stat_strides(rank, 0), param_strides(rank, 0);
  size_t groups = 1, group_size = 1;
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) continue;
    stat_strides[d] = groups;
    groups *= shape[d];
  }
  for (size_t k = axes.size(); k-- > 0;) {
    param_strides[axes[k]] = group_size;
    group_size *= shape[axes[k]];
  }
  const double epsilon = epsilon_of<T>(attrs.epsilon);
  const bool has_scale = attrs.scale.has_value(), has_bias = attrs.bias.has_value();
  const OperandId scale_id = has_scale ? attrs.scale->id : 0, bias_id = has_bias ? attrs.bias->id : 0;
  std::vector<double> mean(groups), m2(groups);
  return [=, mean = std::move(mean), m2 = std::move(m2)](Values v) mutable {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    const T* scale = has_scale ? typed<T>(v[scale_id]) : nullptr;
    const T* bias = has_bias ? typed<T>(v[bias_id]) : nullptr;
    const std::vector<size_t> strides[2] = {stat_strides, param_strides};
    std::fill(mean.begin(), mean.end(), 0.0);
    std::fill(m2.begin(), m2.end(), 0.0);
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) { mean[o[0]] += static_cast<double>(load(in[i])); });
    for (double& m : mean) m /= static_cast<double>(group_size);
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) {
      const double d = static_cast<double>(load(in[i])) - mean[o[0]];
      m2[o[0]] += d * d;
    });
    for (double& s : m2) s = std::sqrt(s / static_cast<double>(group_size) + epsilon);  // now the stddev
    for_each_offset(shape, strides, [&](size_t i, const size_t* o) {
      out[i] = normalize(in[i], mean[o[0]], m2[o[0]], scale, bias, o[1]);
    });
  };
}

// softmax along `axis`: exp(x - max) / sum(exp(x - max)).
template <class T>
Kernel softmax_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<SoftmaxAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), out_id = op.outputs.at(0);
  const Shape& shape = graph.desc(in_id).shape;
  const size_t axis = attrs.axis;
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const size_t len = shape.at(axis);
  std::vector<double> e(len);
  return [=, e = std::move(e)](Values v) mutable {
    const T* in = typed<T>(v[in_id]);
    T* out = typed<T>(v[out_id]);
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < inner; ++i) {
        const size_t base = o * len * inner + i;
        double mx = -INFINITY;
        for (size_t k = 0; k < len; ++k) mx = std::max(mx, static_cast<double>(load(in[base + k * inner])));
        double sum = 0;
        for (size_t k = 0; k < len; ++k) {
          e[k] = std::exp(static_cast<double>(load(in[base + k * inner])) - mx);
          sum += e[k];
        }
        for (size_t k = 0; k < len; ++k) out[base + k * inner] = round_from_double<T>(e[k] / sum);
      }
  };
}

}  // namespace

Kernel make_normalization_kernel(const Graph& graph, const Operation& op) {
  return make_float_kernel(graph, op, [&]<class T>() -> Kernel {
    switch (op.kind) {
      case OpKind::kBatchNormalization:
        return batch_norm_kernel<T>(graph, op);
      case OpKind::kInstanceNormalization:
        return instance_norm_kernel<T>(graph, op);
      case OpKind::kSoftmax:
        return softmax_kernel<T>(graph, op);
      default:
        return layer_norm_kernel<T>(graph, op);
    }
  });
}

}  // namespace webnn::reference
