#include "step_pacer.h"

#include <algorithm>
#include <numeric>

namespace tb::td {

void StepPacer::took(double seconds) {
  const std::int64_t left = cycle_ - step_++;  // steps to the end of the cycle, this one included
  if (left <= kProbe) {
    probe_[static_cast<std::size_t>(kProbe - left)] = seconds;  // after the probe's kWarm steps
  } else if (left > kProbeSteps) {
    recent_[static_cast<std::size_t>(recent_next_)] = seconds;
    recent_next_ = (recent_next_ + 1) % kRecent;
    recent_count_ = std::min(recent_count_ + 1, kRecent);
  }
  if (left != 1) return;
  step_ = 0;
  const double probed = std::accumulate(probe_.begin(), probe_.end(), 0.0) / kProbe;
  const double in_use = std::accumulate(recent_.begin(), recent_.begin() + recent_count_, 0.0) / recent_count_;
  if (probed < in_use) {
    parallel_ = !parallel_;
    std::copy(probe_.begin(), probe_.end(), recent_.begin());
    recent_count_ = recent_next_ = kProbe;
    cycle_ = kCycle;
  } else {
    cycle_ = std::clamp(2 * cycle_, kCycle, kCycleMax);
  }
}

}  // namespace tb::td
