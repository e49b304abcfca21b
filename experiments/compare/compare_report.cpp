#include "compare_report.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "rng.h"
#include "stats.h"

namespace tb::opt {
namespace {

using Json = nlohmann::json;

inline constexpr std::uint64_t kBootstrapSeed = 0x424f4f5453545250ull;  // "BOOTSTRP"

Json nullable(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// A bootstrap interval as report.json holds it; null when there are fewer than two values.
Json interval_json(const std::vector<double>& v, std::uint64_t seed) {
  if (v.size() < 2) return nullptr;
  const BootstrapCi ci = bootstrap_mean_ci95(v, seed);
  return {{"low", nullable(ci.low)}, {"high", nullable(ci.high)}, {"method", ci.method},
          {"resamples", ci.resamples}, {"seed", ci.seed}, {"n", v.size()}};
}

// Held-out results of one optimizer on one board, across its runs.  `seed` keys its bootstrap
// streams (one for the interval over runs, one for the interval over games).
Json held_out(const std::vector<const Json*>& runs, const std::string& board, std::uint64_t seed) {
  std::vector<double> means, lines;
  std::vector<std::uint8_t> capped_flags;
  std::int64_t games = 0, capped = 0;
  Json per_run = Json::array();
  for (const Json* r : runs) {
    const Json& h = (*r)["held_out"][board];
    means.push_back(h["mean_lines"].get<double>());
    games += h["games"].get<std::int64_t>();
    capped += h["capped_games"].get<std::int64_t>();
    const std::size_t first = lines.size();
    for (const Json& l : h["lines"]) lines.push_back(l.get<double>());
    capped_flags.resize(lines.size(), 0);
    for (const Json& i : h["capped"]) capped_flags[first + i.get<std::size_t>()] = 1;
    Json summary = h;
    summary.erase("lines");  // the pooled games below keep what the report needs
    summary.erase("capped");
    per_run.push_back(summary);
  }
  const CensoredSummary km = censored_summary(lines, capped_flags);
  const MeanCi across = mean_ci95(means);
  return {{"board", board},
          {"mean_lines", across.mean},
          {"median_lines", median(means)},
          {"ci95_runs", interval_json(means, stream_key(seed, 0))},
          {"ci95_games", interval_json(lines, stream_key(seed, 1))},
          {"games", games},
          {"capped_games", capped},
          {"censoring",
           {{"capped_games", km.capped},
            {"restricted_mean_lines", nullable(km.restricted_mean)},
            {"median_lines", nullable(km.median)},
            {"median_reached", km.median_reached}}},
          {"runs", means.size()},
          {"run_means", means},
          {"run_stddev", nullable(across.stddev)},
          {"per_run", per_run}};
}

bool recorded_progress(const std::vector<const Json*>& runs) {
  return std::any_of(runs.begin(), runs.end(), [](const Json* r) {
    return std::any_of((*r)["records"].begin(), (*r)["records"].end(),
                       [](const Json& rec) { return rec.contains("progress"); });
  });
}

// Each run's training pieces to `target`: the pieces at its first record whose progress mean
// reached it (an event), else all the pieces it simulated (censored at the budget it spent).
TimesToEvent pieces_to_target(const std::vector<const Json*>& runs, double target) {
  TimesToEvent out;
  for (const Json* r : runs) {
    const auto& records = (*r)["records"];
    const auto hit = std::find_if(records.begin(), records.end(), [&](const Json& rec) {
      return rec.contains("progress") && rec["progress"]["mean_lines"].get<double>() >= target;
    });
    out.time.push_back((hit != records.end() ? *hit : *r)["pieces"].get<double>());
    out.event.push_back(hit != records.end());
  }
  return out;
}

// One row of an entry's target table.  aRT (Hansen et al., COCO): all pieces spent by all runs
// (to their success, or their whole run), per success.
Json target_row(double target, const TimesToEvent& t) {
  std::vector<double> hits;
  double spent = 0;
  for (std::size_t i = 0; i < t.time.size(); ++i) {
    if (t.event[i]) hits.push_back(t.time[i]);
    spent += t.time[i];
  }
  return {{"target", target},
          {"successes", hits.size()},
          {"runs", t.time.size()},
          {"median_pieces", nullable(median(hits))},
          {"aRT", hits.empty() ? Json(nullptr) : Json(spent / static_cast<double>(hits.size()))}};
}

// Per target, the runs' pieces to reach it; empty when no run recorded progress (external entries).
std::vector<TimesToEvent> times_to_targets(const std::vector<const Json*>& runs, const std::vector<double>& targets) {
  std::vector<TimesToEvent> out;
  if (recorded_progress(runs))
    for (double target : targets) out.push_back(pieces_to_target(runs, target));
  return out;
}

Json target_table(const std::vector<TimesToEvent>& times, const std::vector<double>& targets, std::size_t runs) {
  Json out = Json::array();
  for (std::size_t t = 0; t < targets.size(); ++t)
    out.push_back(times.empty() ? Json{{"target", targets[t]}, {"runs", runs}, {"successes", nullptr}}
                                : target_row(targets[t], times[t]));
  return out;
}

// The held-out comparison on the training board: the entry with the highest mean is the
// candidate; every other entry is tested against it (two-sided Mann-Whitney U on per-run means),
// the p values Holm-adjusted together; "best" is named only if every adjusted p is below alpha.
Json comparisons(Json& optimizers, const std::vector<std::vector<double>>& run_means) {
  constexpr double kAlpha = 0.05;
  std::size_t top = 0;
  for (std::size_t i = 1; i < optimizers.size(); ++i)
    if (optimizers[i]["held_out"]["mean_lines"].get<double>() > optimizers[top]["held_out"]["mean_lines"].get<double>())
      top = i;
  std::vector<double> p;
  std::vector<std::size_t> others;
  std::vector<MannWhitney> tests;
  for (std::size_t i = 0; i < optimizers.size(); ++i)
    if (i != top) {
      others.push_back(i);
      tests.push_back(mann_whitney(run_means[i], run_means[top]));
      p.push_back(tests.back().p);
    }
  const std::vector<double> adjusted = holm_adjust(p);
  const double m = static_cast<double>(others.size());
  bool separated = !others.empty();
  double design_min_p = 0;
  for (std::size_t k = 0; k < others.size(); ++k) {
    const std::size_t i = others[k];
    const MannWhitney& mw = tests[k];
    const double min_p = mann_whitney_min_p(static_cast<int>(run_means[i].size()), static_cast<int>(run_means[top].size()));
    design_min_p = std::max(design_min_p, min_p);
    const Json& hi = optimizers[i]["held_out"];
    const Json& ht = optimizers[top]["held_out"];
    // Runs per entry for this difference at Holm's strictest level, from the observed spread
    // (a planning figure for each pair: one pair's tiny difference must not hide another's).
    const auto sd = [](const Json& h) { return h["run_stddev"].is_null() ? NAN : h["run_stddev"].get<double>(); };
    const int needed = runs_needed(hi["mean_lines"].get<double>(), sd(hi), ht["mean_lines"].get<double>(), sd(ht),
                                   kAlpha / m);
    const bool significant = adjusted[k] < kAlpha;
    separated = separated && significant;
    optimizers[i]["vs_top"] = {{"against", optimizers[top]["label"]},
                               {"u", mw.u},
                               {"p", mw.p},
                               {"p_holm", adjusted[k]},
                               {"exact", mw.exact},
                               {"min_p", min_p},
                               {"significant", significant},
                               {"runs_needed", needed > 0 ? Json(needed) : Json(nullptr)},
                               {"samples", "per-run held-out means"}};
  }
  optimizers[top]["vs_top"] = nullptr;
  return {{"alpha", kAlpha},
          {"adjustment", "holm"},
          {"test", "two-sided Mann-Whitney U of per-run held-out means against the highest mean"},
          {"comparisons", others.size()},
          {"top", optimizers[top]["label"]},
          {"best", separated ? optimizers[top]["label"] : Json(nullptr)},
          {"largest_min_p", others.empty() ? Json(nullptr) : Json(design_min_p)}};
}

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The entry that looks fastest to target t: the most successes, ties broken by the smallest aRT,
// then by config order; kNone when no entry reached the target.
std::size_t target_leader(const Json& optimizers, std::size_t t) {
  std::size_t leader = kNone;
  for (std::size_t i = 0; i < optimizers.size(); ++i) {
    const Json& row = optimizers[i]["targets"][t];
    if (row["successes"].is_null() || row["successes"].get<std::int64_t>() == 0) continue;
    if (leader == kNone) {
      leader = i;
      continue;
    }
    const Json& best = optimizers[leader]["targets"][t];
    const auto successes = row["successes"].get<std::int64_t>(), best_successes = best["successes"].get<std::int64_t>();
    if (successes > best_successes ||
        (successes == best_successes && row["aRT"].get<double>() < best["aRT"].get<double>()))
      leader = i;
  }
  return leader;
}

// Target t's comparisons: every other entry with progress records against the leader, by the
// log-rank test of the runs' pieces to the target (failures censored at their pieces), the p
// values Holm-adjusted together; "fastest" is named only if every other entry is significantly
// slower.  Writes each entry's `vs_fastest` (null for the leader and the entries not compared).
Json compare_on_target(Json& optimizers, const std::vector<std::vector<TimesToEvent>>& times, std::size_t t) {
  constexpr double kAlpha = 0.05;
  for (Json& o : optimizers) o["targets"][t]["vs_fastest"] = nullptr;
  const std::size_t leader = target_leader(optimizers, t);
  std::vector<std::size_t> others;
  std::vector<LogRank> tests;
  std::vector<double> p;
  for (std::size_t i = 0; leader != kNone && i < optimizers.size(); ++i)
    if (i != leader && !times[i].empty()) {
      others.push_back(i);
      tests.push_back(log_rank(times[i][t], times[leader][t]));
      p.push_back(tests.back().p);
    }
  const std::vector<double> adjusted = holm_adjust(p);
  const Json label = leader == kNone ? Json(nullptr) : optimizers[leader]["label"];
  bool separated = !others.empty();
  for (std::size_t k = 0; k < others.size(); ++k) {
    const bool significant = adjusted[k] < kAlpha;
    // The test is two-sided: an entry significantly sooner than the leader (O - E > 0, possible
    // when it has fewer successes or a larger aRT but earlier ones) leaves no entry fastest.
    separated = separated && significant && tests[k].observed_minus_expected < 0;
    optimizers[others[k]]["targets"][t]["vs_fastest"] = {{"against", label},
                                                         {"chi2", tests[k].chi2},
                                                         {"p", tests[k].p},
                                                         {"p_holm", adjusted[k]},
                                                         {"significant", significant},
                                                         {"observed_minus_expected", tests[k].observed_minus_expected}};
  }
  return {{"target", optimizers[0]["targets"][t]["target"]},
          {"alpha", kAlpha},
          {"adjustment", "holm"},
          {"test", "two-sided log-rank of the runs' pieces to the target, failures censored at their pieces, "
                   "against the leader"},
          {"comparisons", others.size()},
          {"leader", label},
          {"fastest", separated ? label : Json(nullptr)}};
}

}  // namespace

std::string significance_warning(const ExperimentConfig& c) {
  const std::size_t entries = c.optimizers.size();
  if (entries < 2) return "";
  const double level = 0.05 / static_cast<double>(entries - 1);  // Holm's first step
  const double min_p = mann_whitney_min_p(c.runs, c.runs);
  if (min_p <= level) return "";
  const int enough = mann_whitney_min_runs(level);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.3g", min_p);
  return "with " + std::to_string(c.runs) + " run(s) per entry the smallest p a comparison can reach is " + buf +
         ", above the 0.05 / " + std::to_string(entries - 1) +
         " that Holm's adjustment asks of the first comparison: the report cannot name a best; " +
         std::to_string(enough) + " runs per entry are the least that could";
}

Json build_report(const ExperimentConfig& c, const std::vector<Json>& runs, const Json& metadata) {
  const std::string board = size_name(c.rules.geometry);
  Json optimizers = Json::array();
  std::vector<std::vector<double>> run_means;
  std::vector<std::vector<TimesToEvent>> times;  // (entry, target); empty for no progress records
  for (std::size_t e = 0; e < c.optimizers.size(); ++e) {
    const OptimizerSpec& spec = c.optimizers[e];
    std::vector<const Json*> mine;
    for (const Json& r : runs)
      if (r["label"] == spec.label) mine.push_back(&r);
    Json boards = Json::object();
    for (std::size_t b = 0; b < c.heldout_boards.size(); ++b)
      boards[size_name(c.heldout_boards[b])] =
          held_out(mine, size_name(c.heldout_boards[b]), stream_key(c.seed ^ kBootstrapSeed, e * 64 + b));
    std::vector<double> pieces, seconds, games;
    Json stops = Json::array(), best_training = Json::array();
    for (const Json* r : mine) {
      pieces.push_back((*r)["pieces"].get<double>());
      games.push_back((*r)["games"].get<double>());
      seconds.push_back((*r)["seconds"].get<double>());
      stops.push_back((*r)["stop_reasons"]);
      best_training.push_back((*r)["best_training"]);
    }
    run_means.push_back(boards[board]["run_means"].get<std::vector<double>>());
    times.push_back(times_to_targets(mine, c.targets));
    optimizers.push_back({{"label", spec.label},
                          {"optimizer", spec.optimizer},
                          {"features", spec.features},
                          {"runs", mine.size()},
                          {"held_out", boards[board]},
                          {"held_out_boards", boards},
                          {"pieces", {{"mean", mean_ci95(pieces).mean}, {"per_run", pieces}}},
                          {"games", {{"mean", mean_ci95(games).mean}, {"per_run", games}}},
                          {"seconds", {{"mean", mean_ci95(seconds).mean}, {"per_run", seconds}}},
                          {"best_training", best_training},
                          {"stop_reasons", stops},
                          {"targets", target_table(times.back(), c.targets, mine.size())}});
  }
  const Json verdict = comparisons(optimizers, run_means);
  Json target_verdicts = Json::array();
  for (std::size_t t = 0; t < c.targets.size(); ++t) target_verdicts.push_back(compare_on_target(optimizers, times, t));
  return {{"schema", "tetrisbench.compare"},
          {"schema_version", 2},
          {"experiment", to_json(c)},
          {"metadata", metadata},
          {"comparison", verdict},
          {"best", verdict["best"]},
          {"target_comparisons", target_verdicts},
          {"optimizers", optimizers}};
}

}  // namespace tb::opt
