// The MPI backend, tetrisbench-mpi.so (mpi_backend.h): cluster.h's start(), serve() and
// finish() on MPI ranks.
#include "mpi_backend.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "policy.h"

namespace tb::cluster {
namespace {

World the_world;
const EngineCalls* engine = nullptr;  // the program's functions (start)

using std::chrono::microseconds;

constexpr int kRequestTag = 101, kChunkTag = 102;
constexpr std::size_t kBuildIdBytes = 128;
// Guided self-scheduling: a request gets about (games left) / (2 x ranks) games, at least one
// per thread of the asking rank, so chunks start large (few requests) and shrink to single
// games at the end, where games of very different lengths would otherwise leave ranks idle.
std::pair<std::int64_t, std::int64_t> take(std::atomic<std::int64_t>& next, std::int64_t total, int ranks,
                                           std::int64_t least) {
  std::int64_t begin = next.load(std::memory_order_relaxed);
  for (;;) {
    if (begin >= total) return {-1, -1};
    const std::int64_t left = total - begin;
    const std::int64_t n = std::min(left, std::max(least, (left + 2 * ranks - 1) / (2 * ranks)));
    if (next.compare_exchange_weak(begin, begin + n, std::memory_order_relaxed)) return {begin, begin + n};
  }
}

enum class Kind : std::int32_t { stop = 0, play = 1 };

// One job: a population's games.  Every rank runs the same build (start() checks), so these
// plain structs travel as bytes.
struct Header {
  Kind kind = Kind::stop;
  std::int32_t threads = 0;
  std::int64_t games_per_policy = 0;
  std::uint64_t first_stream = 0;
  std::int64_t total = 0;  // games
  std::int64_t policy_bytes = 0;
  char kernel[32] = {};
  GameConfig config;
};
static_assert(std::is_trivially_copyable_v<Header>);
static_assert(std::is_trivially_copyable_v<GameResult>);

struct Keyed {
  std::int64_t game;
  GameResult result;
};
static_assert(std::is_trivially_copyable_v<Keyed>);

[[noreturn]] void abort_all(const char* what) {
  std::fprintf(stderr, "tetrisbench: rank %d: error: %s\n", the_world.rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return
}

// Waits for a nonblocking operation without spinning a core: Open MPI's blocking calls poll,
// and a waiting rank would take CPU from the games of the ranks on its node.  The naps grow
// from 10 us to `longest`, so an answer that comes at once is seen at once, and a long wait
// costs a few hundred wake-ups a second.
MPI_Status wait_idle(MPI_Request& r, microseconds longest) {
  MPI_Status status;
  for (microseconds nap(10);; nap = std::min(longest, 2 * nap)) {
    int done = 0;
    MPI_Test(&r, &done, &status);
    if (done) return status;
    std::this_thread::sleep_for(nap);
  }
}

int checked_int(std::int64_t bytes) {
  if (bytes < 0 || bytes > INT_MAX) abort_all("a message above 2 GB (too many games or too large a policy)");
  return static_cast<int>(bytes);
}

void bcast_bytes(void* data, std::int64_t bytes, microseconds nap) {
  MPI_Request r;
  MPI_Ibcast(data, checked_int(bytes), MPI_BYTE, 0, MPI_COMM_WORLD, &r);
  wait_idle(r, nap);
}

// Policies as bytes, exactly (weights bit for bit): per policy its kind, reward_lines, name,
// rules, then the feature set's name and weights, or the network's geometry and tables.
template <class T>
void put(std::string& out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void put_text(std::string& out, std::string_view s) {
  put(out, static_cast<std::uint64_t>(s.size()));
  out.append(s);
}
void put_reals(std::string& out, const std::vector<double>& v) {
  put(out, static_cast<std::uint64_t>(v.size()));
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

std::string encode(std::span<const Policy> policies) {
  std::string out;
  put(out, static_cast<std::uint64_t>(policies.size()));
  for (const Policy& p : policies) {
    put(out, static_cast<std::uint8_t>(p.network ? 1 : 0));
    put(out, static_cast<std::uint8_t>(p.reward_lines));
    put_text(out, p.name);
    put_text(out, p.rules);
    if (p.network) {
      put(out, p.network->geometry());
      put_reals(out, p.network->weights());
    } else {
      put_text(out, p.features->name);
      put_reals(out, p.weights);
    }
  }
  return out;
}

// The inverse of encode(), on bytes from rank 0 of the same build; any inconsistency is a bug
// and stops the job.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T v;
    take(&v, sizeof v);
    return v;
  }
  std::string text() {
    std::string s(size(1), '\0');
    take(s.data(), s.size());
    return s;
  }
  std::vector<double> reals() {
    std::vector<double> v(size(sizeof(double)));
    take(v.data(), v.size() * sizeof(double));
    return v;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  std::size_t size(std::size_t unit) {
    const auto n = get<std::uint64_t>();
    if (n > (bytes_.size() - at_) / unit) abort_all("a malformed job from rank 0");
    return static_cast<std::size_t>(n);
  }
  void take(void* to, std::size_t n) {
    if (n > bytes_.size() - at_) abort_all("a malformed job from rank 0");
    std::memcpy(to, bytes_.data() + at_, n);
    at_ += n;
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

std::vector<Policy> decode(std::string_view bytes) {
  std::vector<Policy> out;
  Reader again(bytes);
  const auto count = again.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < count; ++i) {
    Policy p;
    const auto network = again.get<std::uint8_t>();
    p.reward_lines = again.get<std::uint8_t>() != 0;
    p.name = again.text();
    p.rules = again.text();
    if (network) {
      const auto g = again.get<Geometry>();
      auto net = engine->make_network(g);
      std::vector<double> w = again.reals();
      if (w.size() != net->size()) abort_all("a malformed network from rank 0");
      net->weights() = std::move(w);
      p.network = std::move(net);
    } else {
      p.features = engine->find_feature_set(again.text());
      if (!p.features) abort_all("a feature set this rank does not know");
      p.weights = again.reals();
    }
    out.push_back(std::move(p));
  }
  if (!again.done()) abort_all("a malformed job from rank 0");
  return out;
}

std::string_view kernel_name(FeatureKernel kernel) {
  for (const KernelVariant& v : engine->kernel_variants())
    if (v.kernel == kernel) return v.name;
  return engine->best_kernel().name;
}

// The kernel rank 0 plays with if this CPU has it, else this CPU's best: the kernel never
// changes a result.
FeatureKernel kernel_here(const char* name) {
  const KernelVariant* v = engine->find_kernel(std::string_view(name, strnlen(name, sizeof Header::kernel)));
  // Not v->supported(): it calls the program's cpu_features, which this module reaches only
  // through the table.
  return v && (engine->cpu_features() & v->required) == v->required ? v->kernel : engine->best_kernel().kernel;
}

// Results of this rank's chunks to rank 0 (every rank calls it once per job); rank 0 gets
// every rank's, in rank order.
std::vector<Keyed> gather(const std::vector<Keyed>& mine) {
  const int size = the_world.size;
  const bool root = the_world.rank == 0;
  const int bytes = checked_int(static_cast<std::int64_t>(mine.size() * sizeof(Keyed)));
  std::vector<int> counts(root ? static_cast<std::size_t>(size) : 0), offsets(counts.size());
  MPI_Request r;
  MPI_Igather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
  wait_idle(r, microseconds(2000));
  std::int64_t all = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = checked_int(all);
    all += counts[i];
  }
  std::vector<Keyed> out(root ? static_cast<std::size_t>(all) / sizeof(Keyed) : 0);
  MPI_Igatherv(mine.data(), bytes, MPI_BYTE, out.data(), counts.data(), offsets.data(), MPI_BYTE, 0,
               MPI_COMM_WORLD, &r);
  wait_idle(r, microseconds(2000));
  return out;
}

// Rank 0's side of a job: it plays chunks itself, and a second thread answers the other
// ranks' requests for chunks from the same counter (rank 0's main thread makes no MPI call
// meanwhile, so MPI_THREAD_SERIALIZED is enough).
class Distributor final : public GameDistributor {
 public:
  std::vector<GameResult> distribute(
      std::span<const Policy> policies, const GameConfig& config, std::int64_t games_per_policy,
      std::uint64_t first_stream, int threads, FeatureKernel kernel,
      const std::function<std::vector<GameResult>(std::int64_t, std::int64_t)>& play_range) override {
    const std::int64_t total = static_cast<std::int64_t>(policies.size()) * games_per_policy;
    const int size = the_world.size;
    if (size == 1 || total == 0) return play_range(0, total);
    Header h;
    h.kind = Kind::play;
    h.threads = threads;
    h.games_per_policy = games_per_policy;
    h.first_stream = first_stream;
    h.total = total;
    const std::string_view name = kernel_name(kernel);
    std::memcpy(h.kernel, name.data(), std::min(name.size(), sizeof h.kernel - 1));
    h.config = config;
    std::string bytes = encode(policies);
    h.policy_bytes = static_cast<std::int64_t>(bytes.size());
    bcast_bytes(&h, sizeof h, microseconds(2000));
    bcast_bytes(bytes.data(), h.policy_bytes, microseconds(2000));

    // Games are handed out from one counter (take()); a request carries the asking rank's
    // thread count.
    std::atomic<std::int64_t> next{0};
    std::thread server([&] {
      for (int stopped = 0; stopped < size - 1;) {
        std::int64_t least = 0;
        MPI_Request r;
        MPI_Irecv(&least, 1, MPI_INT64_T, MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &r);
        const MPI_Status status = wait_idle(r, microseconds(500));
        const auto [begin, end] = take(next, total, size, std::clamp<std::int64_t>(least, 1, total));
        if (begin < 0) ++stopped;
        const std::int64_t range[2] = {begin, end};
        MPI_Send(range, 2, MPI_INT64_T, status.MPI_SOURCE, kChunkTag, MPI_COMM_WORLD);
      }
    });
    std::vector<Keyed> mine;
    try {
      for (;;) {
        const auto [begin, end] = take(next, total, size, engine->thread_count(threads));
        if (begin < 0) break;
        const std::vector<GameResult> r = play_range(begin, end);
        for (std::int64_t g = begin; g < end; ++g) mine.push_back({g, r[static_cast<std::size_t>(g - begin)]});
      }
    } catch (const std::exception& e) {
      abort_all(e.what());  // the server thread is still running: no unwinding past it
    }
    server.join();
    // Keyed by game: the order of arrival cannot change a result.  Every game exactly once.
    std::vector<GameResult> results(static_cast<std::size_t>(total));
    std::vector<char> have(static_cast<std::size_t>(total), 0);
    for (const Keyed& k : gather(mine)) {
      if (k.game < 0 || k.game >= total || have[static_cast<std::size_t>(k.game)])
        abort_all("a game result came back twice or out of range");
      have[static_cast<std::size_t>(k.game)] = 1;
      results[static_cast<std::size_t>(k.game)] = k.result;
    }
    for (char got : have)
      if (!got) abort_all("a game result is missing");
    return results;
  }
};

Distributor the_distributor;
bool started = false;

// One job on a rank > 0: chunks from rank 0 until it answers -1, then the results back.
void serve_job(const Header& h) {
  std::string bytes(static_cast<std::size_t>(h.policy_bytes), '\0');
  bcast_bytes(bytes.data(), h.policy_bytes, microseconds(2000));
  const std::vector<Policy> policies = decode(bytes);
  const FeatureKernel kernel = kernel_here(h.kernel);
  std::vector<Keyed> mine;
  const std::int64_t least = engine->thread_count(h.threads);
  for (;;) {
    MPI_Send(&least, 1, MPI_INT64_T, 0, kRequestTag, MPI_COMM_WORLD);
    std::int64_t range[2] = {-1, -1};
    MPI_Request r;
    MPI_Irecv(range, 2, MPI_INT64_T, 0, kChunkTag, MPI_COMM_WORLD, &r);
    wait_idle(r, microseconds(1000));
    if (range[0] < 0) break;
    const std::int64_t begin = range[0], end = range[1];
    if (begin >= end || end > h.total) abort_all("a chunk out of range");
    const std::vector<GameResult> got = engine->play_population_range(
        policies, h.config, h.games_per_policy, begin, end, h.threads, kernel, nullptr, h.first_stream);
    for (std::int64_t g = begin; g < end; ++g) mine.push_back({g, got[static_cast<std::size_t>(g - begin)]});
  }
  gather(mine);
}

World start(int* argc, char*** argv, std::string_view build_id, const EngineCalls& calls) {
  if (started) return the_world;
  engine = &calls;
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "tetrisbench: error: MPI_Init_thread failed\n");
    std::exit(1);
  }
  started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &the_world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &the_world.size);
  if (provided < MPI_THREAD_SERIALIZED) abort_all("this MPI does not support MPI_THREAD_SERIALIZED");
  // Every rank must be this build: jobs travel as the structs of this build.
  char id[kBuildIdBytes] = {};
  std::memcpy(id, build_id.data(), std::min(build_id.size(), kBuildIdBytes - 1));
  char root_id[kBuildIdBytes];
  std::memcpy(root_id, id, kBuildIdBytes);
  MPI_Bcast(root_id, static_cast<int>(kBuildIdBytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (std::memcmp(id, root_id, kBuildIdBytes) != 0) abort_all("another tetrisbench build than rank 0's");
  if (the_world.rank == 0) engine->set_game_distributor(&the_distributor);
  return the_world;
}

int serve() {
  if (!started) return 0;
  try {
    for (;;) {
      Header h;
      // Idle ranks wait for the next job with naps of up to 5 ms: rank 0 may train for hours between
      // populations (learn) and must keep its cores.
      bcast_bytes(&h, sizeof h, microseconds(5000));
      if (h.kind != Kind::play) break;
      serve_job(h);
    }
  } catch (const std::exception& e) {
    abort_all(e.what());
  }
  MPI_Finalize();
  return 0;
}

void finish() {
  if (!started) return;
  if (the_world.rank == 0 && the_world.size > 1) {
    Header stop;
    bcast_bytes(&stop, sizeof stop, microseconds(2000));
  }
  MPI_Finalize();
  started = false;
}

constexpr Backend kBackend{start, serve, finish};

}  // namespace
}  // namespace tb::cluster

extern "C" __attribute__((visibility("default"))) const tb::cluster::Backend* tetrisbench_mpi_backend(
    std::uint64_t fingerprint) {
  return fingerprint == tb::cluster::backend_fingerprint() ? &tb::cluster::kBackend : nullptr;
}
