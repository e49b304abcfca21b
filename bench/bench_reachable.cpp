// BM_Reachable[_simple]/<H>: one find_reachable call per iteration (engine/moves/reachable.h), on
// the 10xH corpus boards with each of the 7 pieces in turn.  The board gets 2 hidden rows
// above its H and pieces spawn on row H, as the Guideline does on 10x20.  items/s = calls;
// placements/s = placements found.  BM_ReachablePlacements[_simple]/<H>: the same calls to
// find_reachable_placements (the flood fill, no search tree), on the same boards.
//
// Before timing: on an empty board every piece must give the drop counts of docs/rules.md, and
// on the first kChecked corpus boards every placement must be free, resting, and where its
// input sequence, replayed through the Playfield, locks the piece.  find_reachable_placements
// must give find_reachable's placements, in its order, on every corpus board with every piece.
//
// Pruned guideline 2-ply (engine/search/search.cpp): BM_ReachableBound/<H>, one
// find_reachable_bound call per iteration (once a decision: the corpus entry's next piece on its
// board); BM_PlacementsUnderDrops/<H>, one placements_under_drops_within call per iteration (once
// a pruned first placement: that bound on the board after each drop of the entry's current
// piece in turn).  Before timing, on the first kChecked entries, every placement find_reachable
// gives on such a board that is not a drop must be among placements_under_drops_within's.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "corpus.h"
#include "placement.h"
#include "reachable.h"
#include "srs.h"

namespace {

using namespace tb;

constexpr int kWidth = 10;
constexpr int kHidden = 2;
constexpr int kChecked = 16;

// "" when placement i replays to its cells on a free, resting spot.
std::string check_placement(const Board& b, Geometry g, int spawn_row, RotationSystem rs,
                            const ReachableSet& set, int i) {
  const ReachablePlacement& rp = set.placements[i];
  Board want = b;
  bool rests = false;
  for (Square s : cells(rp.placement, rp.row)) {
    if (b.filled(s.column, s.row)) return "overlaps the stack";
    rests = rests || s.row == 0 || b.filled(s.column, s.row - 1);
    want.cols[s.column] |= Word{1} << s.row;
  }
  if (!rests) return "does not rest";
  Playfield replay(b, g, rs);
  if (!replay.spawn(set.piece, spawn_row)) return "replay: block-out";
  for (Input in : input_sequence(set, i))
    if (!replay.apply(in)) return std::string("replay: ") + to_string(in) + " failed";
  return replay.board() == want ? "" : "replay locks elsewhere";
}

std::string check(const Corpus& corpus, Geometry g, int spawn_row, RotationSystem rs) {
  constexpr int kEmptyCounts[PIECE_NB] = {17, 9, 34, 17, 17, 34, 34};  // docs/rules.md, W = 10
  auto set = std::make_unique<ReachableSet>();
  for (int p = 0; p < PIECE_NB; ++p)
    if (find_reachable(Board{}, g, static_cast<Piece>(p), spawn_row, rs, *set) != kEmptyCounts[p])
      return std::string("empty board, piece ") + kPieceChar[p] + ": " +
             std::to_string(set->count) + " placements, the drop model has " +
             std::to_string(kEmptyCounts[p]);
  const int n = std::min(kChecked, static_cast<int>(corpus.entries.size()));
  for (int e = 0; e < n; ++e)
    for (int p = 0; p < PIECE_NB; ++p) {
      const Board& b = corpus.entries[e].board;
      find_reachable(b, g, static_cast<Piece>(p), spawn_row, rs, *set);
      for (int i = 0; i < set->count; ++i) {
        const std::string err = check_placement(b, g, spawn_row, rs, *set, i);
        if (!err.empty())
          return "corpus board " + std::to_string(e) + ", piece " + kPieceChar[p] + ", placement " +
                 std::to_string(i) + ": " + err;
      }
    }
  return {};
}

// "" when find_reachable_placements agrees with find_reachable on every corpus board.
std::string check_placements_only(const Corpus& corpus, Geometry g, int spawn_row,
                                  RotationSystem rs) {
  auto want = std::make_unique<ReachableSet>(), got = std::make_unique<ReachableSet>();
  for (std::size_t e = 0; e < corpus.entries.size(); ++e)
    for (int p = 0; p < PIECE_NB; ++p) {
      const Board& b = corpus.entries[e].board;
      find_reachable(b, g, static_cast<Piece>(p), spawn_row, rs, *want);
      find_reachable_placements(b, g, static_cast<Piece>(p), spawn_row, rs, *got);
      bool same = want->count == got->count && want->block_out == got->block_out;
      for (int i = 0; same && i < want->count; ++i)
        same = want->placements[i].placement == got->placements[i].placement &&
               want->placements[i].row == got->placements[i].row;
      if (!same)
        return "corpus board " + std::to_string(e) + ", piece " + kPieceChar[p] +
               ": find_reachable_placements differs from find_reachable";
    }
  return {};
}

using FindFn = int (*)(const Board&, Geometry, Piece, int, RotationSystem, ReachableSet&);

void bm_reachable(benchmark::State& state, RotationSystem rs, FindFn find,
                  std::map<int, std::string>& checks) {
  try {
    const int visible = static_cast<int>(state.range(0));
    const Corpus& corpus = bench_corpus({kWidth, visible});
    const Geometry g{kWidth, visible + kHidden};
    auto [it, fresh] = checks.try_emplace(visible);
    if (fresh) {
      it->second = check(corpus, g, visible, rs);
      if (it->second.empty() && find != find_reachable)
        it->second = check_placements_only(corpus, g, visible, rs);
    }
    if (!it->second.empty()) return state.SkipWithError(it->second.c_str());

    auto set = std::make_unique<ReachableSet>();
    std::size_t entry = 0;
    int piece = 0;
    std::int64_t placements = 0;
    for (auto _ : state) {
      const Board& b = corpus.entries[entry].board;
      placements += find(b, g, static_cast<Piece>(piece), visible, rs, *set);
      benchmark::DoNotOptimize(set->placements.data());
      if (++piece == PIECE_NB) {
        piece = 0;
        if (++entry == corpus.entries.size()) entry = 0;
      }
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["placements/s"] =
        benchmark::Counter(static_cast<double>(placements), benchmark::Counter::kIsRate);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// The boards after each drop of every corpus entry's current piece (its cells added, nothing
// cleared: a board holding the entry's board), with the entry's index.
struct AfterBoard {
  std::size_t entry;
  Board board;
};
std::vector<AfterBoard> boards_after_drops(const Corpus& corpus, Geometry g) {
  std::vector<AfterBoard> out;
  for (std::size_t e = 0; e < corpus.entries.size(); ++e) {
    const CorpusEntry& ce = corpus.entries[e];
    int heights[kMaxWidth];
    for (int c = 0; c < g.width; ++c) heights[c] = ce.board.height_of(c);
    std::array<Placement, kMaxPlacements> drops;
    const Placement* end = generate_drops(ce.current, g.width, drops.data());
    for (const Placement* pl = drops.data(); pl != end; ++pl) {
      const Orientation& o = kShapes[ce.current].orientation[pl->orientation];
      const int row = landing_row(heights, o, pl->column);
      if (row + o.height > g.height) continue;  // above the board: not a first placement
      Board after = ce.board;
      for (int i = 0; i < o.width; ++i) after.cols[pl->column + i] |= o.mask[i] << row;
      out.push_back({e, after});
    }
  }
  return out;
}

// "" when, on the boards after the drops of the first kChecked entries, every placement of the
// entry's next piece that find_reachable reaches and that is not a drop is among
// placements_under_drops_within's.
std::string check_bound(const Corpus& corpus, Geometry g, int spawn_row, const std::vector<AfterBoard>& after) {
  auto bound = std::make_unique<ReachableBound>();
  auto want = std::make_unique<ReachableSet>(), got = std::make_unique<ReachableSet>();
  std::size_t bound_of = corpus.entries.size();
  for (const AfterBoard& a : after) {
    if (a.entry >= static_cast<std::size_t>(kChecked)) break;
    const CorpusEntry& ce = corpus.entries[a.entry];
    if (bound_of != a.entry) find_reachable_bound(ce.board, g, ce.next, spawn_row, RotationSystem::srs, *bound);
    bound_of = a.entry;
    find_reachable(a.board, g, ce.next, spawn_row, RotationSystem::srs, *want);
    placements_under_drops_within(*bound, a.board, g, *got);
    int heights[kMaxWidth];
    for (int c = 0; c < g.width; ++c) heights[c] = a.board.height_of(c);
    for (int i = 0; i < want->count; ++i) {
      const ReachablePlacement& w = want->placements[i];
      if (w.row == landing_row(heights, kShapes[ce.next].orientation[w.placement.orientation], w.placement.column))
        continue;
      bool found = false;
      for (int j = 0; j < got->count && !found; ++j)
        found = got->placements[j].placement == w.placement && got->placements[j].row == w.row;
      if (!found)
        return "corpus board " + std::to_string(a.entry) + ": a reachable placement of " + kPieceChar[ce.next] +
               " under the drops is not among placements_under_drops_within's";
    }
  }
  return {};
}

void bm_bound(benchmark::State& state, bool lookups) {
  try {
    const int visible = static_cast<int>(state.range(0));
    const Corpus& corpus = bench_corpus({kWidth, visible});
    const Geometry g{kWidth, visible + kHidden};
    const std::vector<AfterBoard> after = boards_after_drops(corpus, g);
    if (const std::string error = check_bound(corpus, g, visible, after); !error.empty())
      return state.SkipWithError(error.c_str());
    std::vector<ReachableBound> bounds(corpus.entries.size());
    if (lookups)
      for (std::size_t e = 0; e < corpus.entries.size(); ++e)
        find_reachable_bound(corpus.entries[e].board, g, corpus.entries[e].next, visible, RotationSystem::srs,
                             bounds[e]);
    auto set = std::make_unique<ReachableSet>();
    std::size_t i = 0;
    std::int64_t placements = 0;
    for (auto _ : state) {
      if (lookups) {
        const AfterBoard& a = after[i];
        placements += placements_under_drops_within(bounds[a.entry], a.board, g, *set);
        benchmark::DoNotOptimize(set->placements.data());
        if (++i == after.size()) i = 0;
      } else {
        const CorpusEntry& ce = corpus.entries[i];
        find_reachable_bound(ce.board, g, ce.next, visible, RotationSystem::srs, bounds[i]);
        benchmark::DoNotOptimize(bounds[i].reach.data());
        if (++i == corpus.entries.size()) i = 0;
      }
    }
    state.SetItemsProcessed(state.iterations());
    if (lookups)
      state.counters["placements/s"] =
          benchmark::Counter(static_cast<double>(placements), benchmark::Counter::kIsRate);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  benchmark::RegisterBenchmark("BM_ReachableBound", [](benchmark::State& s) { bm_bound(s, false); })
      ->Arg(20)
      ->Arg(10);
  benchmark::RegisterBenchmark("BM_PlacementsUnderDrops", [](benchmark::State& s) { bm_bound(s, true); })
      ->Arg(20)
      ->Arg(10);
  for (FindFn find : {FindFn{find_reachable}, FindFn{find_reachable_placements}})
    for (RotationSystem rs : {RotationSystem::srs, RotationSystem::simple}) {
      auto checks = std::make_shared<std::map<int, std::string>>();
      const std::string name =
          std::string(find == find_reachable ? "BM_Reachable" : "BM_ReachablePlacements") +
          (rs == RotationSystem::srs ? "" : "_simple");
      auto run = [rs, find, checks](benchmark::State& s) { bm_reachable(s, rs, find, *checks); };
      benchmark::RegisterBenchmark(name.c_str(), run)->Arg(20)->Arg(10);
    }
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
