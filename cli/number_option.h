// Numeric flags: each is read as text and parsed by the one range-checked parser
// (checked_number.h), so `--seed -1`, `--games 1e99` or `--tie-noise inf` exit 2 with one
// line naming the flag and its range instead of being wrapped, clamped or truncated.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include "checked_number.h"

namespace tb {

template <class T>
CLI::Option* add_number(CLI::App* cmd, const std::string& flag, T& value, T lo, T hi, const std::string& help) {
  std::string range;
  if constexpr (std::is_same_v<T, std::uint64_t>) range = "[0, 2^64 - 1]";
  else if constexpr (std::is_floating_point_v<T>) range = range_text(static_cast<double>(lo), static_cast<double>(hi));
  else range = range_text(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
  auto parse = [&value, flag, lo, hi](const std::string& text) {
    try {
      if constexpr (std::is_same_v<T, std::uint64_t>) {
        (void)lo, (void)hi;  // the whole range: parse_unsigned checks it
        value = parse_unsigned(text, flag);
      } else if constexpr (std::is_floating_point_v<T>) value = static_cast<T>(parse_real(text, lo, hi, flag));
      else value = static_cast<T>(parse_integer(text, lo, hi, flag));
    } catch (const InputError& e) {
      throw CLI::ValidationError(e.what());
    }
  };
  std::string shown;
  if constexpr (std::is_floating_point_v<T>) shown = CLI::detail::to_string(value);
  else shown = std::to_string(value);
  return cmd->add_option_function<std::string>(flag, parse, help + "; range " + range)
      ->type_name(std::is_floating_point_v<T> ? "NUMBER" : "INT")
      ->default_str(shown);
}

}  // namespace tb
