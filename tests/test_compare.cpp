// The comparison driver: config errors, resume after a crash reaching the uninterrupted
// result, the report's held-out objects and target comparisons, and the Mann-Whitney U test.
#include <gtest/gtest.h>

#include <filesystem>

#include "compare_report.h"
#include "compare_run.h"
#include "experiment_config.h"
#include "optimizer.h"
#include "parallel_play.h"
#include "rng.h"
#include "rule_sets.h"
#include "stats.h"
#include "tetris_fitness.h"

namespace tb::opt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kTiny = R"(
name = "unit"
features = "lee"
runs = 2
seed = 3
[rules]
board = "6x8"
[fitness]
games = 2
max_pieces = 200
[budget]
pieces = 60000
[heldout]
games = 4
max_pieces = 500
targets = [3]
[[optimizer]]
optimizer = "ce"
options = { samples = 10, elite = 0.2 }
[[optimizer]]
label = "pso-a1"
optimizer = "pso-article1"
)";

std::string temp_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("tb-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p.string();
}

json without_timing(json r) {
  r.erase("seconds");
  for (json& rec : r["records"]) rec.erase("seconds");
  return r;
}

// The ConfigError a config text raises, or "no error".
std::string config_error(const std::string& text, const std::string& origin) {
  try {
    parse_experiment(text, origin);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ExperimentConfig, ParsesTheTinyConfig) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  EXPECT_EQ(c.name, "unit");
  EXPECT_EQ(c.rules.geometry.width, 6);
  EXPECT_EQ(c.optimizers.size(), 2u);
  EXPECT_EQ(c.optimizers[1].label, "pso-a1");
  EXPECT_EQ(c.budget_pieces, 60000);
  EXPECT_EQ(c.heldout_boards.size(), 1u);
}

TEST(ExperimentConfig, EveryShippedConfigParses) {
  int parsed = 0;
  for (const auto& entry : fs::directory_iterator(TB_CONFIG_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    const ExperimentConfig c = load_experiment(entry.path().string());
    EXPECT_FALSE(c.optimizers.empty());
    EXPECT_GT(c.budget_pieces, 0);
    ++parsed;
  }
  EXPECT_GE(parsed, 3);  // small, paper-scale and learn-bcts
}

TEST(ExperimentConfig, RejectsBadInputWithTheKey) {
  const std::string base = "name = \"x\"\n[budget]\npieces = 10\n[[optimizer]]\noptimizer = \"ce\"\n";
  auto message = [](const std::string& text) { return config_error(text, "bad.toml"); };
  EXPECT_NE(message(base + "[rules]\nboard = \"3x9\"\n").find("rules.board"), std::string::npos);
  EXPECT_NE(message(base + "colour = 3\n").find("unknown key"), std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[budget]\npieces = 10\n[[optimizer]]\noptimizer = \"sgd\"\n").find("unknown optimizer"),
            std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[[optimizer]]\noptimizer = \"ce\"\n").find("budget"), std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[budget\n").find("bad.toml:2"), std::string::npos);
  EXPECT_NE(message(base + "features = \"nope\"\n").find("features"), std::string::npos);
  // Progress games: a count in range, and never without a piece cap.
  EXPECT_NE(message(base + "[progress]\ngames = -1\n").find("progress.games"), std::string::npos);
  EXPECT_NE(message(base + "[progress]\nmax_pieces = 0\n").find("progress.max_pieces"), std::string::npos);
  EXPECT_NE(message(base + "[progress]\nevery = 2\n").find("unknown key"), std::string::npos);
  EXPECT_EQ(message(base + "[progress]\ngames = 0\nmax_pieces = 0\n"), "no error");
}

// Every list of a config has a limit (experiment_config.h), refused before its items are read.
TEST(ExperimentConfig, ListLimits) {
  const std::string head = "name = \"x\"\n[budget]\npieces = 100000\n";
  const std::string ce = "[[optimizer]]\noptimizer = \"ce\"\n";
  auto list = [](std::size_t n, const std::string& item) {
    std::string s = "[";
    for (std::size_t i = 0; i < n; ++i) s += (i ? ", " : "") + item;
    return s + "]";
  };
  auto message = [](const std::string& text) { return config_error(text, "big.toml"); };
  EXPECT_EQ(message(head + "[heldout]\ntargets = " + list(kMaxTargets, "5") + "\n" + ce), "no error");
  EXPECT_EQ(message(head + "[heldout]\ntargets = " + list(100'000, "5") + "\n" + ce),
            "big.toml: heldout.targets: at most 64 line counts, not 100000");
  EXPECT_EQ(message(head + "[heldout]\nboards = " + list(kMaxHeldoutBoards, "\"10x12\"") + "\n" + ce), "no error");
  EXPECT_EQ(message(head + "[heldout]\nboards = " + list(kMaxHeldoutBoards + 1, "\"10x12\"") + "\n" + ce),
            "big.toml: heldout.boards: at most 16 boards, not 17");
  std::string entries;
  for (std::size_t i = 0; i <= kMaxOptimizers; ++i)
    entries += "[[optimizer]]\noptimizer = \"ce\"\nlabel = \"ce" + std::to_string(i) + "\"\n";
  EXPECT_EQ(message(head + entries), "big.toml: config.optimizer: at most 32 [[optimizer]] tables, not 33");
}

// A count among an optimizer's options is an integer: a float (20.0, 1e1) is a config error
// naming the entry and the option, in a TOML config and in JSON options alike.
TEST(ExperimentConfig, IntegerOptionsAreIntegers) {
  const std::string head = "name = \"x\"\n[budget]\npieces = 100000\n[[optimizer]]\n";
  for (const char* entry : {"optimizer = \"cmaes\"\noptions = { lambda = 1e1 }\n",
                            "optimizer = \"ce\"\noptions = { samples = 20.0 }\n",
                            "optimizer = \"pso\"\noptions = { swarm = 30.0 }\n"}) {
    SCOPED_TRACE(entry);
    try {
      parse_experiment(head + entry, "f.toml");
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("f.toml: optimizer[0].options: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("must be an integer, not a float"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(parse_experiment(head + "optimizer = \"cmaes\"\noptions = { lambda = 10 }\n", "f.toml"));
  OptimizerSetup setup;
  setup.dim = 2;
  setup.options = json::parse(R"({"lambda": 10.0})");
  EXPECT_THROW(make_optimizer("cmaes", setup), OptimizerError);
}

TEST(ExperimentConfig, ProgressDefaults) {
  const std::string base = "name = \"x\"\n[budget]\npieces = 10\n";
  const ExperimentConfig a = parse_experiment(base + "[[optimizer]]\noptimizer = \"ce\"\n", "a.toml");
  EXPECT_EQ(a.progress_games, 10);
  EXPECT_EQ(a.progress_max_pieces, a.fitness_max_pieces);  // the fitness cap
  const ExperimentConfig b = parse_experiment(
      base + "[fitness]\nmax_pieces = 0\n[heldout]\nmax_pieces = 777\n[[optimizer]]\noptimizer = \"ce\"\n", "b.toml");
  EXPECT_EQ(b.progress_max_pieces, 777);  // else the held-out cap
  EXPECT_EQ(to_json(b)["progress"]["max_pieces"], 777);
}

TEST(ExperimentConfig, TdEntries) {
  const std::string head = "name = \"x\"\nfeatures = \"bcts\"\n[budget]\npieces = 100000\n";
  const ExperimentConfig c = parse_experiment(
      head + "[[optimizer]]\noptimizer = \"cmaes\"\n[[optimizer]]\noptimizer = \"tdlambda\"\n"
             "options = { alpha = 0.02, lambda = 0.5 }\n[[optimizer]]\noptimizer = \"ntuple\"\n"
             "[[optimizer]]\nlabel = \"b\"\noptimizer = \"td0\"\nfeatures = \"bertsekas\"\n",
      "td.toml");
  ASSERT_EQ(c.optimizers.size(), 4u);
  EXPECT_EQ(c.optimizers[0].features, "bcts");  // the experiment's set
  EXPECT_EQ(c.optimizers[1].features, "td44");  // the TD default
  EXPECT_EQ(c.optimizers[2].features, "ntuple-v1");
  EXPECT_EQ(c.optimizers[3].features, "bertsekas");
  auto message = [&](const std::string& entry) {
    try {
      parse_experiment(head + "[[optimizer]]\n" + entry, "bad.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("optimizer = \"td0\"\nfeatures = \"bcts\"\n").find("move feature"), std::string::npos);
  EXPECT_NE(message("optimizer = \"tdlambda\"\noptions = { beta = 1 }\n").find("unknown td option 'beta'"),
            std::string::npos);
  EXPECT_NE(message("optimizer = \"td0\"\noptions = { lambda = 0.5 }\n").find("use tdlambda"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ntuple\"\noptions = { alpha = -1 }\n").find("alpha"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ntuple\"\n[heldout]\nboards = [\"10x12\"]\n").find("only its training board"),
            std::string::npos);
  EXPECT_NE(message("optimizer = \"tdlambda\"\noptions = { games_per_step = 1000, pieces_per_step = 1000 }\n")
                .find("at least one step"),
            std::string::npos);
}

// Proxy training boards, `final = "mean"` and CBMPI entries (experiment_config.h).
TEST(ExperimentConfig, ProxyBoardsFinalMeanAndCbmpi) {
  const std::string head = "name = \"x\"\n[rules]\nboard = \"10x20\"\n[budget]\npieces = 100000000\n";
  const ExperimentConfig c = parse_experiment(
      head + "[[optimizer]]\noptimizer = \"ce\"\ntrain_board = \"10x14\"\nfinal = \"mean\"\n"
             "[[optimizer]]\noptimizer = \"cbmpi\"\noptions = { states = 1000 }\n",
      "proxy.toml");
  ASSERT_EQ(c.optimizers.size(), 2u);
  EXPECT_EQ(c.optimizers[0].train_board.height, 14);
  EXPECT_TRUE(c.optimizers[0].final_mean);
  EXPECT_EQ(c.optimizers[1].features, "dt");  // CBMPI's default policy features
  EXPECT_EQ(to_json(c)["optimizers"][0]["train_board"], "10x14");
  EXPECT_FALSE(to_json(c)["optimizers"][1].contains("train_board"));
  auto message = [&](const std::string& entry) {
    try {
      parse_experiment(head + "[[optimizer]]\n" + entry, "bad.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("optimizer = \"ce\"\ntrain_board = \"8x14\"\n").find("width"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ce\"\ntrain_board = \"\"\n").find("empty"), std::string::npos);
  EXPECT_NE(message("optimizer = \"cbmpi\"\ntrain_board = \"10x14\"\n").find("proxy board"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ga\"\nfinal = \"mean\"\n").find("search distribution"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ce\"\nfinal = \"last\"\n").find("final"), std::string::npos);
  EXPECT_NE(message("optimizer = \"cbmpi\"\noptions = { policy_features = \"bcts\" }\n").find("features"),
            std::string::npos);
  EXPECT_NE(message("optimizer = \"cbmpi\"\noptions = { states = 0 }\n").find("states"), std::string::npos);
  EXPECT_NE(message("optimizer = \"cbmpi\"\noptions = { states = 1000000 }\n").find("one iteration"),
            std::string::npos);
  EXPECT_EQ(message("optimizer = \"cmaes\"\nfinal = \"mean\"\ntrain_board = \"10x20\"\n"), "no error");
}

// [rules] names a preset (rule_sets.h choose_rules): lee and guideline fix their board,
// generator and overflow; research is refined as before.
TEST(ExperimentConfig, RuleSetPresets) {
  const std::string head = "name = \"x\"\nfeatures = \"lee\"\n[budget]\npieces = 100000\n";
  const std::string cmaes = "[[optimizer]]\noptimizer = \"cmaes\"\n";
  const ExperimentConfig lee = parse_experiment(head + "[rules]\nrules = \"lee\"\n" + cmaes, "lee.toml");
  EXPECT_EQ(rule_set_name(lee.rules), "lee");
  EXPECT_EQ(lee.rules.geometry.height, 22);
  EXPECT_EQ(lee.rules.geometry.hidden, 2);
  EXPECT_EQ(lee.rules.lookahead, 1);
  EXPECT_FALSE(lee.rules.clear_between_plies);
  ASSERT_EQ(lee.heldout_boards.size(), 1u);
  EXPECT_EQ(lee.heldout_boards[0].hidden, 2);  // held-out games keep the hidden rows
  EXPECT_EQ(to_json(lee)["rules"], "lee");
  EXPECT_EQ(to_json(lee)["board"], "10x22");
  const ExperimentConfig same = parse_experiment(
      head + "[rules]\nrules = \"lee\"\nboard = \"10x22\"\ngenerator = \"bag7\"\noverflow = \"hidden-rows\"\n"
             "lookahead = 1\n" + cmaes, "lee.toml");
  EXPECT_EQ(to_json(same), to_json(lee));
  const ExperimentConfig guide =
      parse_experiment(head + "[rules]\nrules = \"guideline\"\nlookahead = 1\n" + cmaes, "g.toml");
  EXPECT_EQ(rule_set_name(guide.rules), "guideline+lookahead1");
  EXPECT_EQ(guide.rules.placement, PlacementModel::reachable);
  // research is the default, spelled out or not
  const ExperimentConfig plain = parse_experiment(head + "[rules]\nboard = \"8x12\"\n" + cmaes, "r.toml");
  const ExperimentConfig spelled =
      parse_experiment(head + "[rules]\nrules = \"research\"\nboard = \"8x12\"\n" + cmaes, "r.toml");
  EXPECT_EQ(to_json(plain), to_json(spelled));
  EXPECT_EQ(rule_set_name(parse_experiment(head + cmaes, "r.toml").rules), "research");
  EXPECT_EQ(to_json(parse_experiment(head + cmaes, "r.toml"))["board"], "10x10");
}

TEST(ExperimentConfig, RuleSetRefusals) {
  const std::string head = "name = \"x\"\nfeatures = \"lee\"\n[budget]\npieces = 100000\n";
  auto message = [&](const std::string& rules, const std::string& rest = "[[optimizer]]\noptimizer = \"ce\"\n") {
    try {
      parse_experiment(head + "[rules]\n" + rules + rest, "bad.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto says = [](const std::string& m, const std::string& key, const std::string& what) {
    EXPECT_NE(m.find("bad.toml: " + key + ": "), std::string::npos) << m;
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  };
  says(message("rules = \"tetris99\"\n"), "rules.rules", "unknown rule set 'tetris99' (research, guideline or lee)");
  says(message("rules = 3\n"), "rules.rules", "expected a string");
  says(message("rules = \"\"\n"), "rules.rules", "is empty");
  says(message("rules = \"lee\"\nboard = \"10x20\"\n"), "rules.board", "rule set lee fixes the board at 10x22");
  says(message("rules = \"lee\"\nlookahead = 0\n"), "rules.lookahead", "fixes the lookahead at 1");
  says(message("rules = \"lee\"\noverflow = \"strict\"\n"), "rules.overflow", "fixes the game-over rule at hidden-rows");
  says(message("rules = \"guideline\"\ngenerator = \"uniform\"\n"), "rules.generator", "fixes the generator at bag7");
  says(message("rules = \"guideline\"\noverflow = \"clear-first\"\n"), "rules.overflow", "lock-out");
  says(message("overflow = \"lock-out\"\n"), "rules.overflow", "belongs to rule set guideline");
  says(message("overflow = \"hidden-rows\"\n"), "rules.overflow", "belongs to rule set lee");
  says(message("overflow = \"maybe\"\n"), "rules.overflow", "unknown overflow rule 'maybe'");
  says(message("generator = \"bag8\"\n"), "rules.generator", "unknown generator 'bag8' (uniform or bag7)");
  says(message("board = \"10by10\"\n"), "rules.board", "is not WxH");
  says(message("board = \"\"\n"), "rules.board", "is empty");
  says(message("lookahead = 2\n"), "rules.lookahead", "must be an integer in [0, 1]");
  says(message("lookahead = -1\n"), "rules.lookahead", "must be an integer in [0, 1]");
  says(message("placement = \"drop\"\n"), "rules.placement", "unknown key");
  // Fixed-board presets have no extra held-out boards.
  says(message("rules = \"lee\"\n", "[heldout]\nboards = [\"10x12\"]\n[[optimizer]]\noptimizer = \"ce\"\n"),
       "heldout.boards", "rule set lee fixes the board at 10x22");
  says(message("rules = \"guideline\"\n", "[heldout]\nboards = []\n[[optimizer]]\noptimizer = \"ce\"\n"),
       "heldout.boards", "held-out boards are for research rules");
  // TD learners learn one-piece afterstates of drop placements.
  says(message("rules = \"lee\"\n", "[[optimizer]]\noptimizer = \"tdlambda\"\nfeatures = \"td44\"\n"),
       "optimizer[0].optimizer", "a TD learner is a one-piece controller (lookahead 0); rules 'lee' have lookahead 1");
  says(message("rules = \"guideline\"\n", "[[optimizer]]\noptimizer = \"ntuple\"\n"), "optimizer[0].optimizer",
       "a TD learner learns drop placements only; rules 'guideline' use reachable placements");
  says(message("lookahead = 1\n", "[[optimizer]]\noptimizer = \"td0\"\nfeatures = \"td44\"\n"), "optimizer[0].optimizer",
       "rules 'research+lookahead1' have lookahead 1");
}

// Every shipped config but lee-rules.toml plays the research rules (their experiments and
// results are what they were before [rules] took a preset).
TEST(ExperimentConfig, ShippedConfigsKeepTheirRules) {
  for (const auto& entry : fs::directory_iterator(TB_CONFIG_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    const ExperimentConfig c = load_experiment(entry.path().string());
    const bool lee = entry.path().filename() == "lee-rules.toml";
    EXPECT_EQ(to_json(c)["rules"], lee ? "lee" : "research") << entry.path();
    EXPECT_EQ(c.rules.geometry.hidden, lee ? 2 : 0) << entry.path();
  }
}

// The fitness games and the held-out games of a lee experiment are lee games: the same lines
// as `play --rules lee` on the same streams.
TEST(CompareRun, GamesPlayUnderTheConfiguredRuleSet) {
  const ExperimentConfig c = parse_experiment(
      "name = \"lee\"\nfeatures = \"lee\"\nruns = 1\n[rules]\nrules = \"lee\"\n[fitness]\ngames = 2\n"
      "max_pieces = 150\n[budget]\npieces = 6000\n[heldout]\ngames = 2\nmax_pieces = 200\n"
      "[[optimizer]]\noptimizer = \"cmaes\"\n",
      "lee.toml");
  const Policy lee = load_policy("lee");
  GameConfig game;
  game.rules = rule_set(RuleSet::lee);
  game.seed = stream_key(7, 3);
  game.max_pieces = 150;
  const PlaySummary want = summarize(play_games(lee, game, 2, 1, features_scalar, nullptr));
  ASSERT_GT(want.mean_lines, 0);
  Matrix X(4, 1);
  for (int i = 0; i < 4; ++i) X(i, 0) = lee.weights[static_cast<std::size_t>(i)];
  const GenerationFitness fit = evaluate_generation(X, "lee", c, 7, 3, 150, 2, features_scalar);
  EXPECT_DOUBLE_EQ(fit.statistic[0], want.mean_lines);
  game.seed = stream_key(c.seed ^ kHeldOutSeed, 0);
  game.max_pieces = 200;
  const PlaySummary held = evaluate_heldout(lee, c, c.heldout_boards[0], 2, features_scalar);
  EXPECT_EQ(held.mean_lines, summarize(play_games(lee, game, 2, 1, features_scalar, nullptr)).mean_lines);

  const std::string dir = temp_dir("lee-run");
  const json result = run_one(c, 0, 0, dir, 2, features_scalar, nullptr);
  EXPECT_TRUE(result["held_out"].contains("10x22")) << result["held_out"].dump();
  EXPECT_LE(result["pieces"].get<std::int64_t>(), 6000);
  EXPECT_EQ(load_policy(dir + "/final.policy").rules, "lee");
  fs::remove_all(dir);
}

struct Crash {};

TEST(CompareRun, ResumeAfterACrashEndsLikeAnUninterruptedRun) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  for (int k = 0; k < 2; ++k) {
    const std::string whole = temp_dir("whole" + std::to_string(k));
    const std::string crashed = temp_dir("crash" + std::to_string(k));
    const json expected = run_one(c, k, 1, whole, 1, features_scalar, nullptr);
    ASSERT_GT(expected["generations"].get<int>(), 4);
    // "Crash" right after the checkpoint of generation 3 (as kill -9 would between writes).
    EXPECT_THROW(run_one(c, k, 1, crashed, 2, features_scalar,
                         [](const RunProgress& p) {
                           if (p.generation == 3) throw Crash{};
                         }),
                 Crash);
    ASSERT_TRUE(fs::exists(crashed + "/checkpoint.json"));
    ASSERT_FALSE(fs::exists(crashed + "/result.json"));
    const json resumed = run_one(c, k, 1, crashed, 2, features_scalar, nullptr);
    EXPECT_EQ(without_timing(resumed), without_timing(expected)) << c.optimizers[k].label;
    fs::remove_all(whole);
    fs::remove_all(crashed);
  }
}

TEST(CompareReport, HeldOutObjectsAndTargets) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  const std::string dir = temp_dir("report");
  std::vector<json> runs;
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < 2; ++r)
      runs.push_back(run_one(c, k, r, dir + "/" + std::to_string(k) + "-" + std::to_string(r), 2,
                             features_scalar, nullptr));
  const json report = build_report(c, runs, json::object());
  ASSERT_EQ(report["optimizers"].size(), 2u);
  for (const json& o : report["optimizers"]) {
    const json& h = o["held_out"];
    EXPECT_EQ(h["games"].get<int>(), 2 * 4);
    EXPECT_TRUE(h["mean_lines"].is_number());
    // Bootstrap intervals over the 2 run means and over the 8 pooled games, inside the data.
    const double lo = *std::min_element(h["run_means"].begin(), h["run_means"].end());
    const double hi = *std::max_element(h["run_means"].begin(), h["run_means"].end());
    EXPECT_GE(h["ci95_runs"]["low"].get<double>(), lo);
    EXPECT_LE(h["ci95_runs"]["high"].get<double>(), hi);
    EXPECT_EQ(h["ci95_games"]["n"].get<int>(), 8);
    EXPECT_GE(h["ci95_games"]["low"].get<double>(), 0.0);
    EXPECT_EQ(h["censoring"]["capped_games"], h["capped_games"]);
    EXPECT_EQ(o["targets"][0]["runs"].get<int>(), 2);
    EXPECT_TRUE(o["targets"][0]["successes"].is_number());  // progress was recorded
    for (double p : o["pieces"]["per_run"]) EXPECT_LE(p, 60000);  // the budget is a hard cap
  }
  int top = 0;
  for (const json& o : report["optimizers"]) top += o["vs_top"].is_null();
  EXPECT_EQ(top, 1);
  // 2 runs against 2 cannot give p below 1/3: no best, and the design says so.
  const json& v = report["comparison"];
  EXPECT_TRUE(v["best"].is_null());
  EXPECT_DOUBLE_EQ(v["largest_min_p"].get<double>(), 1.0 / 3.0);
  EXPECT_FALSE(significance_warning(c).empty());
  // Every record with progress lies at the first generation past a 1% mark of the budget.
  for (const json& r : runs) {
    std::int64_t marks = 0, previous = 0;
    for (const json& rec : r["records"]) {
      const std::int64_t mark = rec["pieces"].get<std::int64_t>() / (c.budget_pieces / 100);
      EXPECT_EQ(rec.contains("progress"), mark > previous) << rec.dump();
      marks += rec.contains("progress");
      previous = mark;
    }
    EXPECT_GT(marks, 10);  // fewer than 100: a generation here can span several marks
  }
  fs::remove_all(dir);
}

// A result.json reduced to what build_report reads: a progress record every 100 pieces whose mean
// is 10 lines from `reached_at` on (0: never; below 0: no progress records, an external entry).
json synthetic_run(const ExperimentConfig& c, const std::string& label, double reached_at, double pieces) {
  json held = json::object();
  for (const Geometry& g : c.heldout_boards)
    held[size_name(g)] = {{"games", 2}, {"mean_lines", 5.0}, {"capped_games", 0}, {"lines", {4.0, 6.0}},
                          {"capped", json::array()}};
  json records = json::array();
  for (double p = 100; p <= pieces; p += 100) {
    json rec = {{"pieces", p}};
    if (reached_at >= 0) rec["progress"] = {{"mean_lines", reached_at > 0 && p >= reached_at ? 10.0 : 0.0}};
    records.push_back(rec);
  }
  return {{"label", label},   {"pieces", pieces},          {"games", 10},          {"seconds", 1.0},
          {"records", records}, {"stop_reasons", {"Budget"}}, {"best_training", 1.0}, {"held_out", held}};
}

// The tiny config with three entries a, b, c and targets 5 (reached at the progress mean of 10)
// and 50 (never reached); build_report reads only the labels, boards and targets.
ExperimentConfig three_entries() {
  ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  const OptimizerSpec first = c.optimizers[0];
  c.optimizers.assign(3, first);
  c.optimizers[0].label = "a";
  c.optimizers[1].label = "b";
  c.optimizers[2].label = "c";
  c.targets = {5, 50};
  return c;
}

// Entry k's runs, one per value of `reach[k]`: the pieces at which the run reaches the target (0:
// never; -1: no progress records), each run 3000 pieces long.
json report_of(const ExperimentConfig& c, const std::vector<std::vector<double>>& reach) {
  std::vector<json> runs;
  for (std::size_t k = 0; k < reach.size(); ++k)
    for (double r : reach[k]) runs.push_back(synthetic_run(c, c.optimizers[k].label, r, 3000));
  return build_report(c, runs, json::object());
}

TEST(CompareReport, TargetsNameTheFastestOnlyWhenTheLogRankTestSeparatesIt) {
  const ExperimentConfig c = three_entries();
  // a reaches 5 lines at 100..800 pieces in all 8 runs; b in 2 of 8, late; c records no progress.
  const json r = report_of(c, {{100, 200, 300, 400, 500, 600, 700, 800}, {2000, 2500, 0, 0, 0, 0, 0, 0},
                               {-1, -1, -1, -1, -1, -1, -1, -1}});
  const json& five = r["target_comparisons"][0];
  EXPECT_EQ(five["leader"], "a");
  EXPECT_EQ(five["fastest"], "a");
  EXPECT_EQ(five["comparisons"].get<int>(), 1);  // c has no progress records: not compared
  const json& a = r["optimizers"][0]["targets"][0];
  const json& b = r["optimizers"][1]["targets"][0];
  EXPECT_TRUE(a["vs_fastest"].is_null());
  EXPECT_TRUE(r["optimizers"][2]["targets"][0]["vs_fastest"].is_null());
  EXPECT_TRUE(r["optimizers"][2]["targets"][0]["successes"].is_null());
  EXPECT_EQ(b["vs_fastest"]["against"], "a");
  EXPECT_TRUE(b["vs_fastest"]["significant"].get<bool>());
  EXPECT_LT(b["vs_fastest"]["observed_minus_expected"].get<double>(), 0);
  // One comparison: Holm leaves p as it is; the same numbers as log_rank on the runs' times, the
  // failures censored at their 3000 pieces.
  const LogRank lr = log_rank({{2000, 2500, 3000, 3000, 3000, 3000, 3000, 3000}, {1, 1, 0, 0, 0, 0, 0, 0}},
                              {{100, 200, 300, 400, 500, 600, 700, 800}, std::vector<std::uint8_t>(8, 1)});
  EXPECT_EQ(b["vs_fastest"]["p"].get<double>(), lr.p);
  EXPECT_EQ(b["vs_fastest"]["p_holm"].get<double>(), lr.p);
  EXPECT_EQ(b["vs_fastest"]["chi2"].get<double>(), lr.chi2);
  // aRT: all pieces of all runs, to their success or their end, per success.
  EXPECT_DOUBLE_EQ(b["aRT"].get<double>(), (2000 + 2500 + 6 * 3000) / 2.0);

  // Nobody reaches 50 lines: no leader, nothing tested, no fastest.
  const json& fifty = r["target_comparisons"][1];
  EXPECT_TRUE(fifty["leader"].is_null());
  EXPECT_TRUE(fifty["fastest"].is_null());
  EXPECT_EQ(fifty["comparisons"].get<int>(), 0);
  for (const json& o : r["optimizers"]) EXPECT_TRUE(o["targets"][1]["vs_fastest"].is_null());
}

TEST(CompareReport, TargetLeaderTiesAndNoSignificantDifference) {
  const ExperimentConfig c = three_entries();
  // Equal successes (1 of 2 each): b's smaller aRT makes it the leader; two runs cannot separate
  // anything, so both comparisons are reported and no entry is named fastest.
  const json r = report_of(c, {{900, 0}, {800, 0}, {1000, 0}});
  const json& five = r["target_comparisons"][0];
  EXPECT_EQ(five["leader"], "b");
  EXPECT_TRUE(five["fastest"].is_null());
  EXPECT_EQ(five["comparisons"].get<int>(), 2);
  EXPECT_TRUE(r["optimizers"][1]["targets"][0]["vs_fastest"].is_null());
  for (int k : {0, 2}) {
    const json& v = r["optimizers"][k]["targets"][0]["vs_fastest"];
    EXPECT_FALSE(v["significant"].get<bool>());
    EXPECT_GE(v["p_holm"].get<double>(), v["p"].get<double>());
  }
  // Equal successes and equal aRT: the first entry in config order leads.
  EXPECT_EQ(report_of(c, {{800, 0}, {800, 0}, {0, 0}})["target_comparisons"][0]["leader"], "a");
}

TEST(CompareReport, AnEntrySignificantlySoonerThanTheLeaderLeavesNoFastest) {
  const ExperimentConfig c = three_entries();
  // a: 8 successes, late (1000..1700 pieces); b: 7 successes, all earlier (100..700), and one run
  // that stopped at 800 pieces without reaching the target (censored there).  a leads on
  // successes, but b's runs reach the target significantly sooner.
  std::vector<json> runs;
  for (int k = 0; k < 8; ++k) runs.push_back(synthetic_run(c, "a", 1000 + 100 * k, 3000));
  for (int k = 0; k < 7; ++k) runs.push_back(synthetic_run(c, "b", 100 + 100 * k, 3000));
  runs.push_back(synthetic_run(c, "b", 0, 800));
  runs.push_back(synthetic_run(c, "c", -1, 3000));
  const json r = build_report(c, runs, json::object());
  const json& five = r["target_comparisons"][0];
  EXPECT_EQ(five["leader"], "a");
  const json& b = r["optimizers"][1]["targets"][0]["vs_fastest"];
  EXPECT_TRUE(b["significant"].get<bool>());
  EXPECT_GT(b["observed_minus_expected"].get<double>(), 0);
  EXPECT_TRUE(five["fastest"].is_null());
}

TEST(Stats, MannWhitneyExactSmallSamples) {
  const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6};
  const MannWhitney m = mann_whitney(a, b);
  EXPECT_EQ(m.u, 0);
  EXPECT_TRUE(m.exact);
  EXPECT_NEAR(m.p, 2.0 / 20.0, 1e-12);  // only the two extreme splits of C(6,3) = 20
  const std::vector<double> same = {1, 1, 1};
  EXPECT_NEAR(mann_whitney(same, same).p, 1.0, 1e-12);
  EXPECT_EQ(mann_whitney(b, a).u, 9);
}

TEST(Stats, MeanCi) {
  const std::vector<double> v = {1, 2, 3, 4};
  const MeanCi ci = mean_ci95(v);
  EXPECT_DOUBLE_EQ(ci.mean, 2.5);
  EXPECT_NEAR(ci.high - ci.mean, 3.1824 * std::sqrt(5.0 / 3.0) / 2.0, 1e-3);
}

}  // namespace
}  // namespace tb::opt
