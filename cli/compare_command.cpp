#include "compare_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "cli_common.h"
#include "cluster.h"
#include "compare_report.h"
#include "compare_run.h"
#include "file_io.h"
#include "quote.h"
#include "info_command.h"
#include "json_fields.h"
#include "parallel_play.h"
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

constexpr const char* kLockName = ".tetrisbench.lock";

// The experiment as parsed is kept in metadata.json, so that a config.toml edited between a
// crash and the resume is found (comments and layout may change; values may not).
json metadata(const std::string& kernel, int threads, const opt::ExperimentConfig& c) {
  return {{"git", kGitCommit},      {"version", kVersion},  {"compiler", kCompiler},
          {"build_type", kBuildType}, {"flags", kCxxFlags}, {"cpu", cpu_model()},
          {"kernel", kernel},       {"threads", thread_count(threads)}, {"ranks", cluster::world().size},
          {"date", utc_now("%Y-%m-%dT%H:%M:%SZ")}, {"experiment", opt::to_json(c)}};
}

// Holds the results folder for this process: an exclusive flock on a lock file inside it.
// Two runs given the same folder cannot both hold it; the kernel drops it when the process
// ends, however it ends, so a kill -9 never leaves a stale lock.
class FolderClaim {
 public:
  explicit FolderClaim(const std::string& dir) {
    const std::string path = dir + "/" + kLockName;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) throw UsageError("cannot lock results folder '" + dir + "': " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
      throw UsageError("results folder '" + dir + "' is in use by another tetrisbench compare");
  }
  ~FolderClaim() { ::close(fd_); }
  FolderClaim(const FolderClaim&) = delete;
  FolderClaim& operator=(const FolderClaim&) = delete;

 private:
  int fd_ = -1;
};

bool only_lock_inside(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename() != kLockName) return false;
  return true;
}

// Claims a new results folder: made (or found empty), then locked, then checked empty again
// under the lock, so of two runs started together exactly one proceeds.  A failure to write
// config.toml (a full disk) removes what this run made.
std::string new_folder(const CompareOptions& o, const opt::ExperimentConfig& c, const std::string& text,
                       std::unique_ptr<FolderClaim>& claim) {
  const std::string dir = !o.out.empty() ? o.out : "results/" + c.name + "/" + utc_now("%Y%m%d-%H%M%S");
  const auto taken = [&] {
    return UsageError("results folder '" + dir + "' already exists and is not empty (use --resume " + dir +
                      " to continue it, or choose another --out)");
  };
  struct stat st {};
  const bool existed = ::lstat(dir.c_str(), &st) == 0;
  if (existed && !S_ISDIR(st.st_mode)) throw UsageError("--out '" + dir + "' exists and is not a directory");
  std::error_code ec;
  if (!existed) {
    if (fs::path(dir).has_parent_path()) fs::create_directories(fs::path(dir).parent_path(), ec);
    if (ec || (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST))
      throw UsageError("cannot create results folder '" + dir + "': " + (ec ? ec.message() : std::strerror(errno)));
  }
  claim = std::make_unique<FolderClaim>(dir);
  if (!only_lock_inside(dir)) throw taken();
  try {
    write_file_atomically(dir + "/config.toml", text);
  } catch (...) {
    claim.reset();
    fs::remove(dir + "/" + kLockName, ec);
    if (!existed) fs::remove(dir, ec);
    throw;
  }
  return dir;
}

// The folder of an earlier run: locked, cleared of temporary files a kill -9 left, and
// checked against the config it started with.
opt::ExperimentConfig resume_folder(const std::string& dir, std::unique_ptr<FolderClaim>& claim) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw UsageError("--resume '" + dir + "' is not a results folder");
  if (!path_exists(dir + "/config.toml")) throw UsageError("'" + dir + "' holds no config.toml to resume");
  claim = std::make_unique<FolderClaim>(dir);
  if (const int n = remove_stale_temporaries(dir); n > 0)
    std::fprintf(stderr, "compare: removed %d temporary file(s) left by an interrupted run\n", n);
  opt::ExperimentConfig c = opt::load_experiment(dir + "/config.toml");
  // metadata.json holds the experiment as it started: without it nothing proves that
  // config.toml was not edited since, and the report would mix runs of two experiments.
  if (!path_exists(dir + "/metadata.json"))
    throw UsageError("'" + dir + "' holds no metadata.json, so its config.toml cannot be checked against the runs; "
                     "run the config again into a new folder");
  {
    const json meta = opt::read_json_file(dir + "/metadata.json", "run metadata");
    // A folder started before the progress games (docs/experiments.md "Progress") has no
    // progress records or per-game held-out lines in its runs: it cannot be resumed into a
    // report of this version, whatever its config says.
    if (!meta.contains("experiment") || !meta["experiment"].is_object())
      throw UsageError("'" + dir + "/metadata.json' holds no experiment to check config.toml against; run the "
                       "config again into a new folder");
    if (!meta["experiment"].contains("progress"))
      throw UsageError("'" + dir + "' was started by an older tetrisbench (no progress games, no per-game held-out "
                       "lines): run its config.toml again into a new folder");
    if (meta["experiment"] != opt::to_json(c))
      throw UsageError("'" + dir + "/config.toml' was changed after the run started; restore it to resume");
  }
  return c;
}

// The folder of run r of entry k, each step below `dir` a real folder (never a link out of
// it: file_io.h folder_inside); made where missing if `create`.
std::string run_folder(const std::string& dir, const opt::ExperimentConfig& c, int k, int r, bool create) {
  return folder_inside(dir, opt::run_folder_name(c, k, r), create);
}

// Runs scripts/report.py on the folder with an argument vector (no shell).  Returns its
// exit status, or -1 if it could not be started or was killed.
int run_report_script(const std::string& dir) {
  const std::string script = std::string(kSourceDir) + "/scripts/report.py";
  std::vector<std::string> args = {"/usr/bin/python3", script, dir};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The experiment and its folder: an earlier run's (--resume) or a new one.  On resume, every
// run's saved state is checked before any run continues, so that a corrupt file is reported
// before work is done (not after the runs before it).
opt::ExperimentConfig open_experiment(const CompareOptions& o, FeatureKernel kernel, std::string& dir,
                                      std::unique_ptr<FolderClaim>& claim) {
  if (o.resume.empty()) {
    const std::string text = read_input_file(o.config, "config", opt::kMaxConfigBytes);
    opt::ExperimentConfig c = opt::parse_experiment(text, o.config);
    dir = new_folder(o, c, text, claim);
    return c;
  }
  dir = o.resume;
  opt::ExperimentConfig c = resume_folder(dir, claim);
  for (int k = 0; k < static_cast<int>(c.optimizers.size()); ++k)
    for (int r = 0; r < c.runs; ++r)
      opt::check_run_folder(c, k, r, run_folder(dir, c, k, r, false), kernel);
  return c;
}

// What the progress line shows: the results so far and the running run's last report,
// shared with the training threads.
struct CompareProgress {
  std::vector<json> results;
  opt::RunProgress now;
  std::mutex mutex;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

std::string progress_text(CompareProgress& p, const opt::ExperimentConfig& c) {
  const int total = static_cast<int>(c.optimizers.size()) * c.runs;
  std::lock_guard lock(p.mutex);
  // The running run counts as one run at most, and all runs as `total`: its last generation
  // may end past the budget, and its last report stays in p.now after its result joined
  // p.results (until the next run reports, and while the report is built).  Uncapped, the
  // ETA went negative.
  const double running =
      c.budget_pieces > 0 ? std::min(1.0, static_cast<double>(p.now.pieces) / c.budget_pieces) : 0.0;
  const double done = std::min(static_cast<double>(total), static_cast<double>(p.results.size()) + running);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - p.start).count();
  char buf[200];
  std::snprintf(buf, sizeof buf, "compare: %s run %d, generation %lld, %.3g pieces, best %.1f, ETA %.0f s",
                p.now.label.c_str(), p.now.run + 1, static_cast<long long>(p.now.generation),
                static_cast<double>(p.now.pieces), p.now.best, done > 0 ? secs * (total - done) / done : 0.0);
  return std::string(buf);
}

// Every run of every optimizer in turn, each result added to `p` as it ends.  External
// entries are not run: their missing runs are listed in `missing`.
void run_all(const opt::ExperimentConfig& c, const std::string& dir, const CompareOptions& o, FeatureKernel kernel,
             CompareProgress& p, std::vector<std::string>& missing) {
  for (int k = 0; k < static_cast<int>(c.optimizers.size()); ++k)
    for (int r = 0; r < c.runs; ++r) {
      const std::string run_dir = run_folder(dir, c, k, r, true);
      json result = opt::run_one(c, k, r, run_dir, o.threads, kernel, [&](const opt::RunProgress& now) {
        std::lock_guard lock(p.mutex);
        p.now = now;
      });
      if (result.is_null()) {
        missing.push_back(run_dir);
        continue;
      }
      const json& h = result["held_out"].begin().value();
      std::fprintf(stderr, "%scompare: %s run %d/%d: %lld generations, %.3g pieces, held-out %.1f lines\n",
                   stderr_is_terminal() ? "\r\033[K" : "",
                   c.optimizers[k].label.c_str(), r + 1, c.runs,
                   static_cast<long long>(result["generations"].get<std::int64_t>()),
                   result["pieces"].get<double>(), h["mean_lines"].get<double>());
      std::lock_guard lock(p.mutex);
      p.results.push_back(std::move(result));
    }
}

// report.md and its plots: a failure leaves report.json, which is complete without them.
int write_plots(const std::string& dir) {
  if (const int status = run_report_script(dir); status != 0) {
    std::fprintf(stderr,
                 "tetrisbench: error: scripts/report.py failed (%s); report.json is complete "
                 "(rerun: /usr/bin/python3 scripts/report.py DIR)\n",
                 status < 0 ? "could not run it" : ("exit " + std::to_string(status)).c_str());
    return 1;
  }
  std::printf("%s/report.md\n", escaped(dir).c_str());
  return 0;
}

}  // namespace

int run_compare(const CompareOptions& o) {
  if (o.resume.empty() == o.config.empty())
    throw UsageError("give either CONFIG.toml or --resume DIR");
  const KernelVariant& kernel = choose_kernel(o.kernel);
  std::string dir;
  std::unique_ptr<FolderClaim> claim;  // held until the report is written
  const opt::ExperimentConfig c = open_experiment(o, kernel.kernel, dir, claim);
  if (!path_exists(dir + "/metadata.json"))
    write_file_atomically(dir + "/metadata.json", metadata(std::string(kernel.name), o.threads, c).dump(2));
  std::fprintf(stderr, "compare: %s -> %s\n", c.name.c_str(), escaped(dir).c_str());
  if (const std::string w = opt::significance_warning(c); !w.empty())
    std::fprintf(stderr, "compare: warning: %s\n", w.c_str());

  CompareProgress progress;
  ProgressLine line([&] { return progress_text(progress, c); });
  std::vector<std::string> missing;
  run_all(c, dir, o, kernel.kernel, progress, missing);
  if (!missing.empty()) {
    std::string list;
    for (const std::string& m : missing) list += (list.empty() ? "" : ", ") + m;
    throw UsageError("the runs of external entries are not there yet (" + list +
                     "): write them with tetrisbench.Fitness(...).write_run (docs/python.md), then compare --resume " +
                     dir);
  }

  const json report =
      opt::build_report(c, progress.results, opt::read_json_file(dir + "/metadata.json", "run metadata"));
  write_file_atomically(dir + "/report.json", report.dump(2));
  std::fprintf(stderr, "compare: wrote %s/report.json\n", escaped(dir).c_str());
  if (!o.plots) return 0;
  return write_plots(dir);
}

}  // namespace tb
