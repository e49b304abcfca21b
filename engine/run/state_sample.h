// Start states for rollouts (rollout_batch.h), sampled from a policy's own games: CBMPI's
// rollout set is drawn from states the policy visits (Scherrer et al., JMLR 2015, section 5).
#pragma once

#include <cstdint>
#include <vector>

#include "rollout_batch.h"

namespace tb {

// The states of games first_game .. first_game + games - 1 of `config` (its rules, seed and
// cap) played by `searcher`'s policy: in game order, the board and the piece to place before
// every piece whose index (from 0) is a multiple of `every` (>= 1).  One thread.  If `pieces`
// is given, it receives the pieces those games placed, for a learner's budget.
std::vector<RolloutState> sample_states(Searcher& searcher, const GameConfig& config, std::int64_t games,
                                        std::int64_t every, std::uint64_t first_game = 0,
                                        std::int64_t* pieces = nullptr);

}  // namespace tb
