// A fixed set of threads that run the tasks of one call at a time, for work whose results land
// in slot i (the batched TD learner), so that the outcome does not depend on the thread count.
// Built for calls every 50-100 us: its own threads, not oneTBB's, so that a call's tasks start
// within about one cache line transfer between the cores (docs/performance.md "TD training
// throughput").
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tb {

// Calls fn(i) for i in [0, n) on `threads` threads (0 = every core; the caller's thread is one
// of them), and returns when all are done.  Task t goes to thread t first (thread 0 is the
// caller's), and a thread that is done takes the tasks no thread has started, so a pool thread
// that the system does not run costs no more than its tasks.  More tasks than threads run in
// rounds of one task per thread.  A task's exception reaches the caller (the first one, after
// every task of the round has ended).  The threads wait between calls by spinning for about
// 200 us, then sleeping.  One call at a time: not reentrant, and not for several calling
// threads at once.
class IndexPool {
 public:
  explicit IndexPool(int threads);
  ~IndexPool();
  IndexPool(const IndexPool&) = delete;
  IndexPool& operator=(const IndexPool&) = delete;

  void for_each(std::int64_t n, const std::function<void(std::int64_t)>& fn);
  int threads() const { return static_cast<int>(tasks_.size()); }
  // Inside fn: the calling thread's place in the pool, in [0, threads()) (0: the thread that
  // called for_each); no two threads running tasks of one for_each share it.  0 outside.
  static int thread_index();

 private:
  // A task's state, on a cache line of its own: the number of the round that a thread took it
  // in, and of the round it ended in.
  struct alignas(64) Task {
    std::atomic<std::uint64_t> taken{0}, ended{0};
  };
  void round(std::int64_t first, int count);
  void work(int index);
  void run_from(std::uint64_t published, int index);
  bool take(int task, std::uint64_t number);
  void run(int task, std::uint64_t number);

  // The current round, published in one word: its number times 2^16 plus its task count (the
  // workers spin on it).  first_ and fn_ are written before it is published and read by a thread
  // only once it has taken a task of the round, which cannot end before that task does.
  alignas(64) std::atomic<std::uint64_t> published_{0};
  std::int64_t first_ = 0;  // the task index of the round's task 0
  const std::function<void(std::int64_t)>* fn_ = nullptr;
  alignas(64) std::atomic<int> sleeping_{0};  // workers blocked in published_.wait
  std::atomic<bool> stop_{false};
  std::vector<Task> tasks_;  // one per thread
  std::mutex error_mutex_;
  std::exception_ptr error_;  // the first exception of the current round
  std::vector<std::thread> workers_;
};

}  // namespace tb
