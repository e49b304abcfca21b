#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace tb {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::function<std::string()> render, std::chrono::milliseconds period,
                           std::chrono::milliseconds log_period)
    : render_(std::move(render)), terminal_(stderr_is_terminal()) {
  // Waits `d` in short steps (a stop ends the wait); true unless stopped.
  const auto wait = [this](std::chrono::milliseconds d) {
    constexpr auto kStep = std::chrono::milliseconds(25);
    for (auto waited = std::chrono::milliseconds(0); waited < d && !stop_.load(); waited += kStep)
      std::this_thread::sleep_for(std::min(kStep, d - waited));
    return !stop_.load();
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
  stop_ = true;
  thread_.join();
  if (!terminal_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace tb
