// Zeroed memory for large arrays, in 2 MiB pages where the kernel gives them (Linux transparent
// huge pages, asked for with madvise; elsewhere, or where refused, ordinary pages).  A 4 KiB
// page costs a page fault at its first touch, several microseconds on a virtual machine: the
// n-tuple learner's per-slot index arrays (td_learner.h; 8 slots x 2 x 334 KB on 10x20) took
// about 930 of them at every start.  A big page also covers more of an array indexed at random
// per TLB entry.
#pragma once

#include <cstddef>

namespace tb {

class BigPages {
 public:
  BigPages() = default;
  explicit BigPages(std::size_t bytes);  // zeroed; throws std::bad_alloc if none is left
  BigPages(BigPages&& other) noexcept;
  BigPages& operator=(BigPages&& other) noexcept;
  BigPages(const BigPages&) = delete;
  BigPages& operator=(const BigPages&) = delete;
  ~BigPages();

  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  void release();
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  void* map_ = nullptr;  // what was mapped (data_ lies inside it), or null for operator new
  std::size_t map_bytes_ = 0;
};

}  // namespace tb
