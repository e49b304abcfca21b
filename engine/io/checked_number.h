// One range-checked number parser for every number that comes from outside: flags, TOML
// configs and JSON checkpoints.  A value outside its documented range is an InputError whose
// one line names the value's origin (`name`: a flag, or "file: key") and the allowed range;
// nothing is clamped, wrapped or truncated.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "error.h"
#include "quote.h"  // shown()

namespace tb {

inline constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::uint64_t kUint64Max = std::numeric_limits<std::uint64_t>::max();

// All of `text` as a decimal integer (optional '-') in [lo, hi].
std::int64_t parse_integer(std::string_view text, std::int64_t lo, std::int64_t hi, std::string_view name);
// All of `text` as a decimal integer in [0, 2^64 - 1] (seeds); no sign allowed.
std::uint64_t parse_unsigned(std::string_view text, std::string_view name);
// All of `text` as a finite decimal number in [lo, hi] (no inf, no nan).
double parse_real(std::string_view text, double lo, double hi, std::string_view name);

// The same checks for a value some other parser already read (TOML, JSON).
std::int64_t check_integer(std::int64_t v, std::int64_t lo, std::int64_t hi, std::string_view name);
double check_real(double v, double lo, double hi, std::string_view name);

// "[lo, hi]" as the messages write it.
std::string range_text(std::int64_t lo, std::int64_t hi);
std::string range_text(double lo, double hi);

}  // namespace tb
