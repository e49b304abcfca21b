#include "td_learner.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "checked_number.h"
#include "json_fields.h"
#include "piece_stream.h"
#include "td_slot.h"

namespace tb::td {

using Json = nlohmann::json;
constexpr std::int64_t kGameLimit = std::int64_t{1} << 62;  // game indices and counters in a state

double td_step(Eigen::VectorXd& w, Eigen::VectorXd& e, const Eigen::VectorXd& phi_t, double reward,
               const Eigen::VectorXd* phi_next, double alpha, double gamma, double lambda) {
  const double v_t = w.dot(phi_t);
  const double v_next = phi_next ? w.dot(*phi_next) : 0.0;  // terminal afterstate: 0
  const double delta = reward + gamma * v_next - v_t;
  e = (gamma * lambda) * e + phi_t;
  w += (alpha * delta) * e;
  return delta;
}


void check_config(const TdConfig& c) {
  auto bad = [](const std::string& why) { throw InputError("td: " + why); };
  if (c.rules.lookahead != 0) bad("lookahead must be 0 (a one-piece controller)");
  if (c.rules.placement != PlacementModel::drop) bad("TD learns over drop placements (research rules)");
  if (!(c.alpha > 0 && std::isfinite(c.alpha))) bad("alpha must be a positive number");
  if (!(c.gamma >= 0 && c.gamma <= 1)) bad("gamma must be in [0, 1]");
  if (!(c.lambda >= 0 && c.lambda <= 1)) bad("lambda must be in [0, 1]");
  if (!(c.epsilon >= 0 && c.epsilon <= 1)) bad("epsilon must be in [0, 1]");
  if (!(c.init_scale >= 0 && std::isfinite(c.init_scale))) bad("init_scale must be >= 0");
  if (c.max_pieces_per_game < 0) bad("max_pieces_per_game must be >= 0");
  if (c.games_per_step < 1 || c.games_per_step > 4096) bad("games_per_step must be in 1..4096");
  if (c.pieces_per_step < 1 || c.pieces_per_step > 1000000) bad("pieces_per_step must be in 1..1000000");
  if (c.model == "ntuple" && c.gamma * c.lambda > 0.95)
    bad("the n-tuple network's truncated traces need gamma x lambda <= 0.95");
}


TdLearner::TdLearner(const TdConfig& config, FeatureKernel kernel)
    : config_(config), kernel_(kernel), model_(make_value_model(config.model, config.rules.geometry, kernel)) {
  check_config(config);
  dense_ = config.model != "ntuple";
  const std::size_t n = model_->size();
  w_.assign(n, 0.0);
  if (dense_ && config.init_scale != 0.0) {
    opt::Random init{CounterRng{stream_key(config.seed ^ kInitStream, 0), 0}};
    for (std::size_t i = 0; i < n; ++i) w_[i] = init.uniform(-config.init_scale, config.init_scale);
  }
  set_merge_ranges(1);  // until step() knows the threads
  slot_claims_ = std::vector<Claim>(static_cast<std::size_t>(config.games_per_step));
  const std::uint64_t explore_key = stream_key(config.seed ^ kExploreStream, 0);
  for (int s = 0; s < config.games_per_step; ++s) {
    auto slot = std::make_unique<Slot>();
    slot->random = opt::Random{CounterRng{stream_key(explore_key, static_cast<std::uint64_t>(s)), 0}};
    attach_searcher(*slot);
    start_game(*slot, static_cast<std::uint64_t>(s));
    slots_.push_back(std::move(slot));
  }
  slot_arrays_ = slot_arrays(slots_);
}

// Gives each slot of the n-tuple network its trace_slot (every entry -1) and born (0) arrays,
// all in one block of big pages, and returns the block.
BigPages TdLearner::slot_arrays(const std::vector<std::unique_ptr<Slot>>& slots) const {
  if (dense_) return {};
  const std::size_t n = w_.size(), count = slots.size();
  BigPages block(count * n * (sizeof(std::int32_t) + sizeof(std::uint32_t)));  // zeroed
  auto* const trace_slots = static_cast<std::int32_t*>(block.data());
  auto* const borns = reinterpret_cast<std::uint32_t*>(trace_slots + count * n);
  std::fill(trace_slots, trace_slots + count * n, -1);
  for (std::size_t k = 0; k < count; ++k) {
    slots[k]->trace_slot = trace_slots + k * n;
    slots[k]->born = borns + k * n;
  }
  return block;
}

TdLearner::~TdLearner() = default;

// The slot's searcher rates with V over the learner's weights and puts the chosen afterstate's
// features in s.next.
void TdLearner::attach_searcher(Slot& s) const {
  s.weights = &w_;
  s.searcher = std::make_unique<Searcher>(std::make_unique<ValueEvaluator>(*model_, s.weights, &s.next),
                                          config_.rules, kernel_);
}

void TdLearner::start_game(Slot& s, std::uint64_t game) const {
  s.game = game;
  s.stream = PieceStream::make(config_.rules.generator, config_.seed, game);
  s.board = Board{};
  s.placed = s.lines = 0;
  s.dense_trace.assign(dense_ ? w_.size() : 0, 0.0);
  if (s.dense_pending.size() != s.dense_trace.size()) s.dense_pending.assign(s.dense_trace.size(), 0.0);
  if (!dense_ && s.trace.empty()) s.trace.assign(ranges_.size(), {});  // a new slot
}

// The slot's next game, in a step: the n-tuple trace empties at this point of the replay.
void TdLearner::next_game(Slot& s) const {
  start_game(s, s.game + slots_.size());
  if (!dense_) add_update(s, {0.0, 0, Update::kNewGame, 0}, nullptr, 0);
}

void TdLearner::learn(Slot& s, double v_next, double reward, bool terminal) const {
  if (s.placed == 0) return;  // the empty board is not an afterstate
  const Active& prev = s.prev;
  if (terminal) v_next = 0.0;
  const double delta = reward + config_.gamma * v_next - prev.dot(*s.weights);
  const double step = !config_.normalized ? config_.alpha : prev.norm2 > 0 ? config_.alpha / prev.norm2 : 0.0;
  const double coef = step * delta;
  const double decay = config_.gamma * config_.lambda;
  if (dense_) {  // prev.index[i] == i
    for (std::size_t i = 0; i < prev.value.size(); ++i) {
      s.dense_trace[i] = decay * s.dense_trace[i] + prev.value[i];
      s.dense_pending[i] += coef * s.dense_trace[i];
    }
    return;
  }
  // The n-tuple trace and weights change in the merge, after the step (merge_range).  An
  // n-tuple phi's values are all 1 (NTupleModel), so only its indices are kept.
  assert(std::all_of(prev.value.begin(), prev.value.end(), [](double v) { return v == 1.0; }));
  const auto count = static_cast<std::uint32_t>(prev.index.size());
  const Update u{coef, static_cast<std::uint32_t>(s.phi_count), count, s.made++};
  add_update(s, u, prev.index.data(), prev.index.size());
}


void TdLearner::advance(Slot& s) const {
  for (int p = 0; p < config_.pieces_per_step; ++p) {
    if (config_.max_pieces_per_game > 0 && s.placed >= config_.max_pieces_per_game) {
      s.ended.push_back({s.game, s.lines, s.placed, true});
      next_game(s);
    }
    const Piece piece = s.stream.next();
    Decision d;
    if (config_.epsilon > 0.0 && s.random.uniform() < config_.epsilon) {
      const auto count = static_cast<std::uint32_t>(s.searcher->placement_count(s.board, piece));
      d = s.searcher->play(s.board, piece, static_cast<int>(s.random.below(count)));
    } else {
      d = s.searcher->decide(s.board, piece, piece);  // the next piece is not used (lookahead 0)
    }
    // The evaluator has put the chosen afterstate's features in s.next; V is the sum it rated
    // the afterstate with.  A terminal afterstate is worth 0.
    const double v_next = d.game_over ? 0.0 : s.next.dot(*s.weights);
    learn(s, v_next, d.lines, d.game_over);
    ++s.placed;
    s.lines += d.lines;
    if (d.game_over) {
      s.ended.push_back({s.game, s.lines, s.placed, false});
      next_game(s);
    } else {
      s.board = d.board;
      std::swap(s.prev, s.next);
    }
  }
}


// The trace in the order its entries were made: the parts merged by (born, tuple), since an
// update makes its entries in tuple order.
std::vector<TdLearner::TraceEntry> TdLearner::ordered_trace(const Slot& s) const {
  struct Keyed {
    std::uint64_t key;
    TraceEntry entry;
  };
  std::vector<Keyed> keyed;
  if (!dense_) {
    const NTupleNetwork& net = static_cast<const NTupleModel&>(*model_).network();
    for (const TracePart& part : s.trace)
      for (std::size_t i = 0; i < part.size; ++i) {
        const std::uint32_t index = part.index[i];
        std::uint64_t tuple = static_cast<std::uint64_t>(net.tuple_count()) - 1;
        while (net.table_offset(static_cast<int>(tuple)) > index) --tuple;
        keyed.push_back({static_cast<std::uint64_t>(s.born[index]) << 8 | tuple, {index, part.value[i]}});
      }
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
  std::vector<TraceEntry> out;
  for (const Keyed& k : keyed) out.push_back(k.entry);
  return out;
}

// Puts `entries` into the slot's trace parts, range by range, in their order.
void TdLearner::set_trace(Slot& s, const std::vector<TraceEntry>& entries) const {
  for (TracePart& part : s.trace) {
    for (std::size_t i = 0; i < part.size; ++i) s.trace_slot[part.index[i]] = -1;
    part.size = 0;  // the arrays stay, for the same count of ranges
  }
  s.trace.resize(ranges_.size());
  for (const TraceEntry& e : entries) {
    std::size_t r = 0;
    while (r + 1 < ranges_.size() && e.index >= ranges_[r + 1].lo) ++r;
    TracePart& part = s.trace[r];
    part.reserve(part.size + 1);
    part.index[part.size] = e.index;
    part.value[part.size] = e.value;
    s.trace_slot[e.index] = static_cast<std::int32_t>(part.size++);
  }
}

// Numbers the slot's entries 0, 1, ... in the order of `entries` (its trace), and the next
// updates from there: after a restore, and before update numbers could wrap.
void TdLearner::renumber(Slot& s, const std::vector<TraceEntry>& entries) const {
  for (std::size_t j = 0; j < entries.size(); ++j) s.born[entries[j].index] = static_cast<std::uint32_t>(j);
  s.made = static_cast<std::uint32_t>(entries.size());
}


std::vector<Episode> TdLearner::step(int threads) {
  if (!pool_ || pool_threads_ != threads) {
    pool_ = std::make_unique<IndexPool>(threads);
    pool_threads_ = threads;
    pool_threads_count_ = thread_count(threads);
    replicas_.assign(static_cast<std::size_t>(pool_threads_count_), {});
  }
  // Several threads can be slower than one on a shared virtual machine: the pacer chooses
  // from the steps' times (step_pacer.h).  The results never depend on it.
  const std::size_t most = std::min(static_cast<std::size_t>(pool_threads_count_), slots_.size());
  const bool parallel = most > 1 && (step_modes_ ? step_modes_(steps_) : pacer_.next_parallel());
  // One merge range per task: one thread replays a single range faster than several (each
  // walks every update), and a switch of mode re-cuts the trace parts, which costs about as
  // much as one step and happens at most twice a pace cycle.
  const std::size_t tasks = parallel ? most : 1;
  if (!dense_ && ranges_.size() != tasks) {
    set_merge_ranges(static_cast<int>(tasks));
  } else if (ranges_.size() > 1 && steps_ % kRebalanceSteps == 0) {
    share_ranges();
    set_merge_ranges(static_cast<int>(ranges_.size()));  // the traces have grown since
  }
  if (most <= 1 || step_modes_) {
    play_and_merge(tasks);
  } else {
    const auto start = std::chrono::steady_clock::now();
    play_and_merge(tasks);
    pacer_.took(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (!dense_) {
    for (auto& slot : slots_) {
      slot->update_count = slot->phi_count = 0;
      if (slot->made >= kRenumberAt) renumber(*slot, ordered_trace(*slot));
    }
  }
  bool finite = true;
  for (const char f : range_finite_) finite = finite && f;
  std::vector<Episode> ended;
  for (auto& slot : slots_) {  // slot order: the sums do not depend on the threads
    for (std::size_t i = 0; i < slot->dense_pending.size(); ++i) {
      w_[i] += slot->dense_pending[i];
      slot->dense_pending[i] = 0.0;
      finite = finite && std::isfinite(w_[i]);
    }
    for (const Episode& e : slot->ended) {
      lines_ += e.lines;
      ++episodes_;
      ended.push_back(e);
    }
    slot->ended.clear();
  }
  pieces_ += static_cast<std::int64_t>(slots_.size()) * config_.pieces_per_step;
  ++steps_;
  if (!finite)
    throw RunError("td: the weights diverged (a weight is no longer finite) at step " + std::to_string(steps_) +
                   ", after " + std::to_string(pieces_) + " pieces; use a smaller alpha or the normalized step");
  return ended;
}

Policy TdLearner::policy(const std::string& name) const { return model_->policy(w_, name); }

Json TdLearner::state() const {
  Json slots = Json::array();
  for (const auto& s : slots_) {
    Json sparse = Json::array();
    for (const TraceEntry& e : ordered_trace(*s)) sparse.push_back({e.index, e.value});
    slots.push_back({{"game", s->game},
                     {"stream", {s->stream.rng.key, s->stream.rng.counter, s->stream.bag, s->stream.bag_left}},
                     {"board", std::vector<Word>(s->board.cols.begin(), s->board.cols.end())},
                     {"placed", s->placed},
                     {"lines", s->lines},
                     {"random", s->random.state()},
                     {"dense_trace", s->dense_trace},
                     {"sparse_trace", sparse}});
  }
  return {{"model", model_->name()}, {"weights", w_},           {"pieces", pieces_},
          {"lines", lines_},         {"episodes", episodes_},   {"steps", steps_},
          {"slots", slots}};
}

// Every field is checked for type and range (json_fields.h): the state comes from a file.
void TdLearner::restore(const Json& j) {
  const auto member = [](const Json& o, const char* key) -> const Json& { return opt::json_member(o, key, key); };
  const auto count = [&](const Json& o, const char* key) {
    return opt::json_integer(member(o, key), 0, kGameLimit, key);  // adding a step cannot overflow
  };
  if (member(j, "model") != model_->name()) throw InputError("model: the state is for another model");
  std::vector<double> w = opt::json_reals(member(j, "weights"), w_.size(), "weights");
  const Json& slots = member(j, "slots");
  if (!slots.is_array() || slots.size() != slots_.size())
    throw InputError("slots: expected " + std::to_string(slots_.size()) + " (one per game of a step)");
  const Geometry g = config_.rules.geometry;
  std::vector<std::unique_ptr<Slot>> restored;
  for (std::size_t i = 0; i < slots_.size(); ++i) restored.push_back(std::make_unique<Slot>());
  BigPages arrays = slot_arrays(restored);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Json& js = slots[i];
    Slot* const s = restored[i].get();  // start_game sizes its traces
    start_game(*s, static_cast<std::uint64_t>(opt::json_integer(member(js, "game"), 0, kGameLimit, "slots.game")));
    const Json& st = member(js, "stream");
    if (!st.is_array() || st.size() != 4 || !st[0].is_number_unsigned() || !st[1].is_number_unsigned())
      throw InputError("slots.stream: expected [key, counter, bag, bag_left] with unsigned key and counter");
    s->stream.rng.key = st[0].get<std::uint64_t>();
    s->stream.rng.counter = st[1].get<std::uint64_t>();
    const auto bag = static_cast<std::uint32_t>(opt::json_integer(st[2], 0, (1 << 21) - 1, "slots.stream.bag"));
    for (int k = 0; k < 7; ++k)
      if (((bag >> (3 * k)) & 7) >= 7) throw InputError("slots.stream.bag: a piece code is not 0..6");
    s->stream.bag = bag;
    s->stream.bag_left = static_cast<std::uint8_t>(opt::json_integer(st[3], 0, 7, "slots.stream.bag_left"));
    const Json& cols = member(js, "board");
    if (!cols.is_array() || cols.size() != s->board.cols.size())
      throw InputError("slots.board: expected " + std::to_string(s->board.cols.size()) + " column words");
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const auto word = static_cast<Word>(opt::json_integer(cols[c], 0, 0xFFFFFFFFll, "slots.board"));
      if ((static_cast<int>(c) >= g.width ? word : word >> g.height) != 0)
        throw InputError("slots.board: a cell outside " + std::to_string(g.width) + "x" + std::to_string(g.height));
      s->board.cols[c] = word;
    }
    s->placed = count(js, "placed");
    s->lines = count(js, "lines");
    try {
      s->random.restore(member(js, "random"));
    } catch (const InputError& e) {
      throw InputError(std::string("slots.random: ") + e.what());
    }
    s->dense_trace = opt::json_reals(member(js, "dense_trace"), dense_ ? w_.size() : 0, "slots.dense_trace");
    const Json& sparse = member(js, "sparse_trace");
    if (!sparse.is_array() || (dense_ && !sparse.empty())) throw InputError("slots.sparse_trace: bad trace");
    std::vector<TraceEntry> entries;
    for (const Json& e : sparse) {
      if (!e.is_array() || e.size() != 2) throw InputError("slots.sparse_trace: expected [index, value] pairs");
      const auto index = static_cast<std::uint32_t>(
          opt::json_integer(e[0], 0, static_cast<std::int64_t>(w_.size()) - 1, "slots.sparse_trace index"));
      if (s->trace_slot[index] >= 0) throw InputError("slots.sparse_trace: a repeated index");
      s->trace_slot[index] = 0;  // seen (set_trace sets every entry's place)
      entries.push_back({index, opt::json_real(e[1], -HUGE_VAL, HUGE_VAL, "slots.sparse_trace value")});
    }
    if (!dense_) {
      set_trace(*s, entries);
      renumber(*s, entries);
    }
  }
  // Nothing is changed until everything has been read.
  w_ = std::move(w);
  // The step count may go back: no replica or claim may look current.
  for (Replica& r : replicas_) r.fresh = -1;
  for (std::vector<Claim>* claims : {&slot_claims_, &range_claims_})
    for (Claim& c : *claims) {
      c.claimed.store(0, std::memory_order_relaxed);
      c.done.store(0, std::memory_order_relaxed);
    }
  pieces_ = count(j, "pieces");
  lines_ = count(j, "lines");
  episodes_ = count(j, "episodes");
  steps_ = count(j, "steps");
  slot_arrays_ = std::move(arrays);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    attach_searcher(*restored[i]);
    slots_[i] = std::move(restored[i]);
    if (slots_[i]->placed > 0) model_->of_board(slots_[i]->board, slots_[i]->prev);
  }
}

}  // namespace tb::td
