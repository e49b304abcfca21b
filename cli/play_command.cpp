#include "play_command.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "file_io.h"
#include "parallel_play.h"
#include "progress.h"
#include "replay_command.h"

namespace tb {
namespace {

GameConfig make_config(const PlayOptions& o) {
  GameConfig c;
  c.rules = rules_from_flags({o.rules, o.board, o.generator, o.overflow, o.lookahead});
  if (o.max_pieces < 0) throw UsageError("--max-pieces must be >= 0 (0 = no cap)");
  c.max_pieces = o.max_pieces;
  if (!(o.tie_noise >= 0)) throw UsageError("--tie-noise must be >= 0");
  c.tie_noise = o.tie_noise;
  c.seed = o.seed;
  return c;
}

void validate(const PlayOptions& o) {
  if (o.games <= 0) throw UsageError("--games must be a positive count, not " + std::to_string(o.games));
  if (o.first_game < 0) throw UsageError("--first-game must be >= 0");
  if (o.threads < 0) throw UsageError("--threads must be >= 0 (0 = all cores)");
  if (o.format != "table" && o.format != "json" && o.format != "csv")
    throw UsageError("unknown format '" + o.format + "' (table, json or csv)");
  if (o.show_game >= o.games) throw UsageError("--show-game must be below --games");
  if (!o.record.empty() && o.tie_noise > 0)
    throw UsageError("--record cannot be used with --tie-noise (a replay does not hold the noise)");
  // Outputs are checked before the run, not after it, and none may overwrite an input.
  if (!o.out.empty()) check_writable(o.out, "--out");
  if (!o.record.empty()) check_writable(o.record, "--record");
  check_distinct({{"--policy", o.policy}, {"--out", o.out}, {"--record", o.record}});
}

std::string progress_text(const PlayProgress& p, std::int64_t games,
                          std::chrono::steady_clock::time_point start) {
  const auto done = p.games_done.load();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char line[160];
  std::snprintf(line, sizeof line, "play: %lld/%lld games, %.3g pieces, %.0f s",
                static_cast<long long>(done), static_cast<long long>(games),
                static_cast<double>(p.pieces_done.load()), secs);
  return line;
}

}  // namespace

int run_play(const PlayOptions& o) {
  validate(o);
  PlayRun run;
  run.config = make_config(o);
  run.policy = load_policy(o.policy);
  check_dimension(run.policy, run.config.rules.geometry);
  run.first_game = o.first_game;
  run.threads = thread_count(o.threads);
  const KernelVariant& kernel = choose_kernel(o.kernel);
  run.kernel = std::string(kernel.name);

  PlayProgress progress;
  const auto start = std::chrono::steady_clock::now();
  {
    ProgressLine line([&] { return progress_text(progress, o.games, start); });
    run.results = play_games(run.policy, run.config, o.games, o.threads, kernel.kernel,
                             &progress, o.first_game);
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.summary = summarize(run.results);

  std::string report = o.format == "json" ? play_json(run) : o.format == "csv" ? play_csv(run) : play_table(run);
  const std::int64_t shown = o.show_game < 0 ? 0 : o.show_game;
  if (!o.record.empty())
    write_file_atomically(o.record, format_replay(record_game(run, shown, o.policy, kernel.kernel)));
  if (o.show) {
    const GameResult& g = run.results[shown];
    std::string board = "final board of game " + std::to_string(g.index) + ":\n" +
                        to_text(g.final_board, run.config.rules.geometry);
    if (o.format == "table") report += "\n" + board;
    else std::cerr << board;  // keep stdout machine-readable
  }
  if (o.out.empty()) std::cout << report << std::flush;
  else write_file_atomically(o.out, report);
  return 0;
}

}  // namespace tb
