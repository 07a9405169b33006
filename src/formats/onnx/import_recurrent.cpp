// ONNX import: GRU and LSTM onto WebNN's gru and lstm (src/ops/recurrent.cpp), layout 1 by
// transposes; RNN, and the GRUs and LSTMs WebNN's ops do not compute (clip, input_forget, an
// output-gate peephole, sequence_lens shorter than the steps), unrolled over their static steps
// (docs/onnx.md, "RNN").
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/onnx/import_lowerings.hpp"

namespace webnn::formats::onnx_import {

namespace {

RecurrentDirection direction_of(const NodeCtx& c) {
  std::string d = c.attr_s("direction", "forward");
  if (d == "forward") return RecurrentDirection::kForward;
  if (d == "reverse") return RecurrentDirection::kBackward;
  if (d == "bidirectional") return RecurrentDirection::kBoth;
  c.invalid("unknown direction \"" + d + "\"");
}

// The names ONNX's recurrent activations go by, lowercase (ONNX Runtime matches them so).
std::string lowercase(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  return name;
}

// The model's activations as WebNN's gru and lstm take them (one list for both directions, from
// relu, sigmoid and tanh, without alpha or beta; nullopt inside for the defaults), or nothing when
// they take something else: the node is then unrolled (Unrolled::functions).
std::optional<DefaultedActivations> webnn_activations(const NodeCtx& c, size_t per_direction,
                                                      const std::vector<std::string>& defaults) {
  auto names = c.attr_strings("activations");
  if (names.empty()) return DefaultedActivations{};
  if (!c.attr_floats("activation_alpha").empty() || !c.attr_floats("activation_beta").empty()) return std::nullopt;
  if (names.size() > per_direction) {
    for (size_t i = per_direction; i < names.size(); ++i)
      if (lowercase(names[i]) != lowercase(names[i - per_direction])) return std::nullopt;
    names.resize(per_direction);
  }
  std::vector<RecurrentActivation> acts;
  bool is_default = names.size() == defaults.size();
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string n = lowercase(names[i]);
    if (n == "relu")
      acts.push_back(RecurrentActivation::kRelu);
    else if (n == "sigmoid")
      acts.push_back(RecurrentActivation::kSigmoid);
    else if (n == "tanh")
      acts.push_back(RecurrentActivation::kTanh);
    else
      return std::nullopt;
    is_default = is_default && n == lowercase(defaults[i]);
  }
  if (is_default) return DefaultedActivations{};
  return DefaultedActivations{acts};
}

// The steps of X (its first axis, or its second with layout = 1).
uint32_t steps_of(const NodeCtx& c) {
  if (c.rank(0) != 3) c.invalid("X must be 3-D");
  return c.desc(0).shape[c.attr_i("layout", 0) == 1 ? 1 : 0];
}

// Whether sequence_lens may leave a batch entry short of the steps: given at run time, or known
// at import with a length under `steps`. WebNN's gru and lstm run every step of every batch entry,
// so such a node is unrolled with its steps masked (Unrolled::state).
bool short_sequences(const NodeCtx& c, uint32_t steps) {
  if (!c.has_input(4)) return false;
  if (c.rank(4) != 1) c.invalid("sequence_lens must be 1-D ([batch])");
  if (!c.is_const(4)) return true;
  bool short_one = false;
  for (int64_t len : c.const_ints(4, "sequence_lens")) {
    if (len < 0 || len > int64_t(steps)) c.invalid("a sequence length outside [0, steps]");
    short_one |= len != int64_t(steps);
  }
  return short_one;
}

// layout = 1 (batch first) is WebNN's layout with transposes around it: X [batch, steps, input]
// and the initial states [batch, dirs, hidden] in, Y [batch, steps, dirs, hidden] and the last
// states [batch, dirs, hidden] out.
bool batch_first(const NodeCtx& c) {
  int64_t layout = c.attr_i("layout", 0);
  if (layout != 0 && layout != 1) c.invalid("layout must be 0 or 1");
  return layout == 1;
}

OperandId recurrent_in(const NodeCtx& c, size_t i) {
  return batch_first(c) ? c.transpose(c.operand(i), {1, 0, 2}) : c.operand(i);
}

void set_recurrent_state(const NodeCtx& c, size_t i, OperandId state) {
  if (!c.wants_output(i)) return;
  c.set_out(i, batch_first(c) ? c.transpose(state, {1, 0, 2}) : state);
}

void set_recurrent_sequence(const NodeCtx& c, OperandId y) {
  if (c.wants_output(0)) c.set_out(0, batch_first(c) ? c.transpose(y, {2, 0, 1, 3}) : y);
}

// B [dirs, 2 * gates * hidden] -> bias and recurrentBias [dirs, gates * hidden].
std::pair<OperandId, OperandId> split_bias(const NodeCtx& c, size_t i) {
  OperandId b = c.operand(i);
  auto parts = c.add_multi(OpKind::kSplit, {b}, SplitAttrs{uint32_t{2}, 1});
  return {parts[0], parts[1]};
}

void lower_gru_unrolled(const NodeCtx& c);

void lower_gru(const NodeCtx& c) {
  const std::optional<DefaultedActivations> activations = webnn_activations(c, 2, {"Sigmoid", "Tanh"});
  if (c.has_attr("clip") || short_sequences(c, steps_of(c)) || !activations) return lower_gru_unrolled(c);
  OperandId x = recurrent_in(c, 0);
  const Shape xs = c.desc_of(x).shape;
  GruAttrs a;
  a.steps = xs.at(0);
  a.hidden_size = uint32_t(c.attr_i("hidden_size", 0));
  if (a.hidden_size == 0) a.hidden_size = c.desc(2).shape.at(2);
  a.direction = direction_of(c);
  a.layout = GruWeightLayout::kZrn;
  a.reset_after = c.attr_i("linear_before_reset", 0) != 0;
  a.return_sequence = c.wants_output(0);
  a.activations = *activations;
  if (c.has_input(3)) {
    auto [bias, rbias] = split_bias(c, 3);
    a.bias = OperandRef{bias};
    a.recurrent_bias = OperandRef{rbias};
  }
  if (c.has_input(5)) a.initial_hidden_state = OperandRef{recurrent_in(c, 5)};
  auto outs = c.add_multi(OpKind::kGru, {x, c.operand(1), c.operand(2)}, a);
  if (c.wants_output(0)) set_recurrent_sequence(c, outs.at(1));
  set_recurrent_state(c, 1, outs.at(0));
}

// ---- Unrolled recurrences (RNN, and GRU and LSTM where WebNN's gru and lstm compute something else) ----

// One of ONNX's recurrent activations with its alpha and beta.
struct RecurrentFn {
  std::string name;  // lowercase
  double alpha = 0, beta = 0;
};

// f(x) for an ONNX recurrent activation: Relu, Tanh, Sigmoid, Affine (alpha x + beta), LeakyRelu,
// ThresholdedRelu (x where x > alpha, else 0), ScaledTanh (alpha tanh(beta x)), HardSigmoid, Elu,
// Softsign, Softplus.
OperandId apply(const NodeCtx& c, const RecurrentFn& f, OperandId x) {
  const std::string& n = f.name;
  if (n == "tanh") return c.add(OpKind::kTanh, {x});
  if (n == "relu") return c.add(OpKind::kRelu, {x});
  if (n == "sigmoid") return c.add(OpKind::kSigmoid, {x});
  if (n == "affine") return c.add(OpKind::kLinear, {x}, LinearAttrs{f.alpha, f.beta});
  if (n == "leakyrelu") return c.add(OpKind::kLeakyRelu, {x}, LeakyReluAttrs{f.alpha});
  if (n == "hardsigmoid") return c.add(OpKind::kHardSigmoid, {x}, HardSigmoidAttrs{f.alpha, f.beta});
  if (n == "elu") return c.add(OpKind::kElu, {x}, EluAttrs{f.alpha});
  if (n == "softsign") return c.add(OpKind::kSoftsign, {x});
  if (n == "softplus") return c.add(OpKind::kSoftplus, {x});
  const DataType t = c.desc_of(x).data_type;
  if (n == "thresholdedrelu")
    return c.add(OpKind::kWhere, {c.add(OpKind::kGreater, {x, c.scalar(t, f.alpha)}), x, c.scalar(t, 0)});
  // scaledtanh (the names are checked by Unrolled::functions)
  return c.add(OpKind::kMul,
               {c.add(OpKind::kTanh, {c.add(OpKind::kMul, {x, c.scalar(t, f.beta)})}), c.scalar(t, f.alpha)});
}

// Row d of a [dirs, ...] operand, without its leading axis.
OperandId direction_row(const NodeCtx& c, OperandId v, uint32_t d) {
  Shape s = c.desc_of(v).shape;
  std::vector<uint32_t> starts(s.size(), 0), sizes = s;
  starts[0] = d;
  sizes[0] = 1;
  s.erase(s.begin());
  return c.reshape(c.add(OpKind::kSlice, {v}, SliceAttrs{starts, sizes, std::nullopt}), s);
}

constexpr uint64_t kMaxUnrolledSteps = uint64_t{1} << 14;

// What every unrolled recurrence shares: X as [steps, batch, input] (batch-first transposed),
// direction by direction the input projection of every step as one gemm (X W_d^T + Wb_d + Rb_d,
// [steps, batch, gates * hidden]), and the outputs assembled in ONNX's layout.
struct Unrolled {
  const NodeCtx& c;
  bool batch_first = false;
  RecurrentDirection direction = RecurrentDirection::kForward;
  uint32_t dirs = 1, steps = 0, batch = 0, input = 0, hidden = 0, gates = 1;
  OperandId x2 = 0;  // [steps * batch, input]
  // sequence_lens as [batch, 1] int32 when it may leave a batch entry short of the steps; each
  // step's mask (step < length) made once, for the states and the output of every direction.
  std::optional<OperandId> lens;
  mutable std::vector<std::optional<OperandId>> masks;
  std::optional<double> clip;  // the bound of the activations' inputs, if the model clips

  Unrolled(const NodeCtx& ctx, uint32_t gate_count) : c(ctx), gates(gate_count) {
    batch_first = c.attr_i("layout", 0) != 0;
    direction = direction_of(c);
    dirs = direction == RecurrentDirection::kBoth ? 2 : 1;
    if (c.rank(0) != 3 || c.rank(1) != 3 || c.rank(2) != 3) c.invalid("X, W and R must be 3-D");
    OperandId x = c.operand(0);
    if (batch_first) x = c.transpose(x, {1, 0, 2});  // [batch, steps, input] -> [steps, batch, input]
    const Shape xs = c.desc_of(x).shape;
    steps = xs[0], batch = xs[1], input = xs[2];
    // Each step is a dozen operations: a bound on the graph an input's declared length can make.
    if (uint64_t(steps) * dirs > kMaxUnrolledSteps)
      c.unsupported(std::to_string(steps) + " steps to unroll (the importer unrolls up to " +
                    std::to_string(kMaxUnrolledSteps) + " steps times directions)");
    if (short_sequences(c, steps)) {
      if (c.desc(4).shape != Shape{batch}) c.invalid("sequence_lens must be [batch]");
      OperandId l = c.operand(4);
      if (c.type(4) != DataType::kInt32) l = c.cast(l, DataType::kInt32);
      lens = c.reshape(l, {batch, 1});
      masks.resize(steps);
    }
    if (c.has_attr("clip")) clip = c.attr_f("clip", 0);
    hidden = c.desc(2).shape[2];
    if (c.attr_i("hidden_size", hidden) != int64_t(hidden)) c.invalid("hidden_size does not match R");
    const uint32_t g = gates * hidden;
    if (c.desc(1).shape != Shape{dirs, g, input} || c.desc(2).shape != Shape{dirs, g, hidden})
      c.invalid("W must be [" + std::to_string(dirs) + ", " + std::to_string(gates) + " * hidden, input] and R [" +
                std::to_string(dirs) + ", " + std::to_string(gates) + " * hidden, hidden]");
    if (c.has_input(3) && c.desc(3).shape != Shape{dirs, 2 * g})
      c.invalid("B must be [directions, " + std::to_string(2 * gates) + " * hidden]");
    x2 = c.reshape(x, {steps * batch, input});
  }
  bool backward(uint32_t d) const { return direction == RecurrentDirection::kBackward || d == 1; }
  OperandId clipped(OperandId v) const { return clip ? c.add(OpKind::kClamp, {v}, ClampAttrs{-*clip, *clip}) : v; }
  // The model's activations, `per_direction` for each direction (`defaults` when it names none),
  // with their alpha and beta. activation_alpha and activation_beta are taken in order by the
  // activations that have such a parameter, as ONNX Runtime takes them; one not given is the
  // ONNX operator's default (LeakyRelu 0.01, ThresholdedRelu 1, HardSigmoid 0.2 and 0.5, Elu 1,
  // Affine 1 and 0). ScaledTanh, whose operator ONNX has removed, needs both.
  std::vector<RecurrentFn> functions(size_t per_direction, const std::vector<std::string>& defaults) const {
    std::vector<std::string> names = c.attr_strings("activations");
    if (names.empty())
      for (uint32_t d = 0; d < dirs; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
    if (names.size() != per_direction * dirs)
      c.invalid("activations must name " + std::to_string(per_direction) + " activation" +
                (per_direction == 1 ? "" : "s") + " per direction");
    const std::vector<float> alphas = c.attr_floats("activation_alpha"), betas = c.attr_floats("activation_beta");
    size_t next_alpha = 0, next_beta = 0;
    auto take = [&](const std::vector<float>& from, size_t& next, std::optional<double> fallback,
                    const std::string& what) -> double {
      if (next < from.size()) return from[next++];
      if (!fallback) c.invalid(what + " for every activation that takes one (ScaledTanh has no default)");
      return *fallback;
    };
    std::vector<RecurrentFn> fns;
    for (const std::string& name : names) {
      RecurrentFn f{lowercase(name)};
      const std::string& n = f.name;
      if (n == "leakyrelu" || n == "thresholdedrelu" || n == "elu") {
        f.alpha = take(alphas, next_alpha, n == "leakyrelu" ? 0.01 : 1.0, "activation_alpha");
      } else if (n == "hardsigmoid" || n == "affine" || n == "scaledtanh") {
        const bool scaled = n == "scaledtanh";
        f.alpha = take(alphas, next_alpha, scaled ? std::nullopt : std::optional<double>(n == "affine" ? 1.0 : 0.2),
                       "activation_alpha");
        f.beta = take(betas, next_beta, scaled ? std::nullopt : std::optional<double>(n == "affine" ? 0.0 : 0.5),
                      "activation_beta");
      } else if (n != "relu" && n != "tanh" && n != "sigmoid" && n != "softsign" && n != "softplus") {
        c.invalid("unknown activation \"" + name + "\"");
      }
      fns.push_back(f);
    }
    if (next_alpha < alphas.size() || next_beta < betas.size())
      c.invalid("activation_alpha or activation_beta has more values than the activations take");
    return fns;
  }
  // A state [batch, hidden] after step `step`: `computed` for the batch entries whose sequence
  // reaches the step, `previous` (zero when there is none yet) for the others. A reverse
  // direction therefore starts each entry at its own last step, as ONNX Runtime does.
  OperandId state(uint32_t step, OperandId computed, const std::optional<OperandId>& previous) const {
    if (!lens) return computed;
    if (!masks[step]) masks[step] = c.add(OpKind::kLesser, {c.scalar(DataType::kInt32, step), *lens});
    return c.add(OpKind::kWhere, {*masks[step], computed, previous ? *previous : zero(computed)});
  }
  // Y at step `step`: the computed state, zero past the batch entry's length.
  OperandId output(uint32_t step, OperandId computed) const { return state(step, computed, std::nullopt); }
  // Y_h or Y_c: the state after the entry's last step; zero for an entry of length 0, as ONNX
  // Runtime gives (ONNX leaves it unsaid).
  OperandId last(OperandId final_state) const {
    if (!lens) return final_state;
    const OperandId some = c.add(OpKind::kGreater, {*lens, c.scalar(DataType::kInt32, 0)});
    return c.add(OpKind::kWhere, {some, final_state, zero(final_state)});
  }
  OperandId zero(OperandId like) const { return c.scalar(c.desc_of(like).data_type, 0); }
  // Initial state input i as [dirs, batch, hidden], if given.
  std::optional<OperandId> initial(size_t i, const std::string& what) const {
    if (!c.has_input(i)) return std::nullopt;
    OperandId v = c.operand(i);
    if (batch_first) v = c.transpose(v, {1, 0, 2});
    if (c.desc_of(v).shape != Shape{dirs, batch, hidden}) c.invalid(what + " must be [directions, batch, hidden]");
    return v;
  }
  // X W_d^T + Wb_d + Rb_d for every step: [steps, batch, gates * hidden]. Without
  // `last_recurrent_bias` the last gate's part of Rb_d is left out (GRU's linear_before_reset adds
  // it inside the gate: recurrent_bias).
  OperandId projected(uint32_t d, bool last_recurrent_bias = true) const {
    GemmAttrs in;
    in.b_transpose = true;
    if (c.has_input(3)) {
      auto parts = c.add_multi(OpKind::kSplit, {direction_row(c, c.operand(3), d)}, SplitAttrs{uint32_t{2}, 0});
      OperandId rb = parts[1];
      if (!last_recurrent_bias) {
        const uint32_t kept = (gates - 1) * hidden;
        rb = c.add(OpKind::kSlice, {rb}, SliceAttrs{{0}, {kept}, std::nullopt});
        rb = c.add(OpKind::kPad, {rb}, PadAttrs{{0}, {hidden}, PaddingMode::kConstant, 0.0});
      }
      in.c = OperandRef{c.add(OpKind::kAdd, {parts[0], rb})};
    }
    return c.reshape(c.add(OpKind::kGemm, {x2, direction_row(c, c.operand(1), d)}, in), {steps, batch, gates * hidden});
  }
  // Gate `gate`'s part of Rb_d ([hidden]), if B is given.
  std::optional<OperandId> recurrent_bias(uint32_t d, uint32_t gate) const {
    if (!c.has_input(3)) return std::nullopt;
    return c.add(OpKind::kSlice, {direction_row(c, c.operand(3), d)},
                 SliceAttrs{{(gates + gate) * hidden}, {hidden}, std::nullopt});
  }
  // Step `step` of a projection, plus H R^T when there is a state: [batch, gates * hidden].
  OperandId pre(OperandId projection, uint32_t step, std::optional<OperandId> h, OperandId r) const {
    OperandId p = c.reshape(
        c.add(OpKind::kSlice, {projection}, SliceAttrs{{step, 0, 0}, {1, batch, gates * hidden}, std::nullopt}),
        {batch, gates * hidden});
    if (!h) return p;
    GemmAttrs rec;
    rec.b_transpose = true;
    rec.c = OperandRef{p};
    return c.add(OpKind::kGemm, {*h, r}, rec);
  }
  // Sets output `i` to the per-direction [batch, hidden] final states (`last` of each),
  // concatenated ([dirs, batch, hidden]).
  void set_state(size_t i, const std::vector<OperandId>& per_direction) const {
    if (!c.wants_output(i)) return;
    std::vector<OperandId> rows;
    for (OperandId v : per_direction) rows.push_back(c.reshape(last(v), {1, batch, hidden}));
    OperandId v = dirs == 1 ? rows[0] : c.add(OpKind::kConcat, rows, ConcatAttrs{0});
    c.set_out(i, batch_first ? c.transpose(v, {1, 0, 2}) : v);
  }
  // Sets Y from each direction's [batch, hidden] states by step (`output` of each).
  void set_sequence(const std::vector<std::vector<OperandId>>& outs) const {
    if (!c.wants_output(0)) return;
    std::vector<OperandId> ys;
    for (const auto& per_step : outs) {
      std::vector<OperandId> o;
      for (uint32_t step = 0; step < steps; ++step)
        o.push_back(c.reshape(output(step, per_step[step]), {1, 1, batch, hidden}));
      ys.push_back(steps == 1 ? o[0] : c.add(OpKind::kConcat, o, ConcatAttrs{0}));
    }
    OperandId y = dirs == 1 ? ys[0] : c.add(OpKind::kConcat, ys, ConcatAttrs{1});  // [steps, dirs, batch, hidden]
    c.set_out(0, batch_first ? c.transpose(y, {2, 0, 1, 3}) : y);
  }
};

// An LSTM that WebNN's lstm does not compute is unrolled: a nonzero output-gate peephole (ONNX's
// output gate looks at the new cell state C_t, WebNN's at the previous one), a peephole known only
// at run time, `clip` or `input_forget`. Gates i, o, f, c (ONNX's order), per step:
//   i = f(clip(Xi + H Ri^T + Pi ⊙ C)), f = f(clip(Xf + H Rf^T + Pf ⊙ C)) (1 − i with input_forget),
//   C' = f ⊙ C + i ⊙ g(clip(Xc + H Rc^T)), o = f(clip(Xo + H Ro^T + Po ⊙ C')), H' = o ⊙ h(C').
void lower_lstm_unrolled(const NodeCtx& c) {
  const Unrolled u(c, 4);
  const std::vector<RecurrentFn> acts = u.functions(3, {"Sigmoid", "Tanh", "Tanh"});
  const bool input_forget = c.attr_i("input_forget", 0) != 0;
  if (c.has_input(7) && c.desc(7).shape != Shape{u.dirs, 3 * u.hidden}) c.invalid("P must be [directions, 3 * hidden]");
  const std::optional<OperandId> h0 = u.initial(5, "initial_h"), c0 = u.initial(6, "initial_c");
  const uint32_t hid = u.hidden;
  auto gate = [&](OperandId v, uint32_t k) {
    return c.add(OpKind::kSlice, {v}, SliceAttrs{{0, k * hid}, {u.batch, hid}, std::nullopt});
  };
  std::vector<std::vector<OperandId>> outs(u.dirs, std::vector<OperandId>(u.steps));
  std::vector<OperandId> hs(u.dirs), cs(u.dirs);
  for (uint32_t d = 0; d < u.dirs; ++d) {
    const RecurrentFn &fa = acts[3 * d], &ga = acts[3 * d + 1], &ha = acts[3 * d + 2];
    const OperandId projection = u.projected(d), r = direction_row(c, c.operand(2), d);
    std::optional<OperandId> peep[3];  // i, o, f: [hidden]
    if (c.has_input(7)) {
      OperandId p = direction_row(c, c.operand(7), d);
      for (uint32_t k = 0; k < 3; ++k) peep[k] = c.add(OpKind::kSlice, {p}, SliceAttrs{{k * hid}, {hid}, std::nullopt});
    }
    std::optional<OperandId> h, cell;
    if (h0) h = direction_row(c, *h0, d);
    if (c0) cell = direction_row(c, *c0, d);
    auto with_peephole = [&](OperandId v, const std::optional<OperandId>& p, const std::optional<OperandId>& state) {
      return p && state ? c.add(OpKind::kAdd, {v, c.add(OpKind::kMul, {*p, *state})}) : v;
    };
    for (uint32_t k = 0; k < u.steps; ++k) {
      const uint32_t step = u.backward(d) ? u.steps - 1 - k : k;
      const OperandId pre = u.pre(projection, step, h, r);
      const OperandId i = apply(c, fa, u.clipped(with_peephole(gate(pre, 0), peep[0], cell)));
      const OperandId f = input_forget ? c.add(OpKind::kSub, {c.scalar(c.type(0), 1), i})
                                       : apply(c, fa, u.clipped(with_peephole(gate(pre, 2), peep[2], cell)));
      const OperandId candidate = apply(c, ga, u.clipped(gate(pre, 3)));
      OperandId next = c.add(OpKind::kMul, {i, candidate});
      if (cell) next = c.add(OpKind::kAdd, {c.add(OpKind::kMul, {f, *cell}), next});
      const OperandId o = apply(c, fa, u.clipped(with_peephole(gate(pre, 1), peep[1], next)));
      const OperandId h_next = c.add(OpKind::kMul, {o, apply(c, ha, next)});
      outs[d][step] = h_next;
      cell = u.state(step, next, cell);
      h = u.state(step, h_next, h);
    }
    hs[d] = *h;
    cs[d] = *cell;
  }
  u.set_sequence(outs);
  u.set_state(1, hs);
  u.set_state(2, cs);
}

// A GRU that WebNN's gru does not compute is unrolled: `clip`, or sequence_lens shorter than the
// steps. Gates z, r, h (ONNX's order), per step, with f and g its activations:
//   z = f(clip(Xz + H Rz^T)), r = f(clip(Xr + H Rr^T)) (the projections hold both biases),
//   n = g(clip(Xh + (r ⊙ H) Rh^T)), or with linear_before_reset n = g(clip(Xh + r ⊙ (H Rh^T + Rbh)))
//   (Xh holding Wbh only), and H' = (1 − z) ⊙ n + z ⊙ H, computed as n + z ⊙ (H − n).
void lower_gru_unrolled(const NodeCtx& c) {
  const Unrolled u(c, 3);
  const std::vector<RecurrentFn> acts = u.functions(2, {"Sigmoid", "Tanh"});
  const bool linear_before_reset = c.attr_i("linear_before_reset", 0) != 0;
  const std::optional<OperandId> h0 = u.initial(5, "initial_h");
  const uint32_t hid = u.hidden;
  auto columns = [&](OperandId v, uint32_t first, uint32_t count) {
    return c.add(OpKind::kSlice, {v}, SliceAttrs{{0, first * hid}, {u.batch, count * hid}, std::nullopt});
  };
  auto rows = [&](OperandId v, uint32_t first, uint32_t count) {
    return c.add(OpKind::kSlice, {v}, SliceAttrs{{first * hid, 0}, {count * hid, hid}, std::nullopt});
  };
  auto times_rt = [&](OperandId a, OperandId r, std::optional<OperandId> plus) {
    GemmAttrs g;
    g.b_transpose = true;
    if (plus) g.c = OperandRef{*plus};
    return c.add(OpKind::kGemm, {a, r}, g);
  };
  std::vector<std::vector<OperandId>> outs(u.dirs, std::vector<OperandId>(u.steps));
  std::vector<OperandId> hs(u.dirs);
  for (uint32_t d = 0; d < u.dirs; ++d) {
    const RecurrentFn &fa = acts[2 * d], &ga = acts[2 * d + 1];
    const OperandId projection = u.projected(d, !linear_before_reset);
    const OperandId r = direction_row(c, c.operand(2), d);
    const OperandId r_zr = rows(r, 0, 2), r_h = rows(r, 2, 1);
    const std::optional<OperandId> rbh = linear_before_reset ? u.recurrent_bias(d, 2) : std::nullopt;
    std::optional<OperandId> h;
    if (h0) h = direction_row(c, *h0, d);
    for (uint32_t k = 0; k < u.steps; ++k) {
      const uint32_t step = u.backward(d) ? u.steps - 1 - k : k;
      const OperandId p =
          c.reshape(c.add(OpKind::kSlice, {projection}, SliceAttrs{{step, 0, 0}, {1, u.batch, 3 * hid}, std::nullopt}),
                    {u.batch, 3 * hid});
      OperandId zr = columns(p, 0, 2);
      if (h) zr = times_rt(*h, r_zr, zr);
      const OperandId z = apply(c, fa, u.clipped(columns(zr, 0, 1)));
      const OperandId reset = apply(c, fa, u.clipped(columns(zr, 1, 1)));
      OperandId n = columns(p, 2, 1);
      if (!linear_before_reset) {
        if (h) n = times_rt(c.add(OpKind::kMul, {reset, *h}), r_h, n);
      } else {
        std::optional<OperandId> hr = rbh;  // H Rh^T + Rbh
        if (h) hr = times_rt(*h, r_h, rbh);
        if (hr) n = c.add(OpKind::kAdd, {n, c.add(OpKind::kMul, {reset, *hr})});
      }
      n = apply(c, ga, u.clipped(n));
      const OperandId h_next = h ? c.add(OpKind::kAdd, {n, c.add(OpKind::kMul, {z, c.add(OpKind::kSub, {*h, n})})})
                                 : c.add(OpKind::kSub, {n, c.add(OpKind::kMul, {z, n})});
      outs[d][step] = h_next;
      h = u.state(step, h_next, h);
    }
    hs[d] = *h;
  }
  u.set_sequence(outs);
  u.set_state(1, hs);
}

void lower_lstm(const NodeCtx& c) {
  const std::optional<DefaultedActivations> activations = webnn_activations(c, 3, {"Sigmoid", "Tanh", "Tanh"});
  if (c.has_attr("clip") || c.attr_i("input_forget", 0) != 0 || short_sequences(c, steps_of(c)) || !activations)
    return lower_lstm_unrolled(c);
  if (c.has_input(7)) {
    // WebNN's lstm takes P when its output-gate part is known to be zero (lstm and ONNX then
    // agree); otherwise the recurrence is unrolled.
    if (!c.is_const(7)) return lower_lstm_unrolled(c);
    const std::vector<double> p = c.const_doubles(7, "P (peephole weights)");
    const size_t h = c.desc(2).shape.at(2);
    if (h == 0 || p.size() % (3 * h) != 0) c.invalid("P must be [directions, 3 * hidden]");
    for (size_t d = 0; d < p.size() / (3 * h); ++d)
      for (size_t k = h; k < 2 * h; ++k)
        if (p[d * 3 * h + k] != 0) return lower_lstm_unrolled(c);
  }
  OperandId x = recurrent_in(c, 0);
  const Shape xs = c.desc_of(x).shape;
  LstmAttrs a;
  a.steps = xs.at(0);
  a.hidden_size = uint32_t(c.attr_i("hidden_size", 0));
  if (a.hidden_size == 0) a.hidden_size = c.desc(2).shape.at(2);
  a.direction = direction_of(c);
  a.layout = LstmWeightLayout::kIofg;
  a.return_sequence = c.wants_output(0);
  a.activations = *activations;
  if (c.has_input(3)) {
    auto [bias, rbias] = split_bias(c, 3);
    a.bias = OperandRef{bias};
    a.recurrent_bias = OperandRef{rbias};
  }
  if (c.has_input(5)) a.initial_hidden_state = OperandRef{recurrent_in(c, 5)};
  if (c.has_input(6)) a.initial_cell_state = OperandRef{recurrent_in(c, 6)};
  if (c.has_input(7)) a.peephole_weight = OperandRef{c.operand(7)};
  auto outs = c.add_multi(OpKind::kLstm, {x, c.operand(1), c.operand(2)}, a);
  if (c.wants_output(0)) set_recurrent_sequence(c, outs.at(2));
  set_recurrent_state(c, 1, outs.at(0));
  set_recurrent_state(c, 2, outs.at(1));
}

// RNN has no WebNN op: it is unrolled over its static steps (Unrolled): per step it adds
// gemm(H, R^T) to the step's input projection, clamps when `clip` is given and applies the
// activation: H_t = f(clip(X_t W^T + H_{t-1} R^T + Wb + Rb)).
void lower_rnn(const NodeCtx& c) {
  const Unrolled u(c, 1);
  const std::vector<RecurrentFn> acts = u.functions(1, {"Tanh"});
  const std::optional<OperandId> h0 = u.initial(5, "initial_h");
  std::vector<std::vector<OperandId>> outs(u.dirs, std::vector<OperandId>(u.steps));
  std::vector<OperandId> hs(u.dirs);
  for (uint32_t d = 0; d < u.dirs; ++d) {
    const OperandId projection = u.projected(d), r = direction_row(c, c.operand(2), d);
    std::optional<OperandId> h;
    if (h0) h = direction_row(c, *h0, d);
    for (uint32_t k = 0; k < u.steps; ++k) {
      const uint32_t step = u.backward(d) ? u.steps - 1 - k : k;
      const OperandId h_next = apply(c, acts[d], u.clipped(u.pre(projection, step, h, r)));
      outs[d][step] = h_next;
      h = u.state(step, h_next, h);
    }
    hs[d] = *h;
  }
  u.set_sequence(outs);
  u.set_state(1, hs);
}

}  // namespace

Lowerings recurrent_lowerings() {
  static constexpr NamedLowering kLowerings[] = {
      {"GRU", lower_gru},
      {"LSTM", lower_lstm},
      {"RNN", lower_rnn},
  };
  return kLowerings;
}

}  // namespace webnn::formats::onnx_import
