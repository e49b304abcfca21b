#include "search.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <cmath>

#include "quiet_bound.h"
#include "rule_sets.h"

namespace tb {

Searcher::Searcher(const Policy& policy, const Rules& rules, FeatureKernel kernel)
    : Searcher(make_evaluator(policy, rules.geometry, kernel), rules, kernel) {}

Searcher::Searcher(std::unique_ptr<Evaluator> evaluator, const Rules& rules, FeatureKernel kernel)
    : rules_(rules),
      isa_(&search_kernels(kernel)),
      evaluator_(std::move(evaluator)),
      ply1_(std::make_unique<CandidateBlock>()),
      ply2_(std::make_unique<CandidateBlock>()) {
  if (rules.placement == PlacementModel::reachable) {
    reach1_ = std::make_unique<ReachableSet>();
    reach2_ = std::make_unique<ReachableSet>();
    bound2_ = std::make_unique<ReachableBound>();
    tucks_ = std::make_unique<CandidateBlock>();
  }
  const auto* linear = dynamic_cast<const LinearEvaluator*>(evaluator_.get());
  if (linear && (rules.lookahead == 0 || rules.clear_between_plies)) {
    // Under reachable placements, only for second plies whose placements are the drops.
    Rules drop_rules = rules;
    drop_rules.placement = PlacementModel::drop;
    drops_ = DropScorer::make(linear->terms().data(), static_cast<int>(linear->terms().size()), linear->groups(),
                              drop_rules, kernel);
    if (drops_ && rules.placement == PlacementModel::drop && rules.lookahead == 1)
      drops1_ = std::make_unique<DropScorer>(*drops_);
  }
}

Searcher::~Searcher() = default;

namespace {

// The highest score of a block, from `best`.
double highest_score(const CandidateBlock& block, double best) {
  for (int j = 0; j < block.count; ++j) best = block.score[j] > best ? block.score[j] : best;
  return best;
}

// The best rating of a drop-scorer pass, as a max from -DBL_MAX (-infinity, a move that ends
// the game, counts as -DBL_MAX).
double best_rating(const DropScores& s) {
  return s.count > 0 && s.score[s.best] > -DBL_MAX ? s.score[s.best] : -DBL_MAX;
}

// The lowest column top of a board: a first move adds cells, so no board after it is lower
// (quiet_bounds' base_min_top).
int lowest_top(const Board& board, Geometry g) {
  int low = g.height;
  for (int c = 0; c < g.width; ++c) low = std::min(low, column_height(board.cols[c]));
  return low;
}

// Pruned 2-ply's best so far: the first placement (by index) with the highest score, in
// whatever order the placements are visited (at < 0: none yet).  A placement whose bound cannot
// beat the best, or only ties it from a later index, is pruned: its score is at most its rating
// and exact wherever it could still win, so the first placement with the highest rating is
// never pruned and wins (decide_drops_2ply, rate_pruned).
bool cannot_win(double bound, int index, int at, double best) {
  return at >= 0 && (bound < best || (bound == best && index > at));
}
void offer(double score, int index, int& at, double& best) {
  if (at < 0 || score > best || (score == best && index < at)) {
    best = score;
    at = index;
  }
}

}  // namespace

double Searcher::best_follow_up(const CandidateBlock& first, int k, const Board& base, Piece next, bool quiet_pruned) {
  const Geometry g = rules_.geometry;
  if (rules_.clear_between_plies && (!reach2_ || (drops_ && reachable_are_drops(first.board(k), g, spawn_row(rules_))))) {
    // docs/rules.md: lines cleared by the first ply are already removed from first.board(k), and they
    // count in the pair's "lines" (and eroded cells).
    const PlyCarry carry{first.value(MOVE_LINES, k), first.value(MOVE_ERODED, k)};
    if (drops_) {
      const Board after = first.board(k);
      return best_rating(quiet_pruned ? drops_->rate_rare(after, next, carry) : drops_->rate(after, next, carry));
    }
    isa_->materialize(*ply2_, first.board(k), next, g, rules_.overflow, carry);
    evaluator_->score(*ply2_);
    return highest_score(*ply2_, -DBL_MAX);
  }
  // Reachable second plies, or a pair rated without clears between the plies (article 4).
  Board grid = first.board(k);
  PlyCarry carry{first.value(MOVE_LINES, k), first.value(MOVE_ERODED, k)};
  UnclearedPair pair;
  const UnclearedPair* uncleared = nullptr;
  if (!rules_.clear_between_plies) {
    const Placement pl = first.placed(k);
    pair.first_cells = piece_board(pl, pl.row);
    for (int c = 0; c < g.width; ++c) grid.cols[c] = base.cols[c] | pair.first_cells.cols[c];
    uncleared = &pair;
    carry = {};
  }
  if (!reach2_) {
    materialize_drops_uncleared(*ply2_, grid, next, g, rules_.overflow, pair);
    evaluator_->score(*ply2_);
    return highest_score(*ply2_, -DBL_MAX);
  }
  double best = -DBL_MAX;
  int count = find_reachable_placements(grid, g, next, spawn_row(rules_), rules_.rotation, *reach2_);
  if (!uncleared && drops_ && drops_are_reachable(grid, g, spawn_row(rules_))) {
    // Every drop is reachable: the drop scorer rates the drops, and the block path only the
    // placements under them (tucks and spins).  The rating is the best of both, a max.
    best = best_rating(quiet_pruned ? drops_->rate_rare(grid, next, carry) : drops_->rate(grid, next, carry));
    count = keep_below_drops(*reach2_);
  }
  for (int from = 0; from < count; from += kBlockCapacity) {
    materialize_reachable(*ply2_, grid, *reach2_, from, g, rules_.overflow, carry, uncleared, isa_);
    evaluator_->score(*ply2_);
    best = highest_score(*ply2_, best);
  }
  return best;
}

void Searcher::rate(CandidateBlock& b, const Board& base, Piece next) {
  if (rules_.lookahead == 1) {
    for (int k = 0; k < b.count; ++k)
      b.score[k] = b.terminal[k] ? -HUGE_VAL : best_follow_up(b, k, base, next);
  } else {
    evaluator_->score(b);
  }
}

Decision Searcher::decision_of(const CandidateBlock& b, int k) {
  Decision d;
  d.placement = b.placements[k];
  d.row = b.placed(k).row;
  d.board = b.board(k);
  d.lines = b.value(MOVE_LINES, k);
  d.game_over = b.terminal[k];
  return d;
}

Decision Searcher::decide(const Board& board, Piece current, Piece next, double tie_noise, CounterRng* noise) {
  if (reach1_) return decide_reachable(board, current, next, tie_noise, noise);
  if (drops_ && rules_.lookahead == 0) return decide_drops(board, current, next, tie_noise, noise);
  const bool noisy = noise && tie_noise > 0;  // every rating is needed exactly, noise added
  if (drops1_ && !noisy) return decide_drops_2ply(board, current, next);
  CandidateBlock& b = *ply1_;
  isa_->materialize(b, board, current, rules_.geometry, rules_.overflow, {});
  rate(b, board, next);
  if (noisy)
    for (int k = 0; k < b.count; ++k) b.score[k] += tie_noise * noise->unit();

  int best = 0;
  for (int k = 1; k < b.count; ++k)
    if (b.score[k] > b.score[best]) best = k;
  evaluator_->chosen(b, best);
  return decision_of(b, best);
}

// Greedy on drop placements with the drop scorer: the same ratings as the block path, without
// building a board per candidate; only the chosen move is played (the board the pass built when
// it clears rows, drop() when it may end the game, else by adding its cells).
Decision Searcher::decide_drops(const Board& board, Piece current, Piece /*next*/, double tie_noise,
                                CounterRng* noise) {
  DropScores& s = drops_->rate(board, current);
  int best = s.best;
  if (noise && tie_noise > 0) {
    for (int k = 0; k < s.count; ++k) s.score[k] += tie_noise * noise->unit();
    best = 0;
    for (int k = 1; k < s.count; ++k)
      if (s.score[k] > s.score[best]) best = k;
  }
  return drop_decision(*drops_, board, current, best);
}

// `after`: the board after candidate k of the scorer's last pass on `board` that does not end
// the game (a quiet one: the board plus the piece; a rare one: the board the pass kept).  Built
// in place: a copy of a board just changed a column at a time would load it in vectors across
// those stores, which waits until they reach the cache.
void Searcher::board_after(const DropScorer& scorer, const Board& board, Piece current, int k, Board& after) {
  const DropScores& s = scorer.scores();
  if ((s.kept >> k) & 1) {
    after = s.boards[k];
    return;
  }
  assert(!((s.rare >> k) & 1));
  after = board;
  const Placement pl = scorer.placement(current, k);
  const Orientation& o = kShapes[current].orientation[pl.orientation];
  for (int i = 0; i < o.width; ++i) after.cols[pl.column + i] |= o.mask[i] << pl.row;
}

// Candidate k of the scorer's last pass on `board`, played: the board the pass built when it
// clears rows, drop() when it may end the game, else the board plus the piece.
Decision Searcher::drop_decision(const DropScorer& scorer, const Board& board, Piece current, int k) {
  const DropScores& s = scorer.scores();
  Decision d;
  d.placement = scorer.placement(current, k);
  d.row = d.placement.row;
  if ((s.rare >> k) & 1 && !((s.kept >> k) & 1)) {  // the move ends the game: the reference rules
    d.board = board;
    const Move m = drop(d.board, d.placement, rules_.geometry, rules_.overflow);
    d.lines = m.lines;
    d.game_over = m.game_over;
  } else {
    board_after(scorer, board, current, k, d.board);
    d.lines = (s.kept >> k) & 1 ? s.lines[k] : 0;
  }
  if (k == s.best && s.best_holes >= 0) {
    d.holes = s.best_holes;
    d.wall_height = s.best_wall_height;
  }
  d.placement.row = kDropRow;
  return d;  // LinearEvaluator::chosen() does nothing: not called
}

// 2-ply on drop placements, both plies by drop scorers, pruned (docs/performance.md "2-ply
// pruning").  The first ply's pass (drops1_) rates its placements greedily and gives each quiet
// one's board values, so quiet_bounds bounds every quiet second ply after it without looking
// at its board.  The first placements are visited from the best greedy one, then in index
// order (any order gives the same choice; this one finds a high rating early: about 0.8 of
// BCTS's first placements are then pruned on 10x20).  When k's bound cannot beat the best so
// far (or only ties it from a later index), only its rare second plies are rated
// (DropScorer::rate_rare): its score is then at most its rating, and exact wherever k could
// still win.  So the first highest score is the choice of rating every pair: no score is above
// its rating, and the first placement with the highest rating is never pruned.
Decision Searcher::decide_drops_2ply(const Board& board, Piece current, Piece next) {
  const DropScores& first = drops1_->rate(board, current, {}, true);
  std::array<double, kMaxPlacements> bound;
  quiet_bounds(drops_->rating(), first, lowest_top(board, rules_.geometry), next, bound.data());
  std::array<std::uint8_t, kMaxPlacements> order;
  for (int k = 0; k < first.count; ++k) order[k] = static_cast<std::uint8_t>(k);
  std::swap(order[0], order[first.best]);
  double best = 0.0;
  int at = -1;  // the best so far: none yet
  for (int i = 0; i < first.count; ++i) {
    const int k = order[i];
    double score = -HUGE_VAL;  // a first move that ends the game
    if (!((first.rare >> k) & 1) || ((first.kept >> k) & 1)) {
      const bool pruned = cannot_win(bound[k], k, at, best);
      // docs/rules.md: the first ply's cleared rows are gone, and count in the pair's lines
      // and eroded cells.
      const PlyCarry carry = (first.kept >> k) & 1 ? PlyCarry{first.lines[k], first.eroded[k]} : PlyCarry{};
      Board after;
      board_after(*drops1_, board, current, k, after);
      const DropScores& s = pruned ? drops_->rate_rare(after, next, carry) : drops_->rate(after, next, carry);
      score = best_rating(s);
    }
    offer(score, k, at, best);
  }
  return drop_decision(*drops1_, board, current, at);
}

// 2-ply under reachable placements with the quiet bound, for one block of first placements
// (from the decision's placement `from` on), as decide_drops_2ply does for drops: the block's
// board values (one kernel call) bound every quiet drop second ply after each first placement
// that cleared nothing (quiet_bounds), and where that bound cannot beat the best so far (or only
// ties it from a later index), the quiet drops are not rated: only the rare drops
// (DropScorer::rate_rare) and the placements under the drops, or a superset of them
// (pruned_follow_up, rate_deferred: rated after the block's other first placements).  A
// pruned first placement is then offered only with its exact score, wherever it could still
// win, so the first placement with the highest rating is chosen, as without pruning.  The
// block's best first-ply rating is visited first (a high score early), then the rest in index
// order; `at` and `best` carry the best so far (at < 0: none) across blocks.
void Searcher::rate_pruned(CandidateBlock& b, const Board& base, Piece next, int from, int min_top, int& at,
                           double& best) {
  evaluator_->score(b);  // the boards' values, and the first ply's ratings for the order
  int first = 0;
  for (int k = 1; k < b.count; ++k)
    if (b.score[k] > b.score[first]) first = k;
  std::array<double, kBlockCapacity> bound;
  quiet_bounds(drops_->rating(), b, min_top, next, bound.data());
  for (int i = 0; i < b.count; ++i) {
    const int k = i == 0 ? first : i <= first ? i - 1 : i;
    const int index = from + k;
    double score = -HUGE_VAL;  // a first move that ends the game
    if (!b.terminal[k]) {
      if (cannot_win(bound[k], index, at, best)) {
        pruned_follow_up(b, k, base, next, index, at, best);
        continue;
      }
      score = best_follow_up(b, k, base, next);
    }
    offer(score, index, at, best);
  }
  rate_deferred(b, base, next, at, best);
}

// First placement k of a pruned reachable 2-ply, whose quiet drop second plies cannot win
// (rate_pruned): an upper bound on its score first, without a flood fill of k's board.  Every
// reachable second ply is a drop (the quiet ones are below the quiet bound, the rare ones are
// all rated by rate_rare, reachable or not) or a placement under the drops, and those are
// among the ones the decision's ReachableBound allows on k's board (k cleared nothing: its
// board holds the decision's board's cells).  Those are appended to tucks_, with the other
// pruned first placements' (rate_deferred rates them in one block).  Only where the
// rare drops alone could win, or the allowed placements do not fit a block, is the exact score
// (best_follow_up, quiet drops pruned) offered at once.
void Searcher::pruned_follow_up(const CandidateBlock& first, int k, const Board& base, Piece next, int index,
                                int& at, double& best) {
  const Geometry g = rules_.geometry;
  const Board after = first.board(k);
  assert(first.value(MOVE_LINES, k) == 0);
  if (!bound2_found_) {
    find_reachable_bound(base, g, next, spawn_row(rules_), rules_.rotation, *bound2_);
    bound2_found_ = true;
  }
  const double rare = best_rating(drops_->rate_rare(after, next, {}));
  if (cannot_win(rare, index, at, best)) {
    int count = placements_under_drops_within(*bound2_, after, g, *reach2_);
    if (count == 0) return;  // its score is at most `rare`: it cannot win
    if (count <= kBlockCapacity) {
      if (tucks_->count + count > kBlockCapacity) {
        // (its exact scores, where needed, reuse reach2_ and ply2_: look k's placements up again)
        rate_deferred(first, base, next, at, best);
        count = placements_under_drops_within(*bound2_, after, g, *reach2_);
      }
      deferred_[deferred_count_++] = {k, index, tucks_->count, count, rare};
      append_reachable(*tucks_, after, *reach2_, g, rules_.overflow, {}, isa_);
      return;
    }
  }
  offer(best_follow_up(first, k, base, next, true), index, at, best);
}

// Rates tucks_ (pruned_follow_up) in one block.  A deferred first placement's score is at most
// the best of its rare drops and its lanes; if that cannot win against the best so far, it
// is not the choice (the best so far only grows as placements are offered, in any order:
// cannot_win against it now means a score below the final best, or equal to it from a later
// index than the final choice's).  Otherwise its exact score is offered (about 1% of them).
void Searcher::rate_deferred(const CandidateBlock& first, const Board& base, Piece next, int& at, double& best) {
  if (deferred_count_ == 0) return;
  evaluator_->score(*tucks_);
  for (int i = 0; i < deferred_count_; ++i) {
    const Deferred& d = deferred_[i];
    double upper = d.upper;
    for (int j = d.lane; j < d.lane + d.count; ++j) upper = tucks_->score[j] > upper ? tucks_->score[j] : upper;
    if (!cannot_win(upper, d.index, at, best)) offer(best_follow_up(first, d.k, base, next, true), d.index, at, best);
  }
  tucks_->count = 0;
  deferred_count_ = 0;
}

// Block by block over the reachable placements, in their order; the block holding the winner
// is materialized again at the end if a later block replaced it.
Decision Searcher::decide_reachable(const Board& board, Piece current, Piece next, double tie_noise,
                                    CounterRng* noise) {
  const Geometry g = rules_.geometry;
  const int count = find_reachable_placements(board, g, current, spawn_row(rules_), rules_.rotation, *reach1_);
  if (count == 0) {  // block-out
    Decision d;
    d.board = board;
    d.game_over = d.blocked_out = true;
    return d;
  }
  CandidateBlock& b = *ply1_;
  int best = -1;
  double best_score = 0;
  // Pruned 2-ply needs every rating exact where it could win: not with tie noise.
  const bool prune = rules_.lookahead == 1 && rules_.clear_between_plies && drops_ && !(noise && tie_noise > 0);
  const int min_top = prune ? lowest_top(board, g) : 0;
  bound2_found_ = false;  // this decision's board and next piece: not found yet
  for (int from = 0; from < count; from += kBlockCapacity) {
    materialize_reachable(b, board, *reach1_, from, g, rules_.overflow, {}, nullptr, isa_);
    if (prune) {
      rate_pruned(b, board, next, from, min_top, best, best_score);
      continue;
    }
    rate(b, board, next);
    for (int k = 0; k < b.count; ++k) {
      if (noise && tie_noise > 0) b.score[k] += tie_noise * noise->unit();
      if (best < 0 || b.score[k] > best_score) {
        best = from + k;
        best_score = b.score[k];
      }
    }
  }
  const int block_start = best / kBlockCapacity * kBlockCapacity;
  if (block_start + kBlockCapacity < count) {
    materialize_reachable(b, board, *reach1_, block_start, g, rules_.overflow, {}, nullptr, isa_);
    evaluator_->score(b);  // the features chosen() may read (the ratings are not used)
  }
  evaluator_->chosen(b, best - block_start);
  return decision_of(b, best - block_start);
}

int Searcher::placement_count(const Board& board, Piece current) {
  if (!reach1_) {
    std::array<Placement, kMaxPlacements> pls;
    return static_cast<int>(generate_drops(current, rules_.geometry.width, pls.data()) - pls.data());
  }
  return find_reachable_placements(board, rules_.geometry, current, spawn_row(rules_), rules_.rotation, *reach1_);
}

Decision Searcher::play(const Board& board, Piece current, int index) {
  CandidateBlock& b = *ply1_;
  int k = index;
  if (!reach1_) {
    isa_->materialize(b, board, current, rules_.geometry, rules_.overflow, {});
  } else {
    [[maybe_unused]] const int count =
        find_reachable_placements(board, rules_.geometry, current, spawn_row(rules_), rules_.rotation, *reach1_);
    assert(index >= 0 && index < count);
    const int block_start = index / kBlockCapacity * kBlockCapacity;
    materialize_reachable(b, board, *reach1_, block_start, rules_.geometry, rules_.overflow, {}, nullptr, isa_);
    k = index - block_start;
  }
  evaluator_->score(b);  // the features chosen() may read (the ratings are not used)
  evaluator_->chosen(b, k);
  return decision_of(b, k);
}

}  // namespace tb
