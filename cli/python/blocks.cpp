#include "blocks.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <chrono>

namespace tb::python {

namespace py = pybind11;

void play_in_blocks(std::int64_t total, std::int64_t first, const std::function<void(std::int64_t, std::int64_t)>& play) {
  using Clock = std::chrono::steady_clock;
  // A block of about a tenth of a second: Ctrl-C answers in about that, and the engine's
  // threads are idle only for the tail of each block.
  constexpr auto kShort = std::chrono::milliseconds(50), kLong = std::chrono::milliseconds(400);
  first = std::max<std::int64_t>(first, 1);
  std::int64_t size = first;
  for (std::int64_t begin = 0; begin < total;) {
    const std::int64_t end = begin + std::min(size, total - begin);
    const auto start = Clock::now();
    play(begin, end);
    const auto took = Clock::now() - start;
    if (took < kShort) size *= 2;
    else if (took > kLong) size = std::max(first, size / 2);
    begin = end;
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
}

}  // namespace tb::python
