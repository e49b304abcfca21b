// Chooses, step by step, whether a TD learner's step runs on several threads or on one, from
// the steps' own times (TdLearner::step).  Several threads wait for each other at every step
// and share the weights they update, so on a shared virtual machine, whose two vCPUs may sit
// close together or far apart (and move between the two within minutes), two threads can be
// slower than one (docs/performance.md "TD training throughput").
//
// Every step in the mode in use is timed, and the last kRecent of those times are kept.  At the
// end of each cycle, kWarm + kProbe steps run in the other mode, and the mode with the smaller
// mean step time over the last kProbe of them and the kept times is kept (means, not medians:
// a parallel step's time is skewed, and the mean is what the run's time is made of).  The
// first kWarm steps of a run and after every change of mode are not counted: they pay for the
// change (the threads starting, the data moving to the other cache), not for the mode.  A
// probe skips its first kWarm steps; the mode in use needs no skipping, since it runs at least
// kWarm + kRecent steps in a row, so its first steps have left the ring when the probe
// compares.  The first cycle is kFirstCycle steps; then a cycle is kCycle steps and doubles up
// to kCycleMax while the mode in use stays the faster, so a steady machine spends about
// (kWarm + kProbe) / kCycleMax of its steps in the slower mode.  A switch starts again at
// kCycle, with the probe's times as the new mode's.  The pacing chooses only how many threads
// play; a learner's results never depend on it.
#pragma once

#include <array>
#include <cstdint>

namespace tb::td {

class StepPacer {
 public:
  static constexpr int kRecent = 64, kProbe = 16, kWarm = 3;
  static constexpr std::int64_t kProbeSteps = kWarm + kProbe;  // at the end of each cycle
  static constexpr std::int64_t kFirstCycle = kWarm + kRecent + kProbeSteps, kCycle = 512, kCycleMax = 16 * kCycle;

  // The mode of the next step: several threads (true) or one.
  bool next_parallel() const { return parallel_ != (cycle_ - step_ <= kProbeSteps); }
  // The time of the step just run, in next_parallel()'s mode.
  void took(double seconds);

  bool parallel() const { return parallel_; }  // the mode in use (outside probes)
  std::int64_t cycle() const { return cycle_; }

 private:
  bool parallel_ = true;
  std::int64_t cycle_ = kFirstCycle, step_ = 0;  // the cycle's length and its next step
  std::array<double, kRecent> recent_{};         // the mode in use: its last steps' times (a ring)
  int recent_count_ = 0;                          // times kept in recent_ (at most kRecent)
  int recent_next_ = 0;                           // where the next goes
  std::array<double, kProbe> probe_{};            // this cycle's probe of the other mode
};

}  // namespace tb::td
