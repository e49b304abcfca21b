// BigPages: zeroed, writable memory of the size asked for, on a big page's boundary where the
// kernel maps it (Linux), and moves that hand the block over.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "big_pages.h"

namespace {

bool all_zero(const tb::BigPages& b) {
  const auto* p = static_cast<const unsigned char*>(b.data());
  for (std::size_t i = 0; i < b.size(); ++i)
    if (p[i] != 0) return false;
  return true;
}

TEST(BigPages, ZeroedAndWritableOverItsWholeSize) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4096} + 3, (std::size_t{3} << 20) + 5}) {
    tb::BigPages b(bytes);
    ASSERT_NE(b.data(), nullptr) << bytes;
    EXPECT_EQ(b.size(), bytes);
    EXPECT_TRUE(all_zero(b)) << bytes;
    auto* p = static_cast<unsigned char*>(b.data());
    for (std::size_t i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i * 7 + 1);
    for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7 + 1)) << i;
  }
}

TEST(BigPages, EmptyWithoutBytes) {
  const tb::BigPages none(0), default_made;
  EXPECT_EQ(none.data(), nullptr);
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(default_made.data(), nullptr);
}

#if defined(__linux__)
TEST(BigPages, StartsOnABigPageBoundaryOnLinux) {
  const tb::BigPages b(std::size_t{5} << 20);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % (std::uintptr_t{2} << 20), 0u);
}
#endif

TEST(BigPages, MovesHandTheBlockOver) {
  tb::BigPages a(std::size_t{1} << 20);
  static_cast<unsigned char*>(a.data())[12345] = 42;
  void* const where = a.data();
  tb::BigPages b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), where);
  EXPECT_EQ(b.size(), std::size_t{1} << 20);
  tb::BigPages c(4096);
  c = std::move(b);  // c's own block is released
  EXPECT_EQ(c.data(), where);
  EXPECT_EQ(static_cast<unsigned char*>(c.data())[12345], 42);
  EXPECT_EQ(b.data(), nullptr);
}

}  // namespace
