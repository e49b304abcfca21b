// FNV-1a, 64-bit (Fowler, Noll and Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3):
// the one hash of the replay board hash (docs/replay-format.md) and the bench signature.
// Integers are fed least significant byte first, so the value does not depend on the host.
#pragma once

#include <cstdint>

namespace tb {

class Fnv1a {
 public:
  constexpr void add_byte(std::uint8_t b) { h_ = (h_ ^ b) * 0x100000001b3ull; }
  // The low `bytes` bytes of v, least significant first.
  constexpr void add(std::uint64_t v, int bytes = 8) {
    for (int i = 0; i < bytes; ++i, v >>= 8) add_byte(static_cast<std::uint8_t>(v & 0xff));
  }
  constexpr std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

}  // namespace tb
