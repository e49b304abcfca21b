// ProgressLine (cli/progress.h) where stderr is not a terminal: plain, newline-ended lines every
// log period, none for a run shorter than one, and a stop that does not wait out the period.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "progress.h"

namespace tb {
namespace {

// Runs `body` with stderr (file descriptor 2) sent to a new temporary file; returns what it wrote.
template <class Body>
std::string stderr_of(Body body) {
  std::string path = (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + std::string("/tb_progress_XXXXXX");
  const int fd = mkstemp(path.data());
  EXPECT_GE(fd, 0);
  std::fflush(stderr);
  const int saved = dup(STDERR_FILENO);
  EXPECT_GE(dup2(fd, STDERR_FILENO), 0);
  body();
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  close(fd);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

TEST(ProgressLine, WritesPlainLinesEveryLogPeriodWhenStderrIsAFile) {
  std::atomic<int> calls{0};
  const std::string text = stderr_of([&] {
    ProgressLine line([&] { return "step " + std::to_string(++calls); }, std::chrono::milliseconds(1),
                      std::chrono::milliseconds(20));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (calls.load() < 3 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  ASSERT_GE(calls.load(), 3);
  std::string expected;
  for (int k = 1; k <= calls; ++k) expected += "step " + std::to_string(k) + "\n";
  EXPECT_EQ(text, expected);  // whole lines, no carriage return or escape sequence
}

TEST(ProgressLine, ARunShorterThanOneLogPeriodWritesNothingAndStopsAtOnce) {
  std::atomic<int> calls{0};
  const auto start = std::chrono::steady_clock::now();
  const std::string text = stderr_of([&] {
    ProgressLine line([&] { return "step " + std::to_string(++calls); }, std::chrono::milliseconds(1),
                      std::chrono::minutes(10));
  });
  // The destructor wakes the helper thread, so it does not wait out the ten-minute period (the bound leaves room for a sanitizer build on a busy host).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::minutes(1));
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(text, "");
}

}  // namespace
}  // namespace tb
