#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace tb {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::function<std::string()> render, std::chrono::milliseconds period,
                           std::chrono::milliseconds log_period)
    : render_(std::move(render)), terminal_(stderr_is_terminal()) {
  // Waits `d` or until the destructor stops the thread, which it wakes at once; true unless
  // stopped.  (A sleep in short steps made every run's end wait out up to one step.)
  const auto wait = [this](std::chrono::milliseconds d) {
    std::unique_lock lock(mu_);
    return !wake_.wait_for(lock, d, [this] { return stop_; });
  };
  if (terminal_) {
    thread_ = std::thread([this, period, wait] {
      do {
        std::fprintf(stderr, "\r\033[K%s", render_().c_str());
        std::fflush(stderr);
      } while (wait(period));
    });
  } else {
    thread_ = std::thread([this, log_period, wait] {
      while (wait(log_period)) {
        std::fprintf(stderr, "%s\n", render_().c_str());
        std::fflush(stderr);
      }
    });
  }
}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (!terminal_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace tb
