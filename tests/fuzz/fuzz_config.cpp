// Fuzz target: experiment configs (TOML, experiments/compare/experiment_config.h).
//
// There is no TOML writer, so there is no round trip.  Whatever parse_experiment accepts,
// to_json must describe without throwing, and that JSON must serialize (compare writes it
// into report.json).  ConfigError is the only exception parse_experiment may throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "experiment_config.h"
#include "fuzz_check.h"

namespace {
const std::string kOrigin = "fuzz.toml";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(tb::fuzz::as_text(data, size));
  tb::opt::ExperimentConfig c;
  try {
    c = tb::opt::parse_experiment(text, kOrigin);
  } catch (const tb::opt::ConfigError&) {
    return 0;
  }
  tb::fuzz::check(!c.name.empty() && !c.optimizers.empty() && !c.heldout_boards.empty(),
                  "a parsed config has a name, an optimizer and a training board", text);
  const std::string json = tb::opt::to_json(c).dump();
  tb::fuzz::check(!json.empty(), "to_json(config).dump() is empty", text);
  return 0;
}
