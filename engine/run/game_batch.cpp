#include "game_batch.h"

#include <cstring>

namespace tb {
namespace {

constexpr std::size_t kAlign = 64;

// Carves aligned arrays out of one allocation: a first pass measures, a second assigns.
class Carver {
 public:
  explicit Carver(std::byte* base) : base_(base) {}
  template <class T>
  T* take(std::size_t count) {
    offset_ = (offset_ + kAlign - 1) / kAlign * kAlign;
    T* p = base_ ? reinterpret_cast<T*>(base_ + offset_) : nullptr;
    offset_ += count * sizeof(T);
    return p;
  }
  std::size_t size() const { return offset_; }

 private:
  std::byte* base_;
  std::size_t offset_ = 0;
};

template <class Batch>
void carve(Batch& b, Carver& c, std::size_t n, int width) {
  b.cols = c.template take<Word>(n * width);
  b.stream_id = c.template take<std::uint64_t>(n);
  b.piece_key = c.template take<std::uint64_t>(n);
  b.draws = c.template take<std::uint64_t>(n);
  b.bag = c.template take<std::uint32_t>(n);
  b.bag_left = c.template take<std::uint8_t>(n);
  b.current = c.template take<std::uint8_t>(n);
  b.next = c.template take<std::uint8_t>(n);
  b.status = c.template take<GameStatus>(n);
  b.policy = c.template take<std::uint32_t>(n);
  b.holes = c.template take<std::int32_t>(n);
  b.lines = c.template take<std::int64_t>(n);
  b.pieces = c.template take<std::int64_t>(n);
  b.points = c.template take<std::int64_t>(n);
  b.tetrises = c.template take<std::int64_t>(n);
  b.holes_created = c.template take<std::int64_t>(n);
  b.height_sum = c.template take<std::int64_t>(n);
}

struct Measure {
  int holes;
  int wall_height;
};

// The report's counters of the board after a move: two word operations per column, no kernel.
Measure measure(const Board& b, Geometry g) {
  Measure m{0, 0};
  for (int c = 0; c < g.width; ++c) {
    const int h = column_height(b.cols[c]);
    m.holes += h - popcount(b.cols[c]);
    m.wall_height = h > m.wall_height ? h : m.wall_height;
  }
  return m;
}

}  // namespace

std::size_t GameBatch::bytes_per_game(int width) {
  return width * sizeof(Word) + 3 * sizeof(std::uint64_t) + sizeof(std::uint32_t) +
         3 * sizeof(std::uint8_t) + sizeof(GameStatus) + sizeof(std::uint32_t) +
         sizeof(std::int32_t) + 6 * sizeof(std::int64_t);
}

void GameBatch::allocate(int width) {
  const auto n = static_cast<std::size_t>(n_);
  Carver measure_pass(nullptr);
  carve(*this, measure_pass, n, width);
  arena_ = std::make_unique<std::byte[]>(measure_pass.size() + kAlign);
  auto* base = reinterpret_cast<std::byte*>(
      (reinterpret_cast<std::uintptr_t>(arena_.get()) + kAlign - 1) / kAlign * kAlign);
  std::memset(base, 0, measure_pass.size());
  Carver assign(base);
  carve(*this, assign, n, width);
}

GameBatch::GameBatch(std::int64_t begin, std::int64_t end, std::int64_t games_per_policy,
                     std::uint64_t first_stream, const GameConfig& config)
    : n_(end - begin), config_(config) {
  allocate(config.rules.geometry.width);
  for (std::int64_t g = 0; g < n_; ++g) {
    policy[g] = static_cast<std::uint32_t>((begin + g) / games_per_policy);
    const std::uint64_t id = first_stream + static_cast<std::uint64_t>((begin + g) % games_per_policy);
    PieceStream s = PieceStream::make(config.rules.generator, config.seed, id);
    const Piece first = s.next();
    start(g, Board{}, first, id, s);
  }
}

GameBatch::GameBatch(std::int64_t n, const GameConfig& config) : n_(n), config_(config) {
  allocate(config.rules.geometry.width);
}

void GameBatch::start(std::int64_t g, const Board& board, Piece piece, std::uint64_t id, PieceStream s) {
  const Geometry geo = config_.rules.geometry;
  for (int c = 0; c < geo.width; ++c) cols[c * n_ + g] = board.cols[c];
  stream_id[g] = id;
  current[g] = piece;
  next[g] = s.next();
  piece_key[g] = s.rng.key;
  draws[g] = s.rng.counter;
  bag[g] = s.bag;
  bag_left[g] = s.bag_left;
  status[g] = GameStatus::alive;
  holes[g] = measure(board, geo).holes;  // so holes_created counts only the holes the game makes
  lines[g] = pieces[g] = points[g] = tetrises[g] = holes_created[g] = height_sum[g] = 0;
}

GameResult GameBatch::result(std::int64_t g) const {
  GameResult r;
  r.index = stream_id[g];
  r.lines = lines[g];
  r.pieces = pieces[g];
  r.points = points[g];
  r.tetrises = tetrises[g];
  r.holes_created = holes_created[g];
  r.height_sum = height_sum[g];
  r.capped = status[g] == GameStatus::capped;
  for (int c = 0; c < config_.rules.geometry.width; ++c) r.final_board.cols[c] = cols[c * n_ + g];
  return r;
}

bool step_game(GameBatch& b, std::int64_t g, Searcher& searcher, Placement* played) {
  if (b.status[g] != GameStatus::alive) return false;
  const GameConfig& config = b.config_;
  if (config.max_pieces > 0 && b.pieces[g] >= config.max_pieces) {
    b.status[g] = GameStatus::capped;
    return false;
  }
  const Geometry geo = config.rules.geometry;
  Board board;
  for (int c = 0; c < geo.width; ++c) board.cols[c] = b.cols[c * b.n_ + g];

  // Tie noise draws are indexed by (piece, candidate), so they need no stored state.
  CounterRng noise;
  if (config.tie_noise > 0)
    noise = {stream_key(config.seed ^ kTieNoiseStream, b.stream_id[g]),
             static_cast<std::uint64_t>(b.pieces[g]) * tie_noise_stride(config.rules)};
  const Decision d = searcher.decide(board, static_cast<Piece>(b.current[g]), static_cast<Piece>(b.next[g]),
                                     config.tie_noise, &noise);
  if (d.blocked_out) {  // the piece cannot spawn, nothing is placed
    b.status[g] = GameStatus::over;
    return false;
  }
  b.pieces[g] += 1;
  b.lines[g] += d.lines;
  b.points[g] += kClassicPoints[d.lines];
  b.tetrises[g] += d.lines == 4;
  if (d.game_over) {
    b.status[g] = GameStatus::over;
  } else {
    const Measure after = d.holes >= 0 ? Measure{d.holes, d.wall_height} : measure(d.board, geo);
    b.holes_created[g] += after.holes > b.holes[g] ? after.holes - b.holes[g] : 0;
    b.height_sum[g] += after.wall_height;
    b.holes[g] = after.holes;
    PieceStream s{{b.piece_key[g], b.draws[g]}, b.bag[g], b.bag_left[g],
                  config.rules.generator};
    b.current[g] = b.next[g];
    b.next[g] = s.next();
    b.draws[g] = s.rng.counter;
    b.bag[g] = s.bag;
    b.bag_left[g] = s.bag_left;
  }
  for (int c = 0; c < geo.width; ++c) b.cols[c * b.n_ + g] = d.board.cols[c];
  if (played) *played = d.locked();
  return true;
}

}  // namespace tb
