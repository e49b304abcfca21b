#include "fitness.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "arguments.h"
#include "blocks.h"
#include "checked_number.h"
#include "compare_run.h"
#include "error.h"
#include "experiment_config.h"
#include "file_io.h"
#include "input_limits.h"
#include "json_fields.h"
#include "parallel_play.h"
#include "summary.h"
#include "tetris_fitness.h"
#include "to_python.h"

namespace tb::python {
namespace {

namespace py = pybind11;
using Json = nlohmann::json;

[[noreturn]] void value_error(const std::string& what) { throw py::value_error(what); }

struct BudgetExhausted : std::exception {
  const char* what() const noexcept override { return "the budget of the config is spent"; }
};

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

// The built-in fitness of a comparison config (docs/experiments.md), for run `run` of an
// outside optimizer: generation t's candidates play the config's fitness games on the streams
// of (run seed, t), capped as compare caps them, and the budget is counted in pieces and games
// as compare counts it.  One object may be called from several Python threads: its
// generations run one at a time, each claiming its budget and number under the object's lock.
class Fitness {
 public:
  // `label` names an external entry of the config (is_external) whose run this is: its feature
  // set, and where write_run() puts the run.  Empty: the config's feature set, no write_run.
  Fitness(opt::ExperimentConfig c, const py::handle& run, const py::handle& label, const py::handle& threads,
          const py::handle& kernel)
      : c_(std::move(c)),
        run_(static_cast<int>(integer(run, 0, c_.runs - 1, "run"))),
        threads_(python::threads(threads)),
        kernel_(python::kernel(kernel)) {
    features_ = c_.features;
    if (const std::string name = text(label, "label"); !name.empty()) {
      for (std::size_t k = 0; k < c_.optimizers.size(); ++k)
        if (c_.optimizers[k].label == name) spec_ = static_cast<int>(k);
      if (spec_ < 0) throw InputError("the config has no [[optimizer]] labelled '" + shown(name) + "'");
      if (!opt::is_external(c_.optimizers[static_cast<std::size_t>(spec_)]))
        value_error("entry '" + name + "' is not optimizer = \"external\"; compare trains it itself");
      features_ = c_.optimizers[static_cast<std::size_t>(spec_)].features;
    }
    const FeatureSet* set = find_feature_set(features_);
    if (!set) value_error("unknown feature set '" + features_ + "'");
    dim_ = set->dimension(c_.rules.geometry.width);
    seed_ = opt::run_seed(c_, run_);
  }

  // The statistic (mean lines, or the config's objective; higher is better) of each row, as
  // the next generation; then the budget and generation count move on.  An interrupted or
  // refused generation counts nothing.
  py::array_t<double> next(const py::handle& x) {
    const opt::Matrix m = candidates(x);
    return to_array(locked([&] {
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
                                             sum / static_cast<double>(m.cols()), spread, fit.capped_games,
                                             seconds_));
      ++generation_;
      return fit.statistic;
    }));
  }

  // Writes this run into a results folder of `compare` for the same config, where compare put
  // the external entry's run folder: result.json (held-out games of the best weights seen,
  // as compare's runs do), generations.csv and final.policy.  Then `compare --resume FOLDER`
  // reports it beside the built-in optimizers.  Never replaces a result.
  py::object write_run(const py::handle& folder_arg, const py::handle& reason_arg) {
    const std::string folder = text(folder_arg, "folder"), stop_reason = text(reason_arg, "stop_reason");
    if (spec_ < 0) value_error("write_run needs the label of an external entry: Fitness(config, run, label=...)");
    opt::FinishedRun f;
    opt::Vector best_x;
    locked([&] {
      f.records = records_;
      f.pieces = pieces_;
      f.games = games_;
      f.generations = generation_;
      f.seconds = seconds_;
      f.best_training = best_;
      best_x = best_x_;
    });
    if (f.records.empty()) value_error("nothing was evaluated yet: call the fitness first");
    const Json meta = opt::read_json_file(folder + "/metadata.json", "run metadata");
    if (!meta.contains("experiment") || meta["experiment"] != opt::to_json(c_))
      value_error("'" + folder + "' is not a results folder of this config (its metadata.json holds another experiment)");
    // Each step below the results folder is a real folder, never a link out of it.
    const std::string dir = folder_inside(folder, opt::run_folder_name(c_, spec_, run_), false);
    if (!std::filesystem::is_directory(dir)) value_error("'" + dir + "' does not exist: run `tetrisbench compare` on the config first");
    if (path_exists(dir + "/result.json")) value_error("'" + dir + "/result.json' exists already; it is not replaced");
    if (stop_reason.empty() || stop_reason.size() > 200) value_error("stop_reason must be 1 to 200 characters");
    f.reasons = {stop_reason};
    Json result;
    {
      py::gil_scoped_release free;
      result = opt::finish_run(c_, spec_, run_, dir, opt::policy_from(best_x, features_, ""), f, threads_, kernel_);
    }
    return to_python(result);
  }

  // Any generation, with the config's fitness cap, without touching the budget.
  py::array_t<double> evaluate(const py::handle& x, const py::handle& generation_arg) const {
    const std::int64_t generation = integer(generation_arg, 0, kInt64Max, "generation");
    const opt::Matrix m = candidates(x);
    std::vector<double> statistic;
    {
      py::gil_scoped_release free;
      statistic = play(m, generation, c_.fitness_max_pieces).statistic;
    }
    return to_array(statistic);
  }

  // The held-out games of one weight vector on every held-out board, as result.json holds them.
  py::object heldout(const py::handle& w) const {
    py::array row = real_array(w, "weights");
    if (row.ndim() == 1) row = row.reshape({py::ssize_t{1}, row.shape(0)});
    const opt::Matrix m = candidates(row);
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
  std::int64_t generation() const { return locked([&] { return generation_; }); }
  std::int64_t pieces() const { return locked([&] { return pieces_; }); }
  std::int64_t games() const { return locked([&] { return games_; }); }
  std::uint64_t seed() const { return seed_; }
  const opt::ExperimentConfig& config() const { return c_; }
  const std::string& features() const { return features_; }

 private:
  // f() with the object's lock held.  The GIL is released before locking: the caller holding
  // the lock takes the GIL between blocks of games (blocks.h), so waiting for the lock with
  // the GIL held could deadlock.
  template <class F>
  auto locked(F&& f) const -> decltype(f()) {
    py::gil_scoped_release free;
    const std::lock_guard lock(mutex_);
    return f();
  }

  // A weight matrix from Python: 2-D, `dim` columns, at most the game limit's rows, finite;
  // the shape is checked before the array is converted or copied.  Returned as the optimizer
  // layer's (dim x lambda) matrix, one candidate per column.
  opt::Matrix candidates(const py::handle& x) const {
    const py::array a = real_array(x, "weights");
    if (a.ndim() != 2)
      value_error("weights must be a 2-D array (candidates x " + std::to_string(dim_) + "), not " +
                  std::to_string(a.ndim()) + "-D");
    if (a.shape(1) != dim_)
      value_error("weights have " + std::to_string(a.shape(1)) + " columns but the feature set needs " +
                  std::to_string(dim_));
    if (a.shape(0) < 1) value_error("weights have no rows");
    // The command line's limit on a generation (experiment_config.cpp's check_optimizer).
    if (a.shape(0) > limits::kMaxGames / c_.fitness_games)
      value_error("a generation of " + std::to_string(a.shape(0)) + " candidates x " +
                  std::to_string(c_.fitness_games) + " fitness games is more than the " +
                  std::to_string(limits::kMaxGames) + "-game limit");
    return finite_columns(a, "weight");
  }

  // Generation `generation` of the candidates, played in blocks of candidates (blocks.h): a
  // candidate's statistic depends only on its own games, so the blocks give the numbers of one
  // call.  Call with the GIL released.
  opt::GenerationFitness play(const opt::Matrix& m, std::int64_t generation, std::int64_t cap) const {
    opt::GenerationFitness all;
    const std::int64_t first = 4 * thread_count(threads_) / c_.fitness_games;
    play_in_blocks(m.cols(), first, [&](std::int64_t begin, std::int64_t end) {
      const opt::GenerationFitness part = opt::evaluate_generation(m.middleCols(begin, end - begin), features_, c_,
                                                                   seed_, generation, cap, threads_, kernel_);
      all.statistic.insert(all.statistic.end(), part.statistic.begin(), part.statistic.end());
      all.pieces += part.pieces;
      all.games += part.games;
      all.capped_games += part.capped_games;
    });
    return all;
  }

  opt::ExperimentConfig c_;
  std::string features_;
  int spec_ = -1;  // the external entry, if any
  int run_;
  int threads_;
  FeatureKernel kernel_;
  int dim_ = 0;
  std::uint64_t seed_ = 0;
  // The run so far, guarded by mutex_.
  mutable std::mutex mutex_;
  Json records_ = Json::array();
  double best_ = 0, seconds_ = 0;
  opt::Vector best_x_;
  std::int64_t evaluations_ = 0;
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
    const std::string t = text(v, key);
    if (t.empty() || t.size() > 64 ||
        t.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-_.") != std::string::npos)
      value_error(key + ": expected a name such as \"bcts\" or \"10x10\"");
    return "\"" + t + "\"";
  };
  const auto value = [&](const py::handle& v, const std::string& key) -> std::string {
    if (py::isinstance<py::str>(v)) return token(v, key);
    if (py::isinstance<py::bool_>(v)) value_error(key + ": expected a number or a name");
    // A TOML integer is 64-bit; the config parser then checks the key's own range.
    if (PyIndex_Check(v.ptr())) return std::to_string(integer(v, std::numeric_limits<std::int64_t>::min(), kInt64Max, key));
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
    if (known == std::end(kKeys)) value_error("unknown keyword '" + shown(k) + "'");
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

}  // namespace

void bind_fitness(py::module_& m) {
  py::register_exception<BudgetExhausted>(m, "BudgetExhausted", PyExc_Exception);
  py::class_<Fitness>(m, "Fitness",
                      "The fitness of `tetrisbench compare CONFIG` for run `run` of an outside optimizer")
      .def(py::init([](const py::handle& config, const py::handle& run, const py::handle& label,
                       const py::handle& threads, const py::handle& kernel) {
             return std::make_unique<Fitness>(opt::load_experiment(text(config, "config")), run, label, threads,
                                              kernel);
           }),
           py::arg("config"), py::arg("run") = 0, py::arg("label") = "", py::arg("threads") = 0,
           py::arg("kernel") = "")
      .def_static(
          "from_toml",
          [](const py::handle& toml, const py::handle& run, const py::handle& label, const py::handle& threads,
             const py::handle& kernel) {
            return std::make_unique<Fitness>(opt::parse_experiment(text(toml, "text"), "<toml text>"), run, label,
                                             threads, kernel);
          },
          py::arg("text"), py::arg("run") = 0, py::arg("label") = "", py::arg("threads") = 0, py::arg("kernel") = "",
          "The same from the text of a config")
      .def_static(
          "from_keywords",
          [](const py::handle& run, const py::handle& threads, const py::handle& kernel, const py::kwargs& kw) {
            return std::make_unique<Fitness>(opt::parse_experiment(config_text(kw), "<keywords>"), run, py::str(""),
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
}

}  // namespace tb::python
