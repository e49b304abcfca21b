// Fuzz target: what `compare --resume` reads back from a results folder
// (experiments/compare/run_checkpoint.h): a run's checkpoint.json and result.json, and metadata.json.
//
// The experiment is fixed (kConfig below, the one the seed corpus was made with: one entry
// per black-box optimizer).  The input is one JSON object:
// - with an "optimizer" state it is a checkpoint: restored into the entry whose optimizer it
//   names.  Whatever restores must write back as a checkpoint that restores to the same
//   state, and the optimizer must then go on (ask, tell);
// - with a "label" it is a run result: checked for every entry, and one that passes must
//   build a report;
// - with an "experiment" it is run metadata: compared with the config as --resume does.
// InputError is the only error these readers may throw.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "compare_report.h"
#include "experiment_config.h"
#include "feature_set.h"
#include "fuzz_check.h"
#include "json_fields.h"
#include "run_checkpoint.h"

namespace {

using Json = nlohmann::json;
using namespace tb::opt;

constexpr const char* kConfig = R"(name = "fuzz"
features = "lee"
runs = 1
seed = 5
[rules]
board = "6x8"
[fitness]
games = 2
max_pieces = 100
[budget]
pieces = 20000
[heldout]
games = 2
max_pieces = 200
[[optimizer]]
optimizer = "ce"
options = { samples = 6, elite = 0.5 }
[[optimizer]]
optimizer = "cmaes"
options = { lambda = 6 }
[[optimizer]]
optimizer = "ga"
options = { population = 6 }
[[optimizer]]
optimizer = "pso"
options = { swarm = 6 }
)";

const ExperimentConfig& experiment() {
  static const ExperimentConfig c = parse_experiment(kConfig, "fuzz.toml");
  return c;
}

std::unique_ptr<Optimizer> build(const OptimizerSpec& s, const ExperimentConfig& c) {
  return make_optimizer(s.optimizer, entry_setup(c, s));
}

void checkpoint(const Json& j, const ExperimentConfig& c) {
  const Json& state = j["optimizer"];
  if (!state.is_object() || !state.contains("optimizer")) return;
  for (const OptimizerSpec& s : c.optimizers) {
    if (state["optimizer"] != s.optimizer) continue;
    auto opt = build(s, c);
    const int dim = static_cast<int>(opt->ask().rows());
    opt = build(s, c);
    BlackboxCheckpoint ck;
    try {
      ck = restore_blackbox_checkpoint(j, c, *opt, dim, "checkpoint");
    } catch (const tb::InputError&) {
      return;
    }
    const Json once = blackbox_checkpoint_json(ck, *opt);
    auto again = build(s, c);
    try {
      restore_blackbox_checkpoint(once, c, *again, dim, "checkpoint");
    } catch (const tb::InputError& e) {
      tb::fuzz::fail("restore_blackbox_checkpoint rejects what blackbox_checkpoint_json wrote", once.dump(), e.what());
    }
    tb::fuzz::check(again->state() == opt->state(), "the optimizer state changed in the round trip", once.dump(),
                    again->state().dump());
    const Matrix X = opt->ask();  // the restored run goes on
    opt->tell(X, Vector::Zero(X.cols()));
    (void)opt->stop();
    return;
  }
}

void result(const Json& j, const ExperimentConfig& c) {
  for (int k = 0; k < static_cast<int>(c.optimizers.size()); ++k) {
    try {
      check_run_result(j, c, k, 0, "result");
    } catch (const tb::InputError&) {
      continue;
    }
    ExperimentConfig one = c;
    one.optimizers = {c.optimizers[static_cast<std::size_t>(k)]};
    (void)build_report(one, {j}, Json::object()).dump();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The checked parser read_json_file uses (depth limit, no repeated key): what it refuses
  // never reaches the restore code.
  Json j;
  try {
    j = tb::opt::parse_json(tb::fuzz::as_text(data, size));
  } catch (const tb::InputError&) {
    return 0;
  }
  if (!j.is_object()) return 0;  // read_json_file refuses these first
  const ExperimentConfig& c = experiment();
  if (j.contains("optimizer")) checkpoint(j, c);
  if (j.contains("label")) result(j, c);
  if (j.contains("experiment")) (void)(j["experiment"] == to_json(c));
  return 0;
}
