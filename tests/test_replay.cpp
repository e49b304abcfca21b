// Replay files (engine/replay/replay.h, docs/replay-format.md) and board pictures (cli/render.h):
// exact round trips, one-line errors with the line number, truncation, the colored board
// against the engine's drop(), and PNG and GIF files read back with libpng and our own LZW
// decoder.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "placement.h"
#include "render.h"
#include "replay.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

// The message of the ReplayError thrown by parsing `text`; fails the test if none is thrown.
std::string replay_error(std::string_view text) {
  try {
    parse_replay(text, "r.replay");
  } catch (const ReplayError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ReplayError for:\n" << text;
  return {};
}

ReplayMove mv(Piece p, int o, int column, int row) {
  return {{static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(column)},
          static_cast<std::uint8_t>(row)};
}

Replay small_replay() {
  Replay r;
  r.rules = "research+bag7";
  r.width = 10;
  r.height = 20;
  r.seed = 18446744073709551615ull;
  r.game = 42;
  r.policy = "results/policies/my policy.policy";
  r.moves = {mv(T, 0, 4, 0), mv(I, 1, 9, 0), mv(O, 0, 0, 0), mv(L, 3, 8, 4), mv(Z, 1, 2, 19)};
  r.inputs = {"L L CW H", "R R R R R H", "", "CCW H", "H"};
  r.lines = 1;
  r.pieces = 5;
  r.game_over = true;
  r.final_board_hash = 0xfedcba9876543210ull;
  return r;
}

// Moves drawn uniformly from the legal (piece, orientation, column, row) of the board.
Replay random_replay(std::uint64_t seed, int moves, int width, int height) {
  std::mt19937_64 rng(seed);
  Replay r;
  r.rules = "research";
  r.width = width;
  r.height = height;
  r.seed = rng();
  r.game = static_cast<std::int64_t>(rng() >> 1);
  r.policy = "bcts";
  for (int i = 0; i < moves; ++i) {
    const Piece p = static_cast<Piece>(rng() % PIECE_NB);
    const int o = static_cast<int>(rng() % kShapes[p].count);
    const int column = static_cast<int>(rng() % (width - kShapes[p].orientation[o].width + 1));
    r.moves.push_back(mv(p, o, column, static_cast<int>(rng() % (height + 1))));
  }
  r.lines = static_cast<std::int64_t>(rng() >> 1);
  r.pieces = moves;
  r.game_over = rng() & 1;
  r.final_board_hash = rng();
  return r;
}

// ---------------------------------------------------------------------------------------
// Format and round trips

TEST(ReplayFormat, ShortReplayReadsAsDocumented) {
  Replay r = small_replay();
  r.inputs.clear();
  EXPECT_EQ(format_replay(r),
            "tetrisbench-replay 1\n"
            "rules research+bag7\n"
            "board 10x20\n"
            "seed 18446744073709551615\n"
            "game 42\n"
            "policy results/policies/my policy.policy\n"
            "outcome lines 1 pieces 5 over yes hash fedcba9876543210\n"
            "m T040 I190 O000 L384 Z12j\n"
            "end 5\n");
}

TEST(ReplayFormat, HandBuiltRoundTripsExactly) {
  const Replay r = small_replay();
  EXPECT_EQ(parse_replay(format_replay(r), "small"), r);
  Replay none = r;
  none.moves.clear();
  none.inputs.clear();
  EXPECT_EQ(parse_replay(format_replay(none), "none"), none);
}

TEST(ReplayFormat, Random5000MovesRoundTripExactlyAndStaySmall) {
  for (auto [w, h] : {std::pair{10, 20}, std::pair{16, 28}, std::pair{4, 4}}) {
    const Replay r = random_replay(7 + w, 5000, w, h);
    const std::string text = format_replay(r);
    EXPECT_EQ(parse_replay(text, "random"), r) << w << "x" << h;
    EXPECT_LT(text.size(), 5000u * 6);  // under 6 bytes a move
  }
}

TEST(ReplayFormat, AcceptsCommentsBlankLinesAndCrlf) {
  std::string text = format_replay(small_replay());
  std::string crlf = "# recorded by hand\n\n";
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(parse_replay(crlf, "crlf"), small_replay());
}

TEST(ReplayFormat, WriterRefusesWhatTheReaderWouldReject) {
  const auto refuses = [](Replay r, std::string_view why) {
    try {
      format_replay(r);
      ADD_FAILURE() << "formatted a bad replay: " << why;
    } catch (const ReplayError& e) {
      EXPECT_TRUE(contains(e.what(), why)) << e.what();
    }
  };
  Replay r = small_replay();
  r.policy = "two\nlines";
  refuses(r, "line break");
  r = small_replay();
  r.rules = " research";
  refuses(r, "blank");
  r = small_replay();
  r.moves[3] = mv(I, 0, 7, 0);
  refuses(r, "move 3");
  r = small_replay();
  r.inputs.pop_back();
  refuses(r, "inputs");
  r = small_replay();
  r.width = 17;
  refuses(r, "width");
}

// ---------------------------------------------------------------------------------------
// Parse errors: one line naming the origin and line number.

constexpr std::string_view kHeader =
    "tetrisbench-replay 1\nrules research\nboard 10x20\nseed 5\ngame 0\npolicy bcts\n"
    "outcome lines 0 pieces 2 over no hash 0000000000000000\n";  // lines 1..7

struct BadCase {
  std::string text;
  int line;
  std::string_view says;
};

TEST(ReplayParse, EachErrorNamesItsLine) {
  const std::string h(kHeader);
  const std::vector<BadCase> cases = {
      {"tetris-replay 1\n", 1, "not a tetrisbench replay"},
      {"rules research\ntetrisbench-replay 1\n", 1, "not a tetrisbench replay"},
      {"tetrisbench-replay 2\nrules x\n", 1, "unsupported replay version 2"},
      {"tetrisbench-replay one\n", 1, "malformed number 'one'"},
      {h + "colour blue\nm T040 O000\nend 2\n", 8, "unknown key 'colour'"},
      {"tetrisbench-replay 1\nrules r\nboard 10x20\nseed 12a\n", 4, "malformed number '12a' for seed"},
      {"tetrisbench-replay 1\nrules r\nboard 10x20\nseed -1\n", 4, "malformed number '-1'"},
      {"tetrisbench-replay 1\ngame -3\n", 2, "must not be negative"},
      {"tetrisbench-replay 1\nboard 10by20\n", 2, "is not WxH"},
      {"tetrisbench-replay 1\nboard 30x20\n", 2, "width 30 is out of range"},
      {h + "m T040 X000\nend 2\n", 8, "piece 'X' is not one of IOTSZJL"},
      {h + "m T040 O100\nend 2\n", 8, "orientation 1 is out of range for O (0..0)"},
      {h + "m I070\nend 1\n", 8, "column 7 is out of range for I orientation 0 on a 10-wide board (0..6)"},
      {h + "m T1900\nend 1\n", 8, "4 characters"},
      {h + "m T0?0\nend 1\n", 8, "malformed number '?' for column"},
      {h + "m T04l\nend 1\n", 8, "row 21 is out of range"},
      {h + "m T040\nm T040 O00\nend 2\n", 9, "move 2 'O00'"},
      {h + "m\nend 0\n", 8, "no moves"},
      {"tetrisbench-replay 1\nrules r\nboard 10x20\nseed 1\ngame 0\noutcome lines 0 pieces 0 over no hash "
       "0000000000000000\nm T040\nend 1\n",
       7, "missing required key 'policy'"},
      {"tetrisbench-replay 1\nrules r\nend 0\n", 3, "missing required key 'board'"},
      {h + "m T040 O000\n", 8, "truncated replay"},
      {h + "m T040 O000\nend 3\n", 9, "'end' says 3 moves but the file has 2"},
      {h + "m T040 O000\nend 2\nm T040\n", 10, "text after 'end'"},
      {h + "m T040 O000\nend 2\nend 2\n", 10, "text after 'end'"},
      {h + "m T040 O000\nend two\n", 9, "malformed number 'two'"},
      {h + "seed 6\n", 8, "duplicate key 'seed'"},
      {h + "m T040\nseed 6\n", 9, "after the moves"},
      {h + "m T040 O000\ni L H\nend 2\n", 10, "1 input lines for 2 moves"},
      {"tetrisbench-replay 1\noutcome lines 0 pieces 2 over maybe hash 0000000000000000\n", 2, "not yes or no"},
      {"tetrisbench-replay 1\noutcome lines 0 pieces 2 over no hash 00\n", 2, "16 hex digits"},
      {"tetrisbench-replay 1\noutcome lines 0 pieces 2\n", 2, "outcome must read"},
      {"tetrisbench-replay 1\npolicy\n", 2, "has no value"},
      {"", 1, "empty file"},
      {"\n# nothing\n", 2, "empty file"},
  };
  for (const BadCase& c : cases) {
    const std::string msg = replay_error(c.text);
    EXPECT_TRUE(contains(msg, "r.replay:" + std::to_string(c.line) + ": ")) << msg << "\n" << c.text;
    EXPECT_TRUE(contains(msg, c.says)) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(ReplayParse, EveryTruncationIsAnError) {
  Replay r = random_replay(3, 40, 10, 20);
  r.inputs.assign(r.moves.size(), "L CW H");
  const std::string text = format_replay(r);
  // Every cut, mid-line or at a line boundary; only dropping the last newline keeps the replay.
  for (std::size_t cut = 0; cut + 1 < text.size(); ++cut)
    EXPECT_THROW(parse_replay(text.substr(0, cut), "cut"), ReplayError) << "cut at " << cut;
  EXPECT_EQ(parse_replay(text.substr(0, text.size() - 1), "cut"), r);

  const std::string big = format_replay(random_replay(4, 5000, 10, 20));
  for (std::size_t nl = big.find('\n'); nl + 1 < big.size(); nl = big.find('\n', nl + 1)) {
    EXPECT_THROW(parse_replay(big.substr(0, nl + 1), "cut"), ReplayError) << "cut at " << nl + 1;
    EXPECT_THROW(parse_replay(big.substr(0, nl - 2), "cut"), ReplayError) << "cut at " << nl - 2;
  }
}

// ---------------------------------------------------------------------------------------
// board_hash

std::uint64_t fnv1a_reference(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

TEST(BoardHash, IsFnv1aOverTheColumnWordsAndSeesEveryCell) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    Board b;
    for (int c = 0; c < 10; ++c) b.cols[c] = static_cast<Word>(rng()) & low_mask(24);
    std::vector<std::uint8_t> bytes;
    for (int c = 0; c < 10; ++c)
      for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(b.cols[c] >> (8 * k)));
    const std::uint64_t h = board_hash(b, 10);
    EXPECT_EQ(h, fnv1a_reference(bytes));
    for (int c = 0; c < 10; ++c)
      for (int r = 0; r < 24; ++r) {
        Board d = b;
        d.cols[c] ^= Word{1} << r;
        EXPECT_NE(board_hash(d, 10), h) << c << "," << r;
      }
  }
}

// ---------------------------------------------------------------------------------------
// ColorBoard

std::uint8_t cell_of(char ch) {
  for (int p = 0; p < PIECE_NB; ++p)
    if (kPieceChar[p] == ch) return static_cast<std::uint8_t>(p + 1);
  return 0;
}

TEST(ColorBoard, LockAndClearByHand) {
  // 4 wide: O at the left, two upright I at the right fill rows 0 and 1, which clear; then a
  // flat T rests on the I remains.
  ColorBoard cb;
  cb.lock({O, 0, 0}, 0);
  cb.lock({I, 1, 3}, 0);
  EXPECT_EQ(cb.clear_full_rows(4), 0);
  cb.lock({I, 1, 2}, 0);
  EXPECT_EQ(cb.clear_full_rows(4), 2);
  cb.lock({T, 0, 0}, 2);
  const std::vector<std::string> want = {"....", ".T..", "TTT.", "..II", "..II"};  // top first
  for (int r = 0; r < ColorBoard::kRows; ++r)
    for (int c = 0; c < kMaxWidth; ++c) {
      const int from_top = static_cast<int>(want.size()) - 1 - r;
      const std::uint8_t expect = r < 5 && c < 4 ? cell_of(want[from_top][c]) : 0;
      EXPECT_EQ(cb.at(c, r), expect) << c << "," << r;
    }
}

TEST(ColorBoard, FollowsTheEngineOnRandomDrops) {
  std::mt19937_64 rng(5);
  for (Overflow overflow : {Overflow::strict, Overflow::clear_first})
    for (int width : {4, 6, 10}) {
      const Geometry g{width, 12};
      Board board;
      ColorBoard cb;
      int lines = 0;
      for (int move = 0; move < 400; ++move) {
        std::array<Placement, kMaxPlacements> buf{};
        const Piece p = static_cast<Piece>(rng() % PIECE_NB);
        const int n = static_cast<int>(generate_drops(p, width, buf.data()) - buf.data());
        const Placement pl = buf[rng() % n];
        int heights[kMaxWidth];
        for (int c = 0; c < width; ++c) heights[c] = board.height_of(c);
        const int row = landing_row(heights + pl.column, kShapes[p].orientation[pl.orientation], 0);
        cb.lock(pl, row);
        const Move m = drop(board, pl, g, overflow);
        ASSERT_EQ(m.landing_row, row);
        const bool clears = !(m.game_over && overflow == Overflow::strict);  // docs/rules.md `strict`
        EXPECT_EQ(clears ? cb.clear_full_rows(width) : 0, m.lines);
        lines += m.lines;
        ASSERT_EQ(cb.occupancy(), board) << "move " << move << "\n" << to_text(board, {width, 16});
        if (m.game_over) {
          board = Board{};
          cb = ColorBoard{};
        }
      }
      EXPECT_TRUE(width > 6 || lines > 0) << width;  // random play clears lines on narrow boards
    }
}

// ---------------------------------------------------------------------------------------
// Text, PNG, GIF

Frame frame_from_rows(const std::vector<std::string>& rows_top_first, int hidden_rows, std::string caption) {
  Frame f{static_cast<int>(rows_top_first[0].size()), static_cast<int>(rows_top_first.size()), hidden_rows, {}, caption};
  for (int r = f.height - 1; r >= 0; --r)
    for (char ch : rows_top_first[r]) f.cells.push_back(cell_of(ch));
  return f;
}

TEST(Render, TextFrame) {
  const Frame f = frame_from_rows({"..I.", "..I.", "T.I.", "TTIO"}, 1, "move 3: 0 lines");
  EXPECT_EQ(render_text(f), "..I.\n----\n..I.\nT.I.\nTTIO\nmove 3: 0 lines\n");
  const Frame plain = frame_from_rows({"Z.", ".S"}, 0, "");
  EXPECT_EQ(render_text(plain), "Z.\n.S\n");
}

// A fresh folder per test, removed at the end.
struct TempDir {
  fs::path path = fs::path(testing::TempDir()) /
                  ("tb_replay_" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  int files() const { return static_cast<int>(std::distance(fs::directory_iterator(path), fs::directory_iterator())); }
};

TEST(Render, PngReadsBackWithColors) {
  TempDir dir;
  const Frame f = frame_from_rows({"L...", "....", ".T..", "TTT."}, 1, "");
  const std::string path = (dir.path / "b.png").string();
  write_png(path, f, 10);
  EXPECT_EQ(dir.files(), 1);  // no temporary left behind

  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_file(&img, path.c_str())) << img.message;
  img.format = PNG_FORMAT_RGB;
  std::vector<std::uint8_t> rgb(PNG_IMAGE_SIZE(img));
  ASSERT_TRUE(png_image_finish_read(&img, nullptr, rgb.data(), 0, nullptr)) << img.message;
  ASSERT_EQ(img.width, 41u);
  ASSERT_EQ(img.height, 41u);
  // The center of cell (c, r), row 0 at the bottom.
  const auto at = [&](int c, int r) {
    const std::size_t i = (static_cast<std::size_t>((3 - r) * 10 + 5) * 41 + c * 10 + 5) * 3;
    return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  };
  const Rgb purple{160, 0, 240}, background = kPalette[0];
  EXPECT_EQ(at(1, 1), purple);
  EXPECT_EQ(at(0, 0), purple);
  EXPECT_EQ(at(3, 0), background);
  EXPECT_EQ(at(2, 2), background);
  EXPECT_EQ(rgb[0], kPalette[kGridIndex].r);  // the grid at the corner
  const Rgb hidden_l = at(0, 3), orange{240, 160, 0};
  EXPECT_LT(hidden_l.r, orange.r);  // dimmed
  EXPECT_GT(hidden_l.r, hidden_l.b);
  EXPECT_NE(at(1, 3), background);  // hidden empty cells differ from visible ones

  EXPECT_THROW(write_png((dir.path / "no" / "b.png").string(), f), RunError);
  EXPECT_EQ(dir.files(), 1);
}

std::uint16_t u16(const std::string& s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(s[at]) | static_cast<std::uint8_t>(s[at + 1]) << 8);
}

// GIF LZW decoding (GIF89a Appendix F), written apart from the encoder: a dictionary of
// strings, codes read least significant bit first, the width grows when the next free code
// reaches 2^width.  Counts the clear codes.
std::vector<std::uint8_t> lzw_decode(const std::string& data, int min_code_size, int& clears) {
  const int clear = 1 << min_code_size, stop = clear + 1;
  std::vector<std::vector<std::uint8_t>> dict;  // codes clear and stop hold placeholders
  int width = min_code_size + 1, prev = -1, code = 0;
  std::size_t bit = 0;
  const auto read = [&] {
    if (bit + width > data.size() * 8) return false;
    code = 0;
    for (int i = 0; i < width; ++i, ++bit) code |= ((static_cast<std::uint8_t>(data[bit / 8]) >> (bit % 8)) & 1) << i;
    return true;
  };
  const auto reset = [&] {
    dict.assign(stop + 1, {});
    for (int i = 0; i < clear; ++i) dict[i] = {static_cast<std::uint8_t>(i)};
    width = min_code_size + 1;
    prev = -1;
    ++clears;
  };
  std::vector<std::uint8_t> out;
  clears = 0;
  EXPECT_TRUE(read() && code == clear) << "the stream starts with a clear code";
  reset();
  while (read() && code != stop) {
    if (code == clear) {
      reset();
      continue;
    }
    const int next = static_cast<int>(dict.size());
    std::vector<std::uint8_t> entry;
    if (code < next && code != clear && code != stop) {
      entry = dict[code];
    } else if (code == next && prev >= 0) {
      entry = dict[prev];
      entry.push_back(dict[prev][0]);
    } else {
      ADD_FAILURE() << "bad code " << code << " with " << next << " entries";
      return out;
    }
    out.insert(out.end(), entry.begin(), entry.end());
    if (prev >= 0 && next < 4096) {
      dict.push_back(dict[prev]);
      dict.back().push_back(entry[0]);
      if (next + 1 == (1 << width) && width < 12) ++width;
    }
    prev = code;
  }
  EXPECT_EQ(code, stop) << "the stream ends with the end code";
  EXPECT_LT(data.size() * 8 - bit, 8u) << "whole bytes after the end code";
  return out;
}

// The picture write_gif promises, worked out from the frame: grid lines every cp pixels,
// cell values inside, hidden rows shifted to their dimmed twins.
std::vector<std::uint8_t> expected_indices(const Frame& f, int cp) {
  std::vector<std::uint8_t> px;
  for (int y = 0; y <= f.height * cp; ++y)
    for (int x = 0; x <= f.width * cp; ++x) {
      const int r = f.height - 1 - y / cp;
      const bool hidden = r >= f.height - f.hidden_rows;
      const bool grid = x % cp == 0 || y % cp == 0;
      px.push_back(static_cast<std::uint8_t>(grid ? kGridIndex : f.cells[r * f.width + x / cp] + (hidden ? kHiddenIndex : 0)));
    }
  return px;
}

struct GifImage {
  int delay = 0, left = -1, top = -1, width = 0, height = 0, clears = 0;
  std::vector<std::uint8_t> pixels;
};

// Walks the file's blocks, checking its fixed parts; the images in order.
std::vector<GifImage> read_gif(const std::string& s, int want_width, int want_height) {
  EXPECT_EQ(s.substr(0, 6), "GIF89a");
  EXPECT_EQ(u16(s, 6), want_width);
  EXPECT_EQ(u16(s, 8), want_height);
  EXPECT_EQ(static_cast<std::uint8_t>(s[10]) & 0x87, 0x84);  // global table of 2^(4+1) colors
  std::size_t at = 13 + 3 * 32;
  EXPECT_EQ(s.substr(at, 19), std::string("\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00", 19));
  at += 19;
  std::vector<GifImage> images;
  GifImage next;
  auto sub_blocks = [&] {
    std::string data;
    for (std::size_t n; (n = static_cast<std::uint8_t>(s.at(at++))) != 0; at += n) data += s.substr(at, n);
    return data;
  };
  while (at < s.size() && s[at] != '\x3B') {
    if (s[at] == '\x21' && s[at + 1] == '\xF9') {
      next.delay = u16(s, at + 4);
      at += 8;
    } else if (s[at] == '\x2C') {
      next.left = u16(s, at + 1), next.top = u16(s, at + 3);
      next.width = u16(s, at + 5), next.height = u16(s, at + 7);
      EXPECT_EQ(s[at + 9], '\0');  // no local table
      const int min_code_size = s[at + 10];
      at += 11;
      next.pixels = lzw_decode(sub_blocks(), min_code_size, next.clears);
      images.push_back(next);
    } else {
      ADD_FAILURE() << "unexpected block " << int(static_cast<std::uint8_t>(s[at])) << " at " << at;
      return images;
    }
  }
  EXPECT_EQ(at + 1, s.size()) << "the trailer 0x3B ends the file";
  return images;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Render, GifHasThreeLoopingFramesThatDecodeExactly) {
  TempDir dir;
  std::vector<Frame> frames = {frame_from_rows({"....", "....", "....", "T..."}, 1, "a"),
                               frame_from_rows({"....", "....", "I...", "ISZJ"}, 1, "b"),
                               frame_from_rows({"..O.", "....", "L...", "LLOO"}, 1, "c")};
  const fs::path path = dir.path / "g.gif";
  write_gif(path.string(), frames, 6, 25);
  EXPECT_EQ(dir.files(), 1);
  const std::vector<GifImage> images = read_gif(read_all(path), 25, 25);
  ASSERT_EQ(images.size(), 3u);
  for (std::size_t i = 0; i < images.size(); ++i) {
    EXPECT_EQ(images[i].delay, 25);
    EXPECT_EQ(images[i].left, 0);
    EXPECT_EQ(images[i].width, 25);
    EXPECT_EQ(images[i].height, 25);
    EXPECT_EQ(images[i].pixels, expected_indices(frames[i], 6)) << "frame " << i;
  }
}

TEST(Render, GifLzwSurvivesDictionaryResets) {
  // 160 x 160 random cells at 2 pixels: ~100,000 noisy pixels, several full dictionaries.
  TempDir dir;
  std::mt19937_64 rng(9);
  Frame f{160, 160, 10, {}, ""};
  for (int i = 0; i < 160 * 160; ++i) f.cells.push_back(static_cast<std::uint8_t>(rng() % 8));
  const fs::path path = dir.path / "noise.gif";
  write_gif(path.string(), {f}, 2, 0);
  const std::vector<GifImage> images = read_gif(read_all(path), 321, 321);
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0].pixels, expected_indices(f, 2));
  EXPECT_GE(images[0].clears, 3);  // the first, and at least two when the table filled
  EXPECT_THROW(write_gif(path.string(), {f, frame_from_rows({"T."}, 0, "")}, 2, 0), InputError);
}

}  // namespace
}  // namespace tb

// Found by fuzzing: a carriage return inside a value parsed, but the writer refused it.
// Whatever parses must write back, so the reader refuses it too (CRLF line ends still read).
TEST(ReplayFormat, ReaderRefusesACarriageReturnInsideAValue) {
  const std::string rules_cr =
      "tetrisbench-replay 1\nrules research\rx\nboard 10x20\nseed 1\ngame 0\npolicy bcts\n"
      "outcome lines 0 pieces 0 over no hash 0000000000000000\nend 0\n";
  EXPECT_THROW(tb::parse_replay(rules_cr, "cr"), tb::ReplayError);
  const std::string input_cr =
      "tetrisbench-replay 1\nrules research\nboard 10x20\nseed 1\ngame 0\npolicy bcts\n"
      "outcome lines 0 pieces 1 over no hash 0000000000000000\nm O000\ni L\rR H\nend 1\n";
  EXPECT_THROW(tb::parse_replay(input_cr, "cr"), tb::ReplayError);
}
