// Board corpora for the benchmarks: mid-game positions sampled from real games
// (make_corpus.cpp), so timings see the stacks that play produces rather than random cells.
//
// File format, version 1: text, one record a line.
//   tetrisbench-corpus 1 <W> <H> <count> <generator command...>
//   # comment lines may follow anywhere after the header
//   <current> <next> <col 0> ... <col W-1>      exactly <count> board lines
// Pieces are the letters I O T S Z J L.  Column words are hexadecimal with the bit layout of
// kernels/board_words.h (bit r = row r, row 0 the floor) and have no cell at rows >= H.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "board.h"
#include "pieces.h"

namespace tb {

struct CorpusEntry {
  Board board;    // before `current` is placed; a live board
  Piece current;  // the piece to place
  Piece next;     // the piece after it (2-ply search looks at it)
};

struct Corpus {
  Geometry geometry;
  std::string generator;  // the command that wrote the file
  std::vector<CorpusEntry> entries;
};

// Throws std::runtime_error("<path>:<line>: <reason>") on a missing or malformed file.
Corpus load_corpus(const std::string& path);
Corpus parse_corpus(std::istream& in, const std::string& origin);
// `notes` are written as comment lines after the header.
void write_corpus(std::ostream& out, const Corpus& corpus, const std::vector<std::string>& notes);

// <dir>/corpus_<W>x<H>.txt; an empty `dir` is the committed data directory, bench/data.
std::string corpus_path(Geometry g, const std::string& dir = {});
// That corpus, loaded once per process.  Throws like load_corpus.
const Corpus& bench_corpus(Geometry g);

}  // namespace tb
