#include "replay.h"

#include <charconv>
#include <sstream>
#include <type_traits>

#include "fnv1a.h"
#include "text_lines.h"

namespace tb {

namespace {

constexpr std::string_view kMagic = "tetrisbench-replay";
constexpr int kMovesPerLine = 16;
constexpr std::string_view kDigits36 = "0123456789abcdefghijklmnopqrstuvwxyz";

// Header keys, each required once before the first move; bit i of a mask is key i.
enum HeaderKey { RULES, BOARD, SEED, GAME, POLICY, OUTCOME, HEADER_KEY_NB };
constexpr std::string_view kHeaderKeys[HEADER_KEY_NB] = {"rules", "board", "seed", "game", "policy", "outcome"};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }  // as trim() (text_lines.h)

// Splits off the first blank-separated word of `s`; `s` keeps the trimmed rest.
std::string_view next_word(std::string_view& s) {
  s = trim(s);
  std::size_t n = 0;
  while (n < s.size() && !is_blank(s[n])) ++n;
  const std::string_view word = s.substr(0, n);
  s = trim(s.substr(n));
  return word;
}

// Base-36 digits of move tokens (and hex digits of the hash): 0-9 then a-z.
char digit36(int v) { return kDigits36[static_cast<std::size_t>(v)]; }
int digit36_value(char c) {
  const auto i = kDigits36.find(c);
  return i == std::string_view::npos ? -1 : static_cast<int>(i);
}

int piece_of(char c) {
  for (int p = 0; p < PIECE_NB; ++p)
    if (kPieceChar[p] == c) return p;
  return -1;
}

// Empty when the move fits a width x height board, else why not.  The row bound: before a
// move the stack is at most `height` tall (a taller one has ended the game), so a piece
// rests on a row in 0..height.
std::string move_problem(const ReplayMove& m, int width, int height) {
  const Placement pl = m.placement;
  if (pl.piece >= PIECE_NB) return "piece " + std::to_string(pl.piece) + " is not one of IOTSZJL";
  const std::string piece(1, kPieceChar[pl.piece]);
  const int count = kShapes[pl.piece].count;
  if (pl.orientation >= count)
    return "orientation " + std::to_string(pl.orientation) + " is out of range for " + piece + " (0.." +
           std::to_string(count - 1) + ")";
  const int last_column = width - kShapes[pl.piece].orientation[pl.orientation].width;
  if (pl.column > last_column)
    return "column " + std::to_string(pl.column) + " is out of range for " + piece + " orientation " +
           std::to_string(pl.orientation) + " on a " + std::to_string(width) + "-wide board (0.." +
           std::to_string(last_column) + ")";
  if (m.row > height)
    return "row " + std::to_string(m.row) + " is out of range for a " + std::to_string(height) +
           "-high board (0.." + std::to_string(height) + ")";
  return {};
}

std::string text_problem(std::string_view name, std::string_view value, bool may_be_empty) {
  if (value.empty() && !may_be_empty) return std::string(name) + " is empty";
  if (value.find_first_of("\n\r") != std::string_view::npos) return std::string(name) + " has a line break";
  if (trim(value) != value) return std::string(name) + " starts or ends with a blank";
  return {};
}

std::string hex16(std::uint64_t v) {
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[i] = digit36(static_cast<int>(v & 15));
  return s;
}

// The first problem that would stop `r` from reading back, or empty.
std::string format_problem(const Replay& r) {
  if (r.version != kReplayVersion) return "version " + std::to_string(r.version) + " cannot be written";
  if (auto e = check_geometry({r.width, r.height}); !e.empty()) return e;
  if (auto e = text_problem("rules", r.rules, false); !e.empty()) return e;
  if (auto e = text_problem("policy", r.policy, false); !e.empty()) return e;
  if (r.game < 0 || r.lines < 0 || r.pieces < 0) return "game, lines and pieces must not be negative";
  if (!r.inputs.empty() && r.inputs.size() != r.moves.size())
    return std::to_string(r.inputs.size()) + " inputs for " + std::to_string(r.moves.size()) + " moves";
  for (const std::string& in : r.inputs)
    if (auto e = text_problem("an input", in, true); !e.empty()) return e;
  for (std::size_t i = 0; i < r.moves.size(); ++i)
    if (auto e = move_problem(r.moves[i], r.width, r.height); !e.empty()) return "move " + std::to_string(i) + ": " + e;
  return {};
}

class Parser {
 public:
  explicit Parser(std::string_view origin) : origin_(origin) {}

  void line(int line_no, std::string_view text);
  Replay finish(int last_line);

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw ReplayError(origin_ + ":" + std::to_string(line_no_) + ": " + problem);
  }
  template <class T>
  T number(std::string_view word, std::string_view what) const;
  void magic(std::string_view value);
  void header(int key, std::string_view value);
  void outcome(std::string_view value);
  void move_line(std::string_view value);
  ReplayMove move(std::string_view token) const;
  void end(std::string_view value);
  void begin_body();

  std::string origin_;
  int line_no_ = 0;
  bool magic_ = false, body_ = false, ended_ = false;
  unsigned seen_ = 0;  // HeaderKey bits
  Replay r_;
};

template <class T>
T Parser::number(std::string_view word, std::string_view what) const {
  T v{};
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (word.empty() || ec != std::errc{} || ptr != word.data() + word.size())
    fail("malformed number '" + std::string(word) + "' for " + std::string(what));
  if constexpr (std::is_signed_v<T>)
    if (v < T{0}) fail(std::string(what) + " " + std::string(word) + " must not be negative");
  return v;
}

void Parser::line(int line_no, std::string_view text) {
  line_no_ = line_no;
  std::string_view value = text;
  const std::string_view key = next_word(value);
  if (ended_) fail("text after 'end'");
  if (!magic_) {
    if (key != kMagic)
      fail("not a tetrisbench replay (expected '" + std::string(kMagic) + " " + std::to_string(kReplayVersion) +
           "' first)");
    return magic(value);
  }
  for (int k = 0; k < HEADER_KEY_NB; ++k)
    if (key == kHeaderKeys[k]) return header(k, value);
  if (key == "m") return move_line(value);
  if (key == "i") {
    begin_body();
    r_.inputs.emplace_back(value);
    return;
  }
  if (key == "end") return end(value);
  fail("unknown key '" + std::string(key) + "'");
}

void Parser::magic(std::string_view value) {
  const int version = number<int>(value, "the version");
  if (version != kReplayVersion)
    fail("unsupported replay version " + std::to_string(version) + " (this build reads version " +
         std::to_string(kReplayVersion) + ")");
  magic_ = true;
}

void Parser::header(int key, std::string_view value) {
  const std::string name(kHeaderKeys[key]);
  if (body_) fail("key '" + name + "' after the moves (the header comes first)");
  if (seen_ & (1u << key)) fail("duplicate key '" + name + "'");
  seen_ |= 1u << key;
  if (value.empty()) fail("key '" + name + "' has no value");
  switch (key) {
    case RULES: r_.rules = value; break;
    case POLICY: r_.policy = value; break;
    case SEED: r_.seed = number<std::uint64_t>(value, "seed"); break;
    case GAME: r_.game = number<std::int64_t>(value, "game"); break;
    case OUTCOME: outcome(value); break;
    case BOARD: {
      Geometry g;
      try {
        g = parse_board_size(value);
      } catch (const InputError& e) {
        fail(std::string("board: ") + e.what());
      }
      r_.width = g.width;
      r_.height = g.height;
    }
  }
}

// "lines N pieces N over yes|no hash <16 hex digits>", in that order.
void Parser::outcome(std::string_view value) {
  const std::string shape = "outcome must read 'lines N pieces N over yes|no hash H'";
  auto field = [&](std::string_view name) {
    if (next_word(value) != name) fail(shape);
    const std::string_view word = next_word(value);
    if (word.empty()) fail(shape);
    return word;
  };
  r_.lines = number<std::int64_t>(field("lines"), "lines");
  r_.pieces = number<std::int64_t>(field("pieces"), "pieces");
  const std::string_view over = field("over");
  if (over != "yes" && over != "no") fail("over '" + std::string(over) + "' is not yes or no");
  r_.game_over = over == "yes";
  const std::string_view hash = field("hash");
  if (!value.empty()) fail(shape);
  std::uint64_t h = 0;
  const auto [ptr, ec] = std::from_chars(hash.data(), hash.data() + hash.size(), h, 16);
  if (hash.size() != 16 || ec != std::errc{} || ptr != hash.data() + hash.size())
    fail("malformed number '" + std::string(hash) + "' for hash (16 hex digits)");
  r_.final_board_hash = h;
}

void Parser::begin_body() {
  if (body_) return;
  for (int k = 0; k < HEADER_KEY_NB; ++k)
    if (!(seen_ & (1u << k))) fail("missing required key '" + std::string(kHeaderKeys[k]) + "'");
  body_ = true;
}

void Parser::move_line(std::string_view value) {
  begin_body();
  if (value.empty()) fail("a move line with no moves");
  while (!value.empty()) r_.moves.push_back(move(next_word(value)));
}

// Token: piece letter, orientation digit, column and row as base-36 digits ("T14a").
ReplayMove Parser::move(std::string_view token) const {
  const std::string where = "move " + std::to_string(r_.moves.size()) + " '" + std::string(token) + "': ";
  if (token.size() != 4) fail(where + "a move is 4 characters: piece, orientation, column, row");
  const int piece = piece_of(token[0]);
  if (piece < 0) fail(where + "piece '" + std::string(1, token[0]) + "' is not one of IOTSZJL");
  const int o = token[1] >= '0' && token[1] <= '9' ? token[1] - '0' : -1;
  const int column = digit36_value(token[2]), row = digit36_value(token[3]);
  if (o < 0) fail(where + "malformed number '" + std::string(1, token[1]) + "' for orientation");
  if (column < 0) fail(where + "malformed number '" + std::string(1, token[2]) + "' for column");
  if (row < 0) fail(where + "malformed number '" + std::string(1, token[3]) + "' for row");
  const ReplayMove m{{static_cast<std::uint8_t>(piece), static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(column)},
                     static_cast<std::uint8_t>(row)};
  if (auto e = move_problem(m, r_.width, r_.height); !e.empty()) fail(where + e);
  return m;
}

void Parser::end(std::string_view value) {
  begin_body();
  const auto count = number<std::uint64_t>(value, "the move count");
  if (count != r_.moves.size())
    fail("'end' says " + std::to_string(count) + " moves but the file has " + std::to_string(r_.moves.size()));
  if (!r_.inputs.empty() && r_.inputs.size() != r_.moves.size())
    fail(std::to_string(r_.inputs.size()) + " input lines for " + std::to_string(r_.moves.size()) +
         " moves (give one per move, or none)");
  ended_ = true;
}

Replay Parser::finish(int last_line) {
  line_no_ = last_line;
  if (!magic_) fail("empty file, not a tetrisbench replay");
  if (!ended_) fail("truncated replay (no 'end <count>' line)");
  return r_;
}

}  // namespace

std::string format_replay(const Replay& r) {
  if (auto e = format_problem(r); !e.empty()) throw ReplayError("cannot write replay: " + e);
  std::ostringstream out;
  out << kMagic << ' ' << kReplayVersion << "\nrules " << r.rules << "\nboard " << size_name({r.width, r.height})
      << "\nseed " << r.seed << "\ngame " << r.game << "\npolicy " << r.policy << "\noutcome lines " << r.lines
      << " pieces " << r.pieces << " over " << (r.game_over ? "yes" : "no") << " hash "
      << hex16(r.final_board_hash) << '\n';
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    out << (i % kMovesPerLine == 0 ? "m " : " ") << format_move(r.moves[i]);
    if (i % kMovesPerLine == kMovesPerLine - 1 || i + 1 == r.moves.size()) out << '\n';
  }
  for (const std::string& in : r.inputs) out << (in.empty() ? "i" : "i ") << in << '\n';
  out << "end " << r.moves.size() << '\n';
  return out.str();
}

Replay parse_replay(std::string_view text, std::string_view origin) {
  Parser parser(origin);
  int line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    const std::string_view line = trim(raw);
    if (!line.empty() && line.front() != '#') parser.line(line_no, line);
  }
  Replay r = parser.finish(line_no == 0 ? 1 : line_no);
  // Whatever parses must write back (a carriage return inside a value would not).
  if (auto e = format_problem(r); !e.empty()) throw ReplayError(std::string(origin) + ": " + e);
  return r;
}

std::string format_move(const ReplayMove& m) {
  return {kPieceChar[m.placement.piece], digit36(m.placement.orientation), digit36(m.placement.column),
          digit36(m.row)};
}

std::uint64_t board_hash(const Board& b, int width) {
  Fnv1a h;
  for (int c = 0; c < width; ++c) h.add(b.cols[c], 4);
  return h.value();
}

}  // namespace tb
