// The `tetrisbench` Python module (docs/python.md): the built-in fitness of a comparison
// config for outside optimizers, and the building blocks around it (play, feature values,
// afterstates, policy files).  Every call that plays games releases the GIL and runs on the
// engine's oneTBB threads.  Arguments go through arguments.h; Fitness is in fitness.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "arguments.h"
#include "blocks.h"
#include "candidate_block.h"
#include "checked_number.h"
#include "compare_run.h"
#include "error.h"
#include "evaluator.h"
#include "fitness.h"
#include "input_limits.h"
#include "materialize.h"
#include "parallel_play.h"
#include "policy.h"
#include "rule_sets.h"
#include "summary.h"
#include "to_python.h"

namespace py = pybind11;

namespace tb::python {
namespace {

// The engine's bad input is Python's ValueError; a run that could not finish, RuntimeError.
[[noreturn]] void value_error(const std::string& what) { throw py::value_error(what); }

// A board from Python: an H x W array, row 0 at the top as printed.  Integers and bools:
// nonzero = filled; floats (numpy's default dtype) must be exactly 0 or 1, so 0.5 or NaN is
// refused rather than truncated.  The shape and dtype are checked before anything is copied.
Board board_from(const py::handle& x, Geometry g) {
  const py::array a = py::array::ensure(x);
  if (!a || a.ndim() != 2 || a.shape(0) != g.height || a.shape(1) != g.width)
    value_error("the board must be a " + std::to_string(g.height) + " x " + std::to_string(g.width) +
                " array (rows x columns, top row first)");
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u' && kind != 'b' && kind != 'f')
    value_error("the board must be an array of integers, bools or 0/1 floats, not of " +
                shown(py::str(a.dtype()).cast<std::string>()));
  const auto cells = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
  const auto v = cells.unchecked<2>();
  Board b;
  for (int r = 0; r < g.height; ++r)
    for (int c = 0; c < g.width; ++c) {
      if (kind == 'f' && v(r, c) != 0.0 && v(r, c) != 1.0)
        value_error("board cell (" + std::to_string(r) + ", " + std::to_string(c) + ") is " +
                    std::to_string(v(r, c)) + "; a float board holds 0 or 1");
      if (v(r, c) != 0.0) b.cols[c] |= Word{1} << (g.height - 1 - r);
    }
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
  value_error("unknown piece '" + shown(name) + "' (one of I, O, T, S, Z, J, L)");
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
py::array_t<double> features(const py::handle& board, const py::handle& feature_set_arg, const py::handle& size) {
  const std::string feature_set = text(feature_set_arg, "feature_set");
  const FeatureSet* set = find_feature_set(feature_set);
  if (!set) value_error("unknown feature set '" + shown(feature_set) + "'");
  const Geometry g = parse_board_size(text(size, "size"));
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
py::dict afterstates(const py::handle& board, const py::handle& piece_arg, const py::handle& rules,
                     const py::handle& size, const py::handle& feature_set_arg) {
  const std::string piece = text(piece_arg, "piece");
  const std::string feature_set = text(feature_set_arg, "feature_set");
  const Rules r = rules_named(text(rules, "rules"), text(size, "size"));
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
    if (!set) value_error("unknown feature set '" + shown(feature_set) + "'");
    const BlockFeatures f = block_features(*set, *block, g, n);
    py::array_t<double> values({n, f.dim});
    std::copy(f.values.begin(), f.values.end(), values.mutable_data());
    out["features"] = values;
  }
  return out;
}

// `tetrisbench play`'s summary and games as a dict, with play's limits.  The games are played
// in blocks (blocks.h), so Ctrl-C stops the call; game g is the same game in any blocking.
py::object play(const py::handle& policy, const py::handle& rules, const py::handle& board, const py::handle& games_arg,
                const py::handle& seed_arg, const py::handle& max_pieces, const py::handle& threads_arg,
                const py::handle& kernel_arg) {
  const std::int64_t games = integer(games_arg, 1, limits::kMaxGames, "games");
  GameConfig config;
  config.rules = rules_named(text(rules, "rules"), text(board, "board"));
  config.seed = seed(seed_arg, "seed");
  config.max_pieces = integer(max_pieces, 0, limits::kMaxPieces, "max_pieces");
  const int play_threads = threads(threads_arg);
  const FeatureKernel play_kernel = kernel(kernel_arg);
  const Policy p = load_policy(text(policy, "policy"));
  std::vector<GameResult> results;
  // All of it up front: a call too big for memory is a MemoryError before any game is played.
  results.reserve(static_cast<std::size_t>(games));
  {
    py::gil_scoped_release free;
    play_in_blocks(games, thread_count(play_threads), [&](std::int64_t begin, std::int64_t end) {
      const std::vector<GameResult> part = play_games(p, config, end - begin, play_threads, play_kernel, nullptr, begin);
      results.insert(results.end(), part.begin(), part.end());
    });
  }
  const PlaySummary s = summarize(results);
  py::object out = to_python({{"policy", p.name}, {"rules", rule_set_name(config.rules)},
                              {"board", size_name(config.rules.geometry)}, {"seed", config.seed},
                              {"summary", opt::summary_json(s)}});
  // The games straight into Python objects, not through a JSON array: nlohmann's destructor
  // allocates while it frees a large array, and out of memory there is std::terminate.  The
  // C API, since pybind11's constructors make a failed allocation a RuntimeError: out of
  // memory here is Python's MemoryError.
  const auto fresh = [](PyObject* o) {
    if (!o) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
  };
  py::object list = fresh(PyList_New(static_cast<py::ssize_t>(results.size())));
  for (std::size_t k = 0; k < results.size(); ++k) {
    const GameResult& r = results[k];
    const py::object game = fresh(PyDict_New());
    const std::pair<const char*, py::object> items[] = {{"capped", fresh(PyBool_FromLong(r.capped))},
                                                        {"index", fresh(PyLong_FromUnsignedLongLong(r.index))},
                                                        {"lines", fresh(PyLong_FromLongLong(r.lines))},
                                                        {"pieces", fresh(PyLong_FromLongLong(r.pieces))}};
    for (const auto& [key, value] : items)
      if (PyDict_SetItemString(game.ptr(), key, value.ptr()) != 0) throw py::error_already_set();
    PyList_SET_ITEM(list.ptr(), static_cast<py::ssize_t>(k), game.inc_ref().ptr());
  }
  out["games"] = std::move(list);
  return out;
}

// A policy file does not name its board, so its weights must fit the feature set on some
// board width (a load checks them against the board it plays on).
void check_weight_count(const FeatureSet& set, py::ssize_t count) {
  for (int w = kMinWidth; w <= kMaxWidth; ++w)
    if (set.dimension(w) == count) return;
  value_error("feature set '" + std::string(set.name) + "' has no board width with " + std::to_string(count) +
              " weights (it has " + std::to_string(set.dimension(10)) + " on a 10-wide board)");
}

// The text of a policy file; the weights' shape and type are checked before they are copied.
std::string policy_text(const py::handle& weights, const py::handle& features, const py::handle& name) {
  Policy p;
  const std::string set = text(features, "features");
  p.features = find_feature_set(set);
  if (!p.features) value_error("unknown feature set '" + shown(set) + "'");
  py::array a = real_array(weights, "weights");
  if (a.ndim() != 1) value_error("weights must be 1-D, not " + std::to_string(a.ndim()) + "-D");
  check_weight_count(*p.features, a.shape(0));
  const opt::Matrix w = finite_columns(a.reshape({py::ssize_t{1}, a.shape(0)}), "weight");
  p.weights.assign(w.data(), w.data() + w.size());
  p.name = text(name, "name");
  return format_policy(p);  // refuses a name that would not read back as itself
}

}  // namespace
}  // namespace tb::python

PYBIND11_MODULE(tetrisbench, m) {
  using namespace tb::python;
  m.doc() = "tetrisbench: the engine and the built-in fitness of `tetrisbench compare` (docs/python.md)";
  m.attr("__version__") = TB_VERSION;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tb::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const tb::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  bind_fitness(m);

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
      [](const py::handle& path) {
        const tb::Policy p = tb::load_policy(tb::python::text(path, "path"));
        py::dict d;
        d["name"] = p.name;
        d["features"] = p.features ? std::string(p.features->name) : std::string("ntuple");
        d["weights"] = p.weights;
        d["rules"] = p.rules;
        return d;
      },
      py::arg("path"), "A policy file's name, feature set, weights and rules");
  m.def("format_policy", &policy_text,
      py::arg("weights"), py::arg("features"), py::arg("name") = "python",
      "The text of a policy file (docs/policy-format.md); write it to a file for `tetrisbench play`");
}
