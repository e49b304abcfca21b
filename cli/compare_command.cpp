#include "compare_command.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "atomic_file.h"
#include "compare_report.h"
#include "compare_run.h"
#include "info_command.h"
#include "parallel_play.h"
#include "play_command.h"
#include "progress.h"
#include "version.h"

namespace tb {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string utc_now(const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read config '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json metadata(const std::string& kernel, int threads) {
  return {{"git", kGitCommit},      {"version", kVersion},  {"compiler", kCompiler},
          {"build_type", kBuildType}, {"flags", kCxxFlags}, {"cpu", cpu_model()},
          {"kernel", kernel},       {"threads", thread_count(threads)},
          {"date", utc_now("%Y-%m-%dT%H:%M:%SZ")}};
}

// Sets up a new results folder, or refuses to touch an existing one.
std::string new_folder(const CompareOptions& o, const opt::ExperimentConfig& c, const std::string& text) {
  const std::string dir = !o.out.empty() ? o.out : "results/" + c.name + "/" + utc_now("%Y%m%d-%H%M%S");
  std::error_code ec;
  if (fs::exists(dir) && !fs::is_empty(dir, ec))
    throw UsageError("results folder '" + dir + "' already exists and is not empty (use --resume " + dir +
                     " to continue it, or choose another --out)");
  fs::create_directories(dir, ec);
  if (ec) throw UsageError("cannot create results folder '" + dir + "': " + ec.message());
  write_file_atomically(dir + "/config.toml", text);
  return dir;
}

}  // namespace

int run_compare(const CompareOptions& o) {
  if (o.threads < 0) throw UsageError("--threads must be >= 0 (0 = all cores)");
  if (o.resume.empty() == o.config.empty())
    throw UsageError("give either CONFIG.toml or --resume DIR");
  const KernelVariant& kernel = choose_kernel(o.kernel);
  opt::ExperimentConfig c;
  std::string dir;
  try {
    if (!o.resume.empty()) {
      dir = o.resume;
      if (!fs::exists(dir + "/config.toml")) throw UsageError("'" + dir + "' holds no config.toml to resume");
      c = opt::load_experiment(dir + "/config.toml");
    } else {
      const std::string text = read_text(o.config);
      c = opt::parse_experiment(text, o.config);
      dir = new_folder(o, c, text);
    }
  } catch (const opt::ConfigError& e) {
    throw UsageError(e.what());
  }
  if (!fs::exists(dir + "/metadata.json"))
    write_file_atomically(dir + "/metadata.json", metadata(std::string(kernel.name), o.threads).dump(2));
  std::fprintf(stderr, "compare: %s -> %s\n", c.name.c_str(), dir.c_str());

  const int total = static_cast<int>(c.optimizers.size()) * c.runs;
  const auto start = std::chrono::steady_clock::now();
  std::vector<json> results;
  opt::RunProgress now;
  std::mutex now_mutex;
  ProgressLine line([&] {
    std::lock_guard lock(now_mutex);
    const double done = static_cast<double>(results.size()) +
                        (c.budget_pieces > 0 ? static_cast<double>(now.pieces) / c.budget_pieces : 0.0);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char buf[200];
    std::snprintf(buf, sizeof buf, "compare: %s run %d, generation %lld, %.3g pieces, best %.1f, ETA %.0f s",
                  now.label.c_str(), now.run + 1, static_cast<long long>(now.generation),
                  static_cast<double>(now.pieces), now.best,
                  done > 0 ? secs * (total - done) / done : 0.0);
    return std::string(buf);
  });
  for (int k = 0; k < static_cast<int>(c.optimizers.size()); ++k)
    for (int r = 0; r < c.runs; ++r) {
      const std::string run_dir = dir + "/runs/" + c.optimizers[k].label + "/run-" + std::to_string(r);
      json result = opt::run_one(c, k, r, run_dir, o.threads, kernel.kernel, [&](const opt::RunProgress& p) {
        std::lock_guard lock(now_mutex);
        now = p;
      });
      const json& h = result["held_out"].begin().value();
      std::fprintf(stderr, "%scompare: %s run %d/%d: %lld generations, %.3g pieces, held-out %.1f lines\n",
                   stderr_is_terminal() ? "\r\033[K" : "",
                   c.optimizers[k].label.c_str(), r + 1, c.runs,
                   static_cast<long long>(result["generations"].get<std::int64_t>()),
                   result["pieces"].get<double>(), h["mean_lines"].get<double>());
      std::lock_guard lock(now_mutex);
      results.push_back(std::move(result));
    }

  const json report = opt::build_report(c, results, json::parse(read_text(dir + "/metadata.json")));
  write_file_atomically(dir + "/report.json", report.dump(2));
  std::fprintf(stderr, "compare: wrote %s/report.json\n", dir.c_str());
  if (!o.plots) return 0;
  const std::string cmd = "/usr/bin/python3 '" + std::string(kSourceDir) + "/scripts/report.py' '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "compare: scripts/report.py failed; report.json is complete (rerun: %s)\n", cmd.c_str());
    return 1;
  }
  std::printf("%s/report.md\n", dir.c_str());
  return 0;
}

}  // namespace tb
