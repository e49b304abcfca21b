#include "compare_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cbmpi.h"
#include "checked_number.h"
#include "file_io.h"
#include "input_limits.h"
#include "json_fields.h"
#include "run_checkpoint.h"
#include "optimizer.h"
#include "policy.h"
#include "rng.h"
#include "td_training.h"
#include "tetris_fitness.h"

namespace tb::opt {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;



// progress_lines is empty in the rows without a progress evaluation.
std::string csv(const Json& records) {
  std::ostringstream out;
  out.precision(17);
  out << "generation,evaluations,pieces,games,best,gen_best,gen_mean,spread,capped_games,seconds,progress_lines\n";
  for (const Json& r : records) {
    out << r["generation"] << ',' << r["evaluations"] << ',' << r["pieces"] << ',' << r["games"]
        << ',' << r["best"].get<double>() << ',' << r["gen_best"].get<double>() << ','
        << r["gen_mean"].get<double>() << ',' << r["spread"].get<double>() << ','
        << r["capped_games"] << ',' << r["seconds"].get<double>() << ',';
    if (r.contains("progress")) out << r["progress"]["mean_lines"].get<double>();
    out << '\n';
  }
  return out.str();
}

// The 1% marks of the budget passed after `pieces` and `games` (marks every budget / 100, at
// least 1; the larger count when both budgets are set); a progress evaluation follows each
// generation that raises it.  Divisions only: nothing can overflow.
std::int64_t budget_hundredths(const ExperimentConfig& c, std::int64_t pieces, std::int64_t games) {
  std::int64_t h = 0;
  if (c.budget_pieces > 0) h = std::max(h, pieces / (c.budget_pieces / 100 > 0 ? c.budget_pieces / 100 : 1));
  if (c.budget_games > 0) h = std::max(h, games / (c.budget_games / 100 > 0 ? c.budget_games / 100 : 1));
  return h;
}

Json progress_json(const Policy& policy, const ExperimentConfig& c, int threads, FeatureKernel kernel) {
  const ProgressResult p = evaluate_progress(policy, c, threads, kernel);
  return {{"mean_lines", p.mean_lines}, {"pieces", p.pieces}, {"capped_games", p.capped_games}};
}


// What one training run leaves for the held-out games and result.json.
struct Trained {
  Policy policy;
  Json records = Json::array();
  std::int64_t pieces = 0, games = 0, generations = 0;
  double seconds = 0, best_training = -HUGE_VAL;
  std::vector<std::string> reasons;
};

OptimizerSetup run_setup(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index, std::uint64_t seed) {
  OptimizerSetup setup = entry_setup(c, spec);
  setup.seed = stream_key(seed, static_cast<std::uint64_t>(spec_index) + 1);
  return setup;
}

td::TdConfig run_td_config(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index, std::uint64_t seed) {
  return td::make_td_config(spec.optimizer, spec.features, spec.options, c.rules,
                            stream_key(seed, static_cast<std::uint64_t>(spec_index) + 1));
}

// Picks up an interrupted run: the records, counts and best candidate its checkpoint holds
// (the optimizer is restored from it too).  Returns the best candidate so far.
Vector resume_blackbox(const ExperimentConfig& c, const OptimizerSetup& setup, const fs::path& dir, Optimizer& opt,
                       Trained& t) {
  const std::string file = (dir / "checkpoint.json").string();
  if (!path_exists(file)) return setup.x0;
  const BlackboxCheckpoint ck =
      restore_blackbox_checkpoint(read_json_file(file, "checkpoint"), c, opt, setup.dim, "checkpoint '" + file + "'");
  t.records = ck.records;
  t.pieces = ck.pieces;
  t.games = ck.games;
  t.generations = ck.generation;
  t.seconds = ck.seconds;
  t.best_training = ck.best_training;
  return ck.best_x;
}

// A generation's best candidate (the first of equals) and the sum of its statistics.
struct GenerationBest {
  Eigen::Index arg = 0;
  double sum = 0;
};

GenerationBest generation_best(const GenerationFitness& fit, Eigen::Index lambda) {
  GenerationBest g;
  for (Eigen::Index k = 0; k < lambda; ++k) {
    g.sum += fit.statistic[k];
    if (fit.statistic[k] > fit.statistic[g.arg]) g.arg = k;
  }
  return g;
}

// One row of generations.csv, after the generation's counts are added to `t`.
Json generation_record(const Trained& t, const Optimizer& opt, const GenerationFitness& fit, const GenerationBest& g,
                       Eigen::Index lambda) {
  return generation_row(t.generations, opt.evaluations(), t.pieces, t.games, t.best_training, fit.statistic[g.arg],
                        g.sum / static_cast<double>(lambda), opt.spread(), fit.capped_games, t.seconds);
}

// After every generation, so that a kill loses at most the generation running.
void save_blackbox(const fs::path& dir, const Trained& t, const Vector& best_x, const Optimizer& opt) {
  const BlackboxCheckpoint ck{t.records, t.pieces, t.games, t.generations, t.seconds, t.best_training, best_x};
  write_file_atomically((dir / "checkpoint.json").string(), blackbox_checkpoint_json(ck, opt).dump());
  write_file_atomically((dir / "generations.csv").string(), csv(t.records));
}

Trained train_blackbox(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index, std::uint64_t seed,
                       const fs::path& dir, int threads, FeatureKernel kernel, const ProgressFn& progress, int run) {
  const OptimizerSetup setup = run_setup(c, spec, spec_index, seed);
  auto opt = make_optimizer(spec.optimizer, setup);
  Trained t;
  Vector best_x = resume_blackbox(c, setup, dir, *opt, t);
  ExperimentConfig train = c;  // the fitness games' rules: on the entry's proxy board, if any
  if (spec.train_board.height > 0) train.rules.geometry = spec.train_board;
  // What the run would return now (experiment_config.h OptimizerSpec::final_mean).
  const auto returned = [&] { return spec.final_mean ? *opt->distribution_mean() : best_x; };
  for (;;) {
    t.reasons = opt->stop();
    if (!t.reasons.empty()) break;
    const auto start = std::chrono::steady_clock::now();
    const Matrix X = opt->ask();
    const std::int64_t cap = generation_cap(c, t.pieces, t.games, X.cols());
    if (cap == 0) {
      t.reasons = {"Budget"};
      break;
    }
    const GenerationFitness fit =
        evaluate_generation(X, spec.features, train, seed, t.generations, cap < 0 ? 0 : cap, threads, kernel);
    opt->tell(X, fit.f);
    t.pieces += fit.pieces;
    t.games += fit.games;
    const GenerationBest g = generation_best(fit, X.cols());
    if (fit.statistic[g.arg] > t.best_training) {
      t.best_training = fit.statistic[g.arg];
      best_x = X.col(g.arg);
    }
    t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    t.records.push_back(generation_record(t, *opt, fit, g, X.cols()));
    if (c.progress_games > 0 &&
        budget_hundredths(c, t.pieces, t.games) > budget_hundredths(c, t.pieces - fit.pieces, t.games - fit.games))
      t.records.back()["progress"] = progress_json(policy_from(returned(), spec.features, ""), c, threads, kernel);
    ++t.generations;
    save_blackbox(dir, t, best_x, *opt);
    if (progress) progress({spec.label, run, t.generations, t.pieces, t.best_training});
  }
  t.policy = policy_from(returned(), spec.features, "");
  return t;
}

cbmpi::CbmpiConfig run_cbmpi_config(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index,
                                    std::uint64_t seed) {
  return entry_cbmpi_config(c, spec, stream_key(seed, static_cast<std::uint64_t>(spec_index) + 1));
}

constexpr int kCbmpiCheckpointVersion = 1;

// Restores a CBMPI run's learner and records from its checkpoint; throws InputError naming the
// file for a malformed one or one of another config.
void restore_cbmpi(const std::string& file, cbmpi::Cbmpi& learner, Trained& t) {
  const Json ck = read_json_file(file, "checkpoint");
  try {
    const auto field = [&](const char* key) -> const Json& { return json_member(ck, key, key); };
    if (field("version") != kCbmpiCheckpointVersion) throw InputError("version: unknown version");
    learner.restore(field("learner"));
    check_records(field("records"), learner.iterations(), "records");
    t.records = field("records");
    t.seconds = json_real(field("seconds"), 0, 1e300, "seconds");
    t.best_training = json_real(field("best_training"), -1e300, 1e300, "best_training");
  } catch (const InputError& e) {
    throw InputError("cannot resume from checkpoint '" + file + "': " + e.what());
  }
}

// CBMPI under the budget in pieces: iterations while the next one's bound fits, one record per
// iteration.  Its columns: evaluations = state-action pairs rolled out so far, games = 0 (it
// samples states, not whole games), gen_best = gen_mean = the iteration's mean value target
// (lines the rollouts of pi_k expect from a state), best = their running maximum, spread = the
// classification loss after the policy step.  The progress games measure it like every entry.
Trained train_cbmpi(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index, std::uint64_t seed,
                    const fs::path& dir, int threads, FeatureKernel kernel, const ProgressFn& progress, int run) {
  cbmpi::Cbmpi learner(run_cbmpi_config(c, spec, spec_index, seed), kernel);
  Trained t;
  const std::string file = (dir / "checkpoint.json").string();
  if (path_exists(file)) restore_cbmpi(file, learner, t);
  std::int64_t evaluations = t.records.empty() ? 0 : t.records.back()["evaluations"].get<std::int64_t>();
  while (learner.pieces() + learner.iteration_bound() <= c.budget_pieces) {
    const auto start = std::chrono::steady_clock::now();
    const std::int64_t before = learner.pieces();
    const cbmpi::Iteration it = learner.iterate(threads);
    t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    evaluations += it.actions;
    t.best_training = std::max(t.best_training, it.mean_value_target);
    t.records.push_back(generation_row(it.iteration, evaluations, learner.pieces(), 0, t.best_training,
                                       it.mean_value_target, it.mean_value_target, it.loss_after, 0, t.seconds));
    if (it.selection_lines >= 0) {
      t.records.back()["selection_lines"] = it.selection_lines;
      t.records.back()["selected_iteration"] = learner.selected_iteration();
    }
    if (c.progress_games > 0 && budget_hundredths(c, learner.pieces(), 0) > budget_hundredths(c, before, 0))
      t.records.back()["progress"] = progress_json(learner.policy(), c, threads, kernel);
    const Json ck = {{"version", kCbmpiCheckpointVersion}, {"learner", learner.to_json()}, {"records", t.records},
                     {"seconds", t.seconds}, {"best_training", t.best_training}};
    write_file_atomically(file, ck.dump());
    write_file_atomically((dir / "generations.csv").string(), csv(t.records));
    if (progress) progress({spec.label, run, learner.iterations(), learner.pieces(), t.best_training});
  }
  t.pieces = learner.pieces();
  t.generations = learner.iterations();
  t.reasons = {"Budget"};
  t.policy = learner.policy();
  return t;
}

// A TD learner under the same budget: records every 1% of the budget (at least one step).
Trained train_td(const ExperimentConfig& c, const OptimizerSpec& spec, int spec_index, std::uint64_t seed,
                 const fs::path& dir, int threads, FeatureKernel kernel, const ProgressFn& progress, int run) {
  if (c.budget_pieces <= 0) throw ConfigError("TD learner '" + spec.label + "' needs budget.pieces");
  td::TdRunSpec rs;
  rs.config = run_td_config(c, spec, spec_index, seed);
  rs.budget_pieces = c.budget_pieces;
  rs.period_pieces = std::max<std::int64_t>(1, c.budget_pieces / 100);
  rs.checkpoint = (dir / "checkpoint.json").string();
  if (c.progress_games > 0)  // the current weights, played greedily (no exploration)
    rs.evaluate = [&](const td::TdLearner& l) { return progress_json(l.policy(""), c, threads, kernel); };
  Trained t;
  double best = -HUGE_VAL;
  const td::TdRun r = td::run_td(rs, threads, kernel, [&](const td::TdLearner& l, const td::TdPeriod& p) {
    best = std::max(best, p.mean_lines);
    if (progress) progress({spec.label, run, p.period + 1, l.pieces(), best});
  });
  // generations.csv in the optimizers' columns: a period is a generation, its episodes the games.
  double mean = 0;
  for (const Json& p : r.records) {
    // A period in which no episode ended keeps the previous period's level (not 0).
    if (p["ended"].get<std::int64_t>() > 0) mean = p["mean_lines"].get<double>();
    t.best_training = std::max(t.best_training, mean);
    t.records.push_back({{"generation", p["period"]},
                         {"evaluations", p["episodes"]},
                         {"pieces", p["pieces"]},
                         {"games", p["episodes"]},
                         {"best", t.best_training},
                         {"gen_best", mean},
                         {"gen_mean", mean},
                         {"spread", 0.0},
                         {"capped_games", p["capped"]},
                         {"seconds", p["seconds"]}});
    if (p.contains("progress")) t.records.back()["progress"] = p["progress"];
  }
  write_file_atomically((dir / "generations.csv").string(), csv(t.records));
  t.pieces = r.learner->pieces();
  t.games = r.learner->episodes();
  t.generations = static_cast<std::int64_t>(r.records.size());
  t.seconds = r.seconds;
  t.reasons = {"Budget"};
  t.policy = r.learner->policy("");
  return t;
}

}  // namespace

nlohmann::json heldout_json(std::span<const GameResult> games) {
  Json j = summary_json(summarize(games));
  Json lines = Json::array(), capped = Json::array();
  for (std::size_t i = 0; i < games.size(); ++i) {
    lines.push_back(games[i].lines);
    if (games[i].capped) capped.push_back(i);
  }
  j["lines"] = std::move(lines);
  j["capped"] = std::move(capped);
  return j;
}

nlohmann::json summary_json(const PlaySummary& s) {
  return {{"games", s.games},
          {"mean_lines", s.mean_lines},
          {"ci95", {s.ci95_low, s.ci95_high}},
          {"median_lines", s.median_lines},
          {"min_lines", s.min_lines},
          {"max_lines", s.max_lines},
          {"pieces", s.pieces},
          {"capped_games", s.capped_games}};
}

// Overflow-safe: a product that does not fit in 64 bits does not fit in the budget either.
std::int64_t generation_cap(const ExperimentConfig& c, std::int64_t pieces, std::int64_t games,
                            std::int64_t lambda) {
  std::int64_t per_generation = 0, worst = 0, after = 0;
  if (__builtin_mul_overflow(lambda, std::int64_t{c.fitness_games}, &per_generation) || per_generation <= 0) return 0;
  if (c.budget_games > 0 &&
      (__builtin_add_overflow(games, per_generation, &after) || after > c.budget_games))
    return 0;
  if (c.budget_pieces <= 0) return c.fitness_max_pieces > 0 ? c.fitness_max_pieces : -1;
  const std::int64_t left = c.budget_pieces - pieces;
  if (left <= 0) return 0;
  if (c.fitness_max_pieces > 0)
    return !__builtin_mul_overflow(per_generation, c.fitness_max_pieces, &worst) && worst <= left
               ? c.fitness_max_pieces
               : 0;
  return left / per_generation >= 1 ? left / per_generation : 0;
}

std::string run_folder_name(const ExperimentConfig& c, int spec_index, int run) {
  return "runs/" + c.optimizers[static_cast<std::size_t>(spec_index)].label + "/run-" + std::to_string(run);
}

std::uint64_t run_seed(const ExperimentConfig& c, int run) {
  return stream_key(c.seed, static_cast<std::uint64_t>(run));
}

void check_run_folder(const ExperimentConfig& c, int spec_index, int run, const std::string& dir_name,
                      FeatureKernel kernel) {
  const fs::path dir(dir_name);
  if (const std::string file = (dir / "result.json").string(); path_exists(file)) {
    check_run_result(read_json_file(file, "run result"), c, spec_index, run, "run result '" + file + "'");
    return;
  }
  const std::string file = (dir / "checkpoint.json").string();
  if (!path_exists(file)) return;
  const OptimizerSpec& spec = c.optimizers[static_cast<std::size_t>(spec_index)];
  const std::uint64_t seed = run_seed(c, run);
  const Json ck = read_json_file(file, "checkpoint");
  if (is_cbmpi(spec)) {
    cbmpi::Cbmpi learner(run_cbmpi_config(c, spec, spec_index, seed), kernel);
    Trained t;
    restore_cbmpi(file, learner, t);
    if (learner.pieces() > c.budget_pieces)
      throw InputError("checkpoint '" + file + "' is already past the budget of the config");
  } else if (td::is_td_learner(spec.optimizer)) {
    const td::TdConfig config = run_td_config(c, spec, spec_index, seed);
    td::TdLearner learner(config, kernel);
    td::TdRun restored;
    try {
      td::restore_td_checkpoint(ck, td::to_json(config), learner, restored);
    } catch (const InputError& e) {
      throw InputError("cannot resume from checkpoint '" + file + "': " + e.what());
    }
    if (learner.pieces() > c.budget_pieces)
      throw InputError("checkpoint '" + file + "' is already past the budget of the config");
  } else {
    const OptimizerSetup setup = run_setup(c, spec, spec_index, seed);
    restore_blackbox_checkpoint(ck, c, *make_optimizer(spec.optimizer, setup), setup.dim,
                                "checkpoint '" + file + "'");
  }
}

Json run_one(const ExperimentConfig& c, int spec_index, int run, const std::string& dir_name,
             int threads, FeatureKernel kernel, const ProgressFn& progress) {
  const fs::path dir(dir_name);
  fs::create_directories(dir);
  if (const std::string file = (dir / "result.json").string(); path_exists(file)) {
    Json r = read_json_file(file, "run result");
    check_run_result(r, c, spec_index, run, "run result '" + file + "'");
    return r;
  }

  const OptimizerSpec& spec = c.optimizers[spec_index];
  if (is_external(spec)) return nullptr;  // written by its own optimizer, or missing
  const std::uint64_t seed = run_seed(c, run);
  Trained t = is_cbmpi(spec)                    ? train_cbmpi(c, spec, spec_index, seed, dir, threads, kernel, progress, run)
              : td::is_td_learner(spec.optimizer) ? train_td(c, spec, spec_index, seed, dir, threads, kernel, progress, run)
                                                  : train_blackbox(c, spec, spec_index, seed, dir, threads, kernel, progress, run);
  FinishedRun f{t.records, t.pieces, t.games, t.generations, t.seconds, t.best_training, t.reasons};
  return finish_run(c, spec_index, run, dir_name, std::move(t.policy), f, threads, kernel);
}

Json finish_run(const ExperimentConfig& c, int spec_index, int run, const std::string& dir_name, Policy final,
                const FinishedRun& t, int threads, FeatureKernel kernel) {
  const fs::path dir(dir_name);
  const OptimizerSpec& spec = c.optimizers[static_cast<std::size_t>(spec_index)];
  final.name = spec.label + "-run" + std::to_string(run);
  final.rules = rule_set_name(c.rules);
  final.source = "tetrisbench compare, experiment " + c.name + ", optimizer " + spec.label;
  Json held = Json::object();
  for (Geometry g : c.heldout_boards)
    held[size_name(g)] = heldout_json(heldout_games(final, c, g, threads, kernel));
  write_file_atomically((dir / "final.policy").string(), [&final](const ContentSink& sink) { write_policy(final, sink); });
  Json result = {{"label", spec.label},
                 {"optimizer", spec.optimizer},
                 {"features", spec.features},
                 {"run", run},
                 {"seed", run_seed(c, run)},
                 {"pieces", t.pieces},
                 {"games", t.games},
                 {"generations", t.generations},
                 {"seconds", t.seconds},
                 {"stop_reasons", t.reasons},
                 {"best_training", t.best_training},
                 {"weights", final.network ? Json(nullptr) : Json(final.weights)},
                 {"records", t.records},
                 {"held_out", held}};
  if (is_external(spec)) write_file_atomically((dir / "generations.csv").string(), csv(t.records));
  write_file_atomically((dir / "result.json").string(), result.dump(1));
  return result;
}

Json generation_row(std::int64_t generation, std::int64_t evaluations, std::int64_t pieces, std::int64_t games,
                    double best, double gen_best, double gen_mean, double spread, std::int64_t capped_games,
                    double seconds) {
  return {{"generation", generation}, {"evaluations", evaluations}, {"pieces", pieces},
          {"games", games},           {"best", best},               {"gen_best", gen_best},
          {"gen_mean", gen_mean},     {"spread", spread},           {"capped_games", capped_games},
          {"seconds", seconds}};
}

}  // namespace tb::opt
