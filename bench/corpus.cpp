#include "corpus.h"

#include <charconv>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace tb {
namespace {

constexpr std::string_view kMagic = "tetrisbench-corpus";
constexpr int kVersion = 1;

[[noreturn]] void fail(const std::string& origin, int line, const std::string& why) {
  throw std::runtime_error(origin + ":" + std::to_string(line) + ": " + why);
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  for (;;) {
    i = line.find_first_not_of(" \t\r", i);
    if (i == std::string_view::npos) return tokens;
    const std::size_t end = std::min(line.find_first_of(" \t\r", i), line.size());
    tokens.push_back(line.substr(i, end - i));
    i = end;
  }
}

template <class T>
bool parse_number(std::string_view s, T& value, int base) {
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  return ec == std::errc{} && ptr == s.data() + s.size();
}

bool parse_piece(std::string_view s, Piece& p) {
  for (int i = 0; i < PIECE_NB; ++i)
    if (s.size() == 1 && s[0] == kPieceChar[i]) {
      p = static_cast<Piece>(i);
      return true;
    }
  return false;
}

// Reads the header into `c` and returns the declared board count.
int parse_header(std::string_view line, const std::string& origin, Corpus& c) {
  const auto t = split(line);
  if (t.empty() || t[0] != kMagic)
    fail(origin, 1, "not a board corpus (the first line must start with '" + std::string(kMagic) + "')");
  int version = 0, count = 0;
  if (t.size() < 5 || !parse_number(t[1], version, 10) || !parse_number(t[2], c.geometry.width, 10) ||
      !parse_number(t[3], c.geometry.height, 10) || !parse_number(t[4], count, 10))
    fail(origin, 1, "header must be '" + std::string(kMagic) + " <version> <W> <H> <count> <generator...>'");
  if (version != kVersion)
    fail(origin, 1, "format version " + std::to_string(version) + " is not supported (expected " +
                        std::to_string(kVersion) + ")");
  if (const std::string why = check_geometry(c.geometry); !why.empty()) fail(origin, 1, why);
  if (count <= 0) fail(origin, 1, "board count must be positive");
  for (std::size_t i = 5; i < t.size(); ++i) {
    if (i > 5) c.generator += ' ';
    c.generator += t[i];
  }
  return count;
}

CorpusEntry parse_entry(std::string_view line, const std::string& origin, int n, Geometry g) {
  const auto t = split(line);
  if (static_cast<int>(t.size()) != 2 + g.width)
    fail(origin, n, "expected 2 pieces and " + std::to_string(g.width) + " column words, found " +
                        std::to_string(t.size()) + " fields");
  CorpusEntry e{};
  if (!parse_piece(t[0], e.current) || !parse_piece(t[1], e.next))
    fail(origin, n, "pieces must be one of I O T S Z J L");
  for (int c = 0; c < g.width; ++c) {
    Word w = 0;
    if (t[2 + c].size() > 8 || !parse_number(t[2 + c], w, 16))
      fail(origin, n, "column " + std::to_string(c) + " is not a hex word: '" + std::string(t[2 + c]) + "'");
    if (w & ~low_mask(g.height))
      fail(origin, n, "column " + std::to_string(c) + " has a cell at row >= H");
    e.board.cols[c] = w;
  }
  return e;
}

}  // namespace

Corpus parse_corpus(std::istream& in, const std::string& origin) {
  Corpus c;
  std::string line;
  if (!std::getline(in, line)) fail(origin, 1, "empty file");
  const int count = parse_header(line, origin, c);
  for (int n = 2; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (static_cast<int>(c.entries.size()) == count)
      fail(origin, n, "more boards than the header's count " + std::to_string(count));
    c.entries.push_back(parse_entry(line, origin, n, c.geometry));
  }
  if (static_cast<int>(c.entries.size()) != count)
    throw std::runtime_error(origin + ": header declares " + std::to_string(count) +
                             " boards, the file has " + std::to_string(c.entries.size()) +
                             " (truncated?)");
  return c;
}

Corpus load_corpus(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open board corpus");
  return parse_corpus(in, path);
}

void write_corpus(std::ostream& out, const Corpus& c, const std::vector<std::string>& notes) {
  const Geometry g = c.geometry;
  out << kMagic << ' ' << kVersion << ' ' << g.width << ' ' << g.height << ' '
      << c.entries.size() << ' ' << c.generator << '\n';
  for (const std::string& note : notes) out << "# " << note << '\n';
  const int digits = (g.height + 3) / 4;
  out << std::hex << std::setfill('0');
  for (const CorpusEntry& e : c.entries) {
    out << kPieceChar[e.current] << ' ' << kPieceChar[e.next];
    for (int col = 0; col < g.width; ++col) out << ' ' << std::setw(digits) << e.board.cols[col];
    out << '\n';
  }
  out << std::dec << std::setfill(' ');
}

std::string corpus_path(Geometry g, const std::string& dir) {
  const std::string base = dir.empty() ? std::string(TB_BENCH_DATA_DIR) : dir;
  return base + "/corpus_" + std::to_string(g.width) + "x" + std::to_string(g.height) + ".txt";
}

const Corpus& bench_corpus(Geometry g) {
  static std::map<std::pair<int, int>, Corpus> loaded;
  const auto key = std::make_pair(g.width, g.height);
  if (auto it = loaded.find(key); it != loaded.end()) return it->second;
  Corpus c = load_corpus(corpus_path(g));
  if (c.geometry.width != g.width || c.geometry.height != g.height)
    throw std::runtime_error(corpus_path(g) + ": header geometry does not match the file name");
  return loaded.emplace(key, std::move(c)).first->second;
}

}  // namespace tb
