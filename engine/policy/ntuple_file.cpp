#include "ntuple_file.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>

#include "policy_lines.h"

namespace tb {
namespace {

template <typename T>
bool parse_number(std::string_view tok, T& out) {
  const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), out);
  return ec == std::errc{} && ptr == tok.data() + tok.size();
}

}  // namespace

Policy parse_ntuple_policy(std::string_view text, std::string_view origin) {
  Policy p;
  std::shared_ptr<NTupleNetwork> net;
  bool has_layout = false;
  std::vector<bool> seen_index;
  long long entries = -1, seen = 0;
  read_policy_lines(text, origin, {kNTupleMagic, "an n-tuple network", "n-tuple"},
                    [&](std::string_view key, std::string_view value, const std::string& where) {
    if (entries >= 0 && seen < entries) {  // `index value`
      std::uint64_t index = 0;
      double w = 0;
      if (value.empty() || !parse_number(key, index) || !parse_number(value, w) || !std::isfinite(w))
        throw PolicyError(where + ": expected 'index value' (entry " + std::to_string(seen + 1) + " of " +
                          std::to_string(entries) + ")");
      if (index >= net->size())
        throw PolicyError(where + ": index " + std::to_string(index) + " is outside the network (" +
                          std::to_string(net->size()) + " weights)");
      if (seen_index[index]) throw PolicyError(where + ": index " + std::to_string(index) + " given twice");
      seen_index[index] = true;
      net->weights()[index] = w;
      ++seen;
    } else if (read_common_key(p, key, value, where)) {
    } else if (key == "layout") {
      if (has_layout) throw PolicyError(where + ": a second 'layout' line");
      if (value != kNTupleLayout) throw PolicyError(where + ": unknown layout '" + std::string(value) + "'");
      has_layout = true;
    } else if (key == "board") {
      if (net) throw PolicyError(where + ": a second 'board' line");
      const std::optional<Geometry> g = parse_size(value);
      if (!g) throw PolicyError(where + ": board must be WxH");
      if (const std::string why = check_geometry(*g); !why.empty()) throw PolicyError(where + ": " + why);
      net = std::make_shared<NTupleNetwork>(*g);
    } else if (key == "entries") {
      if (!net || !has_layout) throw PolicyError(where + ": 'entries' before 'layout' and 'board'");
      if (entries >= 0) throw PolicyError(where + ": a second 'entries' line");
      if (!parse_number(value, entries) || entries < 0 || entries > static_cast<long long>(net->size()))
        throw PolicyError(where + ": entries must be a count from 0 to " + std::to_string(net->size()));
      seen_index.assign(net->size(), false);
    } else if (key == "end") {
      return true;
    } else {
      throw PolicyError(where + ": unknown key '" + std::string(key) + "'");
    }
    return false;
  });
  const std::string o(origin);
  if (entries < 0) throw PolicyError(o + ": no 'entries' line");
  if (seen != entries)
    throw PolicyError(o + ": 'entries " + std::to_string(entries) + "' but " + std::to_string(seen) + " given");
  p.network = std::move(net);
  if (p.name.empty()) p.name = o;
  return p;
}

void write_ntuple_policy(const Policy& p, const std::function<void(std::string_view)>& sink) {
  check_common_keys(p);
  const NTupleNetwork& net = *p.network;
  std::ostringstream out;
  out << kNTupleMagic << " 1\nname " << p.name << "\nlayout " << kNTupleLayout << "\nboard "
      << net.geometry().width << "x" << net.geometry().height << "\nrules " << p.rules << "\n";
  if (!p.source.empty()) out << "source " << p.source << "\n";
  if (p.reward_lines) out << "reward lines\n";
  std::size_t nonzero = 0;
  for (double w : net.weights()) nonzero += w != 0.0;
  out << "entries " << nonzero << "\n";
  sink(out.str());
  // `index value` lines, the value as an ostream of precision 17 writes it ("%.17g"), through
  // std::to_chars: the stream took about twice as long (13 ms for a learner's 26,000 weights).
  constexpr std::size_t kPiece = std::size_t{1} << 16, kLine = 64;
  std::string piece(kPiece + kLine, '\0');
  char* const begin = piece.data();
  char* const full = begin + kPiece;
  char* end = begin;
  for (std::size_t i = 0; i < net.size(); ++i) {
    const double w = net.weights()[i];
    if (w == 0.0) continue;
    // A line takes at most 20 digits, a space, 24 characters of "%.17g" and a newline.
    end = std::to_chars(end, end + kLine, i).ptr;
    *end++ = ' ';
    end = std::to_chars(end, begin + piece.size(), w, std::chars_format::general, 17).ptr;
    *end++ = '\n';
    if (end >= full) {
      sink(std::string_view(begin, static_cast<std::size_t>(end - begin)));
      end = begin;
    }
  }
  sink(std::string_view(begin, static_cast<std::size_t>(end - begin)));
  sink("end\n");
}

std::string format_ntuple_policy(const Policy& p) {
  std::string text;
  write_ntuple_policy(p, [&text](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace tb
