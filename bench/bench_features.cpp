// BM_Features_<kernel>/<H> and BM_FeaturesAll_<kernel>/<H>: one feature kernel call per
// iteration on a block of kBlock candidate boards, for every kernel variant this CPU runs.
// BM_Features asks for the groups of the bcts feature set, BM_FeaturesAll for G_ALL.
// items/s = boards.
//
// The boards are every non-terminal drop of each 10xH corpus board's current piece
// (materialize), cycled to fill whole blocks.  Before timing, the variant's output on every
// block must equal features_reference's (the oracle) in every requested slot.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "corpus.h"
#include "evaluator.h"
#include "materialize.h"
#include "kernel_variants.h"

namespace {

using namespace tb;

constexpr int kWidth = 10;
constexpr int kBlock = 64;
// The board features of the bcts set (engine/policy/feature_set.cpp): what its evaluator requests.
constexpr std::uint32_t kBctsGroups = G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS |
                                      G_HOLE_DEPTH | G_ROWS_WITH_HOLES;

struct CandidateBoards {
  Geometry geometry;
  int blocks = 0;
  std::vector<Word> cols;  // (blocks, kWidth, kBlock): board k of block b, column c at [(b*kWidth + c)*kBlock + k]

  BoardBlock block(int b) const {
    return {&cols[static_cast<std::size_t>(b) * kWidth * kBlock], kBlock, kBlock, geometry.width, geometry.height};
  }
};

CandidateBoards candidate_boards(const Corpus& corpus) {
  std::vector<Board> boards;
  auto block = std::make_unique<CandidateBlock>();
  for (const CorpusEntry& e : corpus.entries) {
    materialize(*block, e.board, e.current, corpus.geometry, Overflow::strict);
    for (int k = 0; k < block->count; ++k)
      if (!block->terminal[k]) boards.push_back(block->board(k));  // kernels need rows < H
  }
  CandidateBoards out{corpus.geometry, static_cast<int>((boards.size() + kBlock - 1) / kBlock), {}};
  out.cols.resize(static_cast<std::size_t>(out.blocks) * kWidth * kBlock);
  for (int i = 0; i < out.blocks * kBlock; ++i) {
    const Board& b = boards[i % boards.size()];
    for (int c = 0; c < kWidth; ++c) out.cols[(i / kBlock * kWidth + c) * kBlock + i % kBlock] = b.cols[c];
  }
  return out;
}

const CandidateBoards& bench_boards(int height) {
  static std::map<int, CandidateBoards> made;
  auto it = made.find(height);
  if (it == made.end()) it = made.emplace(height, candidate_boards(bench_corpus({kWidth, height}))).first;
  return it->second;
}

// The output slots of `groups` on a board of width W (feature_kernels.h: vector slots past W,
// or past W-1 for diffs, are never written).
std::vector<int> slots_of(std::uint32_t groups, int W) {
  static_assert(G_BUMPINESS == 1u << SLOT_BUMPINESS && G_HEIGHTS == 1u << SLOT_HEIGHT);
  std::vector<int> slots;
  for (int s = 0; s < SLOT_HEIGHT; ++s)
    if (groups & (1u << s)) slots.push_back(s);  // scalar group bit i owns slot i
  const std::pair<FeatureGroup, std::pair<int, int>> vectors[] = {
      {G_HEIGHTS, {SLOT_HEIGHT, W}},        {G_DIFFS, {SLOT_DIFF, W - 1}},
      {G_COL_HOLES, {SLOT_COL_HOLES, W}},   {G_COL_WELLS, {SLOT_COL_WELLS, W}},
      {G_ROW_FILL, {SLOT_ROW_FILL, kRowFillBuckets}}};
  for (const auto& [group, range] : vectors)
    if (groups & group)
      for (int i = 0; i < range.second; ++i) slots.push_back(range.first + i);
  return slots;
}

// "" when `kernel` equals the reference on every block in every requested slot.
std::string check_kernel(FeatureKernel kernel, std::uint32_t groups, const CandidateBoards& boards) {
  std::vector<std::int32_t> got(SLOT_NB * kBlock), want(SLOT_NB * kBlock);  // (SLOT_NB, kBlock)
  const std::vector<int> slots = slots_of(groups, boards.geometry.width);
  for (int b = 0; b < boards.blocks; ++b) {
    kernel(boards.block(b), groups, got.data());
    features_reference(boards.block(b), groups, want.data());
    for (int s : slots)
      for (int k = 0; k < kBlock; ++k)
        if (got[s * kBlock + k] != want[s * kBlock + k])
          return "block " + std::to_string(b) + " board " + std::to_string(k) + " slot " +
                 std::to_string(s) + ": " + std::to_string(got[s * kBlock + k]) +
                 ", reference " + std::to_string(want[s * kBlock + k]);
  }
  return {};
}

struct FeatureCase {
  const KernelVariant* variant;
  std::uint32_t groups;
  std::map<int, std::string> checks;  // H -> validation error ("" = passed), run once per H
};

void bm_features(benchmark::State& state, FeatureCase& fc) {
  try {
    const CandidateBoards& boards = bench_boards(static_cast<int>(state.range(0)));
    auto [check, fresh] = fc.checks.try_emplace(boards.geometry.height);
    if (fresh) check->second = check_kernel(fc.variant->kernel, fc.groups, boards);
    if (!check->second.empty()) return state.SkipWithError(check->second.c_str());

    std::vector<std::int32_t> out(SLOT_NB * kBlock);  // (SLOT_NB, kBlock)
    int b = 0;
    for (auto _ : state) {
      fc.variant->kernel(boards.block(b), fc.groups, out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
      if (++b == boards.blocks) b = 0;
    }
    state.SetItemsProcessed(state.iterations() * kBlock);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  for (const auto& [prefix, groups] : {std::pair{"BM_Features_", kBctsGroups},
                                       std::pair{"BM_FeaturesAll_", std::uint32_t{G_ALL}}})
    for (const KernelVariant& v : kernel_variants()) {
      if (!v.supported()) continue;
      auto fc = std::make_shared<FeatureCase>(FeatureCase{&v, groups, {}});
      const std::string name = prefix + std::string(v.name);
      benchmark::RegisterBenchmark(name.c_str(), [fc](benchmark::State& s) { bm_features(s, *fc); })
          ->Arg(20)
          ->Arg(10);
    }
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
