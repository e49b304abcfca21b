// Writes the benchmark board corpora bench/data/corpus_10x20.txt and corpus_10x10.txt (format
// in corpus.h): mid-game positions from real games with fixed seeds, so rerunning it rewrites
// the committed files byte for byte.  Not run in CI.
//   make_corpus [out_dir]        default: the source tree's bench/data
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "corpus.h"
#include "piece_stream.h"
#include "placement.h"
#include "policy.h"
#include "search.h"

namespace {

using namespace tb;

constexpr std::uint64_t kSeed = 1;
constexpr std::uint64_t kMoveStream = 0x6D6F766573ull;  // "moves": random placements
constexpr int kBoards = 512;
constexpr int kPerGame = 16;  // samples per game at most, so no single game dominates

// Where the boards come from.  Piece p (1-based) is sampled, before it is placed, when
// p > after and (p - after) % every == 0.  Random play dies within a few dozen pieces, so it
// is sampled earlier and more often.
struct Source {
  const char* name;
  const char* policy;   // built-in policy; nullptr: every move is random
  double random_moves;  // probability that a move is a uniform random placement instead
  int quota;            // boards from this source
  int after, every;
};

constexpr Source kSources[] = {
    {"dellacherie", "dellacherie", 0.0, 160, 50, 37},
    {"bcts", "bcts", 0.0, 160, 50, 37},
    {"bcts+10%random", "bcts", 0.10, 128, 50, 37},  // taller, messier stacks
    {"random", nullptr, 1.0, 64, 10, 7},
};
static_assert(160 + 160 + 128 + 64 == kBoards);

// A live board worth timing: at least a row's worth of cells, stacked at least 3 high.
bool nontrivial(const Board& b, Geometry g) {
  int cells = 0;
  for (int c = 0; c < g.width; ++c) cells += popcount(b.cols[c]);
  return cells >= g.width && b.wall_height(g.width) >= 3;
}

Placement random_drop(Piece p, int width, CounterRng& rng) {
  Placement all[kMaxPlacements];
  const auto n = static_cast<std::uint32_t>(generate_drops(p, width, all) - all);
  return all[rng.below(n)];
}

// Plays game `index` of a source and appends at most `limit` samples to `out`.
void sample_game(const Source& s, Searcher* searcher, Geometry g, std::uint64_t index, int limit,
                 std::vector<CorpusEntry>& out) {
  PieceStream stream = PieceStream::make(Generator::uniform, kSeed, index);
  CounterRng moves{stream_key(kSeed ^ kMoveStream, index), 0};
  Board board;
  Piece current = stream.next();
  Piece next = stream.next();
  for (int p = 1; p <= s.after + s.every * kPerGame && limit > 0; ++p) {
    if (p > s.after && (p - s.after) % s.every == 0 && nontrivial(board, g)) {
      out.push_back({board, current, next});
      --limit;
    }
    const bool random = !searcher || moves.unit() < s.random_moves;
    const Placement pl = random ? random_drop(current, g.width, moves)
                                : searcher->choose(board, current, next, 0.0, nullptr);
    if (drop(board, pl, g, Overflow::strict).game_over) return;
    current = next;
    next = stream.next();
  }
}

std::vector<CorpusEntry> sample_source(const Source& s, int source_index, Geometry g) {
  std::unique_ptr<Searcher> searcher;
  if (s.policy) {
    Rules rules;
    rules.geometry = g;
    searcher = std::make_unique<Searcher>(load_policy(s.policy), rules, best_kernel().kernel);
  }
  std::vector<CorpusEntry> out;
  for (std::uint64_t game = 0; static_cast<int>(out.size()) < s.quota; ++game) {
    if (game == 100000) throw std::runtime_error(std::string("too few live boards from ") + s.name);
    const std::uint64_t index = static_cast<std::uint64_t>(source_index) * 1000000 + game;
    sample_game(s, searcher.get(), g, index, s.quota - static_cast<int>(out.size()), out);
  }
  return out;
}

Corpus make_corpus(Geometry g) {
  Corpus c{g, "make_corpus (bench/make_corpus.cpp) seed=" + std::to_string(kSeed), {}};
  for (int i = 0; i < static_cast<int>(std::size(kSources)); ++i) {
    const auto boards = sample_source(kSources[i], i, g);
    c.entries.insert(c.entries.end(), boards.begin(), boards.end());
  }
  // Fisher-Yates with a fixed stream mixes the sources, so any prefix is a fair sample.
  CounterRng rng{stream_key(kSeed, 0x73687566ull), 0};
  for (std::size_t i = c.entries.size() - 1; i > 0; --i)
    std::swap(c.entries[i], c.entries[rng.below(static_cast<std::uint32_t>(i + 1))]);
  return c;
}

std::vector<std::string> notes() {
  std::vector<std::string> n = {
      "Board corpus for the benchmarks (format: bench/corpus.h).  Each line: the piece to",
      "place, the next piece, then the column words in hex (bit r = row r, row 0 the floor).",
      "Sources (research rules, uniform pieces; boards are shuffled):"};
  for (const Source& s : kSources)
    n.push_back("  " + std::to_string(s.quota) + " x " + s.name + ": piece p sampled when p > " +
                std::to_string(s.after) + " and (p - " + std::to_string(s.after) + ") % " +
                std::to_string(s.every) + " == 0, <= " + std::to_string(kPerGame) +
                " per game, >= W cells and wall height >= 3");
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "";
  try {
    for (const Geometry g : {Geometry{10, 20}, Geometry{10, 10}}) {
      const Corpus c = make_corpus(g);
      const std::string path = corpus_path(g, dir);
      std::ofstream out(path);
      write_corpus(out, c, notes());
      if (!out.flush()) throw std::runtime_error(path + ": write failed");
      std::fprintf(stderr, "wrote %zu boards to %s\n", c.entries.size(), path.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_corpus: %s\n", e.what());
    return 1;
  }
  return 0;
}
