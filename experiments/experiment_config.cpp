#include "experiment_config.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "feature_set.h"
#include "optimizer.h"
#include "td_training.h"

namespace tb::opt {
namespace {

// Reads keys of one table, rejecting keys it does not know.
class Table {
 public:
  Table(const toml::table* t, std::string where, const std::string& origin)
      : t_(t), where_(std::move(where)), origin_(origin) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw ConfigError(origin_ + ": " + where_ + (key.empty() ? "" : "." + key) + ": " + what);
  }
  template <class T>
  T get(const std::string& key, T fallback) {
    seen_.insert(key);
    if (!t_) return fallback;
    const toml::node* n = t_->get(key);
    if (!n) return fallback;
    if constexpr (std::is_same_v<T, std::string>) {
      if (auto v = n->value<std::string>()) return *v;
      fail(key, "expected a string");
    } else if constexpr (std::is_same_v<T, double>) {
      if (auto v = n->value<double>()) return *v;
      fail(key, "expected a number");
    } else {
      if (auto v = n->value<std::int64_t>()) return static_cast<T>(*v);
      fail(key, "expected an integer");
    }
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

Geometry parse_geometry(const std::string& text, Table& t, const std::string& key) {
  const std::optional<Geometry> g = parse_size(text);
  if (!g) t.fail(key, "expected WxH, not '" + text + "'");
  if (const std::string why = check_geometry(*g); !why.empty()) t.fail(key, why);
  return *g;
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
  if (auto v = n.value<std::int64_t>(); v && n.is_integer()) return *v;
  if (auto v = n.value<double>()) return *v;
  if (auto v = n.value<bool>()) return *v;
  if (auto v = n.value<std::string>()) return *v;
  return nullptr;
}

void read_rules(Table t, ExperimentConfig& c) {
  c.rules.geometry = parse_geometry(t.get<std::string>("board", "10x10"), t, "board");
  const auto gen = t.get<std::string>("generator", "uniform");
  if (gen == "uniform") c.rules.generator = Generator::uniform;
  else if (gen == "bag7") c.rules.generator = Generator::bag7;
  else t.fail("generator", "expected uniform or bag7");
  const auto over = t.get<std::string>("overflow", "strict");
  if (over == "strict") c.rules.overflow = Overflow::strict;
  else if (over == "clear-first") c.rules.overflow = Overflow::clear_first;
  else t.fail("overflow", "expected strict or clear-first");
  c.rules.lookahead = t.get<int>("lookahead", 0);
  if (c.rules.lookahead != 0 && c.rules.lookahead != 1) t.fail("lookahead", "expected 0 or 1");
  t.reject_unknown();
}

OptimizerSpec read_optimizer(Table t, const ExperimentConfig& c) {
  OptimizerSpec s;
  s.optimizer = t.get<std::string>("optimizer", "");
  if (s.optimizer.empty()) t.fail("optimizer", "missing");
  const bool td = td::is_td_learner(s.optimizer);
  bool known = td;
  for (auto n : optimizer_names()) known = known || n == s.optimizer;
  if (!known) t.fail("optimizer", "unknown optimizer '" + s.optimizer + "' (or TD learner td0, tdlambda, ntuple)");
  s.features = t.get<std::string>("features", td ? "td44" : c.features);
  if (!find_feature_set(s.features)) t.fail("features", "unknown feature set '" + s.features + "'");
  s.label = t.get<std::string>("label", s.optimizer);
  if (!std::regex_match(s.label, std::regex("[A-Za-z0-9_.-]+")))
    t.fail("label", "use letters, digits, '-', '_' or '.' (it names a folder)");
  s.sigma0 = t.get<double>("sigma0", 1.0);
  s.init_low = t.get<double>("init_low", -1.0);
  s.init_high = t.get<double>("init_high", 1.0);
  if (!(s.sigma0 > 0)) t.fail("sigma0", "must be > 0");
  if (!(s.init_low < s.init_high)) t.fail("init_low", "must be below init_high");
  if (const toml::node* o = t.raw("options")) {
    if (!o->is_table()) t.fail("options", "expected a table");
    s.options = toml_to_json(*o);
  }
  if (td) {
    try {
      const td::TdConfig tc = td::make_td_config(s.optimizer, s.features, s.options, c.rules, 1);
      const std::int64_t step = static_cast<std::int64_t>(tc.games_per_step) * tc.pieces_per_step;
      if (c.budget_pieces < step)
        t.fail("optimizer", "a TD learner needs budget.pieces of at least one step (" + std::to_string(step) +
                                " pieces); budget.games does not apply to it");
    } catch (const std::invalid_argument& e) {
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

}  // namespace

ExperimentConfig parse_experiment(const std::string& text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(msg.str());
  }
  ExperimentConfig c;
  Table top(&root, "config", origin);
  c.name = top.get<std::string>("name", "");
  if (!std::regex_match(c.name, std::regex("[A-Za-z0-9_.-]+")))
    top.fail("name", "required; letters, digits, '-', '_' or '.' (it names a folder)");
  c.features = top.get<std::string>("features", "bcts");
  if (!find_feature_set(c.features)) top.fail("features", "unknown feature set '" + c.features + "'");
  c.runs = top.get<int>("runs", 3);
  if (c.runs < 1) top.fail("runs", "must be >= 1");
  c.seed = top.get<std::uint64_t>("seed", 1);

  read_rules(Table(root["rules"].as_table(), "rules", origin), c);
  top.raw("rules");

  Table fit(root["fitness"].as_table(), "fitness", origin);
  top.raw("fitness");
  c.fitness_games = fit.get<int>("games", 10);
  c.fitness_max_pieces = fit.get<std::int64_t>("max_pieces", 10000);
  const auto stat = fit.get<std::string>("statistic", "mean_lines");
  if (stat == "mean_lines") c.statistic = Statistic::mean_lines;
  else if (stat == "article1") c.statistic = Statistic::article1;
  else fit.fail("statistic", "expected mean_lines or article1");
  if (c.fitness_games < 1) fit.fail("games", "must be >= 1");
  if (c.fitness_max_pieces < 0) fit.fail("max_pieces", "must be >= 0 (0 = no cap)");
  fit.reject_unknown();

  Table budget(root["budget"].as_table(), "budget", origin);
  top.raw("budget");
  c.budget_pieces = budget.get<std::int64_t>("pieces", 0);
  c.budget_games = budget.get<std::int64_t>("games", 0);
  if (c.budget_pieces <= 0 && c.budget_games <= 0)
    budget.fail("", "set pieces and/or games (a positive hard cap per run)");
  budget.reject_unknown();

  Table held(root["heldout"].as_table(), "heldout", origin);
  top.raw("heldout");
  c.heldout_games = held.get<int>("games", 100);
  c.heldout_max_pieces = held.get<std::int64_t>("max_pieces", 0);
  if (c.heldout_games < 2) held.fail("games", "must be >= 2 (a confidence interval needs two)");
  c.heldout_boards.push_back(c.rules.geometry);
  if (const toml::node* boards = held.raw("boards")) {
    const toml::array* a = boards->as_array();
    if (!a) held.fail("boards", "expected an array of \"WxH\" strings");
    for (const auto& b : *a) {
      auto s = b.value<std::string>();
      if (!s) held.fail("boards", "expected strings like \"10x12\"");
      const Geometry g = parse_geometry(*s, held, "boards");
      if (g.width != c.rules.geometry.width)
        held.fail("boards", "held-out boards must keep the training width (the weights depend on it)");
      if (g.height != c.rules.geometry.height) c.heldout_boards.push_back(g);
    }
  }
  if (const toml::node* t = held.raw("targets")) {
    const toml::array* a = t->as_array();
    if (!a) held.fail("targets", "expected an array of line counts");
    for (const auto& v : *a) {
      auto d = v.value<double>();
      if (!d || *d <= 0) held.fail("targets", "expected positive numbers");
      c.targets.push_back(*d);
    }
  }
  held.reject_unknown();

  const toml::array* opts = root["optimizer"].as_array();
  top.raw("optimizer");
  if (!opts || opts->empty()) top.fail("optimizer", "add at least one [[optimizer]] table");
  std::set<std::string> labels;
  for (std::size_t i = 0; i < opts->size(); ++i) {
    const std::string where = "optimizer[" + std::to_string(i) + "]";
    const toml::table* t = (*opts)[i].as_table();
    if (!t) top.fail("optimizer", "expected [[optimizer]] tables");
    c.optimizers.push_back(read_optimizer(Table(t, where, origin), c));
    if (!labels.insert(c.optimizers.back().label).second)
      top.fail("optimizer", "duplicate label '" + c.optimizers.back().label + "'");
  }
  top.reject_unknown();
  return c;
}

ExperimentConfig load_experiment(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("cannot read config '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_experiment(text.str(), path);
}

nlohmann::json to_json(const ExperimentConfig& c) {
  nlohmann::json boards = nlohmann::json::array();
  for (Geometry g : c.heldout_boards) boards.push_back(std::to_string(g.width) + "x" + std::to_string(g.height));
  nlohmann::json opts = nlohmann::json::array();
  for (const OptimizerSpec& s : c.optimizers)
    opts.push_back({{"label", s.label}, {"optimizer", s.optimizer}, {"features", s.features}, {"sigma0", s.sigma0},
                    {"init_low", s.init_low}, {"init_high", s.init_high}, {"options", s.options}});
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
          {"optimizers", opts}};
}

}  // namespace tb::opt
