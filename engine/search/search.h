// Choosing a move (docs/rules.md "Choosing a move"): greedy, or 2-ply with the next
// piece known, over the placements of the rule set's model (drop, or move-reachable:
// engine/moves/reachable.h).  The one decision path of the engine: games, replays and the TD
// learner all decide through Searcher::decide and get a Decision they own; the candidate blocks
// are the searcher's private scratch.
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

#include <array>
#include <memory>

#include "drop_scorer.h"
#include "evaluator.h"
#include "materialize.h"
#include "rng.h"
#include "rules.h"

namespace tb {

// One move, chosen and played.
struct Decision {
  Placement placement{};    // as enumerated: a drop placement has row kDropRow
  int row = 0;              // where the piece's lowest cell locked
  Board board;              // after the lock and the clears; a move that ends the game at lock
                            // (`strict`, lock-out) keeps the piece and clears nothing
  int lines = 0;            // rows cleared by the move
  bool game_over = false;   // the move ends the game, or the piece could not spawn
  bool blocked_out = false; // the piece could not spawn (reachable placements): nothing placed
  // The board's holes and wall height when the search knows them (the drop scorer), else -1:
  // the game loop counts them itself.
  int holes = -1;
  int wall_height = -1;

  Placement locked() const {
    Placement p = placement;
    p.row = static_cast<std::uint8_t>(row);
    return p;
  }
};

class Searcher {
 public:
  // Rates with the policy's evaluator (make_evaluator).  Throws PolicyError if the policy does
  // not fit the board.
  Searcher(const Policy& policy, const Rules& rules, FeatureKernel kernel);
  // Rates with `evaluator` (the TD learner's value function).
  Searcher(std::unique_ptr<Evaluator> evaluator, const Rules& rules, FeatureKernel kernel);
  ~Searcher();

  // The best placement of `current` on `board`.  `next` is used when rules.lookahead == 1.
  // `noise` may be null (no tie noise); it is read only when tie_noise > 0.
  Decision decide(const Board& board, Piece current, Piece next, double tie_noise = 0.0,
                  CounterRng* noise = nullptr);
  // decide(...).placement.
  Placement choose(const Board& board, Piece current, Piece next, double tie_noise = 0.0,
                   CounterRng* noise = nullptr) {
    return decide(board, current, next, tie_noise, noise).placement;
  }
  // Placement `index` of `current` in enumeration order, whatever its rating (exploration);
  // index < placement_count(board, current).
  Decision play(const Board& board, Piece current, int index);
  int placement_count(const Board& board, Piece current);

  const Rules& rules() const { return rules_; }

 private:
  void rate(CandidateBlock& block, const Board& base, Piece next);
  // quiet_pruned: the quiet drop second plies need not be rated (rate_pruned).
  double best_follow_up(const CandidateBlock& first, int k, const Board& base, Piece next, bool quiet_pruned = false);
  void rate_pruned(CandidateBlock& block, const Board& base, Piece next, int from, int min_top, int& at, double& best);
  void pruned_follow_up(const CandidateBlock& first, int k, const Board& base, Piece next, int index, int& at,
                        double& best);
  void rate_deferred(const CandidateBlock& first, const Board& base, Piece next, int& at, double& best);
  Decision decide_reachable(const Board& board, Piece current, Piece next, double tie_noise, CounterRng* noise);
  Decision decide_drops(const Board& board, Piece current, Piece next, double tie_noise, CounterRng* noise);
  Decision decide_drops_2ply(const Board& board, Piece current, Piece next);
  Decision drop_decision(const DropScorer& scorer, const Board& board, Piece current, int k);
  static void board_after(const DropScorer& scorer, const Board& board, Piece current, int k, Board& after);
  static Decision decision_of(const CandidateBlock& block, int k);

  Rules rules_;
  const SearchKernels* isa_;  // materialize of the kernel's instruction-set family
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<CandidateBlock> ply1_, ply2_;  // ~30 KB each, kept off the stack
  std::unique_ptr<ReachableSet> reach1_, reach2_;  // reachable rules only, ~20 KB each
  // Pruned reachable 2-ply: the next piece's states on the decision's board that any first
  // placement may leave reachable (find_reachable_bound), found on the first need per decision.
  std::unique_ptr<ReachableBound> bound2_;
  bool bound2_found_ = false;
  // The placements under the drops that the bound allows after several pruned first placements,
  // gathered into one block to be rated at once (rate_deferred), and whose they are: the first
  // placement (block index k, decision index), its lanes, and the best of its rare drops.
  struct Deferred {
    int k, index, lane, count;
    double upper;
  };
  std::unique_ptr<CandidateBlock> tucks_;
  std::array<Deferred, kBlockCapacity> deferred_;
  int deferred_count_ = 0;
  // Linear policies: rates greedy drop placements, and the second ply of 2-ply when rows clear
  // between the plies and its placements are the drops (always under drop placements; under
  // reachable ones where reachable_are_drops holds, and the rare drops of pruned first
  // placements).  nullptr otherwise (drop_scorer.h).
  std::unique_ptr<DropScorer> drops_;
  // 2-ply on drop placements without tie noise: the first ply's scorer (decide_drops_2ply), so
  // that its pass stays valid while drops_ rates the second plies.
  std::unique_ptr<DropScorer> drops1_;
};

}  // namespace tb
