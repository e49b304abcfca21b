// Progress on stderr (never on stdout): on a terminal a one-line display, rewritten in place;
// elsewhere (a log file, nohup) a plain line now and then, so that a long run shows it is alive.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tb {

class ProgressLine {
 public:
  // `render` builds the line; it is called from a helper thread every `period` on a terminal,
  // else every `log_period` (the first after one log_period: a short run writes nothing).
  explicit ProgressLine(std::function<std::string()> render,
                        std::chrono::milliseconds period = std::chrono::milliseconds(250),
                        std::chrono::milliseconds log_period = std::chrono::minutes(1));
  ~ProgressLine();  // erases the terminal's line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  std::function<std::string()> render_;
  std::mutex mu_;
  std::condition_variable wake_;  // the destructor's stop
  bool stop_ = false;             // under mu_
  bool terminal_ = false;
  std::thread thread_;
};

bool stderr_is_terminal();

}  // namespace tb
