// Piece generators (docs/rules.md "Piece generators").  A stream is a pure function of
// (run seed, game index) and its position; its whole state is a few integers, so it can live
// struct-of-arrays in a batch.
//   uniform: piece = Piece(rng.below(7)) per draw, in the order I O T S Z J L of `Piece`
//            (pieces.h).
//   bag7:    when the bag is empty, refill it with I O T S Z J L and Fisher-Yates shuffle it
//            (for i = 6 .. 1: swap(bag[i], bag[rng.below(i + 1)])), then deal bag[0..6].
#pragma once

#include <cstdint>

#include "pieces.h"
#include "rng.h"
#include "rules.h"

namespace tb {

struct PieceStream {
  CounterRng rng;
  std::uint32_t bag = 0;      // bag7: piece i of the bag in bits 3i..3i+2
  std::uint8_t bag_left = 0;  // bag7: pieces not yet dealt
  Generator generator = Generator::uniform;

  static PieceStream make(Generator g, std::uint64_t run_seed, std::uint64_t game_index);
  Piece next();
};

}  // namespace tb
