#include "search.h"

#include <cfloat>
#include <cmath>

namespace tb {

Searcher::Searcher(const Policy& policy, const Rules& rules, FeatureKernel kernel)
    : rules_(rules),
      evaluator_(make_evaluator(policy, rules.geometry, kernel)),
      ply1_(std::make_unique<CandidateBlock>()),
      ply2_(std::make_unique<CandidateBlock>()) {}

double Searcher::best_follow_up(const CandidateBlock& first, int k, Piece next) {
  // RULES: lines cleared by the first ply are already removed from first.board(k), and they
  // count in the pair's "lines" (and eroded cells).
  const PlyCarry carry{first.value(MOVE_LINES, k), first.value(MOVE_ERODED, k)};
  materialize(*ply2_, first.board(k), next, rules_.geometry, rules_.overflow, carry);
  evaluator_->score(*ply2_);
  double best = -DBL_MAX;
  for (int j = 0; j < ply2_->count; ++j) best = ply2_->score[j] > best ? ply2_->score[j] : best;
  return best;
}

Placement Searcher::choose(const Board& board, Piece current, Piece next, double tie_noise,
                           CounterRng* noise) {
  return ply1_->placements[choose_index(board, current, next, tie_noise, noise)];
}

int Searcher::choose_index(const Board& board, Piece current, Piece next, double tie_noise,
                           CounterRng* noise) {
  CandidateBlock& b = *ply1_;
  materialize(b, board, current, rules_.geometry, rules_.overflow);
  if (rules_.lookahead == 1) {
    for (int k = 0; k < b.count; ++k)
      b.score[k] = b.terminal[k] ? -HUGE_VAL : best_follow_up(b, k, next);
  } else {
    evaluator_->score(b);
  }
  if (noise && tie_noise > 0)
    for (int k = 0; k < b.count; ++k) b.score[k] += tie_noise * noise->unit();

  int best = 0;
  for (int k = 1; k < b.count; ++k)
    if (b.score[k] > b.score[best]) best = k;
  return best;
}

}  // namespace tb
