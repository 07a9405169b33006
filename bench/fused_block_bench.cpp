// An experiment for issue 16 (docs/onednn.md, "Performance"): would a kernel of our own that computes a
// whole MobileNetV2 inverted-residual block at once beat oneDNN 2.6's three primitives?
//
// The block: expand (1x1 convolution + bias, clamp 0..6), depthwise 3x3 (stride 1 or 2, padding 1, + bias,
// clamp 0..6), project (1x1 convolution + bias, + the block's input when the shapes allow), NHWC float32,
// batch 1. oneDNN runs it as three primitives, each writing its whole output (the expanded tensor is the
// network's largest) before the next reads it. The fused kernel runs it chunk by chunk of output rows:
// each thread takes a band of output rows; for each chunk of them it expands, in one GEMM, the input rows
// the chunk needs and does not hold yet into a ring of rows (padded with a zero pixel at each end, so the
// depthwise loop has no edge cases), computes the chunk's depthwise rows from the ring, and projects them
// in one GEMM: the expanded and depthwise tensors never leave the core's caches. Its GEMM is a
// register-blocked AVX-512 micro-kernel (MR rows x NV vectors of 16 columns, the weights packed into panels
// of 64 or 32 columns at setup).
//
// The program times both on MobileNetV2's 17 blocks (alternating rounds, medians), checks that they agree,
// and prints a Markdown table. It is a measurement, not part of the backend.
//
//     build/bench/webnn_fused_block_bench [--threads 2] [--rounds 15] [--iterations 50]
//                                         [--stage all|expand|depthwise|project]
//
// --stage times one stage alone on both sides: oneDNN's one primitive, and the fused kernel with the other
// two stages left out (so its stages do not add up to its whole exactly). Exit status: 0, 1 when the two
// disagree by more than 1e-4 of the largest output, 2 on a bad argument, 77 when the processor lacks
// AVX-512F (the kernel's instruction set).
#include <immintrin.h>
#include <omp.h>

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using dnnl::memory;

// Weights [N][K] (the filter's OIHW order for a 1x1 convolution) packed into panels of 64 columns (32 for
// a last panel of at most 32): panel n0 holds K rows of its columns, padded with zeros to whole vectors.
struct Packed {
  int k = 0, n = 0;
  std::vector<float> w;
};

int panel_width(int remaining) { return remaining >= 64 ? 64 : std::min(remaining, 32); }

Packed pack(const std::vector<float>& nk, int n, int k) {
  Packed p{k, n, std::vector<float>(static_cast<size_t>(n + 64) * k, 0.f)};
  for (int n0 = 0; n0 < n;) {
    const int nn = panel_width(n - n0), vectors = (nn + 15) / 16;
    for (int kk = 0; kk < k; ++kk)
      for (int j = 0; j < nn; ++j)
        p.w[static_cast<size_t>(n0) * k + kk * vectors * 16 + j] = nk[static_cast<size_t>(n0 + j) * k + kk];
    n0 += nn;
  }
  return p;
}

struct Block {
  int h = 0, w = 0, cin = 0, c = 0, n = 0, stride = 1, ho = 0, wo = 0;
  bool expand = true, residual = false;
  Packed expand_w, project_w;
  std::vector<float> expand_b, dw_w, dw_b, project_b;  // dw_w: [9][c]
};

enum Stage { kAll = 7, kExpand = 1, kDepthwise = 2, kProject = 4 };

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,fma")
// GCC 12's own AVX-512 min/max intrinsics start from _mm512_undefined_ps and trip these warnings.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// Y[MR x 16*NV] = A[MR x K] * B (+ bias, clamp to [lo, hi], + R), the last vector's columns masked; row i
// of Y starts at y[i] + column (the expanded rows have a padding pixel between image rows), of R at r + i * ldr.
template <int MR, int NV, bool kClamp>
inline void micro(const float* a, int lda, const float* b, int k, float* const* y, int column, const float* bias,
                  const float* r, int ldr, __mmask16 last, float lo, float hi) {
  __m512 acc[MR][NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) {
    const __m512 bv = _mm512_loadu_ps(bias + 16 * v);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) acc[i][v] = bv;
  }
  for (int kk = 0; kk < k; ++kk) {
    __m512 bv[NV];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) bv[v] = _mm512_loadu_ps(b + kk * NV * 16 + 16 * v);
#pragma GCC unroll 32
    for (int i = 0; i < MR; ++i) {
      const __m512 av = _mm512_set1_ps(a[i * lda + kk]);
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
    }
  }
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
#pragma GCC unroll 32
  for (int i = 0; i < MR; ++i)
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) {
      const __mmask16 m = v == NV - 1 ? last : 0xffff;
      __m512 x = acc[i][v];
      if (kClamp) x = _mm512_min_ps(vhi, _mm512_max_ps(vlo, x));  // NaN stays NaN: max/min return it
      if (r) x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(m, r + i * ldr + 16 * v));
      _mm512_mask_storeu_ps(y[i] + column + 16 * v, m, x);
    }
}

template <int NV, bool kClamp>
void gemm_panel(const float* a, int lda, int rows, const float* b, int k, float* const* y, int column,
                const float* bias, const float* r, int ldr, __mmask16 last, float lo, float hi) {
  constexpr int kRows = NV == 1 ? 24 : NV == 2 ? 12 : NV == 3 ? 8 : 6;  // 24 accumulators
  const auto call = [&](auto mr, int i) {
    micro<decltype(mr)::value, NV, kClamp>(a + i * lda, lda, b, k, y + i, column, bias, r ? r + i * ldr : nullptr, ldr,
                                           last, lo, hi);
  };
  int i = 0;
  for (; i + kRows <= rows; i += kRows) call(std::integral_constant<int, kRows>(), i);
  for (; i + 4 <= rows; i += 4) call(std::integral_constant<int, 4>(), i);
  for (; i < rows; ++i) call(std::integral_constant<int, 1>(), i);
}

// Y = A * B (+ bias, clamp, + R) for `rows` rows of A (stride lda); y[i]: where row i of Y starts.
template <bool kClamp>
void gemm(const float* a, int lda, int rows, const Packed& b, float* const* y, const float* bias, const float* r,
          int ldr, float lo = 0.f, float hi = 0.f) {
  for (int n0 = 0; n0 < b.n;) {
    const int nn = panel_width(b.n - n0);
    const float* panel = b.w.data() + static_cast<size_t>(n0) * b.k;
    const auto last = static_cast<__mmask16>((1u << ((nn - 1) % 16 + 1)) - 1);
    const float* rr = r ? r + n0 : nullptr;
    if (nn > 48)
      gemm_panel<4, kClamp>(a, lda, rows, panel, b.k, y, n0, bias + n0, rr, ldr, last, lo, hi);
    else if (nn > 32)
      gemm_panel<3, kClamp>(a, lda, rows, panel, b.k, y, n0, bias + n0, rr, ldr, last, lo, hi);
    else if (nn > 16)
      gemm_panel<2, kClamp>(a, lda, rows, panel, b.k, y, n0, bias + n0, rr, ldr, last, lo, hi);
    else
      gemm_panel<1, kClamp>(a, lda, rows, panel, b.k, y, n0, bias + n0, rr, ldr, last, lo, hi);
    n0 += nn;
  }
}

// G adjacent depthwise outputs of one 16-channel vector from 3 padded rows (pointers at pixel 0 and the
// vector's channels; pixel -1 is the zero padding).
template <int S, int G>
inline void depthwise_group(const float* const rows[3], const __m512 w[9], __m512 bias, int ox, int c, float* d) {
  __m512 acc[G];
#pragma GCC unroll 16
  for (int j = 0; j < G; ++j) acc[j] = bias;
#pragma GCC unroll 3
  for (int ky = 0; ky < 3; ++ky) {
    const float* p = rows[ky] + static_cast<ptrdiff_t>(ox * S - 1) * c;
#pragma GCC unroll 32
    for (int i = 0; i < (G - 1) * S + 3; ++i) {
      const __m512 v = _mm512_loadu_ps(p);
      p += c;
      // One running pointer per row: without this, GCC precomputes every column's address and spills them.
      __asm__("" : "+r"(p));
#pragma GCC unroll 16
      for (int j = 0; j < G; ++j) {
        const int kx = i - j * S;
        if (kx >= 0 && kx < 3) acc[j] = _mm512_fmadd_ps(v, w[ky * 3 + kx], acc[j]);
      }
    }
  }
  const __m512 lo = _mm512_setzero_ps(), hi = _mm512_set1_ps(6.f);
#pragma GCC unroll 16
  for (int j = 0; j < G; ++j) {
    _mm512_storeu_ps(d, _mm512_min_ps(hi, _mm512_max_ps(lo, acc[j])));
    d += c;
  }
}

template <int S>
void depthwise_row(const Block& b, const float* const rows[3], float* d) {
  for (int ch = 0; ch < b.c; ch += 16) {
    __m512 w[9];
    for (int k = 0; k < 9; ++k) w[k] = _mm512_loadu_ps(b.dw_w.data() + k * b.c + ch);
    const __m512 bias = _mm512_loadu_ps(b.dw_b.data() + ch);
    const float* r[3] = {rows[0] + ch, rows[1] + ch, rows[2] + ch};
    float* out = d + ch;
    int ox = 0;
    for (; ox + 8 <= b.wo; ox += 8) depthwise_group<S, 8>(r, w, bias, ox, b.c, out + static_cast<size_t>(ox) * b.c);
    if (ox + 4 <= b.wo) {
      depthwise_group<S, 4>(r, w, bias, ox, b.c, out + static_cast<size_t>(ox) * b.c);
      ox += 4;
    }
    if (ox + 2 <= b.wo) {
      depthwise_group<S, 2>(r, w, bias, ox, b.c, out + static_cast<size_t>(ox) * b.c);
      ox += 2;
    }
    if (ox < b.wo) depthwise_group<S, 1>(r, w, bias, ox, b.c, out + static_cast<size_t>(ox) * b.c);
  }
}

void fused_block(const Block& b, const float* x, float* y, int threads, int stages) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int oy0 = b.ho * t / nt, oy1 = b.ho * (t + 1) / nt;
    // Output rows go in chunks whose depthwise result (chunk x wo x c) stays within 96 KiB; the expanded
    // rows a chunk needs are in a ring of chunk * stride + 2 rows (padded with a zero pixel at each end),
    // kept from run to run of the same block (as a plan would own them); the padding is never written.
    const int chunk = std::max(1, std::min(oy1 - oy0, 96 * 1024 / 4 / (b.wo * b.c)));
    const int capacity = chunk * b.stride + 2;
    const size_t row_floats = static_cast<size_t>(b.w + 2) * b.c;
    static thread_local std::vector<float> ring, zero, d;
    static thread_local std::vector<float*> out_rows;
    static thread_local std::vector<int> held;  // the input row each ring slot holds
    static thread_local size_t ring_layout[2] = {0, 0};
    // Zeroed whenever the row layout changes (not only the size: the padding pixels move with it).
    if (ring_layout[0] != static_cast<size_t>(capacity) || ring_layout[1] != row_floats) {
      ring.assign(capacity * row_floats, 0.f), zero.assign(row_floats, 0.f);
      ring_layout[0] = capacity, ring_layout[1] = row_floats;
    }
    d.resize(static_cast<size_t>(chunk) * b.wo * b.c);
    held.assign(capacity, -1);
    const auto slot = [&](int iy) { return ring.data() + (iy % capacity) * row_floats + b.c; };
    for (int cy = oy0; cy < oy1; cy += chunk) {
      const int count = std::min(chunk, oy1 - cy);
      // Expand the input rows this chunk needs and the ring lacks, in one GEMM.
      const int first = std::max(0, cy * b.stride - 1), last = std::min(b.h - 1, (cy + count - 1) * b.stride + 1);
      int from = first;
      while (from <= last && held[from % capacity] == from) ++from;
      if (from <= last && (stages & kExpand)) {
        const float* in = x + static_cast<size_t>(from) * b.w * b.cin;
        if (b.expand) {
          out_rows.resize(static_cast<size_t>(last - from + 1) * b.w);
          for (size_t i = 0; i < out_rows.size(); ++i)
            out_rows[i] = slot(from + static_cast<int>(i) / b.w) + (i % b.w) * b.c;
          gemm<true>(in, b.cin, static_cast<int>(out_rows.size()), b.expand_w, out_rows.data(), b.expand_b.data(),
                     nullptr, 0, 0.f, 6.f);
        } else {
          for (int iy = from; iy <= last; ++iy)
            std::memcpy(slot(iy), x + static_cast<size_t>(iy) * b.w * b.cin, sizeof(float) * b.w * b.c);
        }
      }
      for (int iy = from; iy <= last; ++iy) held[iy % capacity] = iy;
      const auto row = [&](int iy) -> const float* { return iy < 0 || iy >= b.h ? zero.data() + b.c : slot(iy); };
      for (int oy = cy; oy < cy + count && (stages & kDepthwise); ++oy) {
        const float* rows[3] = {row(oy * b.stride - 1), row(oy * b.stride), row(oy * b.stride + 1)};
        float* out = d.data() + static_cast<size_t>(oy - cy) * b.wo * b.c;
        if (b.stride == 1)
          depthwise_row<1>(b, rows, out);
        else
          depthwise_row<2>(b, rows, out);
      }
      if (stages & kProject) {
        const int pixels = count * b.wo;
        out_rows.resize(pixels);
        for (int i = 0; i < pixels; ++i) out_rows[i] = y + (static_cast<size_t>(cy) * b.wo + i) * b.n;
        gemm<false>(d.data(), b.c, pixels, b.project_w, out_rows.data(), b.project_b.data(),
                    b.residual ? x + static_cast<size_t>(cy) * b.w * b.cin : nullptr, b.cin);
      }
    }
  }
}

#pragma GCC diagnostic pop
#pragma GCC pop_options

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// oneDNN's form of the block: three convolution primitives over NHWC tensors, weights reordered once.
struct OnednnBlock {
  std::vector<dnnl::primitive> primitives;
  std::vector<std::unordered_map<int, memory>> args;
  std::vector<int> stage;  // which stage each primitive is
};

OnednnBlock onednn_block(const Block& b, const dnnl::engine& engine, dnnl::stream& stream, float* x,
                         const std::vector<float>& expand_oihw, const std::vector<float>& dw_goihw,
                         const std::vector<float>& project_oihw, float* y) {
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  OnednnBlock block;
  const auto add = [&](const memory& src, memory::dims weights_dims, tag weights_tag, const float* weights,
                       const std::vector<float>& bias, memory::dims dst_dims, int stride, int pad, bool clip, bool sum,
                       float* dst, int stage) {
    dnnl::post_ops post;
    if (clip) post.append_eltwise(1.f, dnnl::algorithm::eltwise_clip, 0.f, 6.f);
    if (sum) post.append_sum(1.f);
    dnnl::primitive_attr attr;
    attr.set_post_ops(post);
    const memory::desc dst_md(dst_dims, f32, tag::nhwc);
    const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                                               src.get_desc(), memory::desc(weights_dims, f32, tag::any),
                                               memory::desc({dst_dims[1]}, f32, tag::a), dst_md, {stride, stride},
                                               {pad, pad}, {pad, pad});
    const dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
    memory given({weights_dims, f32, weights_tag}, engine, const_cast<float*>(weights));
    memory reordered(pd.weights_desc(), engine);
    dnnl::reorder(given, reordered).execute(stream, given, reordered);
    memory bias_mem({{dst_dims[1]}, f32, tag::a}, engine, const_cast<float*>(bias.data()));
    memory out = dst ? memory(dst_md, engine, dst) : memory(dst_md, engine);
    block.primitives.push_back(dnnl::convolution_forward(pd));
    block.args.push_back(
        {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, reordered}, {DNNL_ARG_BIAS, bias_mem}, {DNNL_ARG_DST, out}});
    block.stage.push_back(stage);
    return out;
  };
  memory current({{1, b.cin, b.h, b.w}, f32, tag::nhwc}, engine, x);
  if (b.expand)
    current = add(current, {b.c, b.cin, 1, 1}, tag::oihw, expand_oihw.data(), b.expand_b, {1, b.c, b.h, b.w}, 1, 0,
                  true, false, nullptr, kExpand);
  current = add(current, {b.c, 1, 1, 3, 3}, tag::goihw, dw_goihw.data(), b.dw_b, {1, b.c, b.ho, b.wo}, b.stride, 1,
                true, false, nullptr, kDepthwise);
  add(current, {b.n, b.c, 1, 1}, tag::oihw, project_oihw.data(), b.project_b, {1, b.n, b.ho, b.wo}, 1, 0, false,
      b.residual, y, kProject);
  return block;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, rounds = 15, iterations = 50, stages = kAll;
  std::string stage_name = "all";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--threads" && has_value)
      threads = std::atoi(argv[++i]);
    else if (arg == "--rounds" && has_value)
      rounds = std::atoi(argv[++i]);
    else if (arg == "--iterations" && has_value)
      iterations = std::atoi(argv[++i]);
    else if (arg == "--stage" && has_value) {
      stage_name = argv[++i];
      const std::unordered_map<std::string, int> names = {
          {"all", kAll}, {"expand", kExpand}, {"depthwise", kDepthwise}, {"project", kProject}};
      if (!names.count(stage_name)) {
        std::fprintf(stderr, "fused_block_bench: --stage is all, expand, depthwise or project, not '%s'\n",
                     stage_name.c_str());
        return 2;
      }
      stages = names.at(stage_name);
    } else {
      std::fprintf(stderr, "fused_block_bench: unknown argument '%s' (see the comment at the top of the file)\n",
                   arg.c_str());
      return 2;
    }
  }
  if (threads < 1 || rounds < 1 || iterations < 1) {
    std::fprintf(stderr, "fused_block_bench: --threads, --rounds and --iterations must be at least 1\n");
    return 2;
  }
  if (!__builtin_cpu_supports("avx512f")) {
    std::printf("fused_block_bench: this processor lacks AVX-512F, the fused kernel's instruction set\n");
    return 77;
  }
  // MobileNetV2's blocks: input height, width and channels, expanded channels, stride, output channels.
  struct Shape {
    int h, w, cin, c, stride, n;
  };
  const std::vector<Shape> shapes = {{112, 112, 32, 32, 1, 16}, {112, 112, 16, 96, 2, 24}, {56, 56, 24, 144, 1, 24},
                                     {56, 56, 24, 144, 2, 32},  {28, 28, 32, 192, 1, 32},  {28, 28, 32, 192, 1, 32},
                                     {28, 28, 32, 192, 2, 64},  {14, 14, 64, 384, 1, 64},  {14, 14, 64, 384, 1, 64},
                                     {14, 14, 64, 384, 1, 64},  {14, 14, 64, 384, 1, 96},  {14, 14, 96, 576, 1, 96},
                                     {14, 14, 96, 576, 1, 96},  {14, 14, 96, 576, 2, 160}, {7, 7, 160, 960, 1, 160},
                                     {7, 7, 160, 960, 1, 160},  {7, 7, 160, 960, 1, 320}};
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  omp_set_num_threads(threads);
  std::printf("%d threads, stage %s; median of %d alternating rounds of %d runs\n\n", threads, stage_name.c_str(),
              rounds, iterations);
  std::printf(
      "| block (input, expanded, output channels) | oneDNN us | fused us | fused / oneDNN | max difference |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  double total_onednn = 0, total_fused = 0;
  bool agree = true;
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
  for (const Shape& s : shapes) {
    Block b;
    b.h = s.h, b.w = s.w, b.cin = s.cin, b.c = s.c, b.n = s.n, b.stride = s.stride;
    b.ho = (s.h - 1) / s.stride + 1, b.wo = (s.w - 1) / s.stride + 1;
    b.expand = s.cin != s.c;  // the first block, the only one with as many channels in as expanded, has none
    b.residual = s.stride == 1 && s.cin == s.n;
    const auto fill = [&](size_t count, float scale) {
      std::vector<float> v(count);
      for (float& f : v) f = uniform(rng) * scale;
      return v;
    };
    std::vector<float> x = fill(static_cast<size_t>(b.h) * b.w * b.cin, 4.f);
    const std::vector<float> expand_oihw = fill(static_cast<size_t>(b.c) * b.cin, 0.5f);
    const std::vector<float> dw_goihw = fill(9 * static_cast<size_t>(b.c), 1.f);
    const std::vector<float> project_oihw = fill(static_cast<size_t>(b.n) * b.c, 0.2f);
    b.expand_b = fill(b.c + 64, 1.f);
    b.dw_b = fill(b.c, 1.f);
    b.project_b = fill(b.n + 64, 1.f);
    b.dw_w.resize(9 * static_cast<size_t>(b.c));
    for (int ch = 0; ch < b.c; ++ch)
      for (int k = 0; k < 9; ++k) b.dw_w[k * b.c + ch] = dw_goihw[ch * 9 + k];
    b.expand_w = pack(expand_oihw, b.c, b.cin);
    b.project_w = pack(project_oihw, b.n, b.c);
    const size_t out_count = static_cast<size_t>(b.ho) * b.wo * b.n;
    std::vector<float> y_onednn(out_count), y_fused(out_count);
    OnednnBlock reference =
        onednn_block(b, engine, stream, x.data(), expand_oihw, dw_goihw, project_oihw, y_onednn.data());
    const auto run_onednn = [&] {
      for (size_t i = 0; i < reference.primitives.size(); ++i)
        if (reference.stage[i] & stages) reference.primitives[i].execute(stream, reference.args[i]);
    };
    // oneDNN's residual is its sum post-op: the output must hold the block's input first.
    if (b.residual) std::memcpy(y_onednn.data(), x.data(), sizeof(float) * out_count);
    run_onednn();
    stream.wait();
    fused_block(b, x.data(), y_fused.data(), threads, stages);
    double difference = 0, largest = 0;
    for (size_t i = 0; i < out_count && stages == kAll; ++i) {
      difference = std::max(difference, static_cast<double>(std::fabs(y_onednn[i] - y_fused[i])));
      largest = std::max(largest, static_cast<double>(std::fabs(y_onednn[i])));
    }
    if (difference > 1e-4 * largest) agree = false;
    std::vector<double> t_onednn, t_fused;
    for (int r = 0; r < rounds; ++r) {
      const double t0 = now();
      for (int i = 0; i < iterations; ++i) run_onednn();
      stream.wait();
      const double t1 = now();
      for (int i = 0; i < iterations; ++i) fused_block(b, x.data(), y_fused.data(), threads, stages);
      const double t2 = now();
      t_onednn.push_back((t1 - t0) / iterations * 1e6);
      t_fused.push_back((t2 - t1) / iterations * 1e6);
    }
    const double a = median(t_onednn), f = median(t_fused);
    total_onednn += a, total_fused += f;
    char diff[48] = "";
    if (stages == kAll) std::snprintf(diff, sizeof diff, "%.1e of the largest", difference / largest);
    std::printf("| %dx%d, %d -> %d -> %d, stride %d%s | %.1f | %.1f | %.2f | %s |\n", b.h, b.w, b.cin, b.c, b.n,
                b.stride, b.residual ? ", residual" : "", a, f, f / a, diff);
  }
  std::printf("| all 17 | %.1f | %.1f | %.3f | |\n", total_onednn, total_fused, total_fused / total_onednn);
  if (!agree) {
    std::fprintf(stderr, "fused_block_bench: the fused kernel and oneDNN disagree by more than 1e-4\n");
    return 1;
  }
  return 0;
}
