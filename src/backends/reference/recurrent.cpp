// Recurrent operators: gru, gruCell, lstm, lstmCell. spec: #api-mlgraphbuilder-gru,
// #api-mlgraphbuilder-grucell, #api-mlgraphbuilder-lstm, #api-mlgraphbuilder-lstmcell
//
// The kernels compute the spec's emulation: a cell is the matmul/add/activation decomposition of
// its emulation, and gru/lstm run one cell per time step and direction exactly as the gru/lstm
// emulation chains gruCell/lstmCell. Within a cell every value is computed in double and each cell
// output (hidden state, cell state) is rounded once to the operand type; gru/lstm round their
// states at every step, as the chain of cell operations of the emulation does, so gru/lstm equal
// the same chain of gruCell/lstmCell operations bit for bit, in float16 as in float32.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/reference/kernel_util.hpp"
#include "backends/reference/kernels.hpp"
#include "ops/number_cast.hpp"

namespace webnn::reference {

namespace {

// Rounds a double once to T (float32 or float16) and widens it back.
template <class T>
double round_to(double v) {
  return static_cast<double>(load(ops::cast_number<T>(Number(v))));
}
template <class T>
double widen(T v) {
  return static_cast<double>(load(v));
}

double activate(RecurrentActivation f, double x) {
  switch (f) {
    case RecurrentActivation::kRelu:
      return x < 0 ? 0.0 : x;  // NaN passes through, as relu propagates it
    case RecurrentActivation::kSigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case RecurrentActivation::kTanh:
      return std::tanh(x);
  }
  return x;
}

// The operands of one direction (or of a cell op): weights [gates * H, inputSize], recurrent
// weights [gates * H, H], biases [gates * H] and peephole weights [3 * H] (lstm), the options null
// when absent.
template <class T>
struct CellWeights {
  const T* weight = nullptr;
  const T* recurrent_weight = nullptr;
  const T* bias = nullptr;
  const T* recurrent_bias = nullptr;
  const T* peephole = nullptr;
};

struct CellDims {
  size_t batch = 0, input_size = 0, hidden = 0;
};

// sum_k row[k] * v[k]: one row of a weight matrix times a vector, i.e. one element of
// matmul(v, transpose(weight)); `v` is an operand (T) or a state held in double.
template <class T, class V>
double dot(const T* row, const V* v, size_t n) {
  double acc = 0;
  for (size_t k = 0; k < n; ++k) acc += widen(row[k]) * widen(v[k]);
  return acc;
}

// Gate `slot`'s pre-activation for one batch row (x, h) and unit j, without the peephole term:
// (bias + recurrentBias) + (x W^T + h R^T), as the emulations add them.
template <class T>
double gate_sum(const CellWeights<T>& w, const CellDims& d, size_t slot, const T* x, const double* h, size_t j) {
  const size_t row = slot * d.hidden + j;
  const double biases = (w.bias ? widen(w.bias[row]) : 0.0) + (w.recurrent_bias ? widen(w.recurrent_bias[row]) : 0.0);
  return biases +
         (dot(w.weight + row * d.input_size, x, d.input_size) + dot(w.recurrent_weight + row * d.hidden, h, d.hidden));
}

// Where each gate's rows start, in units of hiddenSize (spec: MLGruWeightLayout).
struct GruSlots {
  size_t z, r, n;
};
GruSlots gru_slots(GruWeightLayout layout) {
  return layout == GruWeightLayout::kZrn ? GruSlots{0, 1, 2} : GruSlots{1, 0, 2};
}

struct GruConfig {
  CellDims dims;
  GruSlots slots;
  bool reset_after = true;
  RecurrentActivation gate_activation = RecurrentActivation::kSigmoid;  // z and r
  RecurrentActivation new_activation = RecurrentActivation::kTanh;      // n
};

// One gruCell step: x [batch, inputSize], h [batch, H] -> h_out [batch, H] rounded to T.
// z, r and rh (r * h) are scratch of H values. spec: the gruCell emulation, any layout and resetAfter.
template <class T>
void gru_step(const GruConfig& c, const CellWeights<T>& w, const T* x, const double* h, double* h_out,
              std::vector<double>& z, std::vector<double>& r, std::vector<double>& rh) {
  const CellDims& d = c.dims;
  const size_t H = d.hidden;
  for (size_t b = 0; b < d.batch; ++b) {
    const T* xb = x + b * d.input_size;
    const double* hb = h + b * H;
    for (size_t j = 0; j < H; ++j) {
      z[j] = activate(c.gate_activation, gate_sum(w, d, c.slots.z, xb, hb, j));
      r[j] = activate(c.gate_activation, gate_sum(w, d, c.slots.r, xb, hb, j));
    }
    for (size_t j = 0; j < H; ++j) rh[j] = r[j] * hb[j];
    for (size_t j = 0; j < H; ++j) {
      const size_t row = c.slots.n * H + j;
      const double bias = w.bias ? widen(w.bias[row]) : 0.0;
      const double recurrent_bias = w.recurrent_bias ? widen(w.recurrent_bias[row]) : 0.0;
      const double x_term = dot(w.weight + row * d.input_size, xb, d.input_size);
      double pre = 0;
      if (c.reset_after) {
        // n = act(bias + (x Wn^T + r * (recurrentBias + h Rn^T)))
        pre = bias + (x_term + r[j] * (recurrent_bias + dot(w.recurrent_weight + row * H, hb, H)));
      } else {
        // n = act((bias + recurrentBias) + (x Wn^T + (r * h) Rn^T))
        pre = (bias + recurrent_bias) + (x_term + dot(w.recurrent_weight + row * H, rh.data(), H));
      }
      const double n = activate(c.new_activation, pre);
      h_out[b * H + j] = round_to<T>(z[j] * hb[j] + n * (1.0 - z[j]));
    }
  }
}

// Where each gate's rows start, in units of hiddenSize (spec: MLLstmWeightLayout). Peephole
// weights are always packed [i, o, f].
struct LstmSlots {
  size_t i, o, f, g;
};
LstmSlots lstm_slots(LstmWeightLayout layout) {
  return layout == LstmWeightLayout::kIofg ? LstmSlots{0, 1, 2, 3} : LstmSlots{0, 3, 1, 2};
}

struct LstmConfig {
  CellDims dims;
  LstmSlots slots;
  RecurrentActivation gate_activation = RecurrentActivation::kSigmoid;  // i, f, o
  RecurrentActivation cell_activation = RecurrentActivation::kTanh;     // g
  RecurrentActivation output_activation = RecurrentActivation::kTanh;   // applied to the new cell state
};

// One lstmCell step: x, h, c -> h_out, c_out, both rounded to T. spec: the lstmCell emulation;
// every peephole term, the output gate's included, multiplies the incoming cell state.
template <class T>
void lstm_step(const LstmConfig& cfg, const CellWeights<T>& w, const T* x, const double* h, const double* c,
               double* h_out, double* c_out) {
  const CellDims& d = cfg.dims;
  const size_t H = d.hidden;
  auto peephole = [&](size_t k, size_t j) { return w.peephole ? widen(w.peephole[k * H + j]) : 0.0; };
  for (size_t b = 0; b < d.batch; ++b) {
    const T* xb = x + b * d.input_size;
    const double* hb = h + b * H;
    const double* cb = c + b * H;
    for (size_t j = 0; j < H; ++j) {
      const double i = activate(cfg.gate_activation, cb[j] * peephole(0, j) + gate_sum(w, d, cfg.slots.i, xb, hb, j));
      const double f = activate(cfg.gate_activation, cb[j] * peephole(2, j) + gate_sum(w, d, cfg.slots.f, xb, hb, j));
      const double g = activate(cfg.cell_activation, gate_sum(w, d, cfg.slots.g, xb, hb, j));
      const double o = activate(cfg.gate_activation, cb[j] * peephole(1, j) + gate_sum(w, d, cfg.slots.o, xb, hb, j));
      const double ct = f * cb[j] + i * g;
      // Each output is rounded once from the exact values: ht uses ct before its rounding.
      h_out[b * H + j] = round_to<T>(o * activate(cfg.output_activation, ct));
      c_out[b * H + j] = round_to<T>(ct);
    }
  }
}

template <class T>
const T* optional_operand(Values v, const std::optional<OperandRef>& ref) {
  return ref ? typed<T>(v[ref->id]) : nullptr;
}

template <class T>
void widen_into(const T* src, size_t n, double* dst) {
  for (size_t i = 0; i < n; ++i) dst[i] = widen(src[i]);
}
template <class T>
void store_from(const double* src, size_t n, T* dst) {
  // The values are already rounded to T: the conversion is exact.
  for (size_t i = 0; i < n; ++i) dst[i] = store<T>(static_cast<Compute<T>>(src[i]));
}

// Everything gru and lstm share: shapes, directions, which time step each step reads.
struct SequenceDims {
  CellDims cell;
  size_t steps = 0, directions = 1, gates = 3;
  RecurrentDirection direction = RecurrentDirection::kForward;
  // spec: the emulations' `slice`: direction 1 of "both", and "backward", read the steps in reverse.
  size_t time_index(size_t dir, size_t step) const {
    return dir == 1 || direction == RecurrentDirection::kBackward ? steps - step - 1 : step;
  }
  size_t state_size() const { return cell.batch * cell.hidden; }
};

SequenceDims sequence_dims(const Graph& graph, const Operation& op, uint32_t hidden, RecurrentDirection direction,
                           size_t gates) {
  const Shape& in = graph.desc(op.inputs.at(0)).shape;
  SequenceDims s;
  s.steps = in.at(0);
  s.cell = {in.at(1), in.at(2), hidden};
  s.direction = direction;
  s.directions = direction == RecurrentDirection::kBoth ? 2 : 1;
  s.gates = gates;
  return s;
}

// The weights of direction `dir` of a gru/lstm (each option tensor has a leading numDirections
// dimension).
template <class T>
CellWeights<T> direction_weights(const SequenceDims& s, size_t dir, const T* weight, const T* recurrent_weight,
                                 const T* bias, const T* recurrent_bias, const T* peephole) {
  const size_t rows = s.gates * s.cell.hidden;
  CellWeights<T> w;
  w.weight = weight + dir * rows * s.cell.input_size;
  w.recurrent_weight = recurrent_weight + dir * rows * s.cell.hidden;
  w.bias = bias ? bias + dir * rows : nullptr;
  w.recurrent_bias = recurrent_bias ? recurrent_bias + dir * rows : nullptr;
  w.peephole = peephole ? peephole + dir * 3 * s.cell.hidden : nullptr;
  return w;
}

template <class T>
Kernel gru_kernel(const Graph& graph, const Operation& op) {
  const auto& a = std::get<GruAttrs>(op.attrs);
  const SequenceDims s = sequence_dims(graph, op, a.hidden_size, a.direction, 3);
  const auto& acts = *a.activations;
  const GruConfig cfg{s.cell, gru_slots(a.layout), a.reset_after, acts.at(0), acts.at(1)};
  const std::vector<OperandId> in = op.inputs, out = op.outputs;
  const GruAttrs attrs = a;
  const size_t n = s.state_size(), H = s.cell.hidden;
  return [=](Values v) {
    const T* input = typed<T>(v[in[0]]);
    const T* initial = optional_operand<T>(v, attrs.initial_hidden_state);
    T* output = typed<T>(v[out[0]]);
    T* sequence = attrs.return_sequence ? typed<T>(v[out[1]]) : nullptr;
    std::vector<double> h(n), next(n), z(H), r(H), rh(H);
    for (size_t dir = 0; dir < s.directions; ++dir) {
      const CellWeights<T> w =
          direction_weights<T>(s, dir, typed<T>(v[in[1]]), typed<T>(v[in[2]]), optional_operand<T>(v, attrs.bias),
                               optional_operand<T>(v, attrs.recurrent_bias), static_cast<const T*>(nullptr));
      if (initial) {
        widen_into(initial + dir * n, n, h.data());
      } else {
        std::fill(h.begin(), h.end(), 0.0);
      }
      for (size_t step = 0; step < s.steps; ++step) {
        const size_t t = s.time_index(dir, step);
        gru_step(cfg, w, input + t * s.cell.batch * s.cell.input_size, h.data(), next.data(), z, r, rh);
        h.swap(next);
        // outputSequence [steps, numDirections, batch, H]: the state computed from step t's input.
        if (sequence) store_from(h.data(), n, sequence + (t * s.directions + dir) * n);
      }
      store_from(h.data(), n, output + dir * n);
    }
  };
}

template <class T>
Kernel lstm_kernel(const Graph& graph, const Operation& op) {
  const auto& a = std::get<LstmAttrs>(op.attrs);
  const SequenceDims s = sequence_dims(graph, op, a.hidden_size, a.direction, 4);
  const auto& acts = *a.activations;
  const LstmConfig cfg{s.cell, lstm_slots(a.layout), acts.at(0), acts.at(1), acts.at(2)};
  const std::vector<OperandId> in = op.inputs, out = op.outputs;
  const LstmAttrs attrs = a;
  const size_t n = s.state_size();
  return [=](Values v) {
    const T* input = typed<T>(v[in[0]]);
    const T* initial_h = optional_operand<T>(v, attrs.initial_hidden_state);
    const T* initial_c = optional_operand<T>(v, attrs.initial_cell_state);
    T* output_h = typed<T>(v[out[0]]);
    T* output_c = typed<T>(v[out[1]]);
    T* sequence = attrs.return_sequence ? typed<T>(v[out[2]]) : nullptr;
    std::vector<double> h(n), c(n), next_h(n), next_c(n);
    for (size_t dir = 0; dir < s.directions; ++dir) {
      const CellWeights<T> w = direction_weights<T>(
          s, dir, typed<T>(v[in[1]]), typed<T>(v[in[2]]), optional_operand<T>(v, attrs.bias),
          optional_operand<T>(v, attrs.recurrent_bias), optional_operand<T>(v, attrs.peephole_weight));
      if (initial_h) {
        widen_into(initial_h + dir * n, n, h.data());
      } else {
        std::fill(h.begin(), h.end(), 0.0);
      }
      if (initial_c) {
        widen_into(initial_c + dir * n, n, c.data());
      } else {
        std::fill(c.begin(), c.end(), 0.0);
      }
      for (size_t step = 0; step < s.steps; ++step) {
        const size_t t = s.time_index(dir, step);
        lstm_step(cfg, w, input + t * s.cell.batch * s.cell.input_size, h.data(), c.data(), next_h.data(),
                  next_c.data());
        h.swap(next_h);
        c.swap(next_c);
        if (sequence) store_from(h.data(), n, sequence + (t * s.directions + dir) * n);
      }
      store_from(h.data(), n, output_h + dir * n);
      store_from(c.data(), n, output_c + dir * n);
    }
  };
}

template <class T>
Kernel gru_cell_kernel(const Graph& graph, const Operation& op) {
  const auto& a = std::get<GruCellAttrs>(op.attrs);
  const Shape& in_shape = graph.desc(op.inputs.at(0)).shape;
  const CellDims d{in_shape.at(0), in_shape.at(1), a.hidden_size};
  const auto& acts = *a.activations;
  const GruConfig cfg{d, gru_slots(a.layout), a.reset_after, acts.at(0), acts.at(1)};
  const std::vector<OperandId> in = op.inputs;
  const OperandId out = op.outputs.at(0);
  const GruCellAttrs attrs = a;
  const size_t n = d.batch * d.hidden;
  return [=](Values v) {
    CellWeights<T> w;
    w.weight = typed<T>(v[in[1]]);
    w.recurrent_weight = typed<T>(v[in[2]]);
    w.bias = optional_operand<T>(v, attrs.bias);
    w.recurrent_bias = optional_operand<T>(v, attrs.recurrent_bias);
    std::vector<double> h(n), next(n), z(d.hidden), r(d.hidden), rh(d.hidden);
    widen_into(typed<T>(v[in[3]]), n, h.data());
    gru_step(cfg, w, typed<T>(v[in[0]]), h.data(), next.data(), z, r, rh);
    store_from(next.data(), n, typed<T>(v[out]));
  };
}

template <class T>
Kernel lstm_cell_kernel(const Graph& graph, const Operation& op) {
  const auto& a = std::get<LstmCellAttrs>(op.attrs);
  const Shape& in_shape = graph.desc(op.inputs.at(0)).shape;
  const CellDims d{in_shape.at(0), in_shape.at(1), a.hidden_size};
  const auto& acts = *a.activations;
  const LstmConfig cfg{d, lstm_slots(a.layout), acts.at(0), acts.at(1), acts.at(2)};
  const std::vector<OperandId> in = op.inputs, out = op.outputs;
  const LstmCellAttrs attrs = a;
  const size_t n = d.batch * d.hidden;
  return [=](Values v) {
    CellWeights<T> w;
    w.weight = typed<T>(v[in[1]]);
    w.recurrent_weight = typed<T>(v[in[2]]);
    w.bias = optional_operand<T>(v, attrs.bias);
    w.recurrent_bias = optional_operand<T>(v, attrs.recurrent_bias);
    w.peephole = optional_operand<T>(v, attrs.peephole_weight);
    std::vector<double> h(n), c(n), next_h(n), next_c(n);
    widen_into(typed<T>(v[in[3]]), n, h.data());
    widen_into(typed<T>(v[in[4]]), n, c.data());
    lstm_step(cfg, w, typed<T>(v[in[0]]), h.data(), c.data(), next_h.data(), next_c.data());
    store_from(next_h.data(), n, typed<T>(v[out[0]]));
    store_from(next_c.data(), n, typed<T>(v[out[1]]));
  };
}

}  // namespace

Kernel make_recurrent_kernel(const Graph& graph, const Operation& op) {
  return make_float_kernel(graph, op, [&]<class T>() -> Kernel {
    switch (op.kind) {
      case OpKind::kGru:
        return gru_kernel<T>(graph, op);
      case OpKind::kGruCell:
        return gru_cell_kernel<T>(graph, op);
      case OpKind::kLstm:
        return lstm_kernel<T>(graph, op);
      case OpKind::kLstmCell:
        return lstm_cell_kernel<T>(graph, op);
      default:
        break;
    }
    throw_error(ErrorKind::kNotSupportedError, describe(op) + ": not a recurrent operator");
  });
}

}  // namespace webnn::reference
