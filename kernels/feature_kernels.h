// Board feature kernels: the interface every kernel variant implements.
//
// A kernel computes features for a *block* of boards at once (docs/decisions.md "Kernels work
// on blocks"): lanes run across boards, never across the cells of one board.  Kernels see raw
// words only and know nothing about pieces or placements; move features (landing height,
// eroded cells, lines) come from the engine.
//
// Definitions: quoted above each function of features_reference.cpp; word-level forms, feature
// sets and citations in docs/features.md.
#pragma once

#include <cstdint>
#include <string_view>

#include "board_words.h"

namespace tb {

// Article 2's row-fill buckets: rows with 0-1, 2-3, 4-5, 6-7 and 8 or more filled cells
// (bucket min(filled / 2, kRowFillBuckets - 1)).
inline constexpr int kRowFillBuckets = 5;

// Output slots of the board features.  Vector features take kMaxWidth slots (W used).
enum Slot : int {
  SLOT_ROW_TRANSITIONS,
  SLOT_COL_TRANSITIONS,
  SLOT_HOLES,
  SLOT_WELLS,
  SLOT_WELLS_FAST,
  SLOT_HOLE_DEPTH,
  SLOT_ROWS_WITH_HOLES,
  SLOT_DIVERSITY,
  SLOT_MAX_HEIGHT,
  SLOT_AGG_HEIGHT,
  SLOT_BUMPINESS,
  SLOT_HEIGHT,                              // height[c], c < W
  SLOT_DIFF = SLOT_HEIGHT + kMaxWidth,      // |h[c] - h[c+1]|, c < W-1
  SLOT_COL_HOLES = SLOT_DIFF + kMaxWidth,   // holes in column c
  SLOT_COL_WELLS = SLOT_COL_HOLES + kMaxWidth,  // well depth of column c (article 2)
  SLOT_ROW_FILL = SLOT_COL_WELLS + kMaxWidth,   // kRowFillBuckets row-fill buckets
  SLOT_NB = SLOT_ROW_FILL + kRowFillBuckets
};

// Groups of slots a caller can ask for; a kernel may compute more than asked, never less.
enum FeatureGroup : std::uint32_t {
  G_ROW_TRANSITIONS = 1u << 0,
  G_COL_TRANSITIONS = 1u << 1,
  G_HOLES = 1u << 2,
  G_WELLS = 1u << 3,
  G_WELLS_FAST = 1u << 4,
  G_HOLE_DEPTH = 1u << 5,
  G_ROWS_WITH_HOLES = 1u << 6,
  G_DIVERSITY = 1u << 7,
  G_MAX_HEIGHT = 1u << 8,
  G_AGG_HEIGHT = 1u << 9,
  G_BUMPINESS = 1u << 10,
  G_HEIGHTS = 1u << 11,
  G_DIFFS = 1u << 12,
  G_COL_HOLES = 1u << 13,
  G_COL_WELLS = 1u << 14,
  G_ROW_FILL = 1u << 15,
  G_ALL = (1u << 16) - 1
};

// A block of boards, struct-of-arrays.
struct BoardBlock {
  const Word* cols;  // (kMaxWidth, stride): column c of board k at cols[c * stride + k]
  int stride;        // >= count
  int count;         // boards in the block
  int width;         // W, 4..16
  int height;        // H, 4..28
};

// out: (SLOT_NB, stride), slot s of board k at out[s * stride + k].  Every slot of the
// requested groups is written; a variant may also write other slots, so a caller reads only
// what it asked for.  Values are specified for boards with no cell at rows >= H (the engine
// never scores a game-ending board).
using FeatureKernel = void (*)(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);

// Written straight from the definitions with cell loops: the oracle for every other variant.
void features_reference(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);
// Word-level bit operations, no cell loops.
void features_scalar(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);

}  // namespace tb
