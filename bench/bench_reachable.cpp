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
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>

#include "corpus.h"
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

void register_benchmarks() {
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
