// Counter-based random numbers: draw n of a stream is a pure function of (key, n).
//
// key  = mix(mix(run_seed) ^ (stream_id * kGamma))
// x_n  = mix(key + n * kGamma), n = 1, 2, ...
// mix is the SplitMix64 finalizer (Steele, Lea & Flood 2014); kGamma is its odd increment.
// Bounded draws use Lemire's multiply-shift with exact rejection (ACM TOMACS 2019), so the
// result is unbiased.  docs/rules.md documents this as part of the rules contract.
#pragma once

#include <cstdint>

namespace tb {

__extension__ using U128 = unsigned __int128;

inline constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ull;

constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr std::uint64_t stream_key(std::uint64_t run_seed, std::uint64_t stream_id) {
  return mix64(mix64(run_seed) ^ (stream_id * kGamma));
}

struct CounterRng {
  std::uint64_t key = 0;
  std::uint64_t counter = 0;  // draws taken so far

  constexpr std::uint64_t next() { return mix64(key + ++counter * kGamma); }

  // Uniform in [0, n), n > 0.
  constexpr std::uint32_t below(std::uint32_t n) {
    const std::uint64_t threshold = (0 - std::uint64_t{n}) % n;  // 2^64 mod n
    for (;;) {
      const U128 m = static_cast<U128>(next()) * n;
      if (static_cast<std::uint64_t>(m) >= threshold) return static_cast<std::uint32_t>(m >> 64);
    }
  }

  // Uniform in [0, 1) with 53 bits.
  constexpr double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

}  // namespace tb
