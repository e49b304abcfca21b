// A one-line progress display on stderr, only when stderr is a terminal (never on stdout).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace tb {

class ProgressLine {
 public:
  // `render` builds the line; it is called from a helper thread every `period`.
  explicit ProgressLine(std::function<std::string()> render,
                        std::chrono::milliseconds period = std::chrono::milliseconds(250));
  ~ProgressLine();  // erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  std::function<std::string()> render_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

bool stderr_is_terminal();

}  // namespace tb
