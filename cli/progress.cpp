#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace tb {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::function<std::string()> render, std::chrono::milliseconds period)
    : render_(std::move(render)) {
  if (!stderr_is_terminal()) return;
  thread_ = std::thread([this, period] {
    while (!stop_.load()) {
      std::fprintf(stderr, "\r\033[K%s", render_().c_str());
      std::fflush(stderr);
      for (auto waited = std::chrono::milliseconds(0); waited < period && !stop_.load();
           waited += std::chrono::milliseconds(25))
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  stop_ = true;
  thread_.join();
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace tb
