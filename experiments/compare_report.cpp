#include "compare_report.h"

#include <cmath>
#include <string>

#include "stats.h"

namespace tb::opt {
namespace {

using Json = nlohmann::json;

Json nullable(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// Held-out results of one optimizer on one board, across its runs.
Json held_out(const std::vector<const Json*>& runs, const std::string& board) {
  std::vector<double> means;
  std::int64_t games = 0, capped = 0;
  Json per_run = Json::array();
  for (const Json* r : runs) {
    const Json& h = (*r)["held_out"][board];
    means.push_back(h["mean_lines"].get<double>());
    games += h["games"].get<std::int64_t>();
    capped += h["capped_games"].get<std::int64_t>();
    per_run.push_back(h);
  }
  // Across runs when there are two or more; a single run falls back to its own interval
  // over its held-out games.
  const MeanCi ci = mean_ci95(means);
  const bool one = means.size() == 1;
  const Json ci95 = one ? per_run[0]["ci95"] : Json{nullable(ci.low), nullable(ci.high)};
  return {{"board", board},
          {"mean_lines", ci.mean},
          {"ci95", ci95},
          {"ci95_across", one ? "games" : "runs"},
          {"median_lines", median(means)},
          {"games", games},
          {"capped_games", capped},
          {"runs", means.size()},
          {"run_means", means},
          {"per_run", per_run}};
}

// Pieces simulated until the best training statistic first reached `target`, per run.
Json target_table(const std::vector<const Json*>& runs, const std::vector<double>& targets) {
  Json out = Json::array();
  for (double target : targets) {
    std::vector<double> hits;
    double spent = 0;
    for (const Json* r : runs) {
      bool hit = false;
      for (const Json& rec : (*r)["records"])
        if (!rec["best"].is_null() && rec["best"].get<double>() >= target) {
          hits.push_back(rec["pieces"].get<double>());
          spent += rec["pieces"].get<double>();
          hit = true;
          break;
        }
      if (!hit) spent += (*r)["pieces"].get<double>();
    }
    // aRT (Hansen et al., COCO): all pieces spent by all runs, per success.
    out.push_back({{"target", target},
                   {"successes", hits.size()},
                   {"runs", runs.size()},
                   {"median_pieces", nullable(median(hits))},
                   {"aRT", hits.empty() ? Json(nullptr) : Json(spent / static_cast<double>(hits.size()))}});
  }
  return out;
}

}  // namespace

Json build_report(const ExperimentConfig& c, const std::vector<Json>& runs, const Json& metadata) {
  const std::string board = size_name(c.rules.geometry);
  Json optimizers = Json::array();
  std::vector<std::vector<double>> run_means;
  for (const OptimizerSpec& spec : c.optimizers) {
    std::vector<const Json*> mine;
    for (const Json& r : runs)
      if (r["label"] == spec.label) mine.push_back(&r);
    Json boards = Json::object();
    for (Geometry g : c.heldout_boards) boards[size_name(g)] = held_out(mine, size_name(g));
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
                          {"targets", target_table(mine, c.targets)}});
  }
  // The best optimizer by held-out mean on the training board; the others are tested against it.
  std::size_t best = 0;
  for (std::size_t i = 1; i < optimizers.size(); ++i)
    if (optimizers[i]["held_out"]["mean_lines"].get<double>() >
        optimizers[best]["held_out"]["mean_lines"].get<double>())
      best = i;
  for (std::size_t i = 0; i < optimizers.size(); ++i) {
    if (i == best) {
      optimizers[i]["vs_best"] = nullptr;
      continue;
    }
    const MannWhitney mw = mann_whitney(run_means[i], run_means[best]);
    optimizers[i]["vs_best"] = {{"against", optimizers[best]["label"]}, {"u", mw.u}, {"p", mw.p},
                                {"exact", mw.exact}, {"samples", "per-run held-out means"}};
  }
  return {{"schema", "tetrisbench.compare"},
          {"schema_version", 1},
          {"experiment", to_json(c)},
          {"metadata", metadata},
          {"best", optimizers[best]["label"]},
          {"optimizers", optimizers}};
}

}  // namespace tb::opt
