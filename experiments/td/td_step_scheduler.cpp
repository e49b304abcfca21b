// TdLearner's parallel step (td_learner.h): how a step's slots are played on the pool's
// threads and how the n-tuple updates are replayed range by range (the merge), with the
// cache-conscious copies the hand-over between threads needs.  The algorithm itself (what a
// step computes) is in td_learner.cpp; nothing here changes a result, only who computes it and when.
#include "td_learner.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <thread>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "spin_wait.h"
#include "td_slot.h"

namespace tb::td {

std::vector<double> next_range_shares(const std::vector<double>& shares, const std::vector<double>& seconds,
                                      const std::vector<double>& finish) {
  const std::size_t count = shares.size();
  if (seconds.size() != count || count == 0 || (!finish.empty() && finish.size() != count)) return shares;
  const auto measured = [](double t) { return t > 0 && std::isfinite(t); };
  std::vector<double> per_share(count), end(count), next(count);
  double rate = 0, ends = 0;  // the sums of share per second, and of end times weighted by it
  for (std::size_t r = 0; r < count; ++r) {
    end[r] = finish.empty() ? seconds[r] : finish[r];
    if (!measured(seconds[r]) || !measured(end[r])) return shares;
    per_share[r] = seconds[r] / shares[r];
    rate += 1 / per_share[r];
    ends += end[r] / per_share[r];
  }
  // The common end: moving share d to range r moves its end by d * per_share[r], and the
  // moves sum to 0.
  const double common = ends / rate;
  for (std::size_t r = 0; r < count; ++r) next[r] = shares[r] + 0.5 * (common - end[r]) / per_share[r];
  // Raise the shares below the floor to it, and scale the others down to make room, until none
  // is below (each pass fixes one share at least).
  const double least = 0.5 / static_cast<double>(count);
  std::vector<char> floored(count, 0);
  for (bool changed = true; changed;) {
    changed = false;
    double rest = 1, sum = 0;  // what the shares not floored must sum to, and what they sum to
    for (std::size_t r = 0; r < count; ++r) {
      if (floored[r]) {
        rest -= least;
      } else {
        sum += next[r];
      }
    }
    for (std::size_t r = 0; r < count; ++r) {
      if (floored[r]) continue;
      next[r] *= rest / sum;
      if (next[r] < least) {
        next[r] = least;
        floored[r] = 1;
        changed = true;
      }
    }
  }
  return next;
}

// The tables are walked whole, and only the table where a cut falls is searched
// (std::nth_element): a table weighs its entries + phi_weight.
std::vector<std::uint32_t> weighted_cuts(std::vector<std::vector<std::uint32_t>>& tables, double phi_weight,
                                         const std::vector<double>& goals, std::uint32_t size) {
  double total = 0;
  for (const auto& table : tables)
    if (!table.empty()) total += static_cast<double>(table.size()) + phi_weight;
  std::vector<std::uint32_t> cuts;
  double upto = 0;               // the weight taken
  std::size_t t = 0, taken = 0;  // entries of table t taken so far
  for (const double goal : goals) {
    std::uint32_t cut = size;
    for (; t < tables.size(); ++t, taken = 0) {
      std::vector<std::uint32_t>& table = tables[t];
      if (table.empty()) continue;
      const double weight = 1.0 + phi_weight / static_cast<double>(table.size());
      // The entries still to take: the least m >= 0 with upto + (m + 1/2) weight >= goal x total.
      const double more = std::ceil((total * goal - upto) / weight - 0.5);
      const std::size_t left = table.size() - taken;
      if (!(more < static_cast<double>(left))) {
        upto += static_cast<double>(left) * weight;
        continue;
      }
      const std::size_t k = taken + static_cast<std::size_t>(std::max(0.0, more));
      upto += static_cast<double>(k - taken) * weight;
      taken = k;
      std::nth_element(table.begin(), table.begin() + static_cast<std::ptrdiff_t>(k), table.end());
      cut = table[k];
      break;
    }
    cuts.push_back(cut);
  }
  return cuts;
}


namespace {

// Copies `count` objects of 4-byte words; with `stream`, past the caches (non-temporal stores,
// where the CPU has them), so that the copy takes no cache line from another core's cache.
template <typename T>
void copy_words(T* dst, const T* src, std::size_t count, bool stream) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) % 4 == 0);
  if (count == 0) return;
#if defined(__x86_64__)
  if (stream) {
    std::uint32_t words[sizeof(T) / 4];
    for (std::size_t k = 0; k < count; ++k) {
      std::memcpy(words, src + k, sizeof(T));
      int* out = reinterpret_cast<int*>(dst + k);
      for (std::size_t i = 0; i < sizeof(T) / 4; ++i) _mm_stream_si32(out + i, static_cast<int>(words[i]));
    }
    return;
  }
#endif
  (void)stream;
  std::memcpy(dst, src, count * sizeof(T));
}

// Stores the 8 bytes `bits` at dst, past the caches where the CPU can.
void stream_word(void* dst, std::uint64_t bits) {
#if defined(__x86_64__)
  _mm_stream_si64(static_cast<long long*>(dst), static_cast<long long>(bits));
#else
  std::memcpy(dst, &bits, sizeof bits);
#endif
}

// Starts fetching the cache lines of [p, p + bytes).  A line that another core wrote last
// costs a round trip between the cores (about 0.5 us between distant vCPUs); fetches started
// together wait for about one round trip, where loads one after another wait for one each.
void prefetch_lines(const void* p, std::size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (std::size_t o = 0; o < bytes; o += 64) __builtin_prefetch(c + o);
}

// The same for a line that this thread is about to write: PREFETCHW takes it exclusive (CPUs
// without the instruction run its encoding as a no-op), so the write does not wait.
void prefetch_for_write(const void* p) {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

// Waits until `done` holds `epoch` (acquire); returns the seconds waited.
double wait_until_done(const std::atomic<std::int64_t>& done, std::int64_t epoch) {
  return spin_until([&] { return done.load(std::memory_order_acquire) == epoch; });
}

// Makes the streamed stores of this thread visible to a thread that acquires what it releases next.
void publish_streamed() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

}  // namespace


// Appends an update (and its phi, `count` indices) to the slot's buffers.  In a parallel step
// the thread that replays another range reads them; plain stores would then have to win each
// cache line back from that thread's cache next step (a round trip each, about 0.5 us between
// distant vCPUs), so they are streamed past the caches (TdLearner::stream_updates_).
void TdLearner::add_update(Slot& s, const Update& u, const std::uint32_t* phi, std::size_t count) const {
  if (s.updates.size() < s.update_count + 1) s.updates.resize(std::max<std::size_t>(64, 2 * s.updates.size()));
  if (s.update_index.size() < s.phi_count + count)
    s.update_index.resize(std::max<std::size_t>(1024, 2 * (s.phi_count + count)));
  copy_words(s.updates.data() + s.update_count++, &u, 1, stream_updates_);
  copy_words(s.update_index.data() + s.phi_count, phi, count, stream_updates_);
  s.phi_count += count;
}


// The n-tuple update (the dense one restricted to the nonzero entries): e_i = decay e_i,
// dropped below kTraceFloor, then e_i += phi_i, and w_i += coef e_i for every entry; one entry
// per index, so the trace stays as small as the set of recently active weights.  The trace
// does not depend on w, so the step replays it here, after the decisions, one part per range
// of weights: the entries of range r change only range r's weights, and each weight gets its
// changes in slot order, then update order, however the ranges are cut and run.  The replay
// changes `w` (w_ or a replica of it); with a log, it lists there every weight it may have
// changed and their values after it.
template <bool kParallel>
double TdLearner::merge_range(std::size_t r, std::vector<double>& w, RangeLog* log, const Claim* played,
                              std::int64_t epoch) {
  const Range range = ranges_[r];
  const double decay = config_.gamma * config_.lambda;
  const std::size_t n = slots_.size();
  bool finite = true;
  double waited = 0;
  if (kParallel) log->size = 0;
  // In a parallel step, other threads played some slots and wrote their update lists: fetch
  // the counts of every slot played by now, then the start of its lists, before the walk needs
  // them.  A slot still being played is waited for when the walk reaches it.
  const auto is_played = [&](std::size_t i) { return !kParallel || played[i].done.load(std::memory_order_acquire) == epoch; };
  if (kParallel)
    for (std::size_t i = 0; i < n; ++i) prefetch_lines(&played[i], 1);
  for (std::size_t i = 0; i < n; ++i)
    if (is_played(i)) prefetch_lines(slots_[i].get(), 64);
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_played(i)) continue;
    const Slot& s = *slots_[i];
    prefetch_lines(s.updates.data(), std::min<std::size_t>(s.update_count * sizeof(Update), 256));
    prefetch_lines(s.update_index.data(), std::min<std::size_t>(s.phi_count * 4, 256));
  }
  // The rest of a slot's lists, which were written past the caches (add_update), are fetched one
  // slot ahead of the walk: when the walk reaches slot i it starts fetching slot i + 1's, if it
  // has been played by then (else when the walk gets to it).
  std::size_t fetched = 0;  // slots whose whole lists are being fetched: [0, fetched)
  const auto fetch = [&](std::size_t i) {
    const Slot& s = *slots_[i];
    prefetch_lines(s.updates.data(), s.update_count * sizeof(Update));
    prefetch_lines(s.update_index.data(), s.phi_count * 4);
    fetched = i + 1;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (kParallel) {
      waited += wait_until_done(played[i].done, epoch);
      if (fetched <= i) fetch(i);
      if (i + 1 < n && is_played(i + 1)) fetch(i + 1);
    }
    Slot& s = *slots_[i];
    TracePart& part = s.trace[r];
    std::int32_t* at_slot = s.trace_slot;
    std::uint32_t* born = s.born;
    // The weights this slot changes: its entries now and every one the updates make.
    if (kParallel && s.update_count > 0)
      log->append(part.index.data(), part.size);
    for (std::size_t k = 0; k < s.update_count; ++k) {
      const Update& u = s.updates[k];
      if (u.count == Update::kNewGame) {
        for (std::size_t i = 0; i < part.size; ++i) at_slot[part.index[i]] = -1;
        part.size = 0;
        continue;
      }
      // phi's entries in this range: a contiguous run, since phi lists one index per tuple, in
      // tuple order, so its indices rise.  Entries below x: every tuple before x's table, and
      // that table's own entry if it is below x.
      const std::uint32_t* phi = s.update_index.data() + u.first;
      const auto below = [&](std::uint32_t x, int table) -> std::size_t {
        if (table >= static_cast<int>(u.count)) return u.count;
        return static_cast<std::size_t>(table) + (phi[table] < x);
      };
      const std::size_t begin = below(range.lo, range.lo_table);
      const std::uint32_t* phi_index = phi + begin;
      const std::size_t added = below(range.hi, range.hi_table) - begin;
      for (std::size_t i = 0; i < added; ++i) __builtin_prefetch(&at_slot[phi_index[i]]);  // read below
      const std::size_t n = part.size;
      part.reserve(n + added);  // room for every index of phi to be new
      std::uint32_t* index = part.index.data();
      double* value = part.value.data();
      // Branch-free (whether an entry is dropped or an index is new is data, and mispredicted
      // as a branch): every entry is written at the end of what is kept, and the end advances
      // only for a kept one.
      std::size_t kept = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t at = index[i];
        const double e = value[i] * decay;
        const bool keep = std::abs(e) >= kTraceFloor;
        index[kept] = at;
        value[kept] = e;
        at_slot[at] = keep ? static_cast<std::int32_t>(kept) : -1;
        kept += keep;
      }
      std::size_t size = kept;
      for (std::size_t i = 0; i < added; ++i) {
        const std::uint32_t at = phi_index[i];
        const std::int32_t p = at_slot[at];
        const bool fresh = p < 0;
        const std::size_t pos = fresh ? size : static_cast<std::size_t>(p);
        index[pos] = at;
        value[pos] = fresh ? 1.0 : value[pos] + 1.0;  // phi's values are 1
        born[at] = fresh ? u.number : born[at];
        at_slot[at] = static_cast<std::int32_t>(pos);
        size += fresh;
      }
      part.size = size;
      if (kParallel) log->append(index + kept, size - kept);  // the new entries
      for (std::size_t i = 0; i < size; ++i) {
        const double dw = u.coef * value[i];
        w[index[i]] += dw;
        finite &= std::isfinite(w[index[i]]);
      }
    }
  }
  range_finite_[r] = finite;
  if (kParallel) log->set_values(w);
  return waited;
}

void TdLearner::RangeLog::append(const std::uint32_t* at, std::size_t count) {
  if (index.size() < size + count) index.resize(std::max<std::size_t>(1024, 2 * (size + count)));
  copy_words(index.data() + size, at, count, true);
  size += count;
}

void TdLearner::RangeLog::set_values(const std::vector<double>& w) {
  if (value.size() < size) value.resize(index.size());
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < size; ++i) {
    std::memcpy(&bits, &w[index[i]], sizeof bits);
    stream_word(&value[i], bits);
  }
  publish_streamed();  // before the range's claim releases the log
}

void TdLearner::take_log(std::vector<double>& w, const RangeLog& log) {
  for (std::size_t i = 0; i < log.size; ++i) w[log.index[i]] = log.value[i];
}


// One range per task of play_and_merge, cut so that the ranges cost about the same to replay: a range's cost
// is its trace entries (over every slot, now) plus, for each tuple, its phi entries, which
// cost about as much as kPhiEntries trace entries per slot each (fitted to replay times on
// 6x8; an estimate only).  A tuple's phi cost is spread over its entries, and the cuts are the
// weighted quantiles of the entries' indices, so a cut may fall inside a table, which balances
// boards with few tables.  With an empty trace the cuts fall between tables, at equal tuple
// counts.  Where the cuts fall changes only which thread updates an entry, never a value or
// the order of the changes to a weight.  The trace parts are cut again (between steps, when
// every update has been replayed).
void TdLearner::set_merge_ranges(int count) {
  if (dense_) {
    ranges_.assign(1, {0, 0, 0, 0});
    range_finite_.assign(1, 1);
    return;
  }
  constexpr double kPhiEntries = 6.0;
  const NTupleNetwork& net = static_cast<const NTupleModel&>(*model_).network();
  const int tuples = net.tuple_count();
  const auto size = static_cast<std::uint32_t>(w_.size());
  std::vector<std::uint32_t> offsets(static_cast<std::size_t>(tuples));
  for (int t = 0; t < tuples; ++t) offsets[static_cast<std::size_t>(t)] = net.table_offset(t);
  const auto table_of = [&](std::uint32_t index) {
    return static_cast<int>(std::upper_bound(offsets.begin(), offsets.end(), index) - offsets.begin()) - 1;
  };
  // Every slot's live entries, part after part (where an entry sits in its part changes no
  // value), and their indices by table.
  std::vector<std::vector<TraceEntry>> traces(slots_.size());
  std::vector<std::vector<std::uint32_t>> by_table(static_cast<std::size_t>(tuples));
  std::size_t live = 0;
  for (std::size_t k = 0; k < slots_.size(); ++k)
    for (const TracePart& part : slots_[k]->trace)
      for (std::size_t i = 0; i < part.size; ++i) {
        traces[k].push_back({part.index[i], part.value[i]});
        by_table[static_cast<std::size_t>(table_of(part.index[i]))].push_back(part.index[i]);
        ++live;
      }
  count = std::clamp(count, 1, static_cast<int>(size));
  std::vector<std::uint32_t> cuts;  // the lo of ranges 1 .. count-1
  if (live == 0) {
    for (int r = 1; r < count; ++r) cuts.push_back(net.table_offset(std::min(r * tuples / count, tuples - 1)));
  } else {
    std::vector<double> goals;
    double goal = 0;
    for (int r = 1; r < count; ++r) {
      goal += static_cast<int>(range_shares_.size()) == count ? range_shares_[static_cast<std::size_t>(r - 1)]
                                                              : 1.0 / count;
      goals.push_back(goal);
    }
    cuts = weighted_cuts(by_table, kPhiEntries * static_cast<double>(slots_.size()), goals, size);
  }
  ranges_.clear();
  std::uint32_t lo = 0;
  for (int r = 0; r < count; ++r) {
    // Cuts only rise (quantiles of sorted indices); a repeated cut leaves a range empty.
    const std::uint32_t hi = r + 1 < count ? std::max(lo, cuts[static_cast<std::size_t>(r)]) : size;
    ranges_.push_back({lo, hi, lo == size ? tuples : table_of(lo), hi == size ? tuples : table_of(hi)});
    lo = hi;
  }
  range_finite_.assign(ranges_.size(), 1);
  // The shares outlast the serial steps (one range) between parallel ones.
  if (count > 1 && range_shares_.size() != ranges_.size() && !fixed_shares_)
    range_shares_.assign(ranges_.size(), 1.0 / static_cast<double>(count));
  range_claims_ = std::vector<Claim>(ranges_.size());
  logs_.resize(ranges_.size());
  for (RangeLog& log : logs_) log.seconds = log.finish = 0;
  for (std::size_t k = 0; k < slots_.size(); ++k) set_trace(*slots_[k], traces[k]);
}

// At a re-cut, the shares follow the replays measured since the last one: task t replays range
// t first, so range t mostly runs on the same thread.  A thread on a vCPU that the host slows
// down gets a smaller range, and one that runs out of slots to play first (the other thread
// still plays the last slot) a larger one, so that the ranges end together.  Only where the
// ranges are cut changes, never a result.
void TdLearner::share_ranges() {
  if (fixed_shares_) return;
  std::vector<double> seconds;  // one per range (logs_); other shares than ranges stay as they are
  std::vector<double> finish;
  for (const RangeLog& log : logs_) {
    seconds.push_back(log.seconds);
    finish.push_back(log.finish);
  }
  range_shares_ = next_range_shares(range_shares_, seconds, finish);
}

void TdLearner::set_range_shares(std::vector<double> shares) {
  if (shares.size() < 2 || !std::all_of(shares.begin(), shares.end(), [](double x) { return x > 0 && std::isfinite(x); }))
    throw InputError("set_range_shares: two or more positive shares");
  const double sum = std::accumulate(shares.begin(), shares.end(), 0.0);
  for (double& share : shares) share /= sum;
  range_shares_ = std::move(shares);
  fixed_shares_ = true;
}


// The step's parallel work, in one region of the pool (each region costs a hand-over to the
// pool's threads, and the step would need two), one task per thread:
//  - play: task t plays its own block of slots (t * S / T ..), then what is left of the other
//    blocks from their far ends, each slot claimed once.  Which thread plays a slot changes
//    no result; keeping the same slots on the same thread from step to step keeps their
//    searcher's blocks and boards in its cache (one task per slot would move them at random),
//    and taking what is left balances a vCPU that the host slows down for a while.  Each
//    slot's claim is on a cache line of its own, so the owner's claims stay in its cache;
//  - wait until every slot is played: by then a running task has claimed each, so a task
//    that runs alone plays them all and never waits;
//  - merge (n-tuple): each task replays its own range first, then any range still unclaimed;
//  - wait until every range is replayed, and take the other ranges' logs.
// The n-tuple weights: the caller's thread decides with w_ and replays into it, every other
// thread with its replica (replicas_).  A replica that took every log of the last step equals
// w_; any other is copied from w_ when its thread claims a slot (the caller's thread writes w_
// only when no such copy can still be made: see `play` below), and a thread that has a stale
// replica and plays no slot sits the rest of the step out.  Each range is replayed into the
// copy of the thread that claims it, and its log goes into every other copy in use; w_ takes
// any log it missed after the region.  So every copy holds w_'s values whenever a decision
// reads it, and a step's writes stay in the cache of the thread that made them: only the logs
// cross, read in order.
void TdLearner::play_and_merge(std::size_t tasks) {
  const std::size_t n = slots_.size(), ranges = dense_ ? 0 : ranges_.size();
  if (tasks <= 1) {
    for (auto& slot : slots_) {
      slot->weights = &w_;
      advance(*slot);
    }
    for (std::size_t r = 0; r < ranges; ++r) merge_range<false>(r, w_, nullptr, nullptr, 0);
    return;
  }
  stream_updates_ = true;
  struct Unstream {  // the serial steps' replay reads the updates from this thread's cache
    bool& stream;
    ~Unstream() { stream = false; }
  } unstream{stream_updates_};
  const std::int64_t epoch = steps_ + 1, step = steps_;
  // Acquire and release: a task that sees a slot claimed also sees what its claimer did before
  // (`copying` below).
  const auto claim = [epoch](Claim& c) {
    std::int64_t last = c.claimed.load(std::memory_order_acquire);
    return last != epoch && c.claimed.compare_exchange_strong(last, epoch, std::memory_order_acq_rel,
                                                              std::memory_order_acquire);
  };
  // Tasks with a stale replica that may be copying w_ (see `play`): the caller's thread replays
  // into w_ only when there are none.
  std::atomic<int> copying{0};
  struct Copied {  // counts a copy done even if it throws
    std::atomic<int>& copying;
    ~Copied() { copying.fetch_sub(1, std::memory_order_release); }
  };
  struct Finished {  // marks a claim done even if its work throws, so that no task waits forever
    Claim& claim;
    std::int64_t epoch;
    ~Finished() { claim.done.store(epoch, std::memory_order_release); }
  };
  const auto wait_for = [epoch](const std::vector<Claim>& claims) {
    for (const Claim& c : claims) prefetch_lines(&c, 1);  // one round trip for all
    for (const Claim& c : claims) wait_until_done(c.done, epoch);
  };
  const auto step_start = std::chrono::steady_clock::now();
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> caller_took{false};  // w_ took the logs of the ranges replayed elsewhere
  pool_->for_each(static_cast<std::int64_t>(tasks), [&](std::int64_t t) {
    const std::size_t own = static_cast<std::size_t>(t);
    const bool on_caller = dense_ || std::this_thread::get_id() == caller;
    const int copy = on_caller ? RangeLog::kOwnWeights : IndexPool::thread_index();
    Replica* replica = on_caller ? nullptr : &replicas_.at(static_cast<std::size_t>(copy));
    std::vector<double>& w = on_caller ? w_ : replica->w;
    bool ready = on_caller || replica->fresh == step;  // w holds w_'s values
    // A stale replica is copied from w_ when its thread claims its first slot.  The caller's
    // thread writes w_ once it has played (its replay starts before the other tasks have played
    // every slot), but only after every slot is claimed and `copying` is 0: a task counts itself
    // in `copying` before it claims, so the caller, which sees every slot claimed when its own
    // claims run out, also sees the count of each copy still to come.
    const auto play = [&](std::size_t i) {
      if (ready) {
        if (!claim(slot_claims_[i])) return;
      } else {
        copying.fetch_add(1, std::memory_order_relaxed);
        Copied copied{copying};
        if (!claim(slot_claims_[i])) return;
        replica->w = w_;
        replica->fresh = step;
        ready = true;
      }
      Finished finished{slot_claims_[i], epoch};
      slots_[i]->weights = &w;
      advance(*slots_[i]);
      publish_streamed();  // before `finished` releases the slot's updates
    };
    // The other threads read the claims last step: take the lines of this task's own block
    // back all at once, not one round trip per claim.
    for (std::size_t i = own * n / tasks; i < (own + 1) * n / tasks; ++i) prefetch_for_write(&slot_claims_[i]);
    for (std::size_t i = own * n / tasks; i < (own + 1) * n / tasks; ++i) play(i);
    // The other blocks' claims, fetched at once: a failed claim costs no round trip then, so a
    // task that has finished playing reaches its range before another task takes it.
    for (std::size_t i = 0; i < n; ++i) prefetch_lines(&slot_claims_[i], 1);
    for (std::size_t k = 1; k < tasks; ++k) {
      const std::size_t other = (own + k) % tasks;
      for (std::size_t i = (other + 1) * n / tasks; i-- > other * n / tasks;) play(i);
    }
    if (ranges == 0 || !ready || (on_caller && caller_took.load(std::memory_order_relaxed))) return;
    if (on_caller) spin_until([&] { return copying.load(std::memory_order_acquire) == 0; });
    // The replay starts while other tasks still play: it waits for each slot as it gets to it
    // (slot order), so a task that has run out of slots replays the played ones meanwhile.
    for (std::size_t k = 0; k < ranges; ++k) {
      const std::size_t r = (own + k) % ranges;
      if (!claim(range_claims_[r])) continue;
      Finished finished{range_claims_[r], epoch};
      logs_[r].copy = copy;
      const auto start = std::chrono::steady_clock::now();
      const double waited = merge_range<true>(r, w, &logs_[r], slot_claims_.data(), epoch);
      const auto end = std::chrono::steady_clock::now();
      logs_[r].seconds += std::chrono::duration<double>(end - start).count() - waited;
      logs_[r].finish += std::chrono::duration<double>(end - step_start).count();
    }
    wait_for(range_claims_);
    for (const RangeLog& log : logs_)
      if (log.copy != copy) take_log(w, log);
    if (on_caller) {
      caller_took.store(true, std::memory_order_relaxed);
    } else {
      replica->fresh = step + 1;
    }
  });
  if (ranges > 0 && !caller_took.load(std::memory_order_relaxed))
    for (const RangeLog& log : logs_)
      if (log.copy != RangeLog::kOwnWeights) take_log(w_, log);
}


}  // namespace tb::td
