#include "big_pages.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tb {

namespace {
constexpr std::size_t kBigPage = std::size_t{2} << 20;
}

BigPages::BigPages(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Map a big page more than asked and keep the part that starts on a big page's boundary.
  const std::size_t rounded = (bytes + kBigPage - 1) / kBigPage * kBigPage;
  map_bytes_ = rounded + kBigPage;
  void* m = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED) {
    map_ = m;
    const auto start = reinterpret_cast<std::uintptr_t>(m);
    const std::uintptr_t aligned = (start + kBigPage - 1) / kBigPage * kBigPage;
    data_ = reinterpret_cast<void*>(aligned);
    madvise(data_, rounded, MADV_HUGEPAGE);  // a refusal leaves ordinary pages
    return;
  }
  map_bytes_ = 0;
#endif
  data_ = ::operator new(bytes);
  std::memset(data_, 0, bytes);
}

BigPages::BigPages(BigPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      map_(std::exchange(other.map_, nullptr)),
      map_bytes_(std::exchange(other.map_bytes_, 0)) {}

BigPages& BigPages::operator=(BigPages&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    map_ = std::exchange(other.map_, nullptr);
    map_bytes_ = std::exchange(other.map_bytes_, 0);
  }
  return *this;
}

BigPages::~BigPages() { release(); }

void BigPages::release() {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (map_ != nullptr) {
    munmap(map_, map_bytes_);
    map_ = data_ = nullptr;
    return;
  }
#endif
  ::operator delete(data_);
  data_ = nullptr;
}

}  // namespace tb
