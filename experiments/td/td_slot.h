// TdLearner's slot (td_learner.h): one game in progress, its searcher, and the updates its
// steps leave for the merge.  Private to the learner (td_learner.cpp) and its parallel step
// scheduler (td_step_scheduler.cpp).
#pragma once

#include "td_learner.h"

namespace tb::td {

struct alignas(64) TdLearner::Slot {
  // What the merge of every range reads comes first, the counts on the slot's first cache line,
  // and the player's own fields start on a line of their own, so that the merge can fetch
  // every slot's counts at once (merge_range).
  // This step's n-tuple updates and game starts, in order (the first update_count), and phi of
  // the updates, one after another (the first phi_count; every value is 1).  The buffers only
  // grow; add_update writes them.
  std::vector<Update> updates;
  std::vector<std::uint32_t> update_index;
  std::size_t update_count = 0, phi_count = 0;
  // The n-tuple network's trace, one part per merge range (TdLearner::ranges_); the merge
  // brings it up to date by replaying this step's updates (TdLearner::merge_range).
  std::vector<TracePart> trace;
  // Both in TdLearner::slot_arrays_, for the n-tuple network (null for linear models):
  std::int32_t* trace_slot = nullptr;  // (n) entry of an index in its range's part, or -1
  // (n) the number of the update that made an index's entry: the trace lists its entries by
  // (born, tuple), which puts the parts back in one order (ordered_trace).
  std::uint32_t* born = nullptr;
  alignas(64) std::uint64_t game = 0;  // from here on, only the slot's player reads or writes
  PieceStream stream;
  Board board;
  std::int64_t placed = 0, lines = 0;  // in the current game
  opt::Random random;
  Active prev;  // phi of the last afterstate (= board), valid when placed > 0
  std::vector<double> dense_trace;                              // (n) linear models
  std::vector<double> dense_pending;                            // (n) this step's weight changes
  std::uint32_t made = 0;  // n-tuple updates numbered so far
  std::vector<Episode> ended;                                   // this step's episodes
  Active next;                                                   // phi of the chosen afterstate
  std::unique_ptr<Searcher> searcher;                           // decides with V (ValueEvaluator)
  const std::vector<double>* weights = nullptr;  // what its decisions read: w_ or a replica of it
};

}  // namespace tb::td
