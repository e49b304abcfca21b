#include "compare_run.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "atomic_file.h"
#include "optimizer.h"
#include "policy.h"
#include "rng.h"
#include "tetris_fitness.h"

namespace tb::opt {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kCheckpointVersion = 1;

Json read_json(const fs::path& p) {
  std::ifstream in(p);
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    throw std::runtime_error("corrupt " + p.string() + ": " + e.what());
  }
}

Json summary_json(const PlaySummary& s) {
  return {{"games", s.games},
          {"mean_lines", s.mean_lines},
          {"ci95", {s.ci95_low, s.ci95_high}},
          {"median_lines", s.median_lines},
          {"min_lines", s.min_lines},
          {"max_lines", s.max_lines},
          {"pieces", s.pieces},
          {"capped_games", s.capped_games}};
}

std::string csv(const Json& records) {
  std::ostringstream out;
  out.precision(17);
  out << "generation,evaluations,pieces,games,best,gen_best,gen_mean,spread,capped_games,seconds\n";
  for (const Json& r : records)
    out << r["generation"] << ',' << r["evaluations"] << ',' << r["pieces"] << ',' << r["games"]
        << ',' << r["best"].get<double>() << ',' << r["gen_best"].get<double>() << ','
        << r["gen_mean"].get<double>() << ',' << r["spread"].get<double>() << ','
        << r["capped_games"] << ',' << r["seconds"].get<double>() << '\n';
  return out.str();
}

// The per-game cap of the next generation, so that it cannot pass the budget: with a fitness
// cap, a generation runs only if its worst case (lambda x G x cap) fits in what is left;
// without one, the cap is what is left divided among its games.  0 = stop, -1 = no cap.
std::int64_t generation_cap(const ExperimentConfig& c, std::int64_t pieces, std::int64_t games,
                            std::int64_t lambda) {
  const std::int64_t per_generation = lambda * c.fitness_games;
  if (c.budget_games > 0 && games + per_generation > c.budget_games) return 0;
  if (c.budget_pieces <= 0) return c.fitness_max_pieces > 0 ? c.fitness_max_pieces : -1;
  const std::int64_t left = c.budget_pieces - pieces;
  if (c.fitness_max_pieces > 0) return per_generation * c.fitness_max_pieces <= left ? c.fitness_max_pieces : 0;
  return left / per_generation >= 1 ? left / per_generation : 0;
}

}  // namespace

std::uint64_t run_seed(const ExperimentConfig& c, int run) {
  return stream_key(c.seed, static_cast<std::uint64_t>(run));
}

Json run_one(const ExperimentConfig& c, int spec_index, int run, const std::string& dir_name,
             int threads, FeatureKernel kernel, const ProgressFn& progress) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  if (fs::exists(dir / "result.json")) return read_json(dir / "result.json");

  const OptimizerSpec& spec = c.optimizers[spec_index];
  const std::uint64_t seed = run_seed(c, run);
  OptimizerSetup setup;
  setup.dim = find_feature_set(c.features)->dimension(c.rules.geometry.width);
  setup.seed = stream_key(seed, static_cast<std::uint64_t>(spec_index) + 1);
  setup.x0 = Vector::Zero(setup.dim);  // learning from all-zero weights
  setup.sigma0 = spec.sigma0;
  setup.init_low = spec.init_low;
  setup.init_high = spec.init_high;
  setup.options = spec.options;
  auto opt = make_optimizer(spec.optimizer, setup);

  Json records = Json::array();
  std::int64_t pieces = 0, games = 0, generation = 0;
  double seconds = 0, best_stat = -HUGE_VAL;
  Vector best_x = setup.x0;
  if (fs::exists(dir / "checkpoint.json")) {
    const Json ck = read_json(dir / "checkpoint.json");
    if (ck.value("version", 0) != kCheckpointVersion)
      throw std::runtime_error("checkpoint " + (dir / "checkpoint.json").string() + " has an unknown version");
    opt->restore(ck.at("optimizer"));
    records = ck.at("records");
    pieces = ck.at("pieces");
    games = ck.at("games");
    generation = ck.at("generation");
    seconds = ck.at("seconds");
    best_stat = ck.at("best_training").is_null() ? -HUGE_VAL : ck.at("best_training").get<double>();
    const auto w = ck.at("best_weights").get<std::vector<double>>();
    best_x = Eigen::Map<const Vector>(w.data(), static_cast<Eigen::Index>(w.size()));
  }

  std::vector<std::string> reasons;
  for (;;) {
    reasons = opt->stop();
    if (!reasons.empty()) break;
    const auto start = std::chrono::steady_clock::now();
    const Matrix X = opt->ask();
    const std::int64_t cap = generation_cap(c, pieces, games, X.cols());
    if (cap == 0) {
      reasons = {"Budget"};
      break;
    }
    const GenerationFitness fit = evaluate_generation(X, c, seed, generation, cap < 0 ? 0 : cap, threads, kernel);
    opt->tell(X, fit.f);
    pieces += fit.pieces;
    games += fit.games;
    Eigen::Index arg = 0;
    double sum = 0;
    for (Eigen::Index k = 0; k < X.cols(); ++k) {
      sum += fit.statistic[k];
      if (fit.statistic[k] > fit.statistic[arg]) arg = k;
    }
    if (fit.statistic[arg] > best_stat) {
      best_stat = fit.statistic[arg];
      best_x = X.col(arg);
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    records.push_back({{"generation", generation},
                       {"evaluations", opt->evaluations()},
                       {"pieces", pieces},
                       {"games", games},
                       {"best", best_stat},
                       {"gen_best", fit.statistic[arg]},
                       {"gen_mean", sum / static_cast<double>(X.cols())},
                       {"spread", opt->spread()},
                       {"capped_games", fit.capped_games},
                       {"seconds", seconds}});
    ++generation;
    const Json ck = {{"version", kCheckpointVersion}, {"optimizer", opt->state()},
                     {"records", records},            {"pieces", pieces},
                     {"games", games},                {"generation", generation},
                     {"seconds", seconds},            {"best_training", best_stat},
                     {"best_weights", std::vector<double>(best_x.data(), best_x.data() + best_x.size())}};
    write_file_atomically((dir / "checkpoint.json").string(), ck.dump());
    write_file_atomically((dir / "generations.csv").string(), csv(records));
    if (progress) progress({spec.label, run, generation, pieces, best_stat});
  }

  Json held = Json::object();
  for (Geometry g : c.heldout_boards)
    held[std::to_string(g.width) + "x" + std::to_string(g.height)] =
        summary_json(evaluate_heldout(best_x, c, g, threads, kernel));
  Policy final = policy_from(best_x, c.features, spec.label + "-run" + std::to_string(run));
  final.rules = rule_set_name(c.rules);
  final.source = "tetrisbench compare, experiment " + c.name + ", optimizer " + spec.label;
  write_file_atomically((dir / "final.policy").string(), format_policy(final));
  Json result = {{"label", spec.label},
                 {"optimizer", spec.optimizer},
                 {"run", run},
                 {"seed", seed},
                 {"pieces", pieces},
                 {"games", games},
                 {"generations", generation},
                 {"seconds", seconds},
                 {"stop_reasons", reasons},
                 {"best_training", best_stat},
                 {"weights", final.weights},
                 {"records", records},
                 {"held_out", held}};
  write_file_atomically((dir / "result.json").string(), result.dump(1));
  return result;
}

}  // namespace tb::opt
