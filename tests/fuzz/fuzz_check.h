// Shared by the fuzz targets: how a failed check ends the run.
//
// A target parses inside a try/catch of the parser's documented error type only.  Any other
// exception escapes LLVMFuzzerTestOneInput, std::terminate aborts, and libFuzzer saves the
// input as a crash; so does a failed check here, after printing what differed.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace tb::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Prints text with its control bytes (but the line breaks) and non-ASCII bytes as \xNN, so a
// stray '\r' or NUL shows.
inline void print_escaped(std::string_view text) {
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n' || (c >= 0x20 && c < 0x7f)) std::fputc(c, stderr);
    else std::fprintf(stderr, "\\x%02x", c);
  }
  std::fputc('\n', stderr);
}

[[noreturn]] inline void fail(std::string_view what, std::string_view first = {}, std::string_view second = {}) {
  std::fputs("\n==== fuzz check failed: ", stderr);
  print_escaped(what);
  if (!first.empty()) {
    std::fputs("---- first:\n", stderr);
    print_escaped(first);
  }
  if (!second.empty()) {
    std::fputs("---- second:\n", stderr);
    print_escaped(second);
  }
  std::fflush(stderr);
  __builtin_trap();
}

inline void check(bool ok, std::string_view what, std::string_view first = {}, std::string_view second = {}) {
  if (!ok) fail(what, first, second);
}

// Bit-identical doubles: the weight formats promise that a file loads back exactly.
inline bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i])) return false;
  return true;
}

}  // namespace tb::fuzz
