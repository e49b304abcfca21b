#include "learn_command.h"

#include <cmath>
#include <cstdio>
#include <mutex>
#include <sstream>

#include "cbmpi.h"
#include "cli_common.h"
#include "file_io.h"
#include "json_fields.h"
#include "parallel_play.h"
#include "progress.h"
#include "rng.h"
#include "quote.h"
#include "td_training.h"
#include "tetris_fitness.h"  // kHeldOutSeed

namespace tb {
namespace {

using Json = nlohmann::json;

td::TdConfig make_config(const LearnOptions& o) {
  // The research rules, refined as `play` refines them (rule_sets.h).
  const Rules rules = rules_from_flags({"research", o.board, o.generator, o.overflow, -1});
  Json options = Json::parse(o.options_json.empty() ? "{}" : o.options_json);
  std::string learner = o.learner, features = o.features;
  if (!o.preset.empty()) {
    Json preset = td::td_preset(o.preset);
    if (learner != "td0") throw UsageError("--preset article2 is TD(0): use it with --learner td0 (or no --learner)");
    if (features != "td44") throw UsageError("--preset article2 learns td44 features");
    for (const auto& [k, v] : options.items()) preset[k] = v;  // explicit flags win
    options = preset;
  }
  if (learner != "ntuple" && features != "td44" && features != "bertsekas")
    throw UsageError("--features must be td44 or bertsekas, not '" + features + "'");
  return td::make_td_config(learner, features, options, rules, o.seed);  // InputError naming a bad option
}

std::string period_csv(const Json& records) {
  std::ostringstream out;
  out.precision(17);
  out << "period,pieces,episodes,ended,mean_lines,capped,seconds\n";
  for (const Json& r : records)
    out << r["period"] << ',' << r["pieces"] << ',' << r["episodes"] << ',' << r["ended"] << ','
        << r["mean_lines"].get<double>() << ',' << r["capped"] << ',' << r["seconds"].get<double>() << '\n';
  return out.str();
}

// Outputs are checked before training, not after it, and no two may name the same file.
// Temporary files a kill -9 left beside them (file_io.h) go before a resume.
void prepare_outputs(const LearnOptions& o) {
  check_writable(o.out, "--out");
  if (!o.log.empty()) check_writable(o.log, "--log");
  if (!o.checkpoint.empty()) check_writable(o.checkpoint, "--checkpoint");
  check_distinct({{"--out", o.out}, {"--log", o.log}, {"--checkpoint", o.checkpoint}});
  int swept = 0;
  for (const std::string* p : {&o.out, &o.log, &o.checkpoint})
    if (!p->empty()) swept += remove_stale_temporaries_of(*p);
  if (swept > 0) std::fprintf(stderr, "learn: removed %d temporary file(s) left by an interrupted run\n", swept);
}

// Trains (or resumes from --checkpoint) with progress on stderr (ProgressLine).
td::TdRun train(const LearnOptions& o, const td::TdConfig& config, FeatureKernel kernel) {
  td::TdRunSpec spec;
  spec.config = config;
  spec.budget_pieces = o.pieces;
  spec.period_pieces = o.record_every > 0 ? o.record_every : std::max<std::int64_t>(1, o.pieces / 100);
  spec.checkpoint = o.checkpoint;
  std::mutex mu;
  std::string line = "starting";
  auto bar = std::make_unique<ProgressLine>([&] {
    std::lock_guard lock(mu);
    return line;
  });
  const std::int64_t step = static_cast<std::int64_t>(config.games_per_step) * config.pieces_per_step;
  if (o.pieces < step)
    throw UsageError("--pieces " + std::to_string(o.pieces) + " is less than one training step (" +
                     std::to_string(step) + " = --games-per-step x --pieces-per-step)");
  td::TdRun run = td::run_td(spec, o.threads, kernel, [&](const td::TdLearner& l, const td::TdPeriod& p) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "learn %s: %.1f%% of %lld pieces, %lld episodes, last period %.1f lines/episode",
                  l.model().name().c_str(), 100.0 * static_cast<double>(p.pieces) / static_cast<double>(o.pieces),
                  static_cast<long long>(o.pieces), static_cast<long long>(p.episodes), p.mean_lines);
    std::lock_guard lock(mu);
    line = buf;
  });
  bar.reset();
  return run;
}

// Writes the weights (--out) and the period log (--log); returns the policy written.
Policy save_outputs(const LearnOptions& o, const td::TdConfig& config, const td::TdRun& run,
                    const std::string& label) {
  Policy policy = run.learner->policy("learn-" + label + "-seed" + std::to_string(o.seed));
  policy.rules = rule_set_name(config.rules);
  policy.source = "tetrisbench learn, " + td::to_json(config).dump();
  write_file_atomically(o.out, [&policy](const ContentSink& sink) { write_policy(policy, sink); });
  if (!o.log.empty()) write_file_atomically(o.log, period_csv(run.records));
  return policy;
}

void print_summary(const LearnOptions& o, const td::TdConfig& config, const td::TdRun& run, const std::string& label) {
  const td::TdLearner& l = *run.learner;
  std::printf("learned %s (%s) on %dx%d, rules %s, seed %llu%s\n", l.model().name().c_str(), label.c_str(),
              config.rules.geometry.width, config.rules.geometry.height, rule_set_name(config.rules).c_str(),
              static_cast<unsigned long long>(o.seed), run.resumed ? " (resumed from checkpoint)" : "");
  std::printf("alpha %g%s, gamma %g, lambda %g, epsilon %g, %d games x %d pieces per step\n", config.alpha,
              config.normalized ? " (normalized)" : "", config.gamma, config.lambda, config.epsilon,
              config.games_per_step, config.pieces_per_step);
  std::printf("trained on %lld pieces, %lld episodes, %.1f s (%.0f pieces/s); weights: %s\n",
              static_cast<long long>(l.pieces()), static_cast<long long>(l.episodes()), run.seconds,
              run.seconds > 0 ? static_cast<double>(l.pieces()) / run.seconds : 0.0, escaped(o.out).c_str());
}

// --eval-games: the learned policy on games seeded apart from training (kHeldOutSeed, tetris_fitness.h).
void print_heldout(const LearnOptions& o, const Rules& rules, const Policy& policy, FeatureKernel kernel) {
  GameConfig game;
  game.rules = rules;
  game.seed = stream_key(o.seed ^ opt::kHeldOutSeed, 0);
  game.max_pieces = o.eval_max_pieces;
  const PlaySummary s = summarize(play_games(policy, game, o.eval_games, o.threads, kernel, nullptr));
  std::printf("held-out: %lld games, mean lines %.1f, 95%% CI [%.1f, %.1f], median %.1f, capped %lld\n",
              static_cast<long long>(s.games), s.mean_lines, s.ci95_low, s.ci95_high, s.median_lines,
              static_cast<long long>(s.capped_games));
}


// CBMPI: iterations while the next one's bound fits the budget, a checkpoint after each, one
// progress line per iteration on stderr.
cbmpi::Cbmpi train_cbmpi(const LearnOptions& o, const cbmpi::CbmpiConfig& config, FeatureKernel kernel,
                         bool& resumed) {
  cbmpi::Cbmpi learner(config, kernel);
  if (o.pieces < learner.iteration_bound())
    throw UsageError("--pieces " + std::to_string(o.pieces) + " is less than one cbmpi iteration can simulate (" +
                     std::to_string(learner.iteration_bound()) + " pieces; see --cbmpi-options)");
  resumed = !o.checkpoint.empty() && path_exists(o.checkpoint);
  if (resumed) {
    try {
      learner.restore(opt::read_json_file(o.checkpoint, "checkpoint"));
    } catch (const InputError& e) {
      throw InputError("cannot resume from checkpoint '" + o.checkpoint + "': " + e.what());
    }
    if (learner.pieces() > o.pieces)
      throw InputError("checkpoint " + o.checkpoint + " is already past the budget (" +
                       std::to_string(learner.pieces()) + " > " + std::to_string(o.pieces) + " pieces)");
  }
  while (learner.pieces() + learner.iteration_bound() <= o.pieces) {
    const cbmpi::Iteration it = learner.iterate(o.threads);
    if (!o.checkpoint.empty()) write_file_atomically(o.checkpoint, learner.to_json().dump());
    std::fprintf(stderr, "cbmpi iteration %lld: %lld pieces (%.1f%% of the budget), loss %.4f -> %.4f lines/state, "
                 "mean value target %.3f\n", static_cast<long long>(it.iteration), static_cast<long long>(learner.pieces()),
                 100.0 * static_cast<double>(learner.pieces()) / static_cast<double>(o.pieces), it.loss_before,
                 it.loss_after, it.mean_value_target);
    if (it.selection_lines >= 0)
      std::fprintf(stderr, "cbmpi iteration %lld: selection games %.1f lines (iteration %lld is selected)\n",
                   static_cast<long long>(it.iteration), it.selection_lines,
                   static_cast<long long>(learner.selected_iteration()));
  }
  return learner;
}

int run_learn_cbmpi(const LearnOptions& o) {
  const Rules rules = rules_from_flags({"research", o.board, o.generator, o.overflow, -1});
  Json options;
  try {
    options = opt::parse_json(o.cbmpi_options.empty() ? "{}" : o.cbmpi_options);
  } catch (const InputError& e) {
    throw UsageError(std::string("--cbmpi-options: ") + e.what());
  }
  const cbmpi::CbmpiConfig config = cbmpi::make_cbmpi_config(options, rules, o.seed);
  const KernelVariant& kernel = choose_kernel(o.kernel);
  prepare_outputs(o);
  bool resumed = false;
  const cbmpi::Cbmpi learner = train_cbmpi(o, config, kernel.kernel, resumed);
  Policy policy = learner.policy();
  policy.name = "learn-cbmpi-seed" + std::to_string(o.seed);
  policy.source = "tetrisbench learn, cbmpi " + cbmpi::to_json(config).dump();
  write_file_atomically(o.out, [&policy](const ContentSink& sink) { write_policy(policy, sink); });
  std::printf("learned cbmpi (%s) on %dx%d, rules %s, seed %llu%s\n", config.policy_features.c_str(),
              rules.geometry.width, rules.geometry.height, rule_set_name(rules).c_str(),
              static_cast<unsigned long long>(o.seed), resumed ? " (resumed from checkpoint)" : "");
  std::printf("%lld iterations, %lld pieces simulated; weights: %s\n", static_cast<long long>(learner.iterations()),
              static_cast<long long>(learner.pieces()), escaped(o.out).c_str());
  if (o.eval_games > 0) print_heldout(o, rules, policy, kernel.kernel);
  return 0;
}
}  // namespace

int run_learn(const LearnOptions& o) {
  if (o.out.empty()) throw UsageError("--out WEIGHTS is required (the learned weights file)");
  if (o.learner == "cbmpi") return run_learn_cbmpi(o);
  if (!td::is_td_learner(o.learner))
    throw UsageError("unknown learner '" + o.learner + "' (td0, tdlambda, ntuple or cbmpi)");
  // Numbers are range-checked by the flag parser (main.cpp).
  const td::TdConfig config = make_config(o);
  const KernelVariant& kernel = choose_kernel(o.kernel);
  prepare_outputs(o);
  const td::TdRun run = train(o, config, kernel.kernel);
  const std::string label = o.preset.empty() ? o.learner : o.preset;
  const Policy policy = save_outputs(o, config, run, label);
  print_summary(o, config, run, label);
  if (o.eval_games > 0) print_heldout(o, config.rules, policy, kernel.kernel);
  return 0;
}

}  // namespace tb
