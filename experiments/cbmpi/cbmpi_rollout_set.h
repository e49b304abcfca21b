// CBMPI's rollout set (step 1 of cbmpi.h): start states from games of the current policy, and
// optionally a subsample whose board heights are as even as the pool allows.
//
// Scherrer et al. (JMLR 2015, section 6.2) sample their states from a good policy's games and
// then subsample them "so that the board height distribution is more uniform", which they
// found to improve performance a lot.  A good policy keeps its board low, so a set of its
// states holds few high boards, and a policy fitted to such a set is rarely told what to do
// when the board is high.  With `height_pool` P > 1 the sampled games give P x N states and
// balance_heights keeps N of them; P = 1 keeps every sampled state (the pool is the set).
#pragma once

#include <cstdint>
#include <vector>

#include "cbmpi_config.h"
#include "feature_kernels.h"
#include "policy.h"
#include "rollout_batch.h"

namespace tb::cbmpi {

// Iteration k's rollout set: height_pool x N states of games of `policy` (every sample_every-th
// piece; game g draws stream (stream_key(seed ^ kSampleStream, k), g); games in order until the
// pool is full, each capped so that it cannot give more than the states still missing), then
// balance_heights down to N.  Adds the pieces played to `pieces`.  One thread.
std::vector<RolloutState> sample_rollout_set(const Policy& policy, const CbmpiConfig& c, FeatureKernel kernel,
                                             std::int64_t k, std::int64_t& pieces);

// The indices (ascending) of `n` of the items whose heights are given (each >= 0), chosen so
// that every height gets q items, or all of its items if it has fewer, with q as large as
// the count n allows; the heights that can give more share the remainder, lowest heights
// first.  Within a height the chosen items are spread evenly over its items in order.
// n >= heights.size() keeps every item.  A pure function: no randomness.
std::vector<std::int64_t> balance_heights(const std::vector<int>& heights, std::int64_t n);

}  // namespace tb::cbmpi
