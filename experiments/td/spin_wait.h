// Waiting for another thread without a lock: a spin with PAUSE, which lets a hypervisor see the
// spin and run the thread waited for.
#pragma once

#include <algorithm>
#include <chrono>
#include <thread>

namespace tb {

inline void cpu_pause() {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#endif
}

// Spins until ready() holds; returns the seconds waited (0 if it held at once).  Yields after
// about 20 us of spinning: the thread waited for is not running then.
template <typename Ready>
double spin_until(const Ready& ready) {
  if (ready()) return 0;
  const auto start = std::chrono::steady_clock::now();
  for (int spins = 0; !ready(); spins = std::min(spins + 1, 1000)) {
    cpu_pause();
    if (spins == 1000) std::this_thread::yield();
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace tb
