#include "piece_stream.h"

#include <array>
#include <utility>

namespace tb {

PieceStream PieceStream::make(Generator g, std::uint64_t run_seed, std::uint64_t game_index) {
  PieceStream s;
  s.rng.key = stream_key(run_seed, game_index);
  s.generator = g;
  return s;
}

Piece PieceStream::next() {
  if (generator == Generator::uniform) return static_cast<Piece>(rng.below(PIECE_NB));
  if (bag_left == 0) {
    std::array<std::uint32_t, PIECE_NB> b{I, O, T, S, Z, J, L};
    for (int i = PIECE_NB - 1; i >= 1; --i) std::swap(b[i], b[rng.below(i + 1)]);
    bag = 0;
    for (int i = 0; i < PIECE_NB; ++i) bag |= b[i] << (3 * i);
    bag_left = PIECE_NB;
  }
  const auto p = static_cast<Piece>(bag & 7u);
  bag >>= 3;
  --bag_left;
  return p;
}

}  // namespace tb
