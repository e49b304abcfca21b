#include "index_pool.h"

#include <algorithm>
#include <chrono>

#include "parallel_play.h"  // thread_count
#include "spin_wait.h"

namespace tb {
namespace {

thread_local int this_index = 0;
constexpr int kCountBits = 16;  // a round's task count, in the low bits of published_
constexpr std::uint64_t kCountMask = (std::uint64_t{1} << kCountBits) - 1;
// How long a worker spins for the next round before it sleeps: longer than the gap between two
// steps of the TD learner (a few us; a re-cut of its merge ranges, about 100 us).
constexpr auto kSpin = std::chrono::microseconds(200);

}  // namespace

IndexPool::IndexPool(int threads) : tasks_(static_cast<std::size_t>(std::clamp(thread_count(threads), 1, 4096))) {
  workers_.reserve(tasks_.size() - 1);
  for (int i = 1; i < this->threads(); ++i) workers_.emplace_back([this, i] { work(i); });
}

IndexPool::~IndexPool() {
  stop_.store(true, std::memory_order_relaxed);
  published_.fetch_add(std::uint64_t{1} << kCountBits, std::memory_order_seq_cst);  // a round of 0 tasks
  published_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int IndexPool::thread_index() { return this_index; }

// Waits for a round other than the last one seen: spins, then sleeps.  A worker counts itself in
// sleeping_ before its last look at published_, and the caller looks at sleeping_ after it
// publishes a round (both sequentially consistent), so either the worker sees the round or the
// caller wakes it.
void IndexPool::work(int index) {
  this_index = index;
  std::uint64_t seen = 0;
  for (;;) {
    auto start = std::chrono::steady_clock::now();
    std::uint64_t now;
    for (int spins = 1; (now = published_.load(std::memory_order_acquire)) == seen; ++spins) {
      cpu_pause();
      if (spins % 256 == 0 && std::chrono::steady_clock::now() - start > kSpin) {
        sleeping_.fetch_add(1, std::memory_order_seq_cst);
        if (published_.load(std::memory_order_seq_cst) == seen) published_.wait(seen, std::memory_order_acquire);
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
        start = std::chrono::steady_clock::now();
      }
    }
    seen = now;
    if (stop_.load(std::memory_order_relaxed)) return;
    run_from(now, index);
  }
}

// Takes task `task` of round `number` unless a thread took it already.  A thread that saw the
// round late may try after the round has ended (every task taken), and fails then.
bool IndexPool::take(int task, std::uint64_t number) {
  auto& taken = tasks_[static_cast<std::size_t>(task)].taken;
  std::uint64_t last = taken.load(std::memory_order_relaxed);
  return last < number && taken.compare_exchange_strong(last, number, std::memory_order_acq_rel, std::memory_order_relaxed);
}

void IndexPool::run(int task, std::uint64_t number) {
  try {
    (*fn_)(first_ + task);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::current_exception();
  }
  tasks_[static_cast<std::size_t>(task)].ended.store(number, std::memory_order_release);
}

// A thread's part of a round: its own task, then any task that no thread has started.
void IndexPool::run_from(std::uint64_t published, int index) {
  const std::uint64_t number = published >> kCountBits;
  const int count = static_cast<int>(published & kCountMask);
  if (index < count && take(index, number)) run(index, number);
  for (int t = 1; t < count; ++t)
    if (t != index && take(t, number)) run(t, number);
}

void IndexPool::round(std::int64_t first, int count) {
  first_ = first;
  error_ = nullptr;
  const std::uint64_t published = ((published_.load(std::memory_order_relaxed) >> kCountBits) + 1) << kCountBits |
                                  static_cast<std::uint64_t>(count);
  const std::uint64_t number = published >> kCountBits;
  published_.store(published, std::memory_order_seq_cst);  // release: first_ and fn_
  if (sleeping_.load(std::memory_order_seq_cst) > 0) published_.notify_all();
  run_from(published, 0);
  for (int t = 0; t < count; ++t) {
    const Task& task = tasks_[static_cast<std::size_t>(t)];
    spin_until([&] { return task.ended.load(std::memory_order_acquire) == number; });
  }
  if (error_) std::rethrow_exception(error_);
}

void IndexPool::for_each(std::int64_t n, const std::function<void(std::int64_t)>& fn) {
  if (workers_.empty() || n == 1) {
    this_index = 0;
    for (std::int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  fn_ = &fn;
  this_index = 0;
  for (std::int64_t first = 0; first < n; first += threads())
    round(first, static_cast<int>(std::min<std::int64_t>(threads(), n - first)));
}

}  // namespace tb
