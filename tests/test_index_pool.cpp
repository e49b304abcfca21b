// IndexPool (experiments/td/index_pool.h): every task runs once per call, on distinct thread
// places, across many calls, rounds of more tasks than threads, sleeping workers and a task
// that throws.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "index_pool.h"

namespace tb {
namespace {

TEST(IndexPool, RunsEveryTaskOnceOnDistinctPlaces) {
  for (const int threads : {1, 2, 3}) {
    IndexPool pool(threads);
    ASSERT_EQ(pool.threads(), threads);
    for (int call = 0; call < 2000; ++call) {
      const std::int64_t n = 1 + call % (2 * threads + 1);  // fewer, as many and more tasks than threads
      std::vector<std::atomic<int>> runs(static_cast<std::size_t>(n));
      std::vector<std::atomic<int>> busy(static_cast<std::size_t>(threads));
      std::atomic<int> clashes{0}, out_of_range{0};
      pool.for_each(n, [&](std::int64_t i) {
        const int place = IndexPool::thread_index();
        if (place < 0 || place >= threads) {
          ++out_of_range;
          return;
        }
        if (busy[static_cast<std::size_t>(place)].fetch_add(1) != 0) ++clashes;  // two tasks at once on one place
        runs[static_cast<std::size_t>(i)].fetch_add(1);
        busy[static_cast<std::size_t>(place)].fetch_sub(1);
      });
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(runs[static_cast<std::size_t>(i)].load(), 1) << threads << " " << call << " " << i;
      ASSERT_EQ(clashes.load(), 0);
      ASSERT_EQ(out_of_range.load(), 0);
    }
  }
}

// Two tasks that wait for each other (up to 10 s): true if both ran at once, each on a thread
// of its own, task 0 on the caller's.
bool ran_side_by_side(IndexPool& pool) {
  std::atomic<int> started{0};
  std::atomic<bool> overlapped{false};
  std::thread::id ran[2];
  pool.for_each(2, [&](std::int64_t i) {
    ran[i] = std::this_thread::get_id();
    started.fetch_add(1);
    const auto start = std::chrono::steady_clock::now();
    while (started.load() < 2 && std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    }
    if (started.load() == 2) overlapped = true;
  });
  return overlapped.load() && ran[0] == std::this_thread::get_id() && ran[1] != ran[0];
}

TEST(IndexPool, TasksRunOnTheirOwnThreads) {
  IndexPool pool(2);
  for (int call = 0; call < 20; ++call) EXPECT_TRUE(ran_side_by_side(pool)) << call;
}

// A worker that has slept (calls far apart, past its 200 us of spinning) is woken by the next
// call: the second task starts while the first still runs.
TEST(IndexPool, WakesSleepingWorkers) {
  IndexPool pool(2);
  for (int call = 0; call < 5; ++call) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_TRUE(ran_side_by_side(pool)) << call;
  }
}

TEST(IndexPool, ATaskExceptionReachesTheCallerAfterTheOthers) {
  IndexPool pool(2);
  std::atomic<int> done{0};
  EXPECT_THROW(pool.for_each(2,
                             [&](std::int64_t i) {
                               if (i == 1) throw std::runtime_error("task 1");
                               std::this_thread::sleep_for(std::chrono::milliseconds(2));
                               ++done;
                             }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 1);  // task 0 ended before for_each returned
  std::atomic<int> after{0};
  pool.for_each(2, [&](std::int64_t) { ++after; });  // the pool still works
  EXPECT_EQ(after.load(), 2);
}

}  // namespace
}  // namespace tb
