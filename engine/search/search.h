// Choosing a move (RULES "Choosing a move"): greedy, or 2-ply with the next piece known, over
// the placements of the rule set's model (drop, or move-reachable: engine/moves/reachable.h).
//
// Ratings: a placement that ends the game is -infinity.  In 2-ply, a first placement is rated
// by its best follow-up; when every follow-up ends the game (or the next piece cannot spawn)
// but the first placement does not, it is rated -DBL_MAX, below every finite rating and above
// a game-ending move (the game then lasts one more piece).  Ties go to the first placement in
// enumeration order.  Optional tie noise adds eps * U[0,1) to every first-ply rating, drawn
// from the caller's stream in enumeration order.
//
// Reachable placements can outnumber one CandidateBlock (kMaxReachable > kBlockCapacity): they
// are rated block by block, in enumeration order, keeping the best, so no candidate is ever
// dropped and the tie rule holds across blocks.
#pragma once

#include <memory>

#include "evaluator.h"
#include "materialize_rows.h"
#include "rng.h"
#include "rules.h"

namespace tb {

class Searcher {
 public:
  Searcher(const Policy& policy, const Rules& rules, FeatureKernel kernel);
  ~Searcher();

  // `next` is used when rules.lookahead == 1.  `noise` may be null (no tie noise).  The
  // placement carries its row when the rules' placements are reachable.  Must not be called
  // on a block-out (choose_index() < 0).
  Placement choose(const Board& board, Piece current, Piece next, double tie_noise,
                   CounterRng* noise);
  // The same choice as an index into first_ply(), whose column holds the board after the
  // move and its clears (materialize() equals drop(); tests/test_materialize.cpp).  -1 when
  // the piece cannot spawn (block-out; reachable placements only): the game is over.
  int choose_index(const Board& board, Piece current, Piece next, double tie_noise,
                   CounterRng* noise);
  const CandidateBlock& first_ply() const { return *ply1_; }
  const Rules& rules() const { return rules_; }

 private:
  void rate(CandidateBlock& block, const Board& base, Piece next);
  double best_follow_up(const CandidateBlock& first, int k, const Board& base, Piece next);
  int choose_reachable(const Board& board, Piece current, Piece next, double tie_noise, CounterRng* noise);

  Rules rules_;
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<CandidateBlock> ply1_, ply2_;  // ~30 KB each, kept off the stack
  std::unique_ptr<ReachableSet> reach1_, reach2_;  // reachable rules only, ~20 KB each
};

}  // namespace tb
