// The `tetrisbench` command line: parses options and dispatches to one command per file.
// Bad input exits 2 with one line on stderr (docs/cli.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "bench_command.h"
#include "compare_command.h"
#include "info_command.h"
#include "optimize_command.h"
#include "play_command.h"
#include "version.h"

namespace {

void add_play(CLI::App& app, tb::PlayOptions& o) {
  CLI::App* play = app.add_subcommand("play", "Play games of one policy and report lines per game");
  play->add_option("--policy", o.policy,
                   "Built-in policy (dellacherie, bcts, dt20, eltetris, lee, article3) or a weight file")
      ->capture_default_str();
  play->add_option("--board", o.board, "Board size WxH, W in 4..16, H in 4..28")->capture_default_str();
  play->add_option("--games", o.games, "Number of games (>= 1)")->capture_default_str();
  play->add_option("--first-game", o.first_game,
                   "Index of the first game; game g always gets the pieces of (seed, g)")
      ->capture_default_str();
  play->add_option("--seed", o.seed, "Run seed")->capture_default_str();
  play->add_option("--generator", o.generator, "Piece generator: uniform or bag7")->capture_default_str();
  play->add_option("--overflow", o.overflow, "Game-over rule: strict or clear-first")->capture_default_str();
  play->add_option("--lookahead", o.lookahead, "0: greedy; 1: 2-ply with the next piece known")
      ->capture_default_str();
  play->add_option("--max-pieces", o.max_pieces, "Cap on pieces per game, 0 = none; capped games are reported")
      ->capture_default_str();
  play->add_option("--threads", o.threads, "Games in parallel, 0 = all cores; results do not depend on it")
      ->capture_default_str();
  play->add_option("--tie-noise", o.tie_noise, "Seeded tie-break noise amplitude, 0 = off")->capture_default_str();
  play->add_option("--format", o.format, "Output: table, json or csv (per-game rows)")->capture_default_str();
  play->add_option("--kernel", o.kernel,
                   "Feature kernel: reference, scalar, sse4.2, avx2 or avx512 (default: the best "
                   "this CPU has, or $TETRISBENCH_KERNEL); results do not depend on it");
  play->add_option("--out", o.out, "Write the report to this file (atomically) instead of stdout");
  play->add_flag("--show", o.show,
                 "Print the final board of a game as text (on stderr unless --format table)");
  play->add_option("--show-game", o.show_game, "Which game --show prints (index within the run)");
}

void add_optimize(CLI::App& app, tb::OptimizeOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "optimize", "Run an optimizer on an analytic objective from random starts; report evaluations to target");
  cmd->add_option("--optimizer", o.optimizer, "Optimizer: cmaes, cmaes-active, ipop-cmaes, ...")
      ->capture_default_str();
  cmd->add_option("--objective", o.objective, "Objective: sphere, ellipsoid, rosenbrock or rastrigin")
      ->capture_default_str();
  cmd->add_option("--dim", o.dim, "Dimension n")->capture_default_str();
  cmd->add_option("--runs", o.runs, "Independent runs; run r uses the seed derived from (seed, r)")
      ->capture_default_str();
  cmd->add_option("--sigma0", o.sigma0, "Initial step size")->capture_default_str();
  cmd->add_option("--target", o.target, "A run succeeds at its first value below this")->capture_default_str();
  cmd->add_option("--max-evals", o.max_evals, "Evaluation budget of each run")->capture_default_str();
  cmd->add_option("--seed", o.seed, "Protocol seed")->capture_default_str();
  cmd->add_option("--options", o.options, "Optimizer options as a JSON object, e.g. '{\"lambda\": 20}'")
      ->capture_default_str();
  cmd->add_option("--format", o.format, "Output: table or json")->capture_default_str();
  cmd->add_option("--out", o.out, "Write the report to this file (atomically) instead of stdout");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tetrisbench: Tetris-AI research suite (rules: docs/rules.md)"};
  app.set_version_flag("--version", std::string(tb::kVersion) + " (" + tb::kGitCommit + ")");
  app.require_subcommand(1);
  tb::PlayOptions play;
  add_play(app, play);
  tb::BenchOptions bench;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench", "Play the fixed workload; print pieces per second and the behaviour signature");
  bench_cmd->add_option("--kernel", bench.kernel, "Feature kernel (as for play)");
  bench_cmd->add_option("--threads", bench.threads, "Games in parallel, 0 = all cores")->capture_default_str();
  tb::CompareOptions compare;
  CLI::App* compare_cmd = app.add_subcommand(
      "compare", "Compare optimizers on an experiment config; writes a results folder with report.md");
  compare_cmd->add_option("config", compare.config, "Experiment config (TOML; docs/experiments.md)");
  compare_cmd->add_option("--out", compare.out, "Results folder (default results/<name>/<UTC time>)");
  compare_cmd->add_option("--resume", compare.resume, "Continue the experiment in this results folder");
  compare_cmd->add_option("--threads", compare.threads, "Games in parallel, 0 = all cores; results do not depend on it")
      ->capture_default_str();
  compare_cmd->add_option("--kernel", compare.kernel, "Feature kernel (as for play)");
  compare_cmd->add_flag("!--no-plots", compare.plots, "Skip scripts/report.py (report.json only)");
  tb::InfoOptions info;
  app.add_subcommand("info", "Print the build, the CPU and the feature kernels (available and active)")
      ->add_option("--kernel", info.kernel, "Show which variant this name selects");
  tb::OptimizeOptions optimize;
  add_optimize(app, optimize);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tetrisbench: error: %s (see --help)\n", e.what());
    return 2;
  }
  try {
    if (app.got_subcommand("play")) return tb::run_play(play);
    if (app.got_subcommand("info")) return tb::run_info(info);
    if (app.got_subcommand("bench")) return tb::run_bench(bench);
    if (app.got_subcommand("optimize")) return tb::run_optimize(optimize);
    if (app.got_subcommand("compare")) return tb::run_compare(compare);
  } catch (const tb::UsageError& e) {
    std::fprintf(stderr, "tetrisbench: error: %s\n", e.what());
    return 2;
  } catch (const tb::PolicyError& e) {
    std::fprintf(stderr, "tetrisbench: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tetrisbench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
