#include "td_training.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "checked_number.h"
#include "file_io.h"
#include "json_fields.h"

namespace tb::td {
namespace {

using Json = nlohmann::json;
constexpr int kCheckpointVersion = 3;  // 2: own init and exploration streams; 3: one trace entry per index

// Our defaults: a normalized (NLMS) step, article 2's gamma 0.9 for the linear models, batches
// of 8 games x 16 pieces.  The n-tuple network keeps a longer horizon and explores a little
// (its tables start at 0, so without exploration every placement ties and nothing is ever
// learned).  Chosen on 10x10 by the sweeps in docs/td.md; article 2's setup is the preset.
Json learner_defaults(const std::string& learner) {
  Json d = {{"alpha", 0.01},  {"normalized", true},  {"gamma", 0.9},        {"lambda", 0.0},
            {"epsilon", 0.0}, {"init_scale", 0.005}, {"games_per_step", 8}, {"pieces_per_step", 16},
            {"max_pieces_per_game", 0}};
  if (learner == "tdlambda") d["lambda"] = 0.7;
  if (learner == "ntuple") {
    d["alpha"] = 0.02;
    d["gamma"] = 0.99;
    d["lambda"] = 0.7;
    d["epsilon"] = 0.01;
  }
  return d;
}

// The period records of a checkpoint: the fields learn's CSV and compare's report read.
void check_periods(const Json& records) {
  if (!records.is_array()) throw InputError("records: expected an array");
  for (const Json& r : records) {
    for (const char* key : {"period", "pieces", "episodes", "ended", "capped"})
      opt::json_integer(opt::json_member(r, key, "records"), 0, kInt64Max, std::string("records.") + key);
    for (const char* key : {"mean_lines", "seconds"})
      opt::json_real(opt::json_member(r, key, "records"), 0, HUGE_VAL, std::string("records.") + key);
    opt::check_progress(r, "records");
  }
}

// An option of the right type; integers are range-checked before they are narrowed, so a
// value past 2^31 is an error, never a wrapped count.  check_config() checks the ranges.
template <typename T>
T get(const Json& j, const char* key) {
  const Json& v = j.at(key);
  const auto wrong = [&] { return InputError(std::string("td option '") + key + "' has the wrong type"); };
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw wrong();
    return v.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) throw wrong();
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                               : v.get<std::int64_t>() < std::numeric_limits<T>::min() ||
                                     v.get<std::int64_t>() > std::numeric_limits<T>::max())
      throw InputError(std::string("td option '") + key + "' is out of range");
    return v.get<T>();
  } else {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      throw InputError(std::string("td option '") + key + "' must be a finite number");
    return v.get<T>();
  }
}

}  // namespace

bool is_td_learner(const std::string& name) { return name == "td0" || name == "tdlambda" || name == "ntuple"; }

Json td_preset(const std::string& name) {
  if (name == "article2")
    return {{"alpha", 0.001},     {"normalized", false},     {"gamma", 0.9},
            {"lambda", 0.0},      {"epsilon", 0.0},          {"games_per_step", 1},
            {"pieces_per_step", 1}, {"init_scale", 0.005}};
  throw InputError("unknown preset '" + name + "' (article2)");
}

TdConfig make_td_config(const std::string& learner, const std::string& features, const Json& options,
                        const Rules& rules, std::uint64_t seed) {
  if (!is_td_learner(learner)) throw InputError("unknown learner '" + learner + "' (td0, tdlambda or ntuple)");
  if (!options.is_object()) throw InputError("td options must be an object");
  Json o = learner_defaults(learner);
  for (const auto& [key, value] : options.items()) {
    if (!o.contains(key)) throw InputError("unknown td option '" + key + "'");
    o[key] = value;
  }
  TdConfig c;
  c.model = learner == "ntuple" ? "ntuple" : features;
  c.rules = rules;
  c.seed = seed;
  c.alpha = get<double>(o, "alpha");
  c.normalized = get<bool>(o, "normalized");
  c.gamma = get<double>(o, "gamma");
  c.lambda = get<double>(o, "lambda");
  c.epsilon = get<double>(o, "epsilon");
  c.init_scale = get<double>(o, "init_scale");
  c.games_per_step = get<int>(o, "games_per_step");
  c.pieces_per_step = get<int>(o, "pieces_per_step");
  c.max_pieces_per_game = get<std::int64_t>(o, "max_pieces_per_game");
  if (learner == "td0" && c.lambda != 0.0) throw InputError("td0 has lambda 0; use tdlambda");
  if (learner != "ntuple") afterstate_set(features);
  check_config(c);
  return c;
}

Json to_json(const TdConfig& c) {
  return {{"model", c.model},
          {"rules", rule_set_name(c.rules)},
          {"board", size_name(c.rules.geometry)},
          {"alpha", c.alpha},
          {"normalized", c.normalized},
          {"gamma", c.gamma},
          {"lambda", c.lambda},
          {"epsilon", c.epsilon},
          {"init_scale", c.init_scale},
          {"seed", c.seed},
          {"max_pieces_per_game", c.max_pieces_per_game},
          {"games_per_step", c.games_per_step},
          {"pieces_per_step", c.pieces_per_step}};
}

Json to_json(const TdPeriod& p) {
  return {{"period", p.period}, {"pieces", p.pieces},         {"episodes", p.episodes}, {"ended", p.ended},
          {"mean_lines", p.mean_lines}, {"capped", p.capped}, {"seconds", p.seconds}};
}

Json td_checkpoint_json(const Json& config_json, const TdLearner& learner, const TdRun& run) {
  return {{"version", kCheckpointVersion}, {"config", config_json}, {"learner", learner.state()},
          {"records", run.records},        {"seconds", run.seconds}};
}

void restore_td_checkpoint(const Json& ck, const Json& config_json, TdLearner& learner, TdRun& run) {
  const auto field = [&](const char* key) -> const Json& { return opt::json_member(ck, key, key); };
  if (field("version") != kCheckpointVersion) throw InputError("version: unknown version " + shown(field("version").dump()));
  if (field("config") != config_json) throw InputError("config: it was made with another configuration");
  check_periods(field("records"));
  const double seconds = opt::json_real(field("seconds"), 0, HUGE_VAL, "seconds");
  learner.restore(field("learner"));
  if (learner.state() != field("learner")) throw InputError("learner: the state does not read back as written");
  run.records = field("records");
  run.seconds = seconds;
}

TdRun run_td(const TdRunSpec& spec, int threads, FeatureKernel kernel, const TdProgressFn& progress) {
  const std::int64_t per_step = static_cast<std::int64_t>(spec.config.games_per_step) * spec.config.pieces_per_step;
  if (spec.budget_pieces < per_step)
    throw InputError("a budget of " + std::to_string(spec.budget_pieces) + " pieces is less than one step (" +
                                std::to_string(per_step) + " = games_per_step x pieces_per_step)");
  TdRun run;
  run.learner = std::make_unique<TdLearner>(spec.config, kernel);
  TdLearner& learner = *run.learner;
  const Json config_json = to_json(spec.config);
  std::int64_t period = 0;
  if (!spec.checkpoint.empty() && path_exists(spec.checkpoint)) {
    // Untrusted input: read bounded, every field checked (TdLearner::restore), and the state
    // must write back to exactly what was read.  Errors name the file and the field.
    try {
      restore_td_checkpoint(opt::read_json_file(spec.checkpoint, "checkpoint"), config_json, learner, run);
    } catch (const InputError& e) {
      throw InputError("cannot resume from checkpoint '" + spec.checkpoint + "': " + e.what());
    }
    period = static_cast<std::int64_t>(run.records.size());
    run.resumed = true;
    if (learner.pieces() > spec.budget_pieces)
      throw InputError("checkpoint " + spec.checkpoint + " is already past the budget (" +
                               std::to_string(learner.pieces()) + " > " + std::to_string(spec.budget_pieces) +
                               " pieces)");
  }
  const std::int64_t every = std::max<std::int64_t>(spec.period_pieces, per_step);
  TdPeriod cur;
  double lines = 0;
  auto start = std::chrono::steady_clock::now();
  while (learner.pieces() + per_step <= spec.budget_pieces) {
    for (const Episode& e : learner.step(threads)) {
      ++cur.ended;
      lines += static_cast<double>(e.lines);
      cur.capped += e.capped;
    }
    const bool last = learner.pieces() + per_step > spec.budget_pieces;
    if (learner.pieces() < (period + 1) * every && !last) continue;
    const auto now = std::chrono::steady_clock::now();
    run.seconds += std::chrono::duration<double>(now - start).count();
    start = now;
    cur.period = period++;
    cur.pieces = learner.pieces();
    cur.episodes = learner.episodes();
    cur.mean_lines = cur.ended ? lines / static_cast<double>(cur.ended) : 0.0;
    cur.seconds = run.seconds;
    run.records.push_back(to_json(cur));
    if (spec.evaluate) run.records.back()["progress"] = spec.evaluate(learner);
    if (!spec.checkpoint.empty())
      write_file_atomically(spec.checkpoint, td_checkpoint_json(config_json, learner, run).dump());
    if (progress) progress(learner, cur);
    cur = TdPeriod{};
    lines = 0;
  }
  return run;
}

}  // namespace tb::td
