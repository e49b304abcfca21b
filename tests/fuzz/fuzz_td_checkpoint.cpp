// Fuzz target: `learn` checkpoints (experiments/td/td_training.h restore_td_checkpoint).
//
// The input is a checkpoint's JSON.  It is restored into a learner of one of three small
// configurations (td44 with uniform or bag7 pieces, the n-tuple network; 4x6 board, 2 games
// x 4 pieces per step), the one whose configuration it names.  InputError is the only error
// the reader may throw.  Whatever restores must write back as a checkpoint that restores to
// the same state, and the learner must then be able to keep training: a value the reader
// let through that the engine cannot play (a board cell, a bag code, a trace index) shows
// up here as a sanitizer report.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_check.h"
#include "json_fields.h"
#include "kernel_variants.h"
#include "td_learner.h"
#include "td_training.h"

namespace {

using Json = nlohmann::json;

tb::td::TdConfig config(const char* learner, tb::Generator generator) {
  tb::Rules rules;
  rules.geometry = tb::Geometry{4, 6};
  rules.generator = generator;
  const Json options = {{"games_per_step", 2}, {"pieces_per_step", 4}};
  return tb::td::make_td_config(learner, "td44", options, rules, 1);
}

const std::array<tb::td::TdConfig, 3>& configs() {
  static const std::array<tb::td::TdConfig, 3> all = {config("tdlambda", tb::Generator::uniform),
                                                      config("tdlambda", tb::Generator::bag7),
                                                      config("ntuple", tb::Generator::uniform)};
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tb::fuzz::check;
  // The checked parser read_json_file uses (depth limit, no repeated key): what it refuses
  // never reaches the restore code.
  Json ck;
  try {
    ck = tb::opt::parse_json(tb::fuzz::as_text(data, size));
  } catch (const tb::InputError&) {
    return 0;
  }
  if (!ck.is_object()) return 0;  // read_json_file refuses these first
  const tb::FeatureKernel kernel = tb::features_scalar;
  for (const tb::td::TdConfig& c : configs()) {
    const Json config_json = tb::td::to_json(c);
    if (!ck.contains("config") || ck["config"] != config_json) continue;
    tb::td::TdLearner learner(c, kernel);
    tb::td::TdRun run;
    try {
      tb::td::restore_td_checkpoint(ck, config_json, learner, run);
    } catch (const tb::InputError&) {
      return 0;
    }
    const Json once = tb::td::td_checkpoint_json(config_json, learner, run);
    tb::td::TdLearner again(c, kernel);
    tb::td::TdRun run_again;
    try {
      tb::td::restore_td_checkpoint(once, config_json, again, run_again);
    } catch (const tb::InputError& e) {
      tb::fuzz::fail("restore_td_checkpoint rejects what td_checkpoint_json wrote", once.dump(), e.what());
    }
    check(again.state() == learner.state(), "the state changed in the round trip", once.dump(), again.state().dump());
    for (int k = 0; k < 3; ++k) learner.step(1);  // the restored games go on
    return 0;
  }
  return 0;
}
