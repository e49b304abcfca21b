#include "drop_scorer.h"

#include <cassert>
#include <cmath>

#include "isa.h"
#include "placement.h"

namespace tb {

void integral_weights(DropRating& r) {
  static_assert(kMaxWidth <= 16 && kMaxHeight <= 28, "the value bound of integral_weights");
  constexpr double kMaxWeightSum = 65536.0;  // 2^16
  r.integral = false;
  r.unit = 1.0;
  r.integer_weight.fill(0);
  if (r.term_count > DropRating::kMaxIntegralTerms) return;
  for (int s = 0; s <= 16; ++s) {
    double sum = 0.0;
    bool whole = true;
    for (int t = 0; t < r.term_count && whole; ++t) {
      const double m = std::ldexp(r.terms[t].weight, s);  // exact: a power of two
      whole = std::isfinite(m) && m == std::trunc(m) && std::fabs(m) <= kMaxWeightSum;
      sum += whole ? std::fabs(m) : 0.0;
    }
    if (!whole) continue;
    if (sum > kMaxWeightSum) return;  // (a larger s only makes the integers larger)
    for (int t = 0; t < r.term_count; ++t)
      r.integer_weight[t] = static_cast<std::int32_t>(std::ldexp(r.terms[t].weight, s));
    r.unit = std::ldexp(1.0, -s);
    r.integral = true;
    return;
  }
}

std::unique_ptr<DropScorer> DropScorer::make(const LinearTerm* terms, int term_count, std::uint32_t groups,
                                             const Rules& rules, FeatureKernel kernel) {
  const IsaRecord& isa = isa_record(kernel);
  if (!isa.drop || rules.placement != PlacementModel::drop || (groups & ~kDropScorerGroups)) return nullptr;
  const int width = drop_width(rules.geometry.width), family = drop_family(groups);
  return std::make_unique<DropScorer>(DropRating{terms, term_count, groups, rules.geometry, rules.overflow},
                                      (*isa.drop)[width][family], (*isa.drop_rare)[width][family]);
}

DropScorer::DropScorer(const DropRating& rating, DropPassFn pass, DropRareFn rare)
    : rating_(rating), pass_(pass), rare_(rare) {
  integral_weights(rating_);
  for (int p = 0; p < PIECE_NB; ++p) generate_drops(static_cast<Piece>(p), rating_.geometry.width, drops_[p].data());
}

DropScores& DropScorer::rate(const Board& board, Piece piece, PlyCarry carry, bool values) {
  pass_(rating_, board, piece, carry, values ? DropMode::with_values : DropMode::all, scores_);
  return scores_;
}

DropScores& DropScorer::rate_rare(const Board& board, Piece piece, PlyCarry carry) {
  rare_(rating_, board, piece, carry, scores_);
  return scores_;
}

Placement DropScorer::placement(Piece piece, int k) const {
  assert(k >= 0 && k < scores_.count && "candidate index past the piece's drop placements");
  Placement pl = drops_[piece][k];
  pl.row = static_cast<std::uint8_t>(scores_.row[k]);
  return pl;
}

}  // namespace tb
