// The bookkeeping that CE, the GAs and PSO share (CMA-ES keeps its own, inside its restartable
// state): the setup, the best candidate told so far, the random generator, the candidates asked
// and not yet told, and the generation count; the Optimizer methods that only read them; and
// the state keys they write and restore.  Each optimizer adds its own distribution or
// population and the checks that go with it.
#pragma once

#include <string>
#include <utility>

#include "optimizer_util.h"

namespace tb::opt::pop {

class Sampler : public Optimizer {
 public:
  std::vector<std::string> stop() const override { return budget_stop(setup_, record_.evaluations); }
  Vector best_x() const override { return record_.best_x; }
  double best_f() const override { return record_.best_f; }
  std::int64_t evaluations() const override { return record_.evaluations; }
  std::int64_t generation() const { return generation_; }

 protected:
  explicit Sampler(const OptimizerSetup& setup)
      : setup_(setup), rng_(Random::from_seed(setup.seed)), pending_(setup.dim, 0) {}

  // `own` (the optimizer's own keys) with the shared ones: optimizer, dim, generation, random,
  // pending, best_x, best_f and evaluations.
  Json state_with(Json own) const {
    own["optimizer"] = name();
    own["dim"] = setup_.dim;
    own["generation"] = generation_;
    own["random"] = rng_.state();
    own["pending"] = json_matrix(pending_);
    record_.save_to(own);
    return own;
  }

  // Restores a state written by state_with: parse_own(state, pending columns, generation) reads
  // and checks the optimizer's own keys (OptimizerError for a mismatch) and returns a function
  // that commits them.  Nothing changes unless every key is good; a malformed value is an
  // OptimizerError "<name>: bad state: ...".
  template <class ParseOwn>
  void restore_with(const Json& state, ParseOwn parse_own) {
    const std::string me(name());
    try {
      check_state(me, state, setup_.dim);
      Matrix pending = matrix_from_json(state.at("pending"), setup_.dim);
      const std::int64_t generation = count_from_json(state, "generation");
      auto commit_own = parse_own(state, pending.cols(), generation);
      Record record;
      record.restore(state);
      Random rng = rng_;
      rng.restore(state.at("random"));
      commit_own();
      pending_ = std::move(pending);
      generation_ = generation;
      record_ = std::move(record);
      rng_ = rng;
    } catch (const Json::exception& e) {
      throw OptimizerError(me + ": bad state: " + e.what());
    }
  }

  OptimizerSetup setup_;
  std::int64_t generation_ = 0;
  Record record_;
  Random rng_;
  Matrix pending_;  // (dim, candidates) asked and not yet told, or (dim, 0)
};

}  // namespace tb::opt::pop
