// conv2d and convTranspose2d. spec: #api-mlgraphbuilder-conv2d, #api-mlgraphbuilder-convtranspose2d
//
// conv2d: every layout and data type is brought to one computation: float32, input and output
// "nchw", filter "oihw". A float32 "nchw" input and output are used in place; anything else goes
// through scratch buffers allocated at compile time. A constant filter (and bias) is repacked
// once at compile time. Accumulation is in float32 (float16 rounds once, on store).
//
// convTranspose2d: each output element gathers, in double, the products of the input elements
// and filter taps that the transposed convolution scatters onto it, and is rounded once. Input,
// output and filter are read in place through the strides of their logical dimensions, so every
// layout takes the same path.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"

namespace webnn::reference {

namespace {

struct ConvGeometry {
  int64_t batches, in_c, in_h, in_w;
  int64_t out_c, out_h, out_w;
  int64_t k_h, k_w, groups;
  int64_t pad_top, pad_left, stride_h, stride_w, dil_h, dil_w;
};

// Converts `filter` (of `layout`, with the given logical sizes) to float32 "oihw".
template <class T>
void repack_filter(const T* filter, Conv2dFilterLayout layout, const ConvGeometry& g, float* out) {
  const int64_t o_n = g.out_c, i_n = g.in_c / g.groups, h_n = g.k_h, w_n = g.k_w;
  for (int64_t o = 0; o < o_n; ++o)
    for (int64_t i = 0; i < i_n; ++i)
      for (int64_t h = 0; h < h_n; ++h)
        for (int64_t w = 0; w < w_n; ++w) {
          int64_t src = 0;
          switch (layout) {
            case Conv2dFilterLayout::kOihw:
              src = ((o * i_n + i) * h_n + h) * w_n + w;
              break;
            case Conv2dFilterLayout::kHwio:
              src = ((h * w_n + w) * i_n + i) * o_n + o;
              break;
            case Conv2dFilterLayout::kOhwi:
              src = ((o * h_n + h) * w_n + w) * i_n + i;
              break;
            case Conv2dFilterLayout::kIhwo:
              src = ((i * h_n + h) * w_n + w) * o_n + o;
              break;
          }
          out[((o * i_n + i) * h_n + h) * w_n + w] = static_cast<float>(load(filter[src]));
        }
}

// 1x1 filter, stride 1, no padding: per group, out[oc][p] = bias[oc] + sum_ic w[oc][ic] * in[ic][p],
// blocked so that a tile of outputs stays in cache while the input rows stream past.
void conv_pointwise(const float* in, const float* w, const float* bias, float* out, const ConvGeometry& g) {
  constexpr int64_t kOcBlock = 8, kPBlock = 128;
  const int64_t plane = g.in_h * g.in_w;
  const int64_t icg = g.in_c / g.groups, ocg = g.out_c / g.groups;
  float acc[kOcBlock][kPBlock];
  for (int64_t n = 0; n < g.batches; ++n)
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* x = in + (n * g.in_c + grp * icg) * plane;
      for (int64_t p0 = 0; p0 < plane; p0 += kPBlock) {
        const int64_t np = std::min(kPBlock, plane - p0);
        for (int64_t oc0 = 0; oc0 < ocg; oc0 += kOcBlock) {
          const int64_t nb = std::min(kOcBlock, ocg - oc0);
          for (int64_t b = 0; b < nb; ++b) {
            const float init = bias ? bias[grp * ocg + oc0 + b] : 0.0f;
            for (int64_t j = 0; j < np; ++j) acc[b][j] = init;
          }
          for (int64_t ic = 0; ic < icg; ++ic) {
            const float* xr = x + ic * plane + p0;
            for (int64_t b = 0; b < nb; ++b) {
              const float wv = w[(grp * ocg + oc0 + b) * icg + ic];
              float* a = acc[b];
              for (int64_t j = 0; j < np; ++j) a[j] += wv * xr[j];
            }
          }
          for (int64_t b = 0; b < nb; ++b) {
            float* o = out + (n * g.out_c + grp * ocg + oc0 + b) * plane + p0;
            std::copy(acc[b], acc[b] + np, o);
          }
        }
      }
    }
}

// Direct convolution: for each (output channel, input channel, filter tap) add w * input row to
// the output row, the inner loop running along the output width.
void conv_direct(const float* in, const float* w, const float* bias, float* out, const ConvGeometry& g) {
  const int64_t icg = g.in_c / g.groups, ocg = g.out_c / g.groups;
  const int64_t in_plane = g.in_h * g.in_w, out_plane = g.out_h * g.out_w;
  for (int64_t n = 0; n < g.batches; ++n)
    for (int64_t oc = 0; oc < g.out_c; ++oc) {
      const int64_t grp = oc / ocg;
      float* o = out + (n * g.out_c + oc) * out_plane;
      std::fill(o, o + out_plane, bias ? bias[oc] : 0.0f);
      for (int64_t ic = 0; ic < icg; ++ic) {
        const float* x = in + (n * g.in_c + grp * icg + ic) * in_plane;
        for (int64_t kh = 0; kh < g.k_h; ++kh)
          for (int64_t kw = 0; kw < g.k_w; ++kw) {
            const float wv = w[((oc * icg + ic) * g.k_h + kh) * g.k_w + kw];
            // Output columns whose input column ow * stride + iw0 lies inside [0, in_w).
            const int64_t iw0 = kw * g.dil_w - g.pad_left;
            const int64_t ow_lo = iw0 >= 0 ? 0 : (-iw0 + g.stride_w - 1) / g.stride_w;
            const int64_t ow_hi = iw0 >= g.in_w ? 0 : std::min(g.out_w, (g.in_w - 1 - iw0) / g.stride_w + 1);
            if (ow_lo >= ow_hi) continue;
            for (int64_t oh = 0; oh < g.out_h; ++oh) {
              const int64_t ih = oh * g.stride_h + kh * g.dil_h - g.pad_top;
              if (ih < 0 || ih >= g.in_h) continue;
              const float* xr = x + ih * g.in_w + iw0;
              float* orow = o + oh * g.out_w;
              if (g.stride_w == 1) {
                for (int64_t ow = ow_lo; ow < ow_hi; ++ow) orow[ow] += wv * xr[ow];
              } else {
                for (int64_t ow = ow_lo; ow < ow_hi; ++ow) orow[ow] += wv * xr[ow * g.stride_w];
              }
            }
          }
      }
    }
}

void conv_f32(const float* in, const float* w, const float* bias, float* out, const ConvGeometry& g) {
  if (g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 && g.pad_left == 0 &&
      g.out_h == g.in_h && g.out_w == g.in_w) {
    conv_pointwise(in, w, bias, out, g);
  } else {
    conv_direct(in, w, bias, out, g);
  }
}

// Copies a 4-D tensor of T in `layout` to float32 "nchw" (and back), dims given as n, c, h, w.
template <class T>
void to_nchw_f32(const T* src, bool nhwc, int64_t n_, int64_t c_, int64_t h_, int64_t w_, float* dst) {
  if (!nhwc) {
    const int64_t total = n_ * c_ * h_ * w_;
    for (int64_t i = 0; i < total; ++i) dst[i] = static_cast<float>(load(src[i]));
    return;
  }
  for (int64_t n = 0; n < n_; ++n)
    for (int64_t h = 0; h < h_; ++h)
      for (int64_t w = 0; w < w_; ++w)
        for (int64_t c = 0; c < c_; ++c)
          dst[((n * c_ + c) * h_ + h) * w_ + w] = static_cast<float>(load(src[((n * h_ + h) * w_ + w) * c_ + c]));
}
template <class T>
void from_nchw_f32(const float* src, bool nhwc, int64_t n_, int64_t c_, int64_t h_, int64_t w_, T* dst) {
  if (!nhwc) {
    const int64_t total = n_ * c_ * h_ * w_;
    for (int64_t i = 0; i < total; ++i) dst[i] = store<T>(src[i]);
    return;
  }
  for (int64_t n = 0; n < n_; ++n)
    for (int64_t h = 0; h < h_; ++h)
      for (int64_t w = 0; w < w_; ++w)
        for (int64_t c = 0; c < c_; ++c)
          dst[((n * h_ + h) * w_ + w) * c_ + c] = store<T>(src[((n * c_ + c) * h_ + h) * w_ + w]);
}

template <class T>
Kernel conv2d_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<Conv2dAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), filter_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const Shape& is = graph.desc(in_id).shape;
  const Shape& fs = graph.desc(filter_id).shape;
  const Shape& os = graph.desc(out_id).shape;
  const bool nhwc = attrs.input_layout == InputLayout::kNhwc;

  ConvGeometry g{};
  const ImageDims in = image_dims(is, attrs.input_layout), out = image_dims(os, attrs.input_layout);
  const FilterDims filter = filter_dims(fs, attrs.filter_layout);
  g.batches = in.batches;
  g.in_c = in.channels, g.in_h = in.height, g.in_w = in.width;
  g.out_c = out.channels, g.out_h = out.height, g.out_w = out.width;
  g.k_h = filter.height, g.k_w = filter.width;
  g.groups = attrs.groups;
  const std::vector<uint32_t>& padding = *attrs.padding;
  const std::vector<uint32_t>& strides = *attrs.strides;
  const std::vector<uint32_t>& dilations = *attrs.dilations;
  g.pad_top = padding.at(0), g.pad_left = padding.at(2);
  g.stride_h = strides.at(0), g.stride_w = strides.at(1);
  g.dil_h = dilations.at(0), g.dil_w = dilations.at(1);
  if (g.groups == 0 || g.in_c % g.groups != 0 || g.out_c % g.groups != 0)
    throw_error(ErrorKind::kOperationError, describe(op) + ": channels are not divisible by groups");

  const size_t filter_count = element_count(fs);
  std::vector<float> packed_filter;
  const bool filter_constant = graph.operands[filter_id].kind == OperandKind::kConstant;
  if (filter_constant) {
    packed_filter.resize(filter_count);
    repack_filter(read_constant<T>(graph, filter_id).data(), attrs.filter_layout, g, packed_filter.data());
  } else {
    packed_filter.resize(filter_count);  // filled at each run
  }
  const bool has_bias = attrs.bias.has_value();
  const OperandId bias_id = has_bias ? attrs.bias->id : 0;
  const bool bias_constant = has_bias && graph.operands[bias_id].kind == OperandKind::kConstant;
  std::vector<float> bias(has_bias ? g.out_c : 0);
  if (bias_constant) {
    const std::vector<T> b = read_constant<T>(graph, bias_id);
    for (int64_t i = 0; i < g.out_c; ++i) bias[i] = static_cast<float>(load(b[i]));
  }

  constexpr bool kNative = std::is_same_v<T, float>;
  const bool direct = kNative && !nhwc;
  std::vector<float> in_scratch(direct ? 0 : element_count(is));
  std::vector<float> out_scratch(direct ? 0 : element_count(os));
  const Conv2dFilterLayout layout = attrs.filter_layout;

  return [=, packed_filter = std::move(packed_filter), bias = std::move(bias), in_scratch = std::move(in_scratch),
          out_scratch = std::move(out_scratch)](Values v) mutable {
    if (!filter_constant) repack_filter(typed<T>(v[filter_id]), layout, g, packed_filter.data());
    if (has_bias && !bias_constant) {
      const T* b = typed<T>(v[bias_id]);
      for (int64_t i = 0; i < g.out_c; ++i) bias[i] = static_cast<float>(load(b[i]));
    }
    const float* bias_ptr = has_bias ? bias.data() : nullptr;
    if constexpr (kNative) {
      if (direct) {
        conv_f32(typed<float>(v[in_id]), packed_filter.data(), bias_ptr, typed<float>(v[out_id]), g);
        return;
      }
    }
    to_nchw_f32(typed<T>(v[in_id]), nhwc, g.batches, g.in_c, g.in_h, g.in_w, in_scratch.data());
    conv_f32(in_scratch.data(), packed_filter.data(), bias_ptr, out_scratch.data(), g);
    from_nchw_f32(out_scratch.data(), nhwc, g.batches, g.out_c, g.out_h, g.out_w, typed<T>(v[out_id]));
  };
}

// Element strides of the logical dimensions (n, c, h, w) of an image, or (i, o, h, w) of a
// convTranspose2d filter, given where each sits in the stored shape.
struct Strides4 {
  int64_t a, b, h, w;
};
Strides4 logical_strides(const Shape& shape, const int (&position)[4]) {
  const std::vector<size_t> s = strides_of(shape);
  return {static_cast<int64_t>(s[position[0]]), static_cast<int64_t>(s[position[1]]),
          static_cast<int64_t>(s[position[2]]), static_cast<int64_t>(s[position[3]])};
}
Strides4 image_strides(const Shape& shape, InputLayout layout) {
  static constexpr int kNchw[4] = {0, 1, 2, 3}, kNhwc[4] = {0, 3, 1, 2};
  return logical_strides(shape, layout == InputLayout::kNchw ? kNchw : kNhwc);
}
// (input channel, output channel within the group, height, width) of MLConvTranspose2dFilterOperandLayout.
Strides4 transpose_filter_strides(const Shape& shape, ConvTranspose2dFilterLayout layout) {
  static constexpr int kIohw[4] = {0, 1, 2, 3}, kHwoi[4] = {3, 2, 0, 1}, kOhwi[4] = {3, 0, 1, 2};
  switch (layout) {
    case ConvTranspose2dFilterLayout::kIohw:
      return logical_strides(shape, kIohw);
    case ConvTranspose2dFilterLayout::kHwoi:
      return logical_strides(shape, kHwoi);
    case ConvTranspose2dFilterLayout::kOhwi:
      return logical_strides(shape, kOhwi);
  }
  return logical_strides(shape, kIohw);
}

// Input row ih contributes to output row ih * stride + kh * dilation - padBegin through filter row
// kh; so output row oh gathers, for each kh, the input row (oh + padBegin - kh * dilation) /
// stride when that division is exact and the row lies inside the input.
struct TransposeGeometry {
  int64_t batches, in_c, in_h, in_w, out_c, out_h, out_w, k_h, k_w, groups;
  int64_t pad_top, pad_left, stride_h, stride_w, dil_h, dil_w;
  Strides4 in, out, filter;  // filter: (input channel, output channel in the group, h, w)
};

template <class T>
void conv_transpose2d(const T* in, const T* filter, const T* bias, T* out, const TransposeGeometry& g) {
  const int64_t icg = g.in_c / g.groups, ocg = g.out_c / g.groups;
  for (int64_t n = 0; n < g.batches; ++n)
    for (int64_t oc = 0; oc < g.out_c; ++oc) {
      const int64_t grp = oc / ocg, oc_in_group = oc % ocg;
      for (int64_t oh = 0; oh < g.out_h; ++oh)
        for (int64_t ow = 0; ow < g.out_w; ++ow) {
          double acc = bias ? static_cast<double>(load(bias[oc])) : 0.0;
          for (int64_t kh = 0; kh < g.k_h; ++kh) {
            const int64_t th = oh + g.pad_top - kh * g.dil_h;
            if (th < 0 || th % g.stride_h != 0 || th / g.stride_h >= g.in_h) continue;
            const int64_t ih = th / g.stride_h;
            for (int64_t kw = 0; kw < g.k_w; ++kw) {
              const int64_t tw = ow + g.pad_left - kw * g.dil_w;
              if (tw < 0 || tw % g.stride_w != 0 || tw / g.stride_w >= g.in_w) continue;
              const int64_t iw = tw / g.stride_w;
              for (int64_t i = 0; i < icg; ++i) {
                const int64_t ic = grp * icg + i;
                const T x = in[n * g.in.a + ic * g.in.b + ih * g.in.h + iw * g.in.w];
                const T w = filter[ic * g.filter.a + oc_in_group * g.filter.b + kh * g.filter.h + kw * g.filter.w];
                acc += static_cast<double>(load(x)) * static_cast<double>(load(w));
              }
            }
          }
          out[n * g.out.a + oc * g.out.b + oh * g.out.h + ow * g.out.w] = round_from_double<T>(acc);
        }
    }
}

template <class T>
Kernel conv_transpose2d_kernel(const Graph& graph, const Operation& op) {
  const auto& attrs = std::get<ConvTranspose2dAttrs>(op.attrs);
  const OperandId in_id = op.inputs.at(0), filter_id = op.inputs.at(1), out_id = op.outputs.at(0);
  const Shape& is = graph.desc(in_id).shape;
  const Shape& fs = graph.desc(filter_id).shape;
  const Shape& os = graph.desc(out_id).shape;
  const ImageDims in = image_dims(is, attrs.input_layout), out = image_dims(os, attrs.input_layout);
  const FilterDims filter = filter_dims(fs, attrs.filter_layout);

  TransposeGeometry g{};
  g.batches = in.batches;
  g.in_c = in.channels, g.in_h = in.height, g.in_w = in.width;
  g.out_c = out.channels, g.out_h = out.height, g.out_w = out.width;
  g.k_h = filter.height, g.k_w = filter.width;
  g.groups = attrs.groups;
  // outputPadding and outputSizes only shape the output: its extra rows and columns gather like
  // the others.
  const std::vector<uint32_t>& padding = *attrs.padding;
  const std::vector<uint32_t>& strides = *attrs.strides;
  const std::vector<uint32_t>& dilations = *attrs.dilations;
  g.pad_top = padding.at(0), g.pad_left = padding.at(2);
  g.stride_h = strides.at(0), g.stride_w = strides.at(1);
  g.dil_h = dilations.at(0), g.dil_w = dilations.at(1);
  if (g.groups == 0 || g.in_c % g.groups != 0 || g.out_c != int64_t{filter.output_channels} * g.groups ||
      g.in_c != filter.input_channels)
    throw_error(ErrorKind::kOperationError, describe(op) + ": channels do not match the filter and groups");
  g.in = image_strides(is, attrs.input_layout);
  g.out = image_strides(os, attrs.input_layout);
  g.filter = transpose_filter_strides(fs, attrs.filter_layout);

  const bool has_bias = attrs.bias.has_value();
  const OperandId bias_id = has_bias ? attrs.bias->id : 0;
  return [=](Values v) {
    conv_transpose2d(typed<T>(v[in_id]), typed<T>(v[filter_id]), has_bias ? typed<T>(v[bias_id]) : nullptr,
                     typed<T>(v[out_id]), g);
  };
}

}  // namespace

Kernel make_conv_kernel(const Graph& graph, const Operation& op) {
  if (op.kind == OpKind::kConvTranspose2d)
    return make_float_kernel(graph, op, [&]<class T>() { return conv_transpose2d_kernel<T>(graph, op); });
  return make_float_kernel(graph, op, [&]<class T>() { return conv2d_kernel<T>(graph, op); });
}

}  // namespace webnn::reference
