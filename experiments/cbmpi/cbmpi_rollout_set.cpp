#include "cbmpi_rollout_set.h"

#include <algorithm>

#include "cbmpi.h"
#include "rng.h"
#include "state_sample.h"

namespace tb::cbmpi {

std::vector<RolloutState> sample_rollout_set(const Policy& policy, const CbmpiConfig& c, FeatureKernel kernel,
                                             std::int64_t k, std::int64_t& pieces) {
  Searcher searcher(policy, c.rules, kernel);
  GameConfig game;
  game.rules = c.rules;
  game.seed = stream_key(c.seed ^ kSampleStream, static_cast<std::uint64_t>(k));
  const std::int64_t pool = c.states * c.height_pool;
  std::vector<RolloutState> states;
  for (std::uint64_t g = 0; static_cast<std::int64_t>(states.size()) < pool; ++g) {
    // States come before pieces 0, every, 2 every, ... below the cap: at most the ones missing.
    game.max_pieces = (pool - static_cast<std::int64_t>(states.size())) * c.sample_every;
    std::int64_t played = 0;
    const auto got = sample_states(searcher, game, 1, c.sample_every, g, &played);
    states.insert(states.end(), got.begin(), got.end());
    pieces += played;
  }
  if (c.height_pool == 1) return states;
  std::vector<int> heights(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) heights[i] = states[i].board.wall_height(c.rules.geometry.width);
  std::vector<RolloutState> kept;
  kept.reserve(static_cast<std::size_t>(c.states));
  for (std::int64_t i : balance_heights(heights, c.states)) kept.push_back(states[static_cast<std::size_t>(i)]);
  return kept;
}

std::vector<std::int64_t> balance_heights(const std::vector<int>& heights, std::int64_t n) {
  const auto total = static_cast<std::int64_t>(heights.size());
  std::vector<std::int64_t> all(heights.size());
  for (std::int64_t i = 0; i < total; ++i) all[i] = i;
  if (n >= total) return all;
  // Items of each height, in order.
  const int top = *std::max_element(heights.begin(), heights.end());
  std::vector<std::vector<std::int64_t>> by_height(static_cast<std::size_t>(top) + 1);
  for (std::int64_t i = 0; i < total; ++i) by_height[static_cast<std::size_t>(heights[i])].push_back(i);
  // Water-filling: raise the quota q while the heights' takes min(count, q) fit in n.
  const auto take_at = [&](std::int64_t q) {
    std::int64_t sum = 0;
    for (const auto& items : by_height) sum += std::min<std::int64_t>(static_cast<std::int64_t>(items.size()), q);
    return sum;
  };
  std::int64_t lo = 0, hi = n;  // take_at(lo) <= n; find the largest such q
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (take_at(mid) <= n) lo = mid;
    else hi = mid - 1;
  }
  std::int64_t extra = n - take_at(lo);  // one more item for the lowest heights that have one
  std::vector<std::int64_t> chosen;
  chosen.reserve(static_cast<std::size_t>(n));
  for (const auto& items : by_height) {
    const auto count = static_cast<std::int64_t>(items.size());
    std::int64_t take = std::min(count, lo);
    if (count > lo && extra > 0) {
      ++take;
      --extra;
    }
    // Evenly spaced over the height's items: item floor(j * count / take), j = 0 .. take - 1.
    for (std::int64_t j = 0; j < take; ++j) chosen.push_back(items[static_cast<std::size_t>(j * count / take)]);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace tb::cbmpi
