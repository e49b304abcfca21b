// BM_Decide_<policy>_<search>[_<kernel>]/<H>: one decision (Searcher::choose) per iteration on
// the 10xH corpus boards in turn.  items/s = decisions.  Without a kernel suffix the best
// kernel this CPU supports is used (the label names it).
//
// Before timing, the first kChecked corpus boards must get the same placement as with the
// reference kernel (the oracle), else the benchmark is skipped with an error.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "corpus.h"
#include "isa.h"
#include "kernel_variants.h"
#include "policy.h"
#include "search.h"

namespace {

using namespace tb;

constexpr int kWidth = 10;
constexpr int kChecked = 64;

struct DecideCase {
  std::string policy;
  int lookahead;                     // 0 greedy, 1 2-ply
  std::string kernel;                // empty: best_kernel()
  std::map<int, std::string> checks; // H -> validation error ("" = passed), run once per H
};

std::string describe(Placement p) {
  return "(orientation " + std::to_string(p.orientation) + ", column " + std::to_string(p.column) + ")";
}

// "" when the kernel's choices match the reference kernel's on the first boards.
std::string check_choices(const Policy& policy, const Rules& rules, FeatureKernel kernel,
                          const Corpus& corpus) {
  Searcher fast(policy, rules, kernel);
  Searcher oracle(policy, rules, features_reference);
  const int n = std::min(kChecked, static_cast<int>(corpus.entries.size()));
  for (int i = 0; i < n; ++i) {
    const CorpusEntry& e = corpus.entries[i];
    const Placement got = fast.choose(e.board, e.current, e.next, 0.0, nullptr);
    const Placement want = oracle.choose(e.board, e.current, e.next, 0.0, nullptr);
    if (!(got == want))
      return "corpus board " + std::to_string(i) + ": chose " + describe(got) +
             ", the reference kernel chose " + describe(want);
  }
  return {};
}

void bm_decide(benchmark::State& state, DecideCase& dc) {
  try {
    Rules rules;
    rules.geometry = {kWidth, static_cast<int>(state.range(0))};
    rules.lookahead = dc.lookahead;
    const Corpus& corpus = bench_corpus(rules.geometry);
    const Policy policy = load_policy(dc.policy);
    const KernelVariant& kernel = choose_isa(dc.kernel).variant();
    auto [check, fresh] = dc.checks.try_emplace(rules.geometry.height);
    if (fresh) check->second = check_choices(policy, rules, kernel.kernel, corpus);
    if (!check->second.empty()) return state.SkipWithError(check->second.c_str());

    Searcher searcher(policy, rules, kernel.kernel);
    std::size_t i = 0;
    for (auto _ : state) {
      const CorpusEntry& e = corpus.entries[i];
      benchmark::DoNotOptimize(searcher.choose(e.board, e.current, e.next, 0.0, nullptr));
      if (++i == corpus.entries.size()) i = 0;
    }
    state.SetItemsProcessed(state.iterations());
    state.SetLabel(std::string(kernel.name));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void add(const std::string& name, const std::string& policy, int lookahead,
         const std::string& kernel, const std::vector<int>& heights) {
  auto dc = std::make_shared<DecideCase>(DecideCase{policy, lookahead, kernel, {}});
  auto* b = benchmark::RegisterBenchmark(name.c_str(), [dc](benchmark::State& s) { bm_decide(s, *dc); });
  for (int h : heights) b->Arg(h);
}

void register_benchmarks() {
  for (const std::string policy : {"dellacherie", "bcts", "lee"}) {
    const bool bcts = policy == "bcts";
    add("BM_Decide_" + policy + "_greedy", policy, 0, "", bcts ? std::vector{20, 10} : std::vector{20});
    if (bcts) add("BM_Decide_bcts_greedy_scalar", policy, 0, "scalar", {20});
    add("BM_Decide_" + policy + "_2ply", policy, 1, "", {20});
  }
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
