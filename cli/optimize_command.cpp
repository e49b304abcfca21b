#include "optimize_command.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "objectives.h"
#include "optimizer.h"
#include "file_io.h"
#include "cli_common.h"
#include "json_fields.h"
#include "progress.h"
#include "stats.h"
#include "version.h"

namespace tb {
namespace {

using nlohmann::ordered_json;

struct RunRecord {
  std::int64_t run = 0;
  std::uint64_t seed = 0;
  opt::TargetRun result;
};

struct OptimizeSummary {
  std::int64_t successes = 0;
  std::int64_t runs = 0;
  double median_evals = NAN;  // over successful runs; NaN if none
  double art = NAN;           // average running time: all evaluations / successes; NaN if none
};

void validate(const OptimizeOptions& o) {
  // The numbers are range-checked by the flag parser (main.cpp).
  if (o.format != "table" && o.format != "json")
    throw UsageError("unknown format '" + o.format + "' (table or json)");
  if (!o.out.empty()) check_writable(o.out, "--out");  // fail before the runs, not after them
}

opt::Json parse_options(const std::string& text) {
  opt::Json j;
  try {
    j = opt::parse_json(text);
  } catch (const InputError& e) {
    throw UsageError(std::string("--options: ") + e.what());
  }
  if (!j.is_object()) throw UsageError("--options must be a JSON object, such as '{\"lambda\": 20}'");
  return j;
}

OptimizeSummary summarize(const std::vector<RunRecord>& records) {
  OptimizeSummary s;
  s.runs = static_cast<std::int64_t>(records.size());
  std::vector<double> hits;  // evaluations of the successful runs
  double total = 0;
  for (const RunRecord& r : records) {
    total += static_cast<double>(r.result.evals);
    if (r.result.success) hits.push_back(static_cast<double>(r.result.evals));
  }
  s.successes = static_cast<std::int64_t>(hits.size());
  s.median_evals = opt::median(hits);
  if (s.successes > 0) s.art = total / static_cast<double>(s.successes);
  return s;
}

ordered_json nullable(double v) { return std::isfinite(v) ? ordered_json(v) : ordered_json(nullptr); }

std::string optimize_json(const OptimizeOptions& o, const opt::Json& options,
                          const std::vector<RunRecord>& records, const OptimizeSummary& s) {
  ordered_json doc;
  doc["schema"] = "tetrisbench.optimize";
  doc["schema_version"] = 1;
  doc["tool"] = {{"name", "tetrisbench"}, {"version", kVersion}, {"git", kGitCommit}};
  doc["optimizer"] = o.optimizer;
  doc["options"] = ordered_json::parse(options.dump());
  doc["objective"] = o.objective;
  doc["dim"] = o.dim;
  doc["sigma0"] = o.sigma0;
  doc["target"] = o.target;
  doc["max_evals"] = o.max_evals;
  doc["seed"] = o.seed;
  ordered_json runs = ordered_json::array();
  for (const RunRecord& r : records)
    runs.push_back({{"run", r.run},
                    {"seed", r.seed},
                    {"success", r.result.success},
                    {"evals", r.result.evals},
                    {"best_f", nullable(r.result.best_f)},
                    {"stop", r.result.stop}});
  doc["runs"] = std::move(runs);
  doc["summary"] = {{"successes", s.successes},
                    {"runs", s.runs},
                    {"median_evals", nullable(s.median_evals)},
                    {"aRT", nullable(s.art)}};
  return doc.dump(2) + "\n";
}

std::string optimize_table(const OptimizeOptions& o, const std::vector<RunRecord>& records,
                           const OptimizeSummary& s) {
  std::ostringstream out;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s on %s, dim %d: %lld runs, sigma0 %g, target %g, max evals %lld, seed %llu\n",
                o.optimizer.c_str(), o.objective.c_str(), o.dim, static_cast<long long>(o.runs), o.sigma0,
                o.target, static_cast<long long>(o.max_evals), static_cast<unsigned long long>(o.seed));
  out << buf;
  constexpr std::size_t kListed = 100;
  if (records.size() <= kListed) {
    out << "\n   run  success       evals       best f  stop\n";
    for (const RunRecord& r : records) {
      std::string stop;
      for (const std::string& why : r.result.stop) stop += (stop.empty() ? "" : ",") + why;
      std::snprintf(buf, sizeof buf, "%6lld  %7s  %10lld  %11.4g  %s\n", static_cast<long long>(r.run),
                    r.result.success ? "yes" : "no", static_cast<long long>(r.result.evals), r.result.best_f,
                    stop.c_str());
      out << buf;
    }
  } else {
    out << "(" << records.size() << " runs: per-run rows with --format json)\n";
  }
  std::snprintf(buf, sizeof buf, "\nsuccesses      %lld/%lld\n", static_cast<long long>(s.successes),
                static_cast<long long>(s.runs));
  out << buf;
  if (s.successes == 0) {
    out << "median evals   - (no successful run)\naRT            -\n";
    return out.str();
  }
  std::snprintf(buf, sizeof buf,
                "median evals   %.1f (successful runs)\naRT            %.1f (all evaluations / successes)\n",
                s.median_evals, s.art);
  out << buf;
  return out.str();
}

}  // namespace

int run_optimize(const OptimizeOptions& o) {
  validate(o);
  const opt::Json options = parse_options(o.options);
  std::vector<RunRecord> records;
  std::atomic<std::int64_t> done{0};
  {  // an unknown optimizer, objective or option is an OptimizerError (bad input, exit 2)
    const opt::Objective& objective = opt::find_objective(o.objective);
    ProgressLine line([&] {
      return "optimize: " + std::to_string(done.load()) + "/" + std::to_string(o.runs) + " runs";
    });
    for (std::int64_t r = 0; r < o.runs; ++r) {
      opt::OptimizerSetup setup = opt::protocol_setup(o.dim, o.seed, r, o.sigma0, o.max_evals);
      setup.options = options;
      const auto optimizer = opt::make_optimizer(o.optimizer, setup);
      records.push_back({r, setup.seed, opt::run_to_target(*optimizer, objective.f, o.target, o.max_evals)});
      done = r + 1;
    }
  }
  const OptimizeSummary summary = summarize(records);
  const std::string report =
      o.format == "json" ? optimize_json(o, options, records, summary) : optimize_table(o, records, summary);
  if (o.out.empty()) std::cout << report << std::flush;
  else write_file_atomically(o.out, report);
  return 0;
}

}  // namespace tb
