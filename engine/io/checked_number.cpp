#include "checked_number.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tb {
namespace {

[[noreturn]] void reject(std::string_view name, const char* kind, const std::string& range, std::string_view text) {
  throw InputError(std::string(name) + " must be " + kind + " in " + range + ", not '" + shown(text) + "'");
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string range_text(std::int64_t lo, std::int64_t hi) {
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

std::string range_text(double lo, double hi) { return "[" + number_text(lo) + ", " + number_text(hi) + "]"; }

std::int64_t parse_integer(std::string_view text, std::int64_t lo, std::int64_t hi, std::string_view name) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, 10);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi)
    reject(name, "an integer", range_text(lo, hi), text);
  return v;
}

std::uint64_t parse_unsigned(std::string_view text, std::string_view name) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, 10);
  if (text.empty() || text.front() == '-' || ec != std::errc() || ptr != end)
    reject(name, "an integer", "[0, " + std::to_string(kUint64Max) + "]", text);
  return v;
}

double parse_real(std::string_view text, double lo, double hi, std::string_view name) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, std::chars_format::general);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < lo || v > hi)
    reject(name, "a finite number", range_text(lo, hi), text);
  return v;
}

std::int64_t check_integer(std::int64_t v, std::int64_t lo, std::int64_t hi, std::string_view name) {
  if (v < lo || v > hi) reject(name, "an integer", range_text(lo, hi), std::to_string(v));
  return v;
}

double check_real(double v, double lo, double hi, std::string_view name) {
  if (!std::isfinite(v) || v < lo || v > hi) reject(name, "a finite number", range_text(lo, hi), number_text(v));
  return v;
}

}  // namespace tb
