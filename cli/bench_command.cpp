#include "bench_command.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "fnv1a.h"
#include "ntuple.h"
#include "parallel_play.h"
#include "cli_common.h"
#include "rng.h"
#include "rule_sets.h"
#include "state_sample.h"

namespace tb {
namespace {

// The groups, in signature order.  research must stay first and unchanged: its digest is the
// one signature of the earlier single-workload bench, and the perf gate measures it.  The game
// groups come first; rollout plays rollout batches (rollout_workloads), and `all` hashes the
// game groups' digests only, as it did before rollout existed.
constexpr std::array<std::string_view, 6> kGroups = {"research", "guideline", "lee", "ntuple", "noise", "rollout"};
constexpr std::size_t kGameGroups = 5;
constexpr std::size_t kRolloutGroup = 5;

// The built-in n-tuple networks (bench_network below).
constexpr std::string_view kShapedNet = "ntuple-shaped";
constexpr std::string_view kRandomNet = "ntuple-random";

struct Workload {
  std::string_view policy;  // a built-in policy name, or kShapedNet / kRandomNet
  Rules rules;
  std::int64_t games;
  std::int64_t max_pieces;
  double tie_noise = 0.0;
};

Rules research(int w, int h, Generator gen, Overflow over, int lookahead) {
  Rules r;
  r.geometry = {w, h};
  r.generator = gen;
  r.overflow = over;
  r.lookahead = lookahead;
  return r;
}

Rules preset(RuleSet s, int lookahead) {
  Rules r = rule_set(s);
  r.lookahead = lookahead;
  return r;
}

// Group g's workloads.  research: 43,679 pieces, a few seconds with the reference kernel, tens
// of milliseconds with SIMD.  The other four: about 17,000 pieces, 0.12 s of CPU on one thread
// with avx512, 0.2 s with scalar, 2 s with the reference kernel (mostly lee's 2-ply games).
std::vector<Workload> workloads(std::size_t group) {
  const auto U = Generator::uniform, B = Generator::bag7;
  const auto S = Overflow::strict, C = Overflow::clear_first;
  const Rules guideline = preset(RuleSet::guideline, 0), guideline2 = preset(RuleSet::guideline, 1);
  const Rules lee = preset(RuleSet::lee, 1);
  switch (group) {
    case 0:
      return {
          {"dellacherie", research(10, 10, U, S, 0), 8, 2000},
          {"bcts", research(10, 20, U, S, 0), 2, 5000},
          {"dt20", research(10, 10, B, C, 0), 8, 1500},
          {"eltetris", research(8, 12, U, S, 0), 4, 1500},
          {"article3", research(6, 8, B, S, 0), 16, 400},
          {"lee", research(10, 10, U, S, 1), 2, 300},
          {"bcts", research(16, 24, U, C, 1), 1, 150},
      };
    case 1:
      return {
          {"bcts", guideline, 4, 600},
          {"eltetris", guideline, 2, 300},
          {"dellacherie", guideline2, 2, 60},
          {kRandomNet, guideline, 8, 0},  // games that end (block-out or lock-out)
      };
    case 2:
      return {
          {"lee", lee, 2, 600},
          {"dellacherie", lee, 2, 250},
          {kRandomNet, lee, 4, 0},  // games that end (a block in the hidden rows)
      };
    case 3:
      return {
          {kShapedNet, research(10, 10, U, S, 0), 8, 600},
          {kShapedNet, research(10, 10, B, C, 1), 1, 150},
          {kRandomNet, research(8, 12, U, S, 0), 16, 0},
          {kShapedNet, guideline, 2, 300},
      };
    case 4:  // noise below the smallest rating gap only breaks ties; larger noise changes moves
      return {
          {"dellacherie", research(10, 10, U, S, 0), 8, 1000, 1e-3},
          {"bcts", research(10, 10, B, S, 1), 1, 200, 4},
          {"bcts", guideline, 4, 400, 3},
          {"dellacherie", guideline2, 1, 40, 1e-3},
      };
    default:
      return {};
  }
}

// A workload of the rollout group: start states from `games` games of the policy (capped at
// `cap`, every `every`th state), then per state one rollout without a forced move and one with
// every `stride`th action (rollout_actions), each `repeats` times on its own stream.  Rollout
// i's stream id is games + i, after the sampled games' streams (same run seed).
struct RolloutWorkload {
  std::string_view policy;
  Rules rules;
  std::int64_t games, cap, every;
  std::int64_t length;  // m
  int stride, repeats;
};

// About 15,000 pieces: CBMPI's 10x20 shape (m = 10, every action), small boards, 2-ply,
// reachable placements, and the random network's rollouts that end the game.
std::vector<RolloutWorkload> rollout_workloads() {
  const auto U = Generator::uniform, B = Generator::bag7;
  const auto S = Overflow::strict, C = Overflow::clear_first;
  return {
      {"bcts", research(10, 20, U, S, 0), 1, 1000, 50, 10, 1, 2},
      {"dellacherie", research(10, 10, B, C, 0), 2, 500, 25, 5, 3, 2},
      {"dt20", research(10, 10, U, S, 1), 1, 100, 20, 5, 4, 1},
      {"bcts", preset(RuleSet::guideline, 0), 1, 200, 20, 5, 5, 1},
      {kRandomNet, research(8, 12, U, S, 0), 4, 0, 3, 10, 2, 1},
  };
}

constexpr std::uint64_t kBenchSeed = 20261129;

// Run seed of item `item` of group `group`: research keeps its original seeds.
std::uint64_t workload_seed(std::size_t group, int item) { return kBenchSeed + 100 * group + static_cast<std::uint64_t>(item); }

// A fixed n-tuple network on board g (layout v1, engine/policy/ntuple.h), made in code so that
// the bench reads nothing from disk.  Every weight is (shape * s + n) / 16, where s is a
// hand-made value in sixteenths and n a draw in [-8, 8] of a CounterRng stream keyed by the
// board: so every sum is exact and ties between placements happen (the tie rule is exercised).
//   profile[c] (d0, d1, d2, m): s = -16 (|d0| + |d1| + |d2|) - 8 m   (d: the clipped height
//                               differences in [-3, 3]; m: the highest of the 4 columns)
//   surface[c] (12 cells):      s = -32 per empty cell under a filled one in its column
//   holes (holes, m):           s = -64 holes - 8 m
// kShapedNet (shape 1) plays a modest game (about 130 pieces on 10x10) and takes the lines
// cleared as a reward; kRandomNet (shape 0) is the noise alone, a weak player whose games end
// within a few dozen pieces (so the game-over rules of each rule set are exercised).
Policy bench_network(std::string_view which, Geometry g) {
  const bool shaped = which == kShapedNet;
  auto net = std::make_shared<NTupleNetwork>(g);
  CounterRng rng{stream_key(kBenchSeed, (static_cast<std::uint64_t>(g.width) << 16) | (static_cast<std::uint64_t>(g.height) << 8) |
                                           static_cast<std::uint64_t>(g.hidden))};
  const int levels = g.height + 1, profiles = g.width - 3, surfaces = g.width - 2;
  std::vector<double>& w = net->weights();
  for (int t = 0; t < net->tuple_count(); ++t) {
    const std::uint32_t base = net->table_offset(t);
    for (std::uint32_t i = 0; i < net->table_size(t); ++i) {
      int s = 0;
      if (t < profiles) {
        const int m = static_cast<int>(i) % levels, d = static_cast<int>(i) / levels;
        s = -16 * (std::abs(d / 49 - 3) + std::abs(d / 7 % 7 - 3) + std::abs(d % 7 - 3)) - 8 * m;
      } else if (t < profiles + surfaces) {
        for (int col = 0; col < 3; ++col) {
          bool above = false;  // a filled cell higher in this column
          for (int row = 3; row >= 0; --row) {
            const bool filled = (i >> (4 * col + row)) & 1;
            if (!filled && above) s -= 32;
            above = above || filled;
          }
        }
      } else {
        s = -64 * (static_cast<int>(i) / levels) - 8 * (static_cast<int>(i) % levels);
      }
      const int n = static_cast<int>(rng.below(17)) - 8;
      w[base + i] = static_cast<double>((shaped ? s : 0) + n) / 16.0;
    }
  }
  Policy p;
  p.name = std::string(which);
  p.network = std::move(net);
  p.reward_lines = shaped;
  p.rules = "research";
  p.source = "tetrisbench bench, built in";
  return p;
}

Policy workload_policy(std::string_view name, Geometry g) {
  if (name == kShapedNet || name == kRandomNet) return bench_network(name, g);
  return load_policy(name);
}

// The suite's groups: one name, or all of them.
std::vector<std::size_t> suite_groups(const std::string& suite) {
  std::vector<std::size_t> out;
  for (std::size_t g = 0; g < kGroups.size(); ++g)
    if (suite == "all" || suite == kGroups[g]) out.push_back(g);
  if (out.empty())
    throw UsageError("unknown --suite '" + suite + "' (research, guideline, lee, ntuple, noise, rollout or all)");
  return out;
}

std::string workload_head(std::string_view policy, const Rules& rules, std::int64_t games) {
  char line[200];
  std::snprintf(line, sizeof line, "%-13s %2dx%-2d %-38s %2lld games", std::string(policy).c_str(),
                rules.geometry.width, rules.geometry.height, rule_set_name(rules).c_str(),
                static_cast<long long>(games));
  return line;
}

std::string workload_text(const Workload& w) {
  std::string text = workload_head(w.policy, w.rules, w.games);
  char line[200];
  text += w.max_pieces > 0 ? " x <= " + std::to_string(w.max_pieces) + " pieces" : " to the end";
  if (w.tie_noise > 0) {
    std::snprintf(line, sizeof line, ", tie noise %g", w.tie_noise);
    text += line;
  }
  return text;
}

std::string rollout_text(const RolloutWorkload& w) {
  std::string text = workload_head(w.policy, w.rules, w.games);
  text += w.cap > 0 ? " x <= " + std::to_string(w.cap) + " pieces" : " to the end";
  text += "; states every " + std::to_string(w.every) + " pieces, m = " + std::to_string(w.length) +
          ", no forced move and actions 0, " + std::to_string(w.stride) + ", ...: " + std::to_string(w.repeats) +
          " rollout(s) each";
  return text;
}

// The rollout group's item `item`, played and added to `sig`; returns its pieces.
std::int64_t play_rollout_item(const RolloutWorkload& w, std::uint64_t seed, int item, int threads,
                               FeatureKernel kernel, Fnv1a& sig) {
  const Policy policy = workload_policy(w.policy, w.rules.geometry);
  GameConfig games;
  games.rules = w.rules;
  games.seed = seed;
  games.max_pieces = w.cap;
  Searcher searcher(policy, w.rules, kernel);
  const std::vector<RolloutState> states = sample_states(searcher, games, w.games, w.every);
  std::vector<Rollout> rollouts;
  const auto add = [&](std::uint32_t s, bool forced, Placement first) {
    for (int r = 0; r < w.repeats; ++r)
      rollouts.push_back({s, static_cast<std::uint64_t>(w.games) + rollouts.size(), forced, first});
  };
  for (std::uint32_t s = 0; s < states.size(); ++s) {
    add(s, false, {});
    const std::vector<Placement> actions = rollout_actions(w.rules, states[s].board, states[s].current);
    for (std::size_t a = 0; a < actions.size(); a += static_cast<std::size_t>(w.stride)) add(s, true, actions[a]);
  }
  const auto results = play_rollouts(policy, {w.rules, seed, w.length}, states, rollouts, threads, kernel);
  std::int64_t pieces = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    const RolloutResult& r = results[i];
    for (std::int64_t v : {std::int64_t(item), std::int64_t(i), r.lines, r.pieces, std::int64_t(r.game_over)})
      sig.add(static_cast<std::uint64_t>(v));
    for (int c = 0; c < w.rules.geometry.width; ++c) sig.add(r.final_board.cols[c]);
    pieces += r.pieces;
  }
  return pieces;
}

}  // namespace

std::string bench_workloads_help() {
  std::string text =
      "Workload groups (--suite), each with its own digest: the 64-bit FNV-1a hash of every game's\n"
      "(rollout: every rollout's) counters and final board.  `signature all` hashes the five game\n"
      "groups' digests (rollout's is not in it); the expected values are\n"
      "results/baselines/bench-signature.txt.  ntuple-shaped and ntuple-random are n-tuple networks\n"
      "built in code.  The perf gate runs --suite research.  Item i of group g has run seed\n"
      "20261129 + 100 g + i (research is group 0).\n";
  for (std::size_t g = 0; g < kGroups.size(); ++g) {
    text += std::string(kGroups[g]) + ":\n";
    for (const Workload& w : workloads(g)) text += "  " + workload_text(w) + "\n";
    if (g == kRolloutGroup)
      for (const RolloutWorkload& w : rollout_workloads()) text += "  " + rollout_text(w) + "\n";
  }
  return text;
}

int run_bench(const BenchOptions& o) {
  if (o.threads < 0) throw UsageError("--threads must be >= 0 (0 = all cores)");
  const std::vector<std::size_t> groups = suite_groups(o.suite);
  const KernelVariant& kernel = choose_kernel(o.kernel);
  std::vector<Fnv1a> digests;
  std::int64_t pieces = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const std::size_t group : groups) {
    Fnv1a sig;
    int item = 0;
    for (const RolloutWorkload& w : group == kRolloutGroup ? rollout_workloads() : std::vector<RolloutWorkload>{}) {
      const std::int64_t item_pieces =
          play_rollout_item(w, workload_seed(group, item), item, o.threads, kernel.kernel, sig);
      pieces += item_pieces;
      std::fprintf(stderr, "bench %s %d: %s, %lld pieces\n", std::string(kGroups[group]).c_str(), item,
                   rollout_text(w).c_str(), static_cast<long long>(item_pieces));
      ++item;
    }
    for (const Workload& w : workloads(group)) {
      GameConfig config;
      config.rules = w.rules;
      config.seed = workload_seed(group, item);
      config.max_pieces = w.max_pieces;
      config.tie_noise = w.tie_noise;
      const Policy policy = workload_policy(w.policy, w.rules.geometry);
      const auto results = play_games(policy, config, w.games, o.threads, kernel.kernel, nullptr);
      std::int64_t item_pieces = 0;
      for (const GameResult& g : results) {
        for (std::int64_t v : {std::int64_t(item), std::int64_t(g.index), g.lines, g.pieces, g.points,
                               g.tetrises, g.holes_created, g.height_sum, std::int64_t(g.capped)})
          sig.add(static_cast<std::uint64_t>(v));
        for (int c = 0; c < w.rules.geometry.width; ++c) sig.add(g.final_board.cols[c]);
        item_pieces += g.pieces;
      }
      pieces += item_pieces;
      std::fprintf(stderr, "bench %s %d: %s, %lld pieces\n", std::string(kGroups[group]).c_str(), item,
                   workload_text(w).c_str(), static_cast<long long>(item_pieces));
      ++item;
    }
    digests.push_back(sig);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("kernel %s, threads %d, suite %s\n", std::string(kernel.name).c_str(), thread_count(o.threads),
              o.suite.c_str());
  std::printf("pieces %lld\n", static_cast<long long>(pieces));
  std::printf("pieces per second %.0f\n", secs > 0 ? static_cast<double>(pieces) / secs : 0.0);
  Fnv1a all;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    std::printf("signature %s %016llx\n", std::string(kGroups[groups[i]]).c_str(),
                static_cast<unsigned long long>(digests[i].value()));
    if (groups[i] < kGameGroups) all.add(digests[i].value());
  }
  if (groups.size() == kGroups.size())
    std::printf("signature all %016llx\n", static_cast<unsigned long long>(all.value()));
  return 0;
}

}  // namespace tb
