#include "replay_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "cli_common.h"
#include "file_io.h"
#include "game.h"
#include "play_command.h"  // PlayRun
#include "quote.h"
#include "render.h"
#include "replay_check.h"
#include "stdout_check.h"

namespace tb {

namespace {

// Which frames of 0 .. last are selected.
struct FrameRange {
  std::int64_t first = 0, last = -1;  // empty when last < first
  bool contains(std::int64_t k) const { return k >= first && k <= last; }
};

FrameRange parse_frames(const std::string& spec, std::int64_t moves) {
  auto number = [&](const std::string& s) {
    std::int64_t v = -1;
    std::istringstream in(s);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || !(in >> v) || v > moves)
      throw UsageError("--frames '" + spec + "': frames are 0.." + std::to_string(moves) +
                       " (all, none, last, N or A:B)");
    return v;
  };
  if (spec == "all") return {0, moves};
  if (spec == "none") return {};
  if (spec == "last") return {moves, moves};
  const auto colon = spec.find(':');
  if (colon == std::string::npos) {
    const std::int64_t k = number(spec);
    return {k, k};
  }
  const FrameRange r{number(spec.substr(0, colon)), number(spec.substr(colon + 1))};
  if (r.last < r.first) throw UsageError("--frames '" + spec + "': the range is empty");
  return r;
}

// Frame k: the board after k moves, and the piece the next move places.
std::string caption(const Replay& r, std::int64_t k, std::int64_t lines, Piece next) {
  std::string c = "move " + std::to_string(k) + "/" + std::to_string(r.moves.size()) + "  lines " +
                  std::to_string(lines);
  if (k < static_cast<std::int64_t>(r.moves.size())) c += "  piece " + std::string(1, kPieceChar[next]);
  return c;
}

// The policy the file names, or the reason it is not checked.
std::unique_ptr<Searcher> policy_searcher(const Replay& r, const Rules& rules, const ReplayOptions& o,
                                          std::string& note) {
  if (!o.policy_check) {
    note = "not checked (--no-policy-check)";
    return nullptr;
  }
  try {
    const Policy policy = load_policy(r.policy);
    check_dimension(policy, rules.geometry);
    note = "'" + r.policy + "' picks every recorded move";
    return std::make_unique<Searcher>(policy, rules, choose_kernel(o.kernel).kernel);
  } catch (const PolicyError& e) {
    note = "not checked (" + std::string(e.what()) + ")";
    return nullptr;
  }
}

void write_pictures(const ReplayOptions& o, const std::vector<Frame>& frames, std::int64_t first_frame) {
  if (!o.png_dir.empty()) {
    // Every frame's name is checked before the first is written, so a link or folder at one
    // of them is refused with nothing written.  On a failure later (a full disk), only what
    // this run made is removed: the frames that were not there before, and the folder if this
    // run made it.  A regular file this run replaced is left as it is now.
    namespace fs = std::filesystem;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < frames.size(); ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "frame-%05lld.png", static_cast<long long>(first_frame + static_cast<std::int64_t>(i)));
      names.push_back((fs::path(o.png_dir) / name).string());
      check_replaceable(names.back(), "--png frame");
    }
    const bool made = fs::create_directory(o.png_dir);
    std::vector<std::string> created;
    try {
      for (std::size_t i = 0; i < frames.size(); ++i) {
        const bool existed = path_exists(names[i]);
        write_png(names[i], frames[i], o.cell_pixels);
        if (!existed) created.push_back(names[i]);
      }
    } catch (...) {
      std::error_code ec;
      for (const std::string& f : created) fs::remove(f, ec);
      if (made) fs::remove(o.png_dir, ec);
      throw;
    }
  }
  if (!o.gif.empty() && !frames.empty()) write_gif(o.gif, frames, o.cell_pixels, o.gif_delay_cs);
}

void check_options(const ReplayOptions& o) {
  // The numbers are range-checked by the flag parser (main.cpp); outputs are checked here,
  // before any work, and must not overwrite the replay itself.
  if (!o.gif.empty()) check_writable(o.gif, "--gif");
  check_distinct({{"replay", o.file}, {"--gif", o.gif}});
  if (!o.png_dir.empty()) {
    namespace fs = std::filesystem;
    struct stat st {};
    if (::lstat(o.png_dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) throw UsageError("--png '" + o.png_dir + "' is not a directory");
      if (::access(o.png_dir.c_str(), W_OK) != 0) throw UsageError("--png folder '" + o.png_dir + "' is not writable");
    } else {
      check_writable(o.png_dir, "--png");  // a new folder: its parent must exist and be writable
    }
  }
}

}  // namespace

Replay record_game(const PlayRun& run, std::int64_t index, const std::string& policy_arg, FeatureKernel kernel) {
  const GameResult& want = run.results[static_cast<std::size_t>(index)];
  const Rules& rules = run.config.rules;
  Searcher searcher(run.policy, rules, kernel);
  std::vector<Placement> moves;
  const GameResult got = play_game(searcher, run.config, want.index, &moves);
  if (got.lines != want.lines || got.pieces != want.pieces || !(got.final_board == want.final_board))
    throw RunError("game " + std::to_string(want.index) + " played again differs from the run");
  Replay r;
  r.rules = rule_set_name(rules);
  r.width = rules.geometry.width;
  r.height = rules.geometry.height;
  r.seed = run.config.seed;
  r.game = static_cast<std::int64_t>(want.index);
  r.policy = policy_arg;
  for (Placement pl : moves) r.moves.push_back({{pl.piece, pl.orientation, pl.column}, pl.row});
  r.lines = got.lines;
  r.pieces = got.pieces;
  r.game_over = !got.capped;
  r.final_board_hash = board_hash(got.final_board, r.width);
  std::vector<std::string> inputs;
  const ReplayVerdict v = check_replay(r, nullptr, [&](const ReplayStep& s) {
    if (s.reachable) inputs.push_back(format_inputs(input_sequence(*s.reachable, s.reachable_index)));
  });
  if (!v.reproduces) throw RunError("the recording of game " + std::to_string(r.game) + " does not replay: " + v.problem);
  r.inputs = std::move(inputs);
  return r;
}

int run_replay(const ReplayOptions& o) {
  check_options(o);
  const Replay r = parse_replay(read_input_file(o.file, "replay", kMaxReplayBytes), o.file);
  const Rules rules = replay_rules(r);
  const FrameRange range = parse_frames(o.frames, static_cast<std::int64_t>(r.moves.size()));
  const bool pictures = (o.text || !o.png_dir.empty() || !o.gif.empty()) && range.last >= range.first;
  std::string note;
  const std::unique_ptr<Searcher> policy = policy_searcher(r, rules, o, note);

  const Geometry g = rules.geometry;
  std::vector<Frame> frames;
  ColorBoard colors;
  std::int64_t lines = 0;
  PieceStream stream = PieceStream::make(rules.generator, r.seed, static_cast<std::uint64_t>(r.game));
  if (pictures && range.contains(0)) frames.push_back(colors.frame(g.width, g.height, g.hidden, caption(r, 0, 0, stream.next())));
  const ReplayVerdict v = check_replay(r, policy.get(), [&](const ReplayStep& s) {
    lines += s.lines;
    if (!pictures) return;
    colors.lock(s.placement, s.placement.row);
    if (s.lines > 0) colors.clear_full_rows(g.width);
    const std::int64_t k = s.index + 1;
    if (range.contains(k)) frames.push_back(colors.frame(g.width, g.height, g.hidden, caption(r, k, lines, s.next)));
  });
  if (!v.reproduces) {
    std::fprintf(stderr, "tetrisbench: replay %s does not reproduce: %s\n", escaped(o.file).c_str(),
                 escaped(v.problem).c_str());
    return 1;
  }
  if (o.text)
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (i > 0 && o.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(o.delay_ms));
      std::cout << render_text(frames[i]) << '\n';
      check_stdout();  // a reader that left stops the replay
    }
  write_pictures(o, frames, range.first);
  std::printf("replay %s reproduces: rules %s, seed %llu, game %lld, %lld moves, lines %lld, game over %s, hash %016llx; policy %s\n",
              escaped(o.file).c_str(), r.rules.c_str(), static_cast<unsigned long long>(r.seed), static_cast<long long>(r.game),
              static_cast<long long>(v.pieces), static_cast<long long>(v.lines), v.game_over ? "yes" : "no",
              static_cast<unsigned long long>(v.hash), escaped(note).c_str());
  return 0;
}

}  // namespace tb
