// Temporal-difference learning of an afterstate value function from self-play (article 2;
// docs/td.md).
//
// Value.  V(s') = w . phi(s') over a ValueModel (value_model.h): a linear feature set (td44,
// bertsekas) or the n-tuple network.
//
// Policy.  For the current piece every drop placement is materialized, and placement k is
// rated q_k = r_k + V(s'_k), r_k = rows cleared by the move (the reward).  A game-ending
// placement is a terminal afterstate of value 0, so q_k = r_k.  The greedy move is the first
// k with the largest q_k.  With probability epsilon (a seeded draw, taken only when
// epsilon > 0) the move is instead a uniformly random placement.
//
// Update (Sutton & Barto 2018, section 6.8 "afterstates"; section 12.5 for the traces).  Once
// the next afterstate s'_{t+1} with reward r_{t+1} is chosen from s'_t:
//     delta = r_{t+1} + gamma * V(s'_{t+1}) - V(s'_t),   V(s'_{t+1}) = 0 if it is terminal
//     e     = gamma * lambda * e + phi(s'_t)              (accumulating traces)
//     w     = w + step * delta * e,   step = alpha, or alpha / |phi(s'_t)|^2 when normalized
// The normalized step is NLMS; for the n-tuple network |phi|^2 is the tuple count, the usual
// alpha / m.  The first move of a game starts from the empty board, which is not an
// afterstate, so it makes no update; a terminal move makes the last one.  An episode cut off
// by max_pieces_per_game simply stops: its last afterstate is not bootstrapped.  The n-tuple
// model keeps its traces sparse, one entry per weight index, and drops entries whose decayed
// value falls below kTraceFloor before adding phi (truncated TD(lambda)).
//
// Batches.  `games_per_step` games (slots) each place `pieces_per_step` pieces per step with
// the weights frozen; then every slot's updates are added to w in slot order.  Slots run in
// parallel and the result does not depend on the thread count.  The n-tuple traces do not
// depend on w, so a slot only records its updates (coef and phi) while it plays; after the
// decisions they are replayed, trace and weights together, by ranges of tables, one range per
// thread: each weight still gets its changes in slot order, then update order.  On several
// threads each thread but the caller decides with, and replays into, its own copy of the
// weights, and the copies exchange what each range's replay changed (play_and_merge), so the
// cache lines a thread writes are not read by another.  With 1 x 1 this is plain online TD.
// Slot s plays games s, s + B, s + 2B, ... (B = games_per_step);
// game g's pieces come from PieceStream::make(generator, seed, g).  Initial weights: linear
// models uniform in [-init_scale, init_scale) from the stream keyed by (seed xor kInitStream,
// 0) (article 2 starts from small random values); the n-tuple network from 0.  Slot s explores
// with its own stream, keyed by (seed xor kExploreStream, 0, s).  Weights that stop being
// finite end the run with an error.  rules.lookahead must be 0.
#pragma once

#include <Eigen/Dense>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "big_pages.h"
#include "index_pool.h"
#include "parallel_play.h"
#include "random.h"
#include "rules.h"
#include "search.h"
#include "step_pacer.h"
#include "value_model.h"

namespace tb::td {

inline constexpr double kTraceFloor = 1e-4;
// Stream tags: initial weights and exploration use keys that no game's piece stream uses.
inline constexpr std::uint64_t kInitStream = 0x5444494e4954ull;     // "TDINIT"
inline constexpr std::uint64_t kExploreStream = 0x544445585052ull;  // "TDEXPR"

struct TdConfig {
  std::string model = "td44";  // a feature set of board features, or "ntuple"
  Rules rules{};
  double alpha = 0.001;
  bool normalized = false;     // step alpha / |phi(s'_t)|^2
  double gamma = 0.9;
  double lambda = 0.0;         // 0: TD(0); > 0: TD(lambda) with accumulating traces
  double epsilon = 0.0;        // epsilon-greedy exploration
  double init_scale = 0.005;   // linear models: initial weights in [-init_scale, init_scale)
  std::uint64_t seed = 1;
  std::int64_t max_pieces_per_game = 0;  // 0: no limit
  int games_per_step = 1;
  int pieces_per_step = 1;
};

// Throws InputError naming the first bad field.
void check_config(const TdConfig& c);

// The reference update on dense vectors (tests check it by hand); returns delta.  phi_next
// is null when the next afterstate is terminal.
double td_step(Eigen::VectorXd& w, Eigen::VectorXd& e, const Eigen::VectorXd& phi_t, double reward,
               const Eigen::VectorXd* phi_next, double alpha, double gamma, double lambda);

// The parallel n-tuple merge's next shares of the replay (one per range, sum 1), from the
// current ones and, for each range since they were set, the time its replays took and the time
// they ended (each a sum over the same steps, from each step's start; empty `finish`: as if
// every replay started with the step).  A range's replay takes seconds / share per unit of
// share; the goal is the shares with which every range would end at the same time, and each
// share moves halfway towards it, none below half of an even share.  With equal starts the
// goal is the proportion of the ranges' speeds.  The shares unchanged if a time is not
// positive or not finite (a range not measured).
std::vector<double> next_range_shares(const std::vector<double>& shares, const std::vector<double>& seconds,
                                      const std::vector<double>& finish = {});

// The n-tuple merge ranges' cuts (set_merge_ranges).  tables[t] lists the indices of the live
// trace entries in table t (the tables in index order; an index may repeat), and an entry of
// table t weighs 1 + phi_weight / tables[t].size().  For each goal (a fraction of the total
// weight; the goals rise), the cut is the index of the first entry, in index order, that is not
// taken, where entries are taken while the weight taken plus half of the entry's own stays below
// goal x total; `size` if every entry is taken.  Reorders the indices within each table.
std::vector<std::uint32_t> weighted_cuts(std::vector<std::vector<std::uint32_t>>& tables, double phi_weight,
                                         const std::vector<double>& goals, std::uint32_t size);

struct Episode {
  std::uint64_t game = 0;
  std::int64_t lines = 0;
  std::int64_t pieces = 0;
  bool capped = false;  // cut off by max_pieces_per_game
};

class TdLearner {
 public:
  TdLearner(const TdConfig& config, FeatureKernel kernel);
  TdLearner(const TdLearner&) = delete;  // its searchers refer to its weights and model
  TdLearner& operator=(const TdLearner&) = delete;
  ~TdLearner();

  // One step (see the header comment); returns the episodes that ended, in slot order.
  std::vector<Episode> step(int threads);

  const std::vector<double>& weights() const { return w_; }
  const TdConfig& config() const { return config_; }
  const ValueModel& model() const { return *model_; }
  std::int64_t pieces() const { return pieces_; }  // placed over all slots and steps
  std::int64_t lines() const { return lines_; }    // cleared by ended episodes
  std::int64_t episodes() const { return episodes_; }
  std::int64_t steps() const { return steps_; }
  // The learned values as a playable policy (rating r + V(s'), `reward lines`; in play a
  // game-ending placement rates -infinity instead of r).
  Policy policy(const std::string& name) const;

  // Tests: choose each step's mode (several threads or one) by `parallel(step number)` instead
  // of by the pacer, so that a test can switch modes at will; an empty function restores it.
  void set_step_modes(std::function<bool(std::int64_t)> parallel) { step_modes_ = std::move(parallel); }
  // Tests: cut the merge ranges of parallel steps with one task per entry of `shares` by these
  // shares of the estimated replay cost (positive; scaled to sum 1), and keep them, instead of
  // shares that follow the replays' measured times.  Throws InputError for fewer than two.
  void set_range_shares(std::vector<double> shares);

  // Everything needed to continue bit-identically between steps: weights (as exact
  // doubles), counters, and every slot's game, board, traces and random streams.
  nlohmann::json state() const;
  // Throws InputError naming the field if the state is malformed, out of range, or does not fit
  // this configuration; the learner is unchanged then.
  void restore(const nlohmann::json& j);

 private:
  struct Slot;
  // An n-tuple update made in a step: coef and phi (`count` entries from `first` of the slot's
  // update lists), or the start of a new game (count == kNewGame), which empties the trace.
  struct Update {
    static constexpr std::uint32_t kNewGame = 0xFFFFFFFFu;
    double coef;
    std::uint32_t first, count;
    std::uint32_t number;  // of the update in its slot (Slot::born)
  };
  static constexpr std::uint32_t kRenumberAt = 1u << 31;  // update numbers stay below 2^32
  static constexpr std::int64_t kRebalanceSteps = 256;    // the merge ranges are cut again this often
  // One merge range's part of a slot's n-tuple trace: entries [0, size) of the arrays.  Their
  // order changes no value (an update changes each weight once; ordered_trace sorts them): a
  // re-cut moves entries between parts.  The arrays only grow (the replay writes every entry it
  // makes room for before reading it), so a replayed update costs no allocation or clearing.
  struct alignas(64) TracePart {  // a cache line of its own: each range's thread writes its part
    std::vector<std::uint32_t> index;
    std::vector<double> value;
    std::size_t size = 0;
    void reserve(std::size_t n) {
      if (index.size() < n) {
        index.resize(2 * n);
        value.resize(2 * n);
      }
    }
  };
  struct TraceEntry {
    std::uint32_t index;
    double value;
  };
  // Weights [lo, hi); lo lies in table lo_table, hi in hi_table (the tuple count when hi is
  // the network's size).  A cut may fall inside a table.
  struct Range {
    std::uint32_t lo, hi;
    int lo_table, hi_table;
  };
  // A pool thread's own copy of the weights, for the parallel n-tuple steps (play_and_merge).
  struct alignas(64) Replica {
    std::vector<double> w;
    std::int64_t fresh = -1;  // w equals w_ as it was at the start of step `fresh` (steps_ then)
  };
  // What one merge range's replay changed, for the other copies of the weights to take: entries
  // [0, size) of the arrays, which only grow.  The replay writes them past the caches (append,
  // set_values): another thread read them last step, and a plain store would first have to win the
  // cache line back from that thread's cache.
  struct alignas(64) RangeLog {
    static constexpr int kOwnWeights = -1;
    std::vector<std::uint32_t> index;  // the weights it may have changed (an index may repeat)
    std::vector<double> value;         // their values after it
    std::size_t size = 0;
    int copy = kOwnWeights;            // replayed into w_ (kOwnWeights) or replicas_[copy]
    void append(const std::uint32_t* at, std::size_t count);
    void set_values(const std::vector<double>& w);  // value[i] = w[index[i]]
    // Since the range was cut (set_merge_ranges): the time its replays took, waits for slots
    // not counted, and the sum of the times from each parallel step's start to their ends.
    double seconds = 0, finish = 0;
  };
  // play_and_merge's claims of a slot or a merge range, each on a cache line of its own: the
  // epoch (steps_ + 1) of the step that last claimed it and of the one that last finished it.
  // Nothing is reset between steps.
  struct alignas(64) Claim {
    std::atomic<std::int64_t> claimed{0}, done{0};
  };
  void set_merge_ranges(int count);
  void share_ranges();
  // Made twice: for a parallel step (with the range's log and the slots' claims) and for a
  // serial one (log and played null), so that neither carries the other's branches.
  template <bool kParallel>
  double merge_range(std::size_t r, std::vector<double>& w, RangeLog* log, const Claim* played, std::int64_t epoch);
  std::vector<TraceEntry> ordered_trace(const Slot& s) const;
  void set_trace(Slot& s, const std::vector<TraceEntry>& entries) const;
  void renumber(Slot& s, const std::vector<TraceEntry>& entries) const;
  void next_game(Slot& s) const;
  void play_and_merge(std::size_t tasks);
  void advance(Slot& s) const;
  void add_update(Slot& s, const Update& u, const std::uint32_t* phi, std::size_t count) const;
  static void take_log(std::vector<double>& w, const RangeLog& log);
  void start_game(Slot& s, std::uint64_t game) const;
  void learn(Slot& s, double v_next, double reward, bool terminal) const;
  void attach_searcher(Slot& s) const;
  BigPages slot_arrays(const std::vector<std::unique_ptr<Slot>>& slots) const;

  TdConfig config_;
  FeatureKernel kernel_;
  std::unique_ptr<ValueModel> model_;
  bool dense_;  // linear models: every weight is active, traces are dense
  std::vector<double> w_;
  std::vector<std::unique_ptr<Slot>> slots_;
  BigPages slot_arrays_;  // n-tuple network: every slot's trace_slot, then every slot's born
  std::unique_ptr<IndexPool> pool_;
  int pool_threads_ = -1;        // as asked (0: every core)
  int pool_threads_count_ = 1;   // as run
  std::vector<Claim> slot_claims_, range_claims_;
  // Parallel n-tuple steps: every pool thread but step()'s caller decides with, and replays
  // into, a copy of its own (one per IndexPool::thread_index()), so that no written cache line
  // of weights moves between the threads; each merge range's changes cross as one sequential
  // log instead (play_and_merge).
  std::vector<Replica> replicas_;
  std::vector<RangeLog> logs_;  // one per merge range
  bool stream_updates_ = false;  // in a parallel step: add_update streams past the caches
  StepPacer pacer_;  // step(): several threads or one ...
  std::function<bool(std::int64_t)> step_modes_;  // ... unless a test chooses
  // The n-tuple merge's ranges (one per task of play_and_merge) and whether each range's weights
  // stayed finite in the last step.
  std::vector<Range> ranges_;
  std::vector<char> range_finite_;
  // Each range's part of the replay's estimated cost (sum 1): where one thread replays more
  // slowly than another (a vCPU that the host slows), its range gets less (share_ranges).
  std::vector<double> range_shares_;
  bool fixed_shares_ = false;  // set_range_shares
  std::int64_t pieces_ = 0, lines_ = 0, episodes_ = 0, steps_ = 0;
};

}  // namespace tb::td
