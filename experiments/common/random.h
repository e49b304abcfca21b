// Random numbers for optimizers: a counter-based stream (engine/core/rng.h), so the whole
// generator state is two integers and serializes exactly.  Normal draws use Box-Muller
// without caching the second value, so there is no hidden state.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "error.h"
#include "rng.h"

namespace tb::opt {

struct Random {
  CounterRng rng;

  static Random from_seed(std::uint64_t seed, std::uint64_t stream = 0) {
    return Random{CounterRng{stream_key(seed, stream), 0}};
  }
  double uniform() { return rng.unit(); }                                   // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * rng.unit(); }
  std::uint32_t below(std::uint32_t n) { return rng.below(n); }
  double normal() {
    const double u1 = 1.0 - rng.unit();  // (0, 1]
    const double u2 = rng.unit();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  nlohmann::json state() const { return {{"key", rng.key}, {"counter", rng.counter}}; }
  void restore(const nlohmann::json& j) {
    // Unsigned integers only: a negative or fractional value would wrap or truncate.
    if (!j.is_object() || !j.contains("key") || !j.contains("counter") || !j["key"].is_number_unsigned() ||
        !j["counter"].is_number_unsigned())
      throw InputError("bad random state: key and counter must be integers in [0, 2^64 - 1]");
    rng.key = j.at("key").get<std::uint64_t>();
    rng.counter = j.at("counter").get<std::uint64_t>();
  }
};

}  // namespace tb::opt
