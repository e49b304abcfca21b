// The documented ranges of the numbers tetrisbench accepts from outside (flags, configs,
// checkpoints; docs/threat-model.md "Ranges").  They are far above any real run and far below
// what would exhaust memory or overflow a 64-bit count.
#pragma once

#include <cstdint>

namespace tb::limits {

inline constexpr int kMaxThreads = 1024;                         // --threads
inline constexpr std::int64_t kMaxGames = 10'000'000;             // games of one play or evaluation
inline constexpr std::int64_t kMaxPieces = 1'000'000'000'000'000; // a cap or budget in pieces (1e15)
inline constexpr std::int64_t kMaxGameIndex = 1'000'000'000'000'000;  // --first-game
inline constexpr std::int64_t kMaxRuns = 10'000;                  // runs of one optimizer
inline constexpr std::int64_t kMaxPopulation = 100'000;           // integer optimizer options
inline constexpr int kMaxDimension = 1'000;                       // optimize --dim
inline constexpr std::int64_t kMaxEvaluations = 1'000'000'000'000;  // optimize --max-evals
inline constexpr std::int64_t kMaxTdStepSize = 1'000'000;         // TD games or pieces per step
inline constexpr std::size_t kMaxNameLength = 64;                 // experiment names and labels
// Nested arrays and objects in a JSON input (experiments/common/json_fields.h parse_json): nlohmann
// copies, compares and writes a value recursively, one stack frame per level, so a 100,000-deep
// array parses but crashes later.  The files tetrisbench reads back nest 6 levels at most.
inline constexpr int kMaxJsonDepth = 64;

}  // namespace tb::limits
