#include "srs.h"

#include <bit>

namespace tb {

const char* to_string(Input in) {
  switch (in) {
    case Input::left: return "left";
    case Input::right: return "right";
    case Input::cw: return "cw";
    case Input::ccw: return "ccw";
    case Input::soft: return "soft";
    case Input::hard: return "hard";
  }
  return "?";
}

const char* to_string(RotationSystem rs) { return rs == RotationSystem::srs ? "srs" : "simple"; }

Squares cells(PieceState s) {
  Squares out{};
  for (int i = 0; i < 4; ++i) {
    const srs::Offset c = srs::kStates[s.piece][s.rotation][i];
    out[i] = {s.x + c.dx, s.y + c.dy};
  }
  return out;
}

Landing to_landing(PieceState s) {
  const srs::StateShape& st = srs::kStateShapes[s.piece][s.rotation];
  return {{s.piece, st.orientation, static_cast<std::uint8_t>(s.x + st.left)}, s.y + st.bottom};
}

Squares cells(Placement pl, int row) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  Squares out{};
  int n = 0;
  for (int i = 0; i < o.width; ++i)
    for (Word m = o.mask[i]; m; m &= m - 1) out[n++] = {pl.column + i, row + std::countr_zero(m)};
  return out;
}

bool Playfield::fits(PieceState s) const {
  for (Square c : cells(s))
    if (c.column < 0 || c.column >= geometry_.width || c.row < 0 || c.row >= geometry_.height ||
        board_.filled(c.column, c.row))
      return false;
  return true;
}

bool Playfield::spawn(Piece p, int spawn_row) {
  active_ = false;
  return set_piece(spawn_state(p, geometry_.width, spawn_row));
}

bool Playfield::set_piece(PieceState s) {
  if (!fits(s)) return false;
  piece_ = s;
  active_ = true;
  return true;
}

bool Playfield::shift(int dx, int dy) {
  if (!active_) return false;
  PieceState next = piece_;
  next.x = static_cast<std::int8_t>(next.x + dx);
  next.y = static_cast<std::int8_t>(next.y + dy);
  if (!fits(next)) return false;
  piece_ = next;
  return true;
}

// The first kick test that fits wins (Guideline SRS); none fitting means no rotation.
bool Playfield::rotate(int dir) {
  if (!active_) return false;
  PieceState next = piece_;
  next.rotation = static_cast<std::uint8_t>((piece_.rotation + (dir == 0 ? 1 : 3)) & 3);
  for (srs::Offset k : srs::kicks(rotation_system_, piece_.piece, piece_.rotation, dir)) {
    next.x = static_cast<std::int8_t>(piece_.x + k.dx);
    next.y = static_cast<std::int8_t>(piece_.y + k.dy);
    if (fits(next)) {
      piece_ = next;
      return true;
    }
  }
  return false;
}

bool Playfield::hard_drop() {
  if (!active_) return false;
  while (shift(0, -1)) {
  }
  return lock();
}

bool Playfield::lock() {
  if (!active_) return false;
  for (Square c : cells(piece_)) board_.cols[c.column] |= Word{1} << c.row;
  active_ = false;
  return true;
}

bool Playfield::apply(Input in) {
  switch (in) {
    case Input::left: return move_left();
    case Input::right: return move_right();
    case Input::cw: return rotate_cw();
    case Input::ccw: return rotate_ccw();
    case Input::soft: return soft_drop();
    case Input::hard: return hard_drop();
  }
  return false;
}

int Playfield::clear_lines() {
  Word full = low_mask(geometry_.height);
  for (int c = 0; c < geometry_.width; ++c) full &= board_.cols[c];
  for (int c = 0; c < geometry_.width; ++c) board_.cols[c] = remove_rows(board_.cols[c], full);
  return popcount(full);
}

}  // namespace tb
