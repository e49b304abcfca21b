// Replays (docs/replay-format.md): `tetrisbench play --record FILE` writes one game of a run,
// and `tetrisbench replay FILE` re-simulates it, checks that it reproduces, and shows it as
// text frames, PNG files or an animated GIF.
#pragma once

#include <cstdint>
#include <string>

#include "feature_kernels.h"
#include "replay.h"

namespace tb {

struct PlayRun;  // play_command.h

struct ReplayOptions {
  std::string file;
  std::string frames = "all";  // all, none, last, N or A:B; frame k is the board after k moves
  int delay_ms = 0;            // pause between text frames
  bool text = true;            // print the selected frames as text
  std::string png_dir;         // one PNG per selected frame: DIR/frame-NNNNN.png
  std::string gif;             // the selected frames as one looping GIF
  int gif_delay_cs = 8;        // hundredths of a second per GIF frame
  int cell_pixels = 12;        // PNG and GIF cell size
  bool policy_check = true;    // compare the policy's own choices when it can be loaded
  std::string kernel;
};

// The replay of game `index` of the run (index within the run), played again on one thread
// with the run's policy, rules and seed; input strings for reachable placements.  Throws
// RunError if it does not reproduce the run's result (an engine bug).
Replay record_game(const PlayRun& run, std::int64_t index, const std::string& policy_arg, FeatureKernel kernel);

// Exit code: 0 reproduces, 1 diverges (one line naming the move).  Throws UsageError or
// ReplayError (exit 2) on bad options or a corrupt file, before writing anything.
int run_replay(const ReplayOptions& options);

}  // namespace tb
