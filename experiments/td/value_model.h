// What a TD learner learns: an afterstate value V(s') = sum_i w[index_i] * value_i over the
// active features of the afterstate s' (the board after a placement and its line clears).
//   LinearModel: a named feature set of board features (td44, bertsekas), read from the
//                feature-kernel slots of a CandidateBlock, so the learner sees exactly the
//                features the engine's evaluator sees.  Every weight is active.
//   NTupleModel: the n-tuple network of engine/policy/ntuple.h; one active weight per tuple, value 1.
// Either turns its weights into a Policy with `reward lines`, which `tetrisbench play`
// plays with the learner's rating r + V(s') (except that play rates a game-ending placement
// -infinity where the learner rates it r).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "evaluator.h"
#include "ntuple.h"
#include "policy.h"

namespace tb::td {

// A sparse feature vector.
struct Active {
  std::vector<std::uint32_t> index;  // (n) weight indices
  std::vector<double> value;         // (n) feature values
  double norm2 = 0;                  // sum of value^2

  double dot(const std::vector<double>& w) const {
    double v = 0;
    for (std::size_t i = 0; i < index.size(); ++i) v += w[index[i]] * value[i];
    return v;
  }
};

// What values() keeps about the block it rated for active_rated(), so that the chosen
// candidate's features are not computed twice.  One per searcher (ValueEvaluator owns it).
struct RatedBlock {
  std::vector<std::uint32_t> index;  // n-tuple: (tuple_count, kBlockCapacity) indices, tuple-major
};

class ValueModel {
 public:
  virtual ~ValueModel() = default;
  virtual std::size_t size() const = 0;                       // weights
  virtual void prepare(CandidateBlock& block) const = 0;      // once per materialized block
  // Features of candidate k, computed from the block (the reference).
  virtual void active(const CandidateBlock& block, int k, Active& out) const = 0;
  // V of every candidate (after prepare()); the same sums as Active::dot.  Terminal
  // candidates get some value that callers ignore.
  virtual void values(const CandidateBlock& block, const std::vector<double>& w, double* out) const = 0;
  // values(), keeping in `rated` what active_rated() reads.
  virtual void values(const CandidateBlock& block, const std::vector<double>& w, double* out,
                      RatedBlock& rated) const = 0;
  // active() of a non-terminal candidate of the block the last values(..., rated) call rated.
  virtual void active_rated(const CandidateBlock& block, int k, const RatedBlock& rated, Active& out) const = 0;
  virtual void of_board(const Board& board, Active& out) const = 0;  // the same, for one board
  virtual Policy policy(const std::vector<double>& w, const std::string& name) const = 0;
  virtual std::string name() const = 0;  // "td44", "bertsekas" or "ntuple-v1"
};

// The named set, if it has only board features (and `constant`); else InputError
// naming the unknown set or its first move feature.
const FeatureSet& afterstate_set(const std::string& name);

// Reads a feature set's values from the kernel slots of a CandidateBlock.
class LinearModel final : public ValueModel {
 public:
  // Throws InputError for an unknown set or one with move features.
  LinearModel(const std::string& set_name, Geometry g, FeatureKernel kernel);
  std::size_t size() const override { return rows_.size(); }
  void prepare(CandidateBlock& block) const override;
  void active(const CandidateBlock& block, int k, Active& out) const override;
  void values(const CandidateBlock& block, const std::vector<double>& w, double* out) const override;
  // The features are the block's kernel slots, which prepare() computed: nothing to keep.
  void values(const CandidateBlock& block, const std::vector<double>& w, double* out, RatedBlock&) const override {
    values(block, w, out);
  }
  void active_rated(const CandidateBlock& block, int k, const RatedBlock&, Active& out) const override {
    active(block, k, out);
  }
  void of_board(const Board& board, Active& out) const override;
  Policy policy(const std::vector<double>& w, const std::string& name) const override;
  std::string name() const override { return std::string(set_->name); }

 private:
  const FeatureSet* set_;
  std::vector<int> rows_;  // row of CandidateBlock::values per weight
  std::uint32_t groups_ = 0;
  Geometry geometry_;
  FeatureKernel kernel_;
  int lanes_;
};

class NTupleModel final : public ValueModel {
 public:
  // The network's block kernel (ntuple.h) is the feature kernel's level's (engine/search/isa.h):
  // AVX-512 with the avx512 level, else scalar, so `--kernel` picks both.
  NTupleModel(Geometry g, FeatureKernel kernel);
  std::size_t size() const override { return network_.size(); }
  void prepare(CandidateBlock&) const override {}
  void active(const CandidateBlock& block, int k, Active& out) const override;
  void values(const CandidateBlock& block, const std::vector<double>& w, double* out) const override;
  void values(const CandidateBlock& block, const std::vector<double>& w, double* out,
              RatedBlock& rated) const override;
  // Copies the indices values() computed: the same as active().
  void active_rated(const CandidateBlock& block, int k, const RatedBlock& rated, Active& out) const override;
  void of_board(const Board& board, Active& out) const override;
  const NTupleNetwork& network() const { return network_; }
  NTupleKernel kernel() const { return kernel_; }
  Policy policy(const std::vector<double>& w, const std::string& name) const override;
  std::string name() const override;

 private:
  NTupleNetwork network_;  // its layout; the learner owns the weights
  NTupleKernel kernel_;
};

// Rates a block for the TD learner's decision through Searcher (engine/search/search.h):
// q_k = r_k + V(s'_k), and a game-ending placement (a terminal afterstate, value 0) q_k = r_k.
// Reads the weights `*w` points to at every call, so it follows the learner's weights, and the
// learner may point it at another copy of them between calls.  When the searcher has chosen,
// the active features of the chosen afterstate go to `*afterstate` (untouched if it is
// terminal), from what scoring the block kept (the searcher always scores a block before it
// tells the choice in it).  One per searcher: it keeps that scratch.
class ValueEvaluator final : public Evaluator {
 public:
  ValueEvaluator(const ValueModel& model, const std::vector<double>* const& w, Active* afterstate)
      : model_(model), w_(w), afterstate_(afterstate) {}
  void score(CandidateBlock& block) const override;
  void chosen(const CandidateBlock& block, int k) const override;

 private:
  const ValueModel& model_;
  const std::vector<double>* const& w_;
  Active* afterstate_;
  mutable RatedBlock rated_;  // of the last block scored
};

// "ntuple" makes an NTupleModel, anything else a LinearModel of that feature set.
std::unique_ptr<ValueModel> make_value_model(const std::string& model, Geometry g, FeatureKernel kernel);

}  // namespace tb::td
