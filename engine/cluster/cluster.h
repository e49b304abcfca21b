// Running on a cluster: the same command on N MPI ranks (docs/cluster.md).
//
// Rank 0 runs the command as a single process would: it parses the options, owns the
// optimizers, checkpoints, reports and every file, and prints.  Ranks 1 .. N-1 never run the
// command: they serve games.  Whenever rank 0 plays a population (engine/run/parallel_play.h:
// `play`, `compare`'s generations and held-out games, `learn`'s evaluation games), it sends the
// policies and the game config to every rank, and each rank asks rank 0 for chunks of game
// indices until none are left, plays them on its own oneTBB threads, and sends the results
// back keyed by game index.  A game is a pure function of its index, so the results, and
// everything computed from them, are the same for any number of ranks and any order of
// arrival.
//
// Without MPI (built without it, or not started by an MPI launcher) every function here is a
// no-op on a world of one rank.
#pragma once

#include <string_view>

namespace tb::cluster {

struct World {
  int rank = 0;
  int size = 1;
};

// Whether this build has the MPI backend.
bool built_with_mpi();

// Starts MPI if this process was started by an MPI launcher (mpirun, or srun with PMI/PMIx),
// checks that every rank runs the same build (`build_id`: version and commit), and on rank 0
// installs the game distributor.  Call once, first thing in main().
World start(int* argc, char*** argv, std::string_view build_id);
const World& world();

// Ranks > 0: serves rank 0's games until rank 0 calls finish(); returns the exit status.
int serve();

// Rank 0, on the way out (success or error): tells the other ranks to stop, then shuts MPI
// down.  A no-op in a world of one.
void finish();

}  // namespace tb::cluster
