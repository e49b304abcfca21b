#include "experiment_config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "cbmpi.h"
#include "checked_number.h"
#include "feature_set.h"
#include "file_io.h"
#include "input_limits.h"
#include "optimizer.h"
#include "rule_sets.h"
#include "td_training.h"

namespace tb::opt {
namespace {

constexpr int kMaxFitnessGames = 100'000;

// Reads keys of one table, rejecting keys it does not know.
class Table {
 public:
  Table(const toml::table* t, std::string where, const std::string& origin)
      : t_(t), where_(std::move(where)), origin_(origin) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(origin_ + ": " + where_ + (key.empty() ? "" : "." + shown(key)) + ": " + what);
  }
  std::string text(const std::string& key, const std::string& fallback) {
    const toml::node* n = raw(key);
    if (!n) return fallback;
    if (!n->is_string()) fail(key, "expected a string");
    return std::string(n->as_string()->get());
  }
  // An integer in [lo, hi]: never wrapped, clamped or read from a float.
  std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) {
    const toml::node* n = raw(key);
    if (!n) return fallback;
    if (!n->is_integer()) fail(key, "expected an integer in " + range_text(lo, hi));
    const std::int64_t v = n->as_integer()->get();
    if (v < lo || v > hi) fail(key, "must be an integer in " + range_text(lo, hi) + ", not " + std::to_string(v));
    return v;
  }
  // A finite number in [lo, hi] (an integer is read as a number too).
  double real(const std::string& key, double fallback, double lo, double hi) {
    const toml::node* n = raw(key);
    if (!n) return fallback;
    if (!n->is_number()) fail(key, "expected a number in " + range_text(lo, hi));
    const double v = n->value<double>().value_or(NAN);
    if (!std::isfinite(v) || v < lo || v > hi) fail(key, "must be a finite number in " + range_text(lo, hi));
    return v;
  }
  const toml::node* raw(const std::string& key) {
    seen_.insert(key);
    return t_ ? t_->get(key) : nullptr;
  }
  void reject_unknown() const {
    if (!t_) return;
    for (const auto& [k, v] : *t_)
      if (!seen_.count(std::string(k.str()))) fail(std::string(k.str()), "unknown key");
  }

 private:
  const toml::table* t_;
  std::string where_;
  const std::string& origin_;
  std::set<std::string> seen_;
};

// A name that becomes one folder: 1..64 of [A-Za-z0-9_.-], starting with a letter or digit,
// so never "", ".", ".." or a hidden name.  No regex: its recursion overflows the stack on
// long strings.
bool is_safe_slug(const std::string& s) {
  if (s.empty() || s.size() > limits::kMaxNameLength || !std::isalnum(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.';
  });
}

// A list longer than its limit (experiment_config.h) is refused before any item is read.
void check_length(const Table& t, const std::string& key, std::size_t size, std::size_t limit,
                  const std::string& items) {
  if (size > limit) t.fail(key, "at most " + std::to_string(limit) + " " + items + ", not " + std::to_string(size));
}

// A held-out board size (board.h parse_board_size), its problem as a config error.
Geometry parse_geometry(const std::string& text, Table& t, const std::string& key) {
  try {
    return parse_board_size(text);
  } catch (const InputError& e) {
    t.fail(key, e.what());
  }
}

nlohmann::json toml_to_json(const toml::node& n) {
  if (auto t = n.as_table()) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : *t) j[std::string(k.str())] = toml_to_json(v);
    return j;
  }
  if (auto a = n.as_array()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& v : *a) j.push_back(toml_to_json(v));
    return j;
  }
  // By the node's own type: value<int64_t>() on a float converts it, which is undefined
  // behaviour for a float outside the int64 range.
  if (auto v = n.as_integer()) return v->get();
  if (auto v = n.as_floating_point()) return v->get();
  if (auto v = n.as_boolean()) return v->get();
  if (auto v = n.as_string()) return v->get();
  return nullptr;
}

// `rules` names the preset; board, generator, overflow and lookahead refine it as `play`'s
// flags do (rule_sets.h choose_rules, docs/rules.md "Rule sets").  Left out, they are the
// preset's (research: 10x10, uniform, strict, 0).
void read_rules(Table t, ExperimentConfig& c) {
  RuleChoices choices;
  auto text = [&](const std::string& key) {
    const std::string v = t.text(key, "");
    if (v.empty() && t.raw(key)) t.fail(key, "is empty (leave the key out for the rule set's own value)");
    return v;
  };
  if (const std::string preset = text("rules"); !preset.empty()) choices.rules = preset;
  choices.board = text("board");
  choices.generator = text("generator");
  choices.overflow = text("overflow");
  choices.lookahead = static_cast<int>(t.integer("lookahead", -1, 0, 1));
  try {
    c.rules = choose_rules(choices);
  } catch (const RulesError& e) {
    t.fail(e.field, e.what());
  }
  t.reject_unknown();
}

// TD learners (experiments/td/td_learner.h) learn one-piece afterstates of drop placements.
void check_td_rules(const ExperimentConfig& c, Table& t) {
  const std::string name = rule_set_name(c.rules);
  if (c.rules.placement != PlacementModel::drop)
    t.fail("optimizer", "a TD learner learns drop placements only; rules '" + name + "' use " +
                            to_string(c.rules.placement) + " placements");
  if (c.rules.lookahead != 0)
    t.fail("optimizer", "a TD learner is a one-piece controller (lookahead 0); rules '" + name + "' have lookahead " +
                            std::to_string(c.rules.lookahead));
}

// A black-box entry's optimizer is built here, at parse time, with the experiment's dimension,
// so an unknown, mistyped, zero, NaN or infinite option is a config error before any run
// starts; its first generation must fit in the game limit.
void check_optimizer(const OptimizerSpec& s, const ExperimentConfig& c, Table& t) {
  std::int64_t lambda = 0;
  try {
    lambda = make_optimizer(s.optimizer, entry_setup(c, s))->ask().cols();
  } catch (const std::exception& e) {
    t.fail("options", e.what());
  }
  if (lambda * c.fitness_games > limits::kMaxGames)
    t.fail("options", "a generation of " + std::to_string(lambda) + " candidates x " +
                          std::to_string(c.fitness_games) + " fitness games is more than the " +
                          std::to_string(limits::kMaxGames) + "-game limit");
}

// train_board = "WxH": a black-box entry's proxy board (experiment_config.h).
void read_train_board(Table& t, const ExperimentConfig& c, OptimizerSpec& s) {
  const std::string text = t.text("train_board", "");
  if (text.empty()) {
    if (t.raw("train_board")) t.fail("train_board", "is empty (leave the key out to train on the experiment's board)");
    return;
  }
  if (td::is_td_learner(s.optimizer) || is_cbmpi(s) || is_external(s))
    t.fail("train_board", "only a black-box optimizer's fitness games can move to a proxy board");
  if (c.rules.base != RuleSet::research)
    t.fail("train_board", std::string("rule set ") + to_string(c.rules.base) + " fixes the board at " +
                              size_name(c.rules.geometry));
  const Geometry g = parse_geometry(text, t, "train_board");
  if (g.width != c.rules.geometry.width)
    t.fail("train_board", "must keep the experiment's width (the weights depend on it)");
  if (g.height != c.rules.geometry.height) s.train_board = g;
}

// final = "best" | "mean"; "mean" needs an optimizer with a search distribution.
void read_final(Table& t, OptimizerSpec& s) {
  const std::string final = t.text("final", "best");
  if (final == "mean") s.final_mean = true;
  else if (final != "best") t.fail("final", "expected \"best\" or \"mean\"");
  if (s.final_mean && s.optimizer != "ce" && s.optimizer.rfind("cmaes", 0) != 0)
    t.fail("final", "\"mean\" needs a search distribution's mean: ce, cmaes or cmaes-active");
}

// A CBMPI entry: its options build (cbmpi_config.h), and one iteration fits the budget.
void check_cbmpi(const OptimizerSpec& s, const ExperimentConfig& c, Table& t) {
  std::int64_t bound = 0;
  try {
    bound = cbmpi::iteration_bound(entry_cbmpi_config(c, s, 1));
  } catch (const std::exception& e) {
    t.fail("options", e.what());
  }
  if (c.budget_pieces < bound)
    t.fail("optimizer", "cbmpi needs budget.pieces of at least one iteration's bound (" + std::to_string(bound) +
                            " pieces); budget.games does not apply to it");
}

OptimizerSpec read_optimizer(Table t, const ExperimentConfig& c) {
  OptimizerSpec s;
  s.optimizer = t.text("optimizer", "");
  if (s.optimizer.empty()) t.fail("optimizer", "missing");
  const bool td = td::is_td_learner(s.optimizer);
  const bool external = is_external(s);
  const bool cbmpi = is_cbmpi(s);
  bool known = td || external || cbmpi;
  for (auto n : optimizer_names()) known = known || n == s.optimizer;
  if (!known)
    t.fail("optimizer",
           "unknown optimizer '" + shown(s.optimizer) + "' (or TD learner td0, tdlambda, ntuple, cbmpi, or external)");
  s.features = t.text("features", td ? "td44" : cbmpi ? "dt" : c.features);
  if (!find_feature_set(s.features)) t.fail("features", "unknown feature set '" + shown(s.features) + "'");
  s.label = t.text("label", s.optimizer);
  if (!is_safe_slug(s.label))
    t.fail("label", "1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit (it names a folder)");
  s.sigma0 = t.real("sigma0", 1.0, 1e-300, 1e300);
  s.init_low = t.real("init_low", -1.0, -1e300, 1e300);
  s.init_high = t.real("init_high", 1.0, -1e300, 1e300);
  if (!(s.init_low < s.init_high)) t.fail("init_low", "must be below init_high");
  if (const toml::node* o = t.raw("options")) {
    if (!o->is_table()) t.fail("options", "expected a table");
    s.options = toml_to_json(*o);
  }
  if (external && !s.options.empty()) t.fail("options", "an external entry has no options: its optimizer runs outside");
  read_train_board(t, c, s);
  read_final(t, s);
  if (cbmpi) check_cbmpi(s, c, t);
  if (!td && !external && !cbmpi) check_optimizer(s, c, t);
  if (td) {
    check_td_rules(c, t);
    try {
      const td::TdConfig tc = td::make_td_config(s.optimizer, s.features, s.options, c.rules, 1);
      const std::int64_t step = static_cast<std::int64_t>(tc.games_per_step) * tc.pieces_per_step;
      if (c.budget_pieces < step)
        t.fail("optimizer", "a TD learner needs budget.pieces of at least one step (" + std::to_string(step) +
                                " pieces); budget.games does not apply to it");
    } catch (const std::exception& e) {  // unknown key, wrong type, out of range
      t.fail("options", e.what());
    }
    if (s.optimizer == "ntuple") {
      s.features = "ntuple-v1";
      if (c.heldout_boards.size() > 1) t.fail("optimizer", "an n-tuple network plays only its training board: drop heldout.boards");
    }
  }
  t.reject_unknown();
  return s;
}

toml::table parse_toml(const std::string& text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(msg.str());
  }
}

// The top-level keys: name, features, runs and seed.
void read_top(Table& top, ExperimentConfig& c) {
  c.name = top.text("name", "");
  if (!is_safe_slug(c.name))
    top.fail("name", "required: 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit "
                     "(it names a folder)");
  c.features = top.text("features", "bcts");
  if (!find_feature_set(c.features)) top.fail("features", "unknown feature set '" + shown(c.features) + "'");
  c.runs = static_cast<int>(top.integer("runs", 3, 1, limits::kMaxRuns));
  c.seed = static_cast<std::uint64_t>(top.integer("seed", 1, 0, kInt64Max));
}

void read_fitness(Table fit, ExperimentConfig& c) {
  c.fitness_games = static_cast<int>(fit.integer("games", 10, 1, kMaxFitnessGames));
  c.fitness_max_pieces = fit.integer("max_pieces", 10000, 0, limits::kMaxPieces);
  const auto stat = fit.text("statistic", "mean_lines");
  if (stat == "mean_lines") c.statistic = Statistic::mean_lines;
  else if (stat == "article1") c.statistic = Statistic::article1;
  else fit.fail("statistic", "expected mean_lines or article1");
  fit.reject_unknown();
}

void read_budget(Table budget, ExperimentConfig& c) {
  c.budget_pieces = budget.integer("pieces", 0, 0, limits::kMaxPieces);
  c.budget_games = budget.integer("games", 0, 0, limits::kMaxPieces);
  if (c.budget_pieces == 0 && c.budget_games == 0)
    budget.fail("", "set pieces and/or games (a positive hard cap per run)");
  budget.reject_unknown();
}

// heldout.boards: the training board comes first, then each other height listed.
void read_heldout_boards(Table& held, ExperimentConfig& c) {
  c.heldout_boards.push_back(c.rules.geometry);
  const toml::node* boards = held.raw("boards");
  if (!boards) return;
  const toml::array* a = boards->as_array();
  if (!a) held.fail("boards", "expected an array of \"WxH\" strings");
  if (c.rules.base != RuleSet::research)
    held.fail("boards", std::string("rule set ") + to_string(c.rules.base) + " fixes the board at " +
                            size_name(c.rules.geometry) + ": held-out boards are for research rules; drop them");
  check_length(held, "boards", a->size(), kMaxHeldoutBoards, "boards");
  for (const auto& b : *a) {
    auto s = b.value<std::string>();
    if (!s) held.fail("boards", "expected strings like \"10x12\"");
    const Geometry g = parse_geometry(*s, held, "boards");
    if (g.width != c.rules.geometry.width)
      held.fail("boards", "held-out boards must keep the training width (the weights depend on it)");
    if (g.height != c.rules.geometry.height) c.heldout_boards.push_back(g);
  }
}

void read_heldout_targets(Table& held, ExperimentConfig& c) {
  const toml::node* t = held.raw("targets");
  if (!t) return;
  const toml::array* a = t->as_array();
  if (!a) held.fail("targets", "expected an array of line counts");
  check_length(held, "targets", a->size(), kMaxTargets, "line counts");
  for (const auto& v : *a) {
    auto d = v.is_number() ? v.value<double>() : std::nullopt;
    if (!d || !(*d > 0) || !std::isfinite(*d)) held.fail("targets", "expected positive finite numbers");
    c.targets.push_back(*d);
  }
}

void read_heldout(Table held, ExperimentConfig& c) {
  // At least 2: a confidence interval needs two.
  c.heldout_games = static_cast<int>(held.integer("games", 100, 2, limits::kMaxGames));
  c.heldout_max_pieces = held.integer("max_pieces", 0, 0, limits::kMaxPieces);
  read_heldout_boards(held, c);
  read_heldout_targets(held, c);
  held.reject_unknown();
}

// [progress]: the cap defaults to the fitness cap, else the held-out cap; a progress game
// without any cap could last for ever on a good policy, so one of them must exist.
void read_progress(Table progress, ExperimentConfig& c) {
  c.progress_games = static_cast<int>(progress.integer("games", 10, 0, kMaxFitnessGames));
  const std::int64_t fallback = c.fitness_max_pieces > 0 ? c.fitness_max_pieces : c.heldout_max_pieces;
  c.progress_max_pieces = progress.integer("max_pieces", fallback, 0, limits::kMaxPieces);
  if (c.progress_games > 0 && c.progress_max_pieces == 0)
    progress.fail("max_pieces", "progress games need a piece cap: set it (or fitness.max_pieces), or set games = 0");
  progress.reject_unknown();
}

// The [[optimizer]] tables, read after every other table (they are checked against it);
// labels name folders, so no two may be the same.
void read_optimizers(const toml::table& root, Table& top, const std::string& origin, ExperimentConfig& c) {
  const toml::array* opts = root["optimizer"].as_array();
  top.raw("optimizer");
  if (!opts || opts->empty()) top.fail("optimizer", "add at least one [[optimizer]] table");
  check_length(top, "optimizer", opts->size(), kMaxOptimizers, "[[optimizer]] tables");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < opts->size(); ++i) {
    const std::string where = "optimizer[" + std::to_string(i) + "]";
    const toml::table* t = (*opts)[i].as_table();
    if (!t) top.fail("optimizer", "expected [[optimizer]] tables");
    c.optimizers.push_back(read_optimizer(Table(t, where, origin), c));
    if (!labels.insert(c.optimizers.back().label).second)
      top.fail("optimizer", "duplicate label '" + c.optimizers.back().label + "'");
  }
}

}  // namespace

ExperimentConfig parse_experiment(const std::string& text, const std::string& origin) {
  const toml::table root = parse_toml(text, origin);
  ExperimentConfig c;
  Table top(&root, "config", origin);
  read_top(top, c);
  read_rules(Table(root["rules"].as_table(), "rules", origin), c);
  top.raw("rules");
  read_fitness(Table(root["fitness"].as_table(), "fitness", origin), c);
  top.raw("fitness");
  read_budget(Table(root["budget"].as_table(), "budget", origin), c);
  top.raw("budget");
  read_heldout(Table(root["heldout"].as_table(), "heldout", origin), c);
  top.raw("heldout");
  read_progress(Table(root["progress"].as_table(), "progress", origin), c);
  top.raw("progress");
  read_optimizers(root, top, origin, c);
  top.reject_unknown();
  return c;
}

cbmpi::CbmpiConfig entry_cbmpi_config(const ExperimentConfig& c, const OptimizerSpec& s, std::uint64_t seed) {
  if (s.options.is_object() && s.options.contains("policy_features"))
    throw InputError("set the policy's feature set with the entry's `features`, not options.policy_features");
  nlohmann::json options = s.options;
  options["policy_features"] = s.features;
  return cbmpi::make_cbmpi_config(options, c.rules, seed);
}

OptimizerSetup entry_setup(const ExperimentConfig& c, const OptimizerSpec& s) {
  OptimizerSetup setup;
  setup.dim = find_feature_set(s.features)->dimension(c.rules.geometry.width);
  setup.x0 = Vector::Zero(setup.dim);  // learning from all-zero weights
  setup.sigma0 = s.sigma0;
  setup.init_low = s.init_low;
  setup.init_high = s.init_high;
  setup.options = s.options;
  return setup;
}

ExperimentConfig load_experiment(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, "config", kMaxConfigBytes);
  } catch (const InputError& e) {
    throw ConfigError(e.what());
  }
  return parse_experiment(text, path);
}

nlohmann::json to_json(const ExperimentConfig& c) {
  nlohmann::json boards = nlohmann::json::array();
  for (Geometry g : c.heldout_boards) boards.push_back(size_name(g));
  nlohmann::json opts = nlohmann::json::array();
  for (const OptimizerSpec& s : c.optimizers)
  {
    opts.push_back({{"label", s.label}, {"optimizer", s.optimizer}, {"features", s.features}, {"sigma0", s.sigma0},
                    {"init_low", s.init_low}, {"init_high", s.init_high}, {"options", s.options}});
    // Written only when set, so the configs of existing results folders read back unchanged.
    if (s.train_board.height > 0) opts.back()["train_board"] = size_name(s.train_board);
    if (s.final_mean) opts.back()["final"] = "mean";
  }
  return {{"name", c.name},
          {"features", c.features},
          {"rules", rule_set_name(c.rules)},
          {"board", boards[0]},
          {"runs", c.runs},
          {"seed", c.seed},
          {"fitness", {{"games", c.fitness_games}, {"max_pieces", c.fitness_max_pieces},
                       {"statistic", c.statistic == Statistic::mean_lines ? "mean_lines" : "article1"}}},
          {"budget", {{"pieces", c.budget_pieces}, {"games", c.budget_games}}},
          {"heldout", {{"games", c.heldout_games}, {"max_pieces", c.heldout_max_pieces},
                       {"boards", boards}, {"targets", c.targets}}},
          {"progress", {{"games", c.progress_games}, {"max_pieces", c.progress_max_pieces}}},
          {"optimizers", opts}};
}

}  // namespace tb::opt
