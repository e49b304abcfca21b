#include "run_checkpoint.h"

#include <algorithm>
#include <cmath>

#include "checked_number.h"
#include "input_limits.h"
#include "json_fields.h"

namespace tb::opt {
namespace {

using Json = nlohmann::json;
// Counters read back are at most 2^62, so that adding a generation's work cannot overflow.
constexpr std::int64_t kCountLimit = std::int64_t{1} << 62;


// A held-out board's per-game lines and capped game indices, as heldout_json writes them.
void check_game_lists(const Json& h, std::int64_t games, const std::string& at) {
  if (h.is_object() && !h.contains("lines"))
    throw InputError(at + "lines: missing (a result.json written before tetrisbench kept per-game held-out lines; "
                          "run the entry again)");
  const Json& lines = json_member(h, "lines", at + "lines");
  const Json& capped = json_member(h, "capped", at + "capped");
  if (!lines.is_array() || static_cast<std::int64_t>(lines.size()) != games)
    throw InputError(at + "lines must be an array of one line count per game");
  for (const Json& v : lines) json_integer(v, 0, kCountLimit, at + "lines[]");
  if (!capped.is_array() || static_cast<std::int64_t>(capped.size()) != json_integer(json_member(h, "capped_games", at), 0, games, at + "capped_games"))
    throw InputError(at + "capped must list capped_games game indices");
  std::int64_t previous = -1;
  for (const Json& v : capped) {
    const std::int64_t i = json_integer(v, 0, games - 1, at + "capped[]");
    if (i <= previous) throw InputError(at + "capped must be increasing game indices");
    previous = i;
  }
}

}  // namespace

void check_records(const Json& records, std::int64_t generations, const std::string& where) {
  if (!records.is_array() || static_cast<std::int64_t>(records.size()) != generations)
    throw InputError(where + ": records must be an array of one record per generation");
  for (const Json& r : records) {
    for (const char* key : {"generation", "evaluations", "pieces", "games", "capped_games"})
      json_integer(json_member(r, key, where + ": records"), 0, kCountLimit, where + ": records." + key);
    for (const char* key : {"best", "gen_best", "gen_mean", "spread", "seconds"}) {
      const Json& v = json_member(r, key, where + ": records");
      if (!(v.is_null() && std::string_view(key) == "best"))  // best is null before any generation
        json_real(v, -HUGE_VAL, HUGE_VAL, where + ": records." + key);
    }
    check_progress(r, where + ": records");
  }
}

Json blackbox_checkpoint_json(const BlackboxCheckpoint& ck, const Optimizer& opt) {
  return {{"version", kCheckpointVersion},
          {"optimizer", opt.state()},
          {"records", ck.records},
          {"pieces", ck.pieces},
          {"games", ck.games},
          {"generation", ck.generation},
          {"seconds", ck.seconds},
          {"best_training", std::isfinite(ck.best_training) ? Json(ck.best_training) : Json(nullptr)},
          {"best_weights", std::vector<double>(ck.best_x.data(), ck.best_x.data() + ck.best_x.size())}};
}

BlackboxCheckpoint restore_blackbox_checkpoint(const Json& j, const ExperimentConfig& c, Optimizer& opt, int dim,
                                               const std::string& where) {
  const auto field = [&](const char* key) -> const Json& { return json_member(j, key, where + ": " + key); };
  if (field("version") != kCheckpointVersion) throw InputError(where + ": unknown version " + shown(field("version").dump()));
  BlackboxCheckpoint ck;
  ck.pieces = json_integer(field("pieces"), 0, kCountLimit, where + ": pieces");
  ck.games = json_integer(field("games"), 0, kCountLimit, where + ": games");
  ck.generation = json_integer(field("generation"), 0, kCountLimit, where + ": generation");
  ck.seconds = json_real(field("seconds"), 0, HUGE_VAL, where + ": seconds");
  ck.best_training = field("best_training").is_null()
                         ? -HUGE_VAL
                         : json_real(field("best_training"), -HUGE_VAL, HUGE_VAL, where + ": best_training");
  const auto w = json_reals(field("best_weights"), static_cast<std::size_t>(dim), where + ": best_weights");
  ck.best_x = Eigen::Map<const Vector>(w.data(), static_cast<Eigen::Index>(w.size()));
  check_records(field("records"), ck.generation, where);
  ck.records = field("records");
  if ((c.budget_pieces > 0 && ck.pieces > c.budget_pieces) || (c.budget_games > 0 && ck.games > c.budget_games))
    throw InputError(where + ": already past the budget of the config");
  try {
    opt.restore(field("optimizer"));
  } catch (const std::exception& e) {
    throw InputError(where + ": optimizer: " + e.what());
  }
  if (opt.state() != field("optimizer"))
    throw InputError(where + ": optimizer: the state does not read back as written (a value is out of range)");
  return ck;
}

// A result.json read back on resume: it must belong to this entry and run, and hold every
// field the report reads, with the right types and ranges.
void check_run_result(const Json& r, const ExperimentConfig& c, int spec_index, int run, const std::string& where) {
  const auto field = [&](const Json& j, const char* key) -> const Json& {
    return json_member(j, key, where + ": " + key);
  };
  const OptimizerSpec& spec = c.optimizers[static_cast<std::size_t>(spec_index)];
  if (field(r, "label") != spec.label || field(r, "optimizer") != spec.optimizer || field(r, "run") != run)
    throw InputError(where + ": it belongs to another entry or run (label, optimizer, run)");
  const std::int64_t generations = json_integer(field(r, "generations"), 0, kCountLimit, where + ": generations");
  json_integer(field(r, "pieces"), 0, kCountLimit, where + ": pieces");
  json_integer(field(r, "games"), 0, kCountLimit, where + ": games");
  json_real(field(r, "seconds"), 0, HUGE_VAL, where + ": seconds");
  if (!field(r, "best_training").is_null())
    json_real(field(r, "best_training"), -HUGE_VAL, HUGE_VAL, where + ": best_training");
  check_records(field(r, "records"), generations, where);
  if (!field(r, "stop_reasons").is_array()) throw InputError(where + ": stop_reasons must be an array");
  for (const Json& s : field(r, "stop_reasons"))
    if (!s.is_string()) throw InputError(where + ": stop_reasons must be strings");
  for (Geometry g : c.heldout_boards) {
    const std::string board = std::to_string(g.width) + "x" + std::to_string(g.height);
    const Json& h = json_member(field(r, "held_out"), board, where + ": held_out." + board);
    const std::string at = where + ": held_out." + board + ".";
    const std::int64_t games = json_integer(field(h, "games"), 1, limits::kMaxGames, at + "games");
    json_integer(field(h, "capped_games"), 0, limits::kMaxGames, at + "capped_games");
    check_game_lists(h, games, at);
    json_real(field(h, "mean_lines"), 0, HUGE_VAL, at + "mean_lines");
    const Json& ci = field(h, "ci95");
    if (!ci.is_array() || ci.size() != 2 || !std::all_of(ci.begin(), ci.end(), [](const Json& v) {
          return v.is_null() || v.is_number();
        }))
      throw InputError(at + "ci95 must be two numbers (or null)");
  }
}


}  // namespace tb::opt
