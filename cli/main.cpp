// The `tetrisbench` command line: parses options and dispatches to one command per file.
// Errors print one line on stderr and exit with their status: 2 for bad input, 1 for a run
// that failed (engine/io/error.h, docs/threat-model.md).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string_view>

#include "bench_command.h"
#include "cluster.h"
#include "compare_command.h"
#include "info_command.h"
#include "error.h"
#include "input_limits.h"
#include "learn_command.h"
#include "number_option.h"
#include "optimize_command.h"
#include "play_command.h"
#include "quote.h"
#include "replay_command.h"
#include "rule_sets.h"
#include "stdout_check.h"
#include "version.h"

namespace {

namespace L = tb::limits;

// "Board size WxH, W in 4..16, H in 4..28 (NOTE)", from the engine's limits and presets.
std::string preset_board(tb::RuleSet s) { return tb::size_name(tb::rule_set(s).geometry); }
std::string board_help(const std::string& note) {
  return "Board size WxH, W in " + std::to_string(tb::kMinWidth) + ".." + std::to_string(tb::kMaxWidth) + ", H in " +
         std::to_string(tb::kMinHeight) + ".." + std::to_string(tb::kMaxHeight) + " (" + note + ")";
}

void add_play(CLI::App& app, tb::PlayOptions& o) {
  CLI::App* play = app.add_subcommand("play", "Play games of one policy and report lines per game");
  play->add_option("--policy", o.policy,
                   "Built-in policy (dellacherie, bcts, dt20, eltetris, lee, article3) or a weight file")
      ->capture_default_str();
  play->add_option("--rules", o.rules,
                   "Rule set: research (drop placements, any board), guideline (SRS move-reachable "
                   "placements, 10x22 with 2 hidden rows, bag7, block-out and lock-out) or lee (article 4: "
                   "10x22, a block in the 2 hidden rows ends the game, bag7, next piece known, pairs rated "
                   "without clearing between plies).  --board, --generator, --overflow and --lookahead refine "
                   "research; with guideline or lee they must match the preset, except guideline's "
                   "--lookahead 0|1 (docs/rules.md)")
      ->capture_default_str();
  play->add_option("--board", o.board,
                   board_help("research default " + preset_board(tb::RuleSet::research) +
                              "; guideline and lee fix " + preset_board(tb::RuleSet::lee)));
  tb::add_number<std::int64_t>(play, "--games", o.games, 1, L::kMaxGames, "Number of games");
  tb::add_number<std::int64_t>(play, "--first-game", o.first_game, 0, L::kMaxGameIndex,
                               "Index of the first game; game g always gets the pieces of (seed, g)");
  tb::add_number<std::uint64_t>(play, "--seed", o.seed, 0, tb::kUint64Max, "Run seed");
  play->add_option("--generator", o.generator, "Piece generator: uniform or bag7 (default: the rule set's)");
  play->add_option("--overflow", o.overflow, "Game-over rule of research: strict (default) or clear-first");
  tb::add_number(play, "--lookahead", o.lookahead, 0, 1,
                 "0: greedy; 1: 2-ply with the next piece known (default: the rule set's; lee fixes 1)")
      ->default_str("");
  tb::add_number<std::int64_t>(play, "--max-pieces", o.max_pieces, 0, L::kMaxPieces,
                               "Cap on pieces per game, 0 = none; capped games are reported");
  tb::add_number(play, "--threads", o.threads, 0, L::kMaxThreads,
                 "Games in parallel, 0 = all cores; results do not depend on it");
  tb::add_number(play, "--tie-noise", o.tie_noise, 0.0, 1e6, "Seeded tie-break noise amplitude, 0 = off");
  play->add_option("--format", o.format, "Output: table, json or csv (per-game rows)")->capture_default_str();
  play->add_option("--kernel", o.kernel,
                   "Feature kernel: reference, scalar, sse4.2, avx2 or avx512 (default: the best "
                   "this CPU has, or $TETRISBENCH_KERNEL); results do not depend on it");
  play->add_option("--out", o.out, "Write the report to this file (atomically) instead of stdout");
  play->add_flag("--show", o.show,
                 "Print the final board of a game as text (on stderr unless --format table)");
  tb::add_number<std::int64_t>(play, "--show-game", o.show_game, 0, L::kMaxGames - 1,
                               "Which game --show prints and --record records (index within the run; default 0)")
      ->default_str("");
  play->add_option("--record", o.record,
                   "Write the replay of one game (--show-game, default the first) to this file; `replay` plays it");
}

void add_replay(CLI::App& app, tb::ReplayOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "replay", "Re-simulate a replay file, check that it reproduces, and show it (text, PNG, GIF)");
  cmd->add_option("file", o.file, "Replay file written by play --record")->required();
  cmd->add_option("--frames", o.frames,
                  "Frames to show: all, none, last, N or A:B (frame k is the board after k moves)")
      ->capture_default_str();
  tb::add_number(cmd, "--delay", o.delay_ms, 0, 60'000, "Milliseconds between text frames");
  cmd->add_flag("!--no-text", o.text, "Do not print the text frames");
  cmd->add_option("--png", o.png_dir, "Write one PNG per frame into this folder (frame-NNNNN.png)");
  cmd->add_option("--gif", o.gif, "Write the frames as one looping animated GIF");
  tb::add_number(cmd, "--gif-delay", o.gif_delay_cs, 1, 65'535, "Hundredths of a second per GIF frame");
  tb::add_number(cmd, "--cell", o.cell_pixels, 2, 64, "Cell size in pixels for --png and --gif");
  cmd->add_flag("!--no-policy-check", o.policy_check,
                "Do not check that the policy named in the file picks the recorded moves");
  cmd->add_option("--kernel", o.kernel, "Feature kernel of the policy check (as for play)");
}

void add_optimize(CLI::App& app, tb::OptimizeOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "optimize", "Run an optimizer on an analytic objective from random starts; report evaluations to target");
  cmd->add_option("--optimizer", o.optimizer, "Optimizer: cmaes, cmaes-active, ipop-cmaes, ...")
      ->capture_default_str();
  cmd->add_option("--objective", o.objective, "Objective: sphere, ellipsoid, rosenbrock or rastrigin")
      ->capture_default_str();
  tb::add_number(cmd, "--dim", o.dim, 1, L::kMaxDimension, "Dimension n");
  tb::add_number<std::int64_t>(cmd, "--runs", o.runs, 1, 1'000'000,
                               "Independent runs; run r uses the seed derived from (seed, r)");
  tb::add_number(cmd, "--sigma0", o.sigma0, 1e-300, 1e300, "Initial step size");
  tb::add_number(cmd, "--target", o.target, -1e300, 1e300, "A run succeeds at its first value below this");
  tb::add_number<std::int64_t>(cmd, "--max-evals", o.max_evals, 1, L::kMaxEvaluations, "Evaluation budget of each run");
  tb::add_number<std::uint64_t>(cmd, "--seed", o.seed, 0, tb::kUint64Max, "Protocol seed");
  cmd->add_option("--options", o.options, "Optimizer options as a JSON object, e.g. '{\"lambda\": 20}'")
      ->capture_default_str();
  cmd->add_option("--format", o.format, "Output: table or json")->capture_default_str();
  cmd->add_option("--out", o.out, "Write the report to this file (atomically) instead of stdout");
}

// The TD options that were given, kept apart so the learner's defaults (or the preset) fill
// in the rest.
struct LearnFlags {
  double alpha = 0, gamma = 0, lambda = 0, epsilon = 0;
  int games_per_step = 0, pieces_per_step = 0;
  std::int64_t max_game_pieces = 0;
  bool normalized = false;
  std::vector<std::pair<CLI::Option*, std::string>> given;
};

void add_learn(CLI::App& app, tb::LearnOptions& o, LearnFlags& f) {
  CLI::App* cmd = app.add_subcommand(
      "learn", "Learn a value function by TD self-play, or a policy by CBMPI; write a weights file that play --policy plays");
  cmd->add_option("--learner", o.learner, "td0, tdlambda, ntuple (the n-tuple network) or cbmpi")->capture_default_str();
  cmd->add_option("--features", o.features, "Feature set of td0/tdlambda: td44 or bertsekas")->capture_default_str();
  cmd->add_option("--preset", o.preset, "article2: article 2's TD(0), alpha 0.001, gamma 0.9, online (with --learner td0)");
  cmd->add_option("--board", o.board, board_help("default " + preset_board(tb::RuleSet::research)));
  cmd->add_option("--generator", o.generator, "Piece generator: uniform or bag7")->capture_default_str();
  cmd->add_option("--overflow", o.overflow, "Game-over rule: strict or clear-first")->capture_default_str();
  tb::add_number<std::int64_t>(cmd, "--pieces", o.pieces, 1, L::kMaxPieces, "Training budget in pieces placed");
  tb::add_number<std::uint64_t>(cmd, "--seed", o.seed, 0, tb::kUint64Max,
                                "Run seed: game g of training uses the pieces of (seed, g)");
  cmd->add_option("--out", o.out, "Write the learned weights here (required)");
  cmd->add_option("--checkpoint", o.checkpoint,
                  "Checkpoint file, written every record (cbmpi: every iteration); resumes from it if it exists");
  cmd->add_option("--cbmpi-options", o.cbmpi_options,
                  "cbmpi's options as a JSON object: states, rollout_length, rollouts_per_action, sample_every, "
                  "height_pool, policy_features, value_features, value_rbf, ridge, cmaes_lambda, "
                  "cmaes_generations, cmaes_sigma0, select_games, select_max_pieces (docs/cbmpi.md)");
  cmd->add_option("--log", o.log, "Write the per-period training records (CSV) here");
  tb::add_number<std::int64_t>(cmd, "--record-every", o.record_every, 0, L::kMaxPieces,
                               "Pieces per record and checkpoint, 0 = budget / 100");
  tb::add_number<std::int64_t>(cmd, "--eval-games", o.eval_games, 0, L::kMaxGames,
                               "Held-out games played with the result, 0 = none");
  tb::add_number<std::int64_t>(cmd, "--eval-max-pieces", o.eval_max_pieces, 0, L::kMaxPieces,
                               "Cap per held-out game, 0 = none");
  tb::add_number(cmd, "--threads", o.threads, 0, L::kMaxThreads, "Threads, 0 = all cores; results do not depend on it");
  cmd->add_option("--kernel", o.kernel, "Feature kernel (as for play); results do not depend on it");
  // The defaults shown are the learners' (docs/td.md); "" because the flag's own is unset.
  f.given = {{tb::add_number(cmd, "--alpha", f.alpha, 0.0, 1e6, "Step size (default 0.01, normalized; ntuple 0.02)")
                  ->default_str(""), "alpha"},
             {tb::add_number(cmd, "--gamma", f.gamma, 0.0, 1.0, "Discount (default 0.9; ntuple 0.99)")->default_str(""),
              "gamma"},
             {tb::add_number(cmd, "--lambda", f.lambda, 0.0, 1.0, "Trace decay of tdlambda and ntuple (default 0.7)")
                  ->default_str(""), "lambda"},
             {tb::add_number(cmd, "--epsilon", f.epsilon, 0.0, 1.0, "Exploration probability (default 0; ntuple 0.01)")
                  ->default_str(""), "epsilon"},
             {tb::add_number(cmd, "--games-per-step", f.games_per_step, 1, 4096,
                             "Games advanced in parallel per update (default 8)")->default_str(""),
              "games_per_step"},
             {tb::add_number(cmd, "--pieces-per-step", f.pieces_per_step, 1, static_cast<int>(L::kMaxTdStepSize),
                             "Pieces per game per update (default 16)")->default_str(""),
              "pieces_per_step"},
             {tb::add_number<std::int64_t>(cmd, "--max-game-pieces", f.max_game_pieces, 0, L::kMaxPieces,
                                           "Cap per training game, 0 = none (default)")->default_str(""),
              "max_pieces_per_game"},
             {cmd->add_option("--normalized", f.normalized, "Step alpha / |phi|^2 (true/false; default true)"),
              "normalized"}};
}

std::string learn_options_json(const LearnFlags& f) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [opt, key] : f.given) {
    if (!opt->count()) continue;
    if (key == "games_per_step") j[key] = f.games_per_step;
    else if (key == "pieces_per_step") j[key] = f.pieces_per_step;
    else if (key == "max_pieces_per_game") j[key] = f.max_game_pieces;
    else if (key == "normalized") j[key] = f.normalized;
    else j[key] = key == "alpha" ? f.alpha : key == "gamma" ? f.gamma : key == "lambda" ? f.lambda : f.epsilon;
  }
  return j.dump();
}

// Every subcommand's options, filled in by the parser.
struct Commands {
  tb::PlayOptions play;
  tb::BenchOptions bench;
  tb::CompareOptions compare;
  tb::InfoOptions info;
  tb::OptimizeOptions optimize;
  tb::LearnOptions learn;
  LearnFlags learn_flags;
  tb::ReplayOptions replay;
};

void add_bench(CLI::App& app, tb::BenchOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Play the fixed workloads; print pieces per second and one behaviour signature per group");
  cmd->add_option("--kernel", o.kernel, "Feature kernel (as for play)");
  cmd->add_option("--suite", o.suite, "Workload group: research, guideline, lee, ntuple, noise, rollout or all")
      ->capture_default_str();
  cmd->footer(tb::bench_workloads_help);  // built only when --help shows it
  tb::add_number(cmd, "--threads", o.threads, 0, L::kMaxThreads, "Games in parallel, 0 = all cores");
}

void add_compare(CLI::App& app, tb::CompareOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "Compare optimizers on an experiment config; writes a results folder with report.md");
  cmd->add_option("config", o.config, "Experiment config (TOML; docs/experiments.md)");
  cmd->add_option("--out", o.out, "Results folder (default results/<name>/<UTC time>)");
  cmd->add_option("--resume", o.resume, "Continue the experiment in this results folder");
  tb::add_number(cmd, "--threads", o.threads, 0, L::kMaxThreads,
                 "Games in parallel, 0 = all cores; results do not depend on it");
  cmd->add_option("--kernel", o.kernel, "Feature kernel (as for play)");
  cmd->add_flag("!--no-plots", o.plots, "Skip scripts/report.py (report.json only)");
}

// In this order: it is the order --help lists them in.
void add_commands(CLI::App& app, Commands& c) {
  add_play(app, c.play);
  add_bench(app, c.bench);
  add_compare(app, c.compare);
  app.add_subcommand("info", "Print the build, the CPU and the feature kernels (available and active)")
      ->add_option("--kernel", c.info.kernel, "Show which variant this name selects");
  add_optimize(app, c.optimize);
  add_learn(app, c.learn, c.learn_flags);
  add_replay(app, c.replay);
}

// An empty value would silently stand for the default (`--out ''` for stdout, `--kernel ''` for
// the best kernel), so no option that takes a value accepts one.
void refuse_empty_values(CLI::App& app) {
  const CLI::Validator non_empty(
      [](const std::string& value) { return value.empty() ? std::string("must not be empty") : std::string(); }, "");
  for (CLI::App* cmd : app.get_subcommands({}))
    for (CLI::Option* opt : cmd->get_options())
      if (opt->get_expected_min() > 0) opt->check(non_empty);
}

// The learn flags main alone can judge: which were given.
void settle_learn_flags(const CLI::App& learn, tb::LearnOptions& o, const LearnFlags& f) {
  o.options_json = learn_options_json(f);
  const bool learner_given = learn.get_option("--learner")->count() > 0;
  if (!o.preset.empty() && !learner_given) o.learner = "td0";
  if (o.learner == "ntuple" && learn.get_option("--features")->count() > 0)
    throw tb::UsageError("--features does not apply to the ntuple learner (its inputs are its n-tuples)");
  if (o.learner != "cbmpi") {
    if (!o.cbmpi_options.empty()) throw tb::UsageError("--cbmpi-options applies to --learner cbmpi only");
    return;
  }
  // cbmpi takes its options from --cbmpi-options alone, and writes no period log.
  for (const char* flag : {"--features", "--preset", "--log", "--record-every"})
    if (learn.get_option(flag)->count() > 0)
      throw tb::UsageError(std::string(flag) + " does not apply to --learner cbmpi (see --cbmpi-options)");
  for (const auto& [opt, key] : f.given)
    if (opt->count() > 0)
      throw tb::UsageError(opt->get_name() + " is a TD option; cbmpi's options go in --cbmpi-options");
}

// Runs the subcommand given; its errors are main's to report.
int run_command(CLI::App& app, Commands& c) {
  if (app.got_subcommand("play")) return tb::run_play(c.play);
  if (app.got_subcommand("info")) return tb::run_info(c.info);
  if (app.got_subcommand("bench")) return tb::run_bench(c.bench);
  if (app.got_subcommand("optimize")) return tb::run_optimize(c.optimize);
  if (app.got_subcommand("compare")) return tb::run_compare(c.compare);
  if (app.got_subcommand("replay")) return tb::run_replay(c.replay);
  if (app.got_subcommand("learn")) {
    settle_learn_flags(*app.get_subcommand("learn"), c.learn, c.learn_flags);
    return tb::run_learn(c.learn);
  }
  return 0;
}

// Parses the command line and runs it; --help and --version print their text and succeed.
int parse_and_run(CLI::App& app, Commands& c, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  }
  return run_command(app, c);
}

// The one place an error is printed: one line, with control characters made visible
// (quote.h), whatever the message echoes from the input.
int report(const char* kind, std::string_view what, int status) {
  std::fprintf(stderr, "tetrisbench: %s: %s\n", kind, tb::escaped(what).c_str());
  return status;
}

}  // namespace

int run_main(int argc, char** argv);

// Under an MPI launcher, ranks > 0 serve games to rank 0 and never run the command; rank 0 runs
// it as one process would and, however it ends, releases the other ranks (docs/cluster.md).
int main(int argc, char** argv) {
  tb::reserve_standard_descriptors();  // before any file is opened
  const tb::cluster::World w =
      tb::cluster::start(&argc, &argv, std::string(tb::kVersion) + " " + tb::kGitCommit);
  if (w.rank > 0) return tb::cluster::serve();
  const int status = run_main(argc, argv);
  tb::cluster::finish();
  return status;
}

int run_main(int argc, char** argv) {
  CLI::App app{"tetrisbench: Tetris-AI research suite (rules: docs/rules.md)"};
  app.set_version_flag("--version", std::string(tb::kVersion) + " (" + tb::kGitCommit + ")");
  app.require_subcommand(1);
  Commands commands;
  add_commands(app, commands);
  refuse_empty_values(app);
  try {
    const int status = parse_and_run(app, commands, argc, argv);
    if (status == 0) tb::check_stdout();  // a report that did not reach stdout is a failed run
    return status;
  } catch (const CLI::ParseError& e) {
    return report("error", std::string(e.what()) + " (see --help)", 2);
  } catch (const tb::Error& e) {  // the one error type: its exit status (engine/io/error.h)
    return report("error", e.what(), e.exit_code());
  } catch (const std::bad_alloc&) {  // also from a worker thread: oneTBB passes it on
    return report("error", "out of memory (a smaller run, or a larger ulimit -v, may fit)", 1);
  } catch (const std::exception& e) {  // not expected: a bug
    return report("internal error", e.what(), 1);
  }
}
