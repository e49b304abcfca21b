// BM_Handoff: the round trip of one cache line between two threads: this thread writes a
// counter, a second thread sees it and writes it back, and this thread sees the answer.
// Time per iteration = one round trip.  It tells whether work that shares written memory
// between two threads (the n-tuple learner's weights, docs/performance.md "TD training
// throughput") can gain from a second thread on this machine: on a virtual machine it moves
// as the hypervisor places the two vCPUs (measured 154 to 670 ns on the project's 2-vCPU AMD
// EPYC machine within minutes).  Needs two hardware threads; the threads are not pinned, so
// run it as `taskset -c 0,1 bench_handoff` to choose the pair.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <atomic>
#include <cstdint>
#include <thread>

namespace {

// Lets a hypervisor see the spin, and on one core lets the other thread run.
void relax(int& spins) {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#endif
  if (++spins >= 1000) {
    std::this_thread::yield();
    spins = 0;
  }
}

void bm_handoff(benchmark::State& state) {
  if (std::thread::hardware_concurrency() < 2) return state.SkipWithError("needs two hardware threads");
  constexpr std::int64_t kStop = -1;
  struct alignas(64) Line {
    std::atomic<std::int64_t> value{0};
  } line;
  // The partner answers each odd value v with v + 1 until it reads kStop.
  std::thread partner([&line] {
    int spins = 0;
    for (;;) {
      const std::int64_t v = line.value.load(std::memory_order_acquire);
      if (v == kStop) return;
      if (v & 1) {  // even: its own answer, not yet seen by this thread
        line.value.store(v + 1, std::memory_order_release);
        spins = 0;
      } else {
        relax(spins);
      }
    }
  });
  std::int64_t next = 1;
  for (auto _ : state) {
    line.value.store(next, std::memory_order_release);
    int spins = 0;
    while (line.value.load(std::memory_order_acquire) != next + 1) relax(spins);
    next += 2;
  }
  line.value.store(kStop, std::memory_order_release);
  partner.join();
}

void register_benchmarks() { benchmark::RegisterBenchmark("BM_Handoff", bm_handoff)->UseRealTime(); }

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
