#include "value_model.h"

#include <stdexcept>

#include "error.h"
#include "isa.h"

namespace tb::td {

const FeatureSet& afterstate_set(const std::string& name) {
  const FeatureSet* set = find_feature_set(name);
  if (!set) throw InputError("td: unknown feature set '" + name + "'");
  for (Feature f : set->features)
    if (is_move_feature(f))
      throw InputError("td: feature set '" + name + "' has the move feature '" +
                                  std::string(feature_name(f)) +
                                  "', not an afterstate feature (TD learns board features: td44, bertsekas)");
  return *set;
}

LinearModel::LinearModel(const std::string& set_name, Geometry g, FeatureKernel kernel)
    : set_(&afterstate_set(set_name)), geometry_(g), kernel_(kernel), lanes_(kernel_lanes(kernel)) {
  if (const std::string why = check_geometry(g); !why.empty()) throw InputError("td: " + why);
  for (Feature f : set_->features) {
    const FeatureSource s = feature_source(f);
    groups_ |= s.group;
    for (int i = 0; i < feature_width(f, g.width); ++i) rows_.push_back(s.slot + i);
  }
}

void LinearModel::prepare(CandidateBlock& block) const {
  compute_features(block, kernel_, lanes_, groups_, geometry_);
}

void LinearModel::active(const CandidateBlock& block, int k, Active& out) const {
  const std::size_t n = rows_.size();
  out.index.resize(n);
  out.value.resize(n);
  out.norm2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = block.value(rows_[i], k);
    out.index[i] = static_cast<std::uint32_t>(i);
    out.value[i] = v;
    out.norm2 += v * v;
  }
}

void LinearModel::values(const CandidateBlock& block, const std::vector<double>& w, double* out) const {
  const int n = block.count;
  for (int k = 0; k < n; ++k) out[k] = 0.0;
  for (std::size_t i = 0; i < rows_.size(); ++i) {  // i-major: per k the order of Active::dot
    const std::int32_t* v = &block.values[static_cast<std::size_t>(rows_[i]) * kBlockCapacity];
    const double wi = w[i];
    for (int k = 0; k < n; ++k) out[k] += wi * v[k];
  }
}

void LinearModel::of_board(const Board& board, Active& out) const {
  // One board in a block of the kernel's width (lanes_ copies), on the stack.
  constexpr int kStride = kLaneMultiple;
  alignas(64) Word cols[kMaxWidth * kStride];
  alignas(64) std::int32_t slots[VALUE_SLOT_NB * kStride];
  for (int c = 0; c < geometry_.width; ++c) std::fill_n(&cols[c * kStride], lanes_, board.cols[c]);
  const BoardBlock one{cols, kStride, lanes_, geometry_.width, geometry_.height};
  if (groups_) kernel_(one, groups_, slots);
  slots[MOVE_CONSTANT * kStride] = 1;
  const std::size_t n = rows_.size();
  out.index.resize(n);
  out.value.resize(n);
  out.norm2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = slots[rows_[i] * kStride];
    out.index[i] = static_cast<std::uint32_t>(i);
    out.value[i] = v;
    out.norm2 += v * v;
  }
}

Policy LinearModel::policy(const std::vector<double>& w, const std::string& name) const {
  Policy p;
  p.name = name;
  p.features = set_;
  p.weights = w;
  p.reward_lines = true;
  return p;
}

void NTupleModel::of_board(const Board& board, Active& out) const {
  const std::size_t m = static_cast<std::size_t>(network_.tuple_count());
  out.index.resize(m);
  out.value.assign(m, 1.0);
  out.norm2 = static_cast<double>(m);
  network_.indices(board, out.index.data());
}

void NTupleModel::active(const CandidateBlock& block, int k, Active& out) const {
  of_board(block.board(k), out);
}

NTupleModel::NTupleModel(Geometry g, FeatureKernel kernel) : network_(g), kernel_(isa_record(kernel).ntuple) {}

// Terminal candidates are skipped: 0, which callers ignore.  Summed from 0 in tuple order with
// weight x 1, so the same as Active::dot.
void NTupleModel::values(const CandidateBlock& block, const std::vector<double>& w, double* out) const {
  network_.block_values(kernel_, block.cols.data(), kBlockCapacity, block.count, block.terminal.data(), w.data(), out, nullptr);
}

void NTupleModel::values(const CandidateBlock& block, const std::vector<double>& w, double* out,
                         RatedBlock& rated) const {
  rated.index.resize(static_cast<std::size_t>(network_.tuple_count()) * kBlockCapacity);
  network_.block_values(kernel_, block.cols.data(), kBlockCapacity, block.count, block.terminal.data(), w.data(), out,
                        rated.index.data());
}

void NTupleModel::active_rated(const CandidateBlock&, int k, const RatedBlock& rated, Active& out) const {
  const std::size_t m = static_cast<std::size_t>(network_.tuple_count());
  out.index.resize(m);
  out.value.assign(m, 1.0);
  out.norm2 = static_cast<double>(m);
  for (std::size_t t = 0; t < m; ++t) out.index[t] = rated.index[t * kBlockCapacity + static_cast<std::size_t>(k)];
}

Policy NTupleModel::policy(const std::vector<double>& w, const std::string& name) const {
  auto net = std::make_shared<NTupleNetwork>(network_.geometry());
  net->weights() = w;
  Policy p;
  p.name = name;
  p.network = std::move(net);
  p.reward_lines = true;
  return p;
}

std::string NTupleModel::name() const { return "ntuple-" + std::string(kNTupleLayout); }

void ValueEvaluator::score(CandidateBlock& block) const {
  model_.prepare(block);
  model_.values(block, *w_, block.score.data(), rated_);
  for (int k = 0; k < block.count; ++k)
    block.score[k] = block.value(MOVE_LINES, k) + (block.terminal[k] ? 0.0 : block.score[k]);
}

void ValueEvaluator::chosen(const CandidateBlock& block, int k) const {
  if (!block.terminal[k]) model_.active_rated(block, k, rated_, *afterstate_);
}

std::unique_ptr<ValueModel> make_value_model(const std::string& model, Geometry g, FeatureKernel kernel) {
  if (model == "ntuple") {
    if (const std::string why = check_geometry(g); !why.empty()) throw InputError("td: " + why);
    return std::make_unique<NTupleModel>(g, kernel);
  }
  return std::make_unique<LinearModel>(model, g, kernel);
}

}  // namespace tb::td
