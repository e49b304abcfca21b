// The drop pass's entry points (drop_pass/pass.h): one function per instance, and the tables
// of them that each per-architecture translation unit (drop_scorer_<isa>.cpp) fills, compiled
// with that instruction set's flags (engine/search/CMakeLists.txt).  Include only from those.
#pragma once

#include <cstddef>
#include <utility>

#include "base_pass.h"
#include "pair_rows.h"
#include "pass.h"
#include "quiet_rows.h"
#include "rare.h"
#include "reduce.h"
#include "registers.h"
#include "tails.h"

namespace tb {
namespace {

template <class A, class Narrow, std::uint32_t Family, int Width>
void drop_pass(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropMode mode,
               DropScores& out) {
  DropPass<A, Narrow, false, Family, Width> pass(rating, board, mode);
  pass.run(piece, carry, out);
}

// DropMode::rare_only in its own instance (DropPass's RareOnly); include only from the
// drop_scorer_rare_<isa>.cpp files.
template <class A, class Narrow, std::uint32_t Family, int Width>
void drop_pass_rare(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropScores& out) {
  DropPass<A, Narrow, true, Family, Width> pass(rating, board, DropMode::rare_only);
  pass.run(piece, carry, out);
}

// Every pass of one instruction set: per width of kDropWidths, per family of kDropFamilies,
// make(w, f) for the indices w and f (std::integral_constant).
template <class Passes, class Make, std::size_t... WF>
constexpr Passes per_width_and_family(Make make, std::index_sequence<WF...>) {
  constexpr std::size_t kF = kDropFamilyCount;
  Passes passes{};
  ((passes[WF / kF][WF % kF] = make(std::integral_constant<std::size_t, WF / kF>{},
                                    std::integral_constant<std::size_t, WF % kF>{})),
   ...);
  return passes;
}
template <class A, class Narrow = A>
constexpr DropPasses drop_passes() {
  return per_width_and_family<DropPasses>(
      [](auto w, auto f) { return &drop_pass<A, Narrow, kDropFamilies[f], kDropWidths[w]>; },
      std::make_index_sequence<kDropWidthCount * kDropFamilyCount>{});
}
template <class A, class Narrow = A>
constexpr DropRarePasses drop_rare_passes() {
  return per_width_and_family<DropRarePasses>(
      [](auto w, auto f) { return &drop_pass_rare<A, Narrow, kDropFamilies[f], kDropWidths[w]>; },
      std::make_index_sequence<kDropWidthCount * kDropFamilyCount>{});
}
}  // namespace
}  // namespace tb
