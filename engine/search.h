// Choosing a move (RULES "Choosing a move"): greedy, or 2-ply with the next piece known.
//
// Ratings: a placement that ends the game is -infinity.  In 2-ply, a first placement is rated
// by its best follow-up; when every follow-up ends the game but the first placement does not,
// it is rated -DBL_MAX, below every finite rating and above a game-ending move (the game then
// lasts one more piece).  Ties go to the first placement in enumeration order.  Optional tie
// noise adds eps * U[0,1) to every first-ply rating, drawn from the caller's stream.
#pragma once

#include <memory>

#include "evaluator.h"
#include "rng.h"
#include "rules.h"

namespace tb {

class Searcher {
 public:
  Searcher(const Policy& policy, const Rules& rules, FeatureKernel kernel);

  // `next` is used when rules.lookahead == 1.  `noise` may be null (no tie noise).
  Placement choose(const Board& board, Piece current, Piece next, double tie_noise,
                   CounterRng* noise);
  // The same choice as an index into first_ply(), whose column holds the board after the
  // move and its clears (materialize() equals drop(); tests/test_materialize.cpp).
  int choose_index(const Board& board, Piece current, Piece next, double tie_noise,
                   CounterRng* noise);
  const CandidateBlock& first_ply() const { return *ply1_; }

 private:
  double best_follow_up(const CandidateBlock& first, int k, Piece next);

  Rules rules_;
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<CandidateBlock> ply1_, ply2_;  // ~30 KB each, kept off the stack
};

}  // namespace tb
