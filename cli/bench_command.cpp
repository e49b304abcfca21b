#include "bench_command.h"

#include <chrono>
#include <cstdio>
#include <vector>

#include "parallel_play.h"
#include "play_command.h"

namespace tb {
namespace {

struct Workload {
  const char* policy;
  Rules rules;
  std::int64_t games;
  std::int64_t max_pieces;
};

// About 60,000 pieces: a second with the reference kernel, milliseconds with SIMD.
std::vector<Workload> workload() {
  auto rules = [](int w, int h, Generator gen, Overflow over, int lookahead) {
    Rules r;
    r.geometry = {w, h};
    r.generator = gen;
    r.overflow = over;
    r.lookahead = lookahead;
    return r;
  };
  const auto U = Generator::uniform, B = Generator::bag7;
  const auto S = Overflow::strict, C = Overflow::clear_first;
  return {
      {"dellacherie", rules(10, 10, U, S, 0), 8, 2000},
      {"bcts", rules(10, 20, U, S, 0), 2, 5000},
      {"dt20", rules(10, 10, B, C, 0), 8, 1500},
      {"eltetris", rules(8, 12, U, S, 0), 4, 1500},
      {"article3", rules(6, 8, B, S, 0), 16, 400},
      {"lee", rules(10, 10, U, S, 1), 2, 300},
      {"bcts", rules(16, 24, U, C, 1), 1, 150},
  };
}

struct Fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 0x100000001b3ull;
  }
};

}  // namespace

int run_bench(const BenchOptions& o) {
  if (o.threads < 0) throw UsageError("--threads must be >= 0 (0 = all cores)");
  const KernelVariant& kernel = choose_kernel(o.kernel);
  Fnv1a sig;
  std::int64_t pieces = 0;
  const auto start = std::chrono::steady_clock::now();
  int item = 0;
  for (const Workload& w : workload()) {
    GameConfig config;
    config.rules = w.rules;
    config.seed = 20261129 + item;
    config.max_pieces = w.max_pieces;
    const Policy policy = load_policy(w.policy);
    const auto results = play_games(policy, config, w.games, o.threads, kernel.kernel, nullptr);
    for (const GameResult& g : results) {
      for (std::int64_t v : {std::int64_t(item), std::int64_t(g.index), g.lines, g.pieces, g.points,
                             g.tetrises, g.holes_created, g.height_sum, std::int64_t(g.capped)})
        sig.add(static_cast<std::uint64_t>(v));
      for (int c = 0; c < w.rules.geometry.width; ++c) sig.add(g.final_board.cols[c]);
      pieces += g.pieces;
    }
    std::fprintf(stderr, "bench %d: %-11s %2dx%-2d %-40s %lld games\n", item, w.policy,
                 w.rules.geometry.width, w.rules.geometry.height, rule_set_name(w.rules).c_str(),
                 static_cast<long long>(w.games));
    ++item;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("kernel %s, threads %d\n", std::string(kernel.name).c_str(), thread_count(o.threads));
  std::printf("pieces %lld\n", static_cast<long long>(pieces));
  std::printf("pieces per second %.0f\n", secs > 0 ? static_cast<double>(pieces) / secs : 0.0);
  std::printf("signature %016llx\n", static_cast<unsigned long long>(sig.h));
  return 0;
}

}  // namespace tb
