// Between cluster.cpp, which every tetrisbench has, and the MPI backend, tetrisbench-mpi.so
// (mpi_backend.cpp, linked with Open MPI).  cluster.cpp loads the backend only when an MPI
// launcher started the process, so that a run outside MPI does not load Open MPI's four
// libraries and the four they need: about 3.7 ms of every process's start on the CI machine kind
// (docs/performance.md).  The backend calls the engine only through EngineCalls, which
// cluster.cpp fills with the program's own functions: it links no engine code (its link
// rejects an undefined symbol, -z defs), so one copy of every game's code runs on every rank.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "cluster.h"
#include "feature_set.h"
#include "kernel_variants.h"
#include "ntuple.h"
#include "parallel_play.h"

namespace tb::cluster {

// A type name of its own: inside EngineCalls, a member spelled `decltype(&play_population_range)
// play_population_range` would change what the name means there, which g++ rejects.
using PlayPopulationRangeFn = decltype(&play_population_range);

struct EngineCalls {
  const KernelVariant& (*best_kernel)();
  const KernelVariant* (*find_kernel)(std::string_view name);
  std::span<const KernelVariant> (*kernel_variants)();
  std::uint32_t (*cpu_features)();  // KernelVariant::supported() is inline over it
  const FeatureSet* (*find_feature_set)(std::string_view name);
  std::shared_ptr<NTupleNetwork> (*make_network)(Geometry g);  // zero weights
  int (*thread_count)(int threads);
  void (*set_game_distributor)(GameDistributor* d);
  PlayPopulationRangeFn play_population_range;
};

// cluster.h's start(), serve() and finish() under MPI.
struct Backend {
  World (*start)(int* argc, char*** argv, std::string_view build_id, const EngineCalls& engine);
  int (*serve)();
  void (*finish)();
};

// The program and the backend must come from one build: they share these structs and the
// engine's types.  The fingerprint changes with their sizes and kBackendInterface.
inline constexpr std::uint64_t kBackendInterface = 1;
constexpr std::uint64_t backend_fingerprint() {
  return kBackendInterface ^ (sizeof(EngineCalls) << 8) ^ (sizeof(Backend) << 16) ^ (sizeof(Policy) << 24) ^
         (sizeof(GameConfig) << 32) ^ (sizeof(GameResult) << 44);
}

inline constexpr const char* kBackendEntry = "tetrisbench_mpi_backend";

}  // namespace tb::cluster

// The backend's one exported function: its Backend, or null if `fingerprint` is not its own.
extern "C" const tb::cluster::Backend* tetrisbench_mpi_backend(std::uint64_t fingerprint);
