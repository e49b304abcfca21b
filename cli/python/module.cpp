// The `tetrisbench` Python module (docs/python.md): the built-in fitness of a comparison
// config for outside optimizers, and the building blocks around it (play, feature values,
// afterstates, policy files).  Every call that plays games releases the GIL and runs on the
// engine's oneTBB threads.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "candidate_block.h"
#include "compare_run.h"
#include "error.h"
#include "evaluator.h"
#include "experiment_config.h"
#include "file_io.h"
#include "json_fields.h"
#include "kernel_variants.h"
#include "materialize.h"
#include "parallel_play.h"
#include "policy.h"
#include "rule_sets.h"
#include "summary.h"
#include "tetris_fitness.h"

namespace py = pybind11;

namespace tb::python {
namespace {

using Json = nlohmann::json;

// The engine's bad input is Python's ValueError; a run that could not finish, RuntimeError.
[[noreturn]] void value_error(const std::string& what) { throw py::value_error(what); }

py::object to_python(const Json& j) {
  const py::module_ json = py::module_::import("json");
  return json.attr("loads")(j.dump());
}

FeatureKernel kernel_named(const std::string& name) {
  if (name.empty()) return best_kernel().kernel;
  const KernelVariant* v = find_kernel(name);
  if (!v) value_error("unknown kernel '" + name + "' (reference, scalar, sse4.2, avx2 or avx512)");
  if (!v->supported()) value_error("this CPU does not run the " + name + " kernel");
  return v->kernel;
}

int checked_threads(int threads) {
  if (threads < 0 || threads > 1024) value_error("threads must be in 0..1024 (0 = every core)");
  return threads;
}

// A weight matrix from Python: 2-D, `dim` columns, finite; returned as the optimizer layer's
// (dim x lambda) matrix, one candidate per column.
opt::Matrix candidates(const py::array_t<double, py::array::c_style | py::array::forcecast>& x, int dim) {
  if (x.ndim() != 2)
    value_error("weights must be a 2-D array (candidates x " + std::to_string(dim) + "), not " +
                std::to_string(x.ndim()) + "-D");
  if (x.shape(1) != dim)
    value_error("weights have " + std::to_string(x.shape(1)) + " columns but the feature set needs " +
                std::to_string(dim));
  if (x.shape(0) < 1) value_error("weights have no rows");
  const auto view = x.unchecked<2>();
  opt::Matrix m(dim, x.shape(0));
  for (py::ssize_t k = 0; k < x.shape(0); ++k)
    for (py::ssize_t i = 0; i < dim; ++i) {
      const double w = view(k, i);
      if (!std::isfinite(w))
        value_error("weight [" + std::to_string(k) + ", " + std::to_string(i) + "] is not finite");
      m(i, k) = w;
    }
  return m;
}

// The built-in fitness of a comparison config (docs/experiments.md), for run `run` of an
// outside optimizer: generation t's candidates play the config's fitness games on the streams
// of (run seed, t), capped as compare caps them, and the budget is counted in pieces and games
// as compare counts it.
class Fitness {
 public:
  // `label` names an external entry of the config (is_external) whose run this is: its feature
  // set, and where write_run() puts the run.  Empty: the config's feature set, no write_run.
  Fitness(opt::ExperimentConfig c, int run, const std::string& label, int threads, const std::string& kernel)
      : c_(std::move(c)), run_(run), threads_(checked_threads(threads)), kernel_(kernel_named(kernel)) {
    if (run < 0 || run >= c_.runs) value_error("run must be in 0.." + std::to_string(c_.runs - 1) + " (the config's runs)");
    features_ = c_.features;
    if (!label.empty()) {
      for (std::size_t k = 0; k < c_.optimizers.size(); ++k)
        if (c_.optimizers[k].label == label) spec_ = static_cast<int>(k);
      if (spec_ < 0) value_error("the config has no [[optimizer]] labelled '" + label + "'");
      if (!opt::is_external(c_.optimizers[static_cast<std::size_t>(spec_)]))
        value_error("entry '" + label + "' is not optimizer = \"external\"; compare trains it itself");
      features_ = c_.optimizers[static_cast<std::size_t>(spec_)].features;
    }
    const FeatureSet* set = find_feature_set(features_);
    if (!set) value_error("unknown feature set '" + features_ + "'");
    dim_ = set->dimension(c_.rules.geometry.width);
    seed_ = opt::run_seed(c_, run_);
  }

  // The statistic (mean lines, or the config's objective; higher is better) of each row, as
  // generation `generation_` of the run; then the budget and generation count move on.
  py::array_t<double> next(const py::array_t<double, py::array::c_style | py::array::forcecast>& x) {
    const opt::Matrix m = candidates(x, dim_);
    const std::int64_t cap = opt::generation_cap(c_, pieces_, games_, m.cols());
    if (cap == 0) throw BudgetExhausted();
    const auto start = std::chrono::steady_clock::now();
    const opt::GenerationFitness fit = play(m, generation_, cap < 0 ? 0 : cap);
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    pieces_ += fit.pieces;
    games_ += fit.games;
    evaluations_ += m.cols();
    // The run's record, as compare keeps it: the best so far (first of equals) and its weights.
    Eigen::Index arg = 0;
    double sum = 0;
    for (Eigen::Index k = 0; k < m.cols(); ++k) {
      sum += fit.statistic[static_cast<std::size_t>(k)];
      if (fit.statistic[static_cast<std::size_t>(k)] > fit.statistic[static_cast<std::size_t>(arg)]) arg = k;
    }
    if (records_.empty() || fit.statistic[static_cast<std::size_t>(arg)] > best_) {
      best_ = fit.statistic[static_cast<std::size_t>(arg)];
      best_x_ = m.col(arg);
    }
    // The population's spread: the root mean square distance of its rows from their mean.
    const opt::Vector mean = m.rowwise().mean();
    const double spread = std::sqrt((m.colwise() - mean).squaredNorm() / static_cast<double>(m.cols()));
    records_.push_back(opt::generation_row(generation_, evaluations_, pieces_, games_, best_,
                                           fit.statistic[static_cast<std::size_t>(arg)],
                                           sum / static_cast<double>(m.cols()), spread, fit.capped_games, seconds_));
    ++generation_;
    return statistic(fit);
  }

  // Writes this run into a results folder of `compare` for the same config, where compare put
  // the external entry's run folder: result.json (held-out games of the best weights seen,
  // as compare's runs do), generations.csv and final.policy.  Then `compare --resume FOLDER`
  // reports it beside the built-in optimizers.  Never replaces a result.
  py::object write_run(const std::string& folder, const std::string& stop_reason) {
    if (spec_ < 0) value_error("write_run needs the label of an external entry: Fitness(config, run, label=...)");
    if (records_.empty()) value_error("nothing was evaluated yet: call the fitness first");
    const Json meta = opt::read_json_file(folder + "/metadata.json", "run metadata");
    if (!meta.contains("experiment") || meta["experiment"] != opt::to_json(c_))
      value_error("'" + folder + "' is not a results folder of this config (its metadata.json holds another experiment)");
    // Each step below the results folder is a real folder, never a link out of it.
    const std::string dir = folder_inside(folder, opt::run_folder_name(c_, spec_, run_), false);
    if (!std::filesystem::is_directory(dir)) value_error("'" + dir + "' does not exist: run `tetrisbench compare` on the config first");
    if (path_exists(dir + "/result.json")) value_error("'" + dir + "/result.json' exists already; it is not replaced");
    if (stop_reason.empty() || stop_reason.size() > 200) value_error("stop_reason must be 1 to 200 characters");
    opt::FinishedRun f;
    f.records = records_;
    f.pieces = pieces_;
    f.games = games_;
    f.generations = generation_;
    f.seconds = seconds_;
    f.best_training = best_;
    f.reasons = {stop_reason};
    Json result;
    {
      py::gil_scoped_release free;
      result = opt::finish_run(c_, spec_, run_, dir, opt::policy_from(best_x_, features_, ""), f, threads_, kernel_);
    }
    return to_python(result);
  }

  // Any generation, with the config's fitness cap, without touching the budget.
  py::array_t<double> evaluate(const py::array_t<double, py::array::c_style | py::array::forcecast>& x,
                               std::int64_t generation) {
    if (generation < 0) value_error("generation must be >= 0");
    const opt::Matrix m = candidates(x, dim_);
    return statistic(play(m, generation, c_.fitness_max_pieces));
  }

  // The held-out games of one weight vector on every held-out board, as result.json holds them.
  py::object heldout(const py::array_t<double, py::array::c_style | py::array::forcecast>& w) {
    py::array_t<double, py::array::c_style | py::array::forcecast> row = w;
    if (row.ndim() == 1) row = row.reshape({py::ssize_t{1}, row.shape(0)});
    const opt::Matrix m = candidates(row, dim_);
    if (m.cols() != 1) value_error("heldout takes one weight vector");
    Policy p = opt::policy_from(m.col(0), features_, "python");
    Json out = Json::object();
    {
      py::gil_scoped_release free;
      for (Geometry g : c_.heldout_boards)
        out[size_name(g)] = opt::heldout_json(opt::heldout_games(p, c_, g, threads_, kernel_));
    }
    return to_python(out);
  }

  int dimension() const { return dim_; }
  std::int64_t generation() const { return generation_; }
  std::int64_t pieces() const { return pieces_; }
  std::int64_t games() const { return games_; }
  std::uint64_t seed() const { return seed_; }
  const opt::ExperimentConfig& config() const { return c_; }
  const std::string& features() const { return features_; }

  struct BudgetExhausted : std::exception {
    const char* what() const noexcept override { return "the budget of the config is spent"; }
  };

 private:
  opt::GenerationFitness play(const opt::Matrix& m, std::int64_t generation, std::int64_t cap) const {
    py::gil_scoped_release free;
    return opt::evaluate_generation(m, features_, c_, seed_, generation, cap, threads_, kernel_);
  }
  static py::array_t<double> statistic(const opt::GenerationFitness& fit) {
    py::array_t<double> out(static_cast<py::ssize_t>(fit.statistic.size()));
    auto v = out.mutable_unchecked<1>();
    for (std::size_t k = 0; k < fit.statistic.size(); ++k) v(static_cast<py::ssize_t>(k)) = fit.statistic[k];
    return out;
  }

  opt::ExperimentConfig c_;
  std::string features_;
  int spec_ = -1;  // the external entry, if any
  Json records_ = Json::array();
  double best_ = 0, seconds_ = 0;
  opt::Vector best_x_;
  std::int64_t evaluations_ = 0;
  int run_;
  int threads_;
  FeatureKernel kernel_;
  int dim_ = 0;
  std::uint64_t seed_ = 0;
  std::int64_t generation_ = 0, pieces_ = 0, games_ = 0;
};

// A comparison config from Python keywords, as the text compare reads, so that every value
// goes through the same parser and range checks (docs/experiments.md).  Names are checked to
// be plain tokens before they go into the text: no quoting tricks reach the parser.
std::string config_text(const py::kwargs& kw) {
  static const std::pair<const char*, const char*> kKeys[] = {
      {"features", ""},      {"runs", ""},           {"seed", ""},           {"rules", "rules"},
      {"board", "rules"},    {"games", "fitness"},   {"max_pieces", "fitness"},
      {"budget_pieces", "budget"}, {"budget_games", "budget"}, {"heldout_games", "heldout"},
      {"heldout_max_pieces", "heldout"}, {"heldout_boards", "heldout"}};
  const auto token = [](const py::handle& v, const std::string& key) {
    const std::string t = py::cast<std::string>(v);
    if (t.empty() || t.size() > 64 ||
        t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-_.") != std::string::npos)
      value_error(key + ": expected a name such as \"bcts\" or \"10x10\"");
    return "\"" + t + "\"";
  };
  const auto value = [&](const py::handle& v, const std::string& key) -> std::string {
    if (py::isinstance<py::str>(v)) return token(v, key);
    if (py::isinstance<py::bool_>(v)) value_error(key + ": expected a number or a name");
    if (py::isinstance<py::int_>(v)) return std::to_string(py::cast<long long>(v));
    if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
      std::string out = "[";
      for (const py::handle& item : v) out += (out.size() > 1 ? ", " : "") + token(item, key);
      return out + "]";
    }
    value_error(key + ": expected a whole number, a name or a list of names");
  };
  std::map<std::string, std::string> sections;
  std::string top = "name = \"python\"\n";
  for (const auto& [key, handle] : kw) {
    const std::string k = py::cast<std::string>(key);
    const auto* known = std::find_if(std::begin(kKeys), std::end(kKeys), [&](const auto& e) { return k == e.first; });
    if (known == std::end(kKeys)) value_error("unknown keyword '" + k + "'");
    std::string field = k;
    if (field.rfind("budget_", 0) == 0) field = field.substr(7);
    if (field.rfind("heldout_", 0) == 0) field = field.substr(8);
    const std::string line = field + " = " + value(handle, k) + "\n";
    if (*known->second) sections[known->second] += line;
    else top += line;
  }
  std::string text = top;
  for (const auto& [section, lines] : sections) text += "\n[" + section + "]\n" + lines;
  return text + "\n[[optimizer]]\noptimizer = \"external\"\nlabel = \"python\"\n";
}

// A board from Python: H x W, row 0 at the top as printed, nonzero = filled.
Board board_from(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& a, Geometry g) {
  if (a.ndim() != 2 || a.shape(0) != g.height || a.shape(1) != g.width)
    value_error("the board must be a " + std::to_string(g.height) + " x " + std::to_string(g.width) +
                " array (rows x columns, top row first)");
  const auto v = a.unchecked<2>();
  Board b;
  for (int r = 0; r < g.height; ++r)
    for (int c = 0; c < g.width; ++c)
      if (v(r, c) != 0) b.cols[c] |= Word{1} << (g.height - 1 - r);
  return b;
}

Rules rules_named(const std::string& rules, const std::string& board) {
  RuleChoices choice;
  choice.rules = rules;
  choice.board = board;
  return choose_rules(choice);
}

Piece piece_named(const std::string& name) {
  static constexpr const char* kNames = "IOTSZJL";
  if (name.size() == 1)
    for (int p = 0; p < PIECE_NB; ++p)
      if (name[0] == kNames[p]) return static_cast<Piece>(p);
  value_error("unknown piece '" + name + "' (one of I, O, T, S, Z, J, L)");
}

// The values of a feature set's weights for the candidates of a block: the evaluator's terms
// with every weight 1 (the landing height's term is 2 x landing height, halved back).
struct BlockFeatures {
  int dim = 0;
  std::vector<double> values;  // (candidates, dim)
  std::vector<bool> move;      // (dim) a move feature (landing height, eroded cells, lines)
};

BlockFeatures block_features(const FeatureSet& set, CandidateBlock& block, Geometry g, int k_count) {
  BlockFeatures f;
  Policy p;
  p.features = &set;
  f.dim = set.dimension(g.width);
  p.weights.assign(static_cast<std::size_t>(f.dim), 1.0);
  const LinearEvaluator ev(p, g, best_kernel().kernel);
  ev.score(block);
  const std::vector<LinearTerm>& terms = ev.terms();
  if (static_cast<int>(terms.size()) != f.dim) value_error("internal: the feature terms do not match the set");
  f.values.resize(static_cast<std::size_t>(k_count) * static_cast<std::size_t>(f.dim));
  for (const LinearTerm& t : terms) f.move.push_back(t.slot >= SLOT_NB);
  for (int k = 0; k < k_count; ++k)
    for (int i = 0; i < f.dim; ++i) {
      const LinearTerm& t = terms[static_cast<std::size_t>(i)];
      f.values[static_cast<std::size_t>(k * f.dim + i)] = t.weight * block.value(t.slot, k);
    }
  return f;
}

// Feature values of one board.  Move features (landing height, eroded cells, lines) belong to
// a move, not a board: NaN here (afterstates() gives them).
py::array_t<double> features(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& board,
                             const std::string& feature_set, const std::string& size) {
  const FeatureSet* set = find_feature_set(feature_set);
  if (!set) value_error("unknown feature set '" + feature_set + "'");
  const Geometry g = parse_board_size(size);
  const Board b = board_from(board, g);
  auto block = std::make_unique<CandidateBlock>();
  block->values.fill(0);
  block->count = 1;
  block->lanes = kLaneMultiple;
  block->width = g.width;
  block->cols.fill(0);
  for (int c = 0; c < g.width; ++c) block->cols[static_cast<std::size_t>(c) * kBlockCapacity] = b.cols[c];
  block->terminal.fill(false);
  BlockFeatures f = block_features(*set, *block, g, 1);
  for (int i = 0; i < f.dim; ++i)
    if (f.move[static_cast<std::size_t>(i)]) f.values[static_cast<std::size_t>(i)] = std::nan("");
  py::array_t<double> out(f.dim);
  std::copy(f.values.begin(), f.values.end(), out.mutable_data());
  return out;
}

// Every placement of `piece` on `board` under the rules: what a policy chooses from.
py::dict afterstates(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& board,
                     const std::string& piece, const std::string& rules, const std::string& size,
                     const std::string& feature_set) {
  const Rules r = rules_named(rules, size);
  if (r.placement != PlacementModel::drop)
    value_error("afterstates supports drop placements (research rules) only so far");
  const Geometry g = r.geometry;
  const Board b = board_from(board, g);
  auto block = std::make_unique<CandidateBlock>();
  materialize(*block, b, piece_named(piece), g, r.overflow);
  const int n = block->count;
  py::array_t<std::int32_t> placements({n, 3});
  py::array_t<std::uint8_t> boards({n, g.height, g.width});
  py::array_t<std::int32_t> lines(n);
  py::array_t<bool> over(n);
  auto pv = placements.mutable_unchecked<2>();
  auto bv = boards.mutable_unchecked<3>();
  for (int k = 0; k < n; ++k) {
    const Placement pl = block->placed(k);
    pv(k, 0) = pl.orientation;
    pv(k, 1) = pl.column;
    pv(k, 2) = pl.row;
    const Board after = block->board(k);
    for (int row = 0; row < g.height; ++row)
      for (int c = 0; c < g.width; ++c) bv(k, row, c) = (after.cols[c] >> (g.height - 1 - row)) & 1u;
    lines.mutable_data()[k] = block->value(MOVE_LINES, k);
    over.mutable_data()[k] = block->terminal[static_cast<std::size_t>(k)];
  }
  py::dict out;
  out["placements"] = placements;
  out["boards"] = boards;
  out["lines"] = lines;
  out["game_over"] = over;
  if (!feature_set.empty()) {
    const FeatureSet* set = find_feature_set(feature_set);
    if (!set) value_error("unknown feature set '" + feature_set + "'");
    const BlockFeatures f = block_features(*set, *block, g, n);
    py::array_t<double> values({n, f.dim});
    std::copy(f.values.begin(), f.values.end(), values.mutable_data());
    out["features"] = values;
  }
  return out;
}

// `tetrisbench play`'s summary and games as a dict.
py::object play(const std::string& policy, const std::string& rules, const std::string& size, std::int64_t games,
                std::uint64_t seed, std::int64_t max_pieces, int threads, const std::string& kernel) {
  if (games < 1 || games > 100000000) value_error("games must be in 1..100000000");
  if (max_pieces < 0) value_error("max_pieces must be >= 0 (0 = no cap)");
  GameConfig config;
  config.rules = rules_named(rules, size);
  config.seed = seed;
  config.max_pieces = max_pieces;
  const Policy p = load_policy(policy);
  std::vector<GameResult> results;
  {
    py::gil_scoped_release free;
    results = play_games(p, config, games, checked_threads(threads), kernel_named(kernel), nullptr);
  }
  const PlaySummary s = summarize(results);
  Json out = {{"policy", p.name}, {"rules", rule_set_name(config.rules)}, {"board", size_name(config.rules.geometry)},
              {"seed", seed}, {"summary", opt::summary_json(s)}, {"games", Json::array()}};
  for (const GameResult& r : results)
    out["games"].push_back({{"index", r.index}, {"lines", r.lines}, {"pieces", r.pieces}, {"capped", r.capped}});
  return to_python(out);
}

}  // namespace
}  // namespace tb::python

PYBIND11_MODULE(tetrisbench, m) {
  using namespace tb::python;
  m.doc() = "tetrisbench: the engine and the built-in fitness of `tetrisbench compare` (docs/python.md)";
  py::register_exception<Fitness::BudgetExhausted>(m, "BudgetExhausted", PyExc_Exception);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tb::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const tb::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  py::class_<Fitness>(m, "Fitness",
                      "The fitness of `tetrisbench compare CONFIG` for run `run` of an outside optimizer")
      .def(py::init([](const std::string& config, int run, const std::string& label, int threads,
                       const std::string& kernel) {
             return std::make_unique<Fitness>(tb::opt::load_experiment(config), run, label, threads, kernel);
           }),
           py::arg("config"), py::arg("run") = 0, py::arg("label") = "", py::arg("threads") = 0,
           py::arg("kernel") = "")
      .def_static(
          "from_toml",
          [](const std::string& text, int run, const std::string& label, int threads, const std::string& kernel) {
            return std::make_unique<Fitness>(tb::opt::parse_experiment(text, "<toml text>"), run, label, threads,
                                             kernel);
          },
          py::arg("text"), py::arg("run") = 0, py::arg("label") = "", py::arg("threads") = 0, py::arg("kernel") = "",
          "The same from the text of a config")
      .def_static(
          "from_keywords",
          [](int run, int threads, const std::string& kernel, const py::kwargs& kw) {
            return std::make_unique<Fitness>(tb::opt::parse_experiment(config_text(kw), "<keywords>"), run, "",
                                             threads, kernel);
          },
          py::arg("run") = 0, py::arg("threads") = 0, py::arg("kernel") = "",
          "The same from a config's keywords: features, runs, seed, rules, board, games, max_pieces, "
          "budget_pieces, budget_games, heldout_games, heldout_max_pieces, heldout_boards (a config's "
          "defaults for the rest)")
      .def("__call__", &Fitness::next, py::arg("weights"),
           "Statistic (higher is better) of each row of a (candidates x dimension) array, as the next "
           "generation; raises BudgetExhausted when the budget has no room for it")
      .def("evaluate", &Fitness::evaluate, py::arg("weights"), py::arg("generation"),
           "The statistic of each row as generation `generation`, with the config's fitness cap; the "
           "budget is not counted")
      .def("heldout", &Fitness::heldout, py::arg("weights"),
           "The held-out games of one weight vector on every held-out board (result.json's held_out)")
      .def_property_readonly("dimension", &Fitness::dimension)
      .def_property_readonly("generation", &Fitness::generation)
      .def_property_readonly("pieces", &Fitness::pieces)
      .def_property_readonly("games", &Fitness::games)
      .def_property_readonly("seed", &Fitness::seed)
      .def_property_readonly("runs", [](const Fitness& f) { return f.config().runs; })
      .def("write_run", &Fitness::write_run, py::arg("folder"), py::arg("stop_reason") = "external optimizer stopped",
           "Write this run (the best weights seen, their held-out games, every generation) into compare's "
           "results folder of the same config; needs the label of an external entry")
      .def_property_readonly("features", [](const Fitness& f) { return f.features(); });

  m.def("play", &play, py::arg("policy") = "bcts", py::arg("rules") = "research", py::arg("board") = "",
        py::arg("games") = 10, py::arg("seed") = 1, py::arg("max_pieces") = 0, py::arg("threads") = 0,
        py::arg("kernel") = "", "Play games of a built-in policy or a policy file: summary and games as a dict");
  m.def("features", &features, py::arg("board"), py::arg("feature_set"), py::arg("size") = "10x20",
        "Feature values of a board (H x W array, top row first); move features are NaN");
  m.def("afterstates", &afterstates, py::arg("board"), py::arg("piece"), py::arg("rules") = "research",
        py::arg("size") = "10x20", py::arg("feature_set") = "",
        "Every placement of a piece: placements (orientation, column, row), boards, lines, game_over, "
        "and with feature_set the feature values of each");
  m.def(
      "read_policy",
      [](const std::string& path) {
        const tb::Policy p = tb::load_policy(path);
        py::dict d;
        d["name"] = p.name;
        d["features"] = p.features ? std::string(p.features->name) : std::string("ntuple");
        d["weights"] = p.weights;
        d["rules"] = p.rules;
        return d;
      },
      py::arg("path"), "A policy file's name, feature set, weights and rules");
  m.def(
      "format_policy",
      [](const std::vector<double>& weights, const std::string& features, const std::string& name) {
        tb::Policy p;
        p.features = tb::find_feature_set(features);
        if (!p.features) value_error("unknown feature set '" + features + "'");
        for (double w : weights)
          if (!std::isfinite(w)) value_error("a weight is not finite");
        p.weights = weights;
        p.name = name;
        return tb::format_policy(p);
      },
      py::arg("weights"), py::arg("features"), py::arg("name") = "python",
      "The text of a policy file (docs/policy-format.md); write it to a file for `tetrisbench play`");
}
