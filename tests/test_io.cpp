// engine/io on its own: the bounded reader of regular files, the atomic writer that never
// replaces a symlink, FIFO or folder, the output checks, same_file, the sweep of stale
// temporaries, and the range-checked number parser (docs/threat-model.md).  FIFOs and
// symlinks are made in a temporary folder; /dev/zero is only read (refused before reading).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>

#include "checked_number.h"
#include "file_io.h"
#include "error.h"

namespace {

namespace fs = std::filesystem;
using tb::InputError;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void spit(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

// Every name in `dir` (not recursive), sorted.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// Any "*.tmp.*" left under `dir`, recursively.
std::string temporaries_under(const fs::path& dir) {
  std::string found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) found += e.path().string() + " ";
  return found;
}

// The message of the InputError `f` throws ("" if it throws nothing or something else).
template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("<not an InputError: ") + e.what() + ">";
  }
  return "<no exception>";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The parts appended in order (not "literal" + temporary, which GCC 12 warns about).
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  ((s += parts), ...);
  return s;
}

class IoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tb-test-io-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  void make_fifo(const std::string& name) const { ASSERT_EQ(::mkfifo(at(name).c_str(), 0644), 0); }

  fs::path dir_;
};

// ---- read_input_file -----------------------------------------------------------------

TEST_F(IoTest, ReadsARegularFile) {
  const std::string text = std::string("line one\nline two\0with a nul\n", 29);
  spit(at("a.txt"), text);
  EXPECT_EQ(tb::read_input_file(at("a.txt"), "config"), text);
  spit(at("empty.txt"), "");
  EXPECT_EQ(tb::read_input_file(at("empty.txt"), "config"), "");
}

TEST_F(IoTest, ReadThroughASymlinkToARegularFile) {
  spit(at("a.txt"), "hello");
  fs::create_symlink(at("a.txt"), at("link"));
  EXPECT_EQ(tb::read_input_file(at("link"), "policy file"), "hello");
}

TEST_F(IoTest, ReadOfAMissingFileNamesWhatAndPath) {
  const std::string m = input_error_of([&] { tb::read_input_file(at("missing.toml"), "config"); });
  EXPECT_TRUE(contains(m, cat("cannot read config '", at("missing.toml"), "'"))) << m;
  EXPECT_TRUE(contains(m, "No such file")) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST_F(IoTest, ReadOfADirectoryIsRefused) {
  fs::create_directory(at("sub"));
  const std::string m = input_error_of([&] { tb::read_input_file(at("sub"), "replay"); });
  EXPECT_TRUE(contains(m, cat("cannot read replay '", at("sub"), "'"))) << m;
  EXPECT_TRUE(contains(m, "directory")) << m;
}

TEST_F(IoTest, ReadOfAFifoIsRefusedWithoutWaitingForAWriter) {
  make_fifo("fifo");
  fs::create_symlink(at("fifo"), at("fifo-link"));
  for (const char* name : {"fifo", "fifo-link"}) {
    ::alarm(20);  // a blocking open or read would end the test here (SIGALRM)
    const auto start = std::chrono::steady_clock::now();
    const std::string m = input_error_of([&] { tb::read_input_file(at(name), "policy file"); });
    ::alarm(0);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_TRUE(contains(m, cat("'", at(name), "'"))) << m;
    EXPECT_TRUE(contains(m, "FIFO")) << m;
  }
}

TEST(ReadInputFile, DevZeroIsRefusedBeforeReading) {
  ::alarm(20);
  const std::string m = input_error_of([] { tb::read_input_file("/dev/zero", "config"); });
  ::alarm(0);
  EXPECT_TRUE(contains(m, "'/dev/zero'")) << m;
  EXPECT_TRUE(contains(m, "character device")) << m;
}

TEST_F(IoTest, ReadStopsAtTheCap) {
  spit(at("ten.txt"), "0123456789");
  EXPECT_EQ(tb::read_input_file(at("ten.txt"), "config", 10), "0123456789");
  spit(at("eleven.txt"), "0123456789A");
  const std::string m = input_error_of([&] { tb::read_input_file(at("eleven.txt"), "config", 10); });
  EXPECT_TRUE(contains(m, cat("'", at("eleven.txt"), "'"))) << m;
  EXPECT_TRUE(contains(m, "larger than the 10-byte limit")) << m;
  // A (sparse) file one byte over the default cap is refused from its size, not read.
  { std::ofstream(at("sparse.bin")); }
  fs::resize_file(at("sparse.bin"), tb::kMaxInputBytes + 1);
  const std::string big = input_error_of([&] { tb::read_input_file(at("sparse.bin"), "checkpoint"); });
  EXPECT_TRUE(contains(big, "larger than the " + std::to_string(tb::kMaxInputBytes) + "-byte limit")) << big;
}

// ---- path_exists -------------------------------------------------------------------------

TEST_F(IoTest, PathExistsDoesNotFollowSymlinks) {
  EXPECT_FALSE(tb::path_exists(at("nothing")));
  fs::create_symlink(at("nothing"), at("dangling"));
  EXPECT_TRUE(tb::path_exists(at("dangling")));
  make_fifo("fifo");
  EXPECT_TRUE(tb::path_exists(at("fifo")));
  EXPECT_TRUE(tb::path_exists(dir_.string()));
}

// ---- write_file_atomically ----------------------------------------------------------------

TEST_F(IoTest, WritesANewFile) {
  tb::write_file_atomically(at("new.json"), "{\"a\": 1}\n");
  EXPECT_EQ(slurp(at("new.json")), "{\"a\": 1}\n");
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"new.json"});
  tb::write_file_atomically(at("empty.json"), "");
  EXPECT_TRUE(fs::is_regular_file(at("empty.json")));
  EXPECT_EQ(fs::file_size(at("empty.json")), 0u);
}

TEST_F(IoTest, ReplacesARegularFile) {
  spit(at("out.txt"), "old contents, longer than the new ones");
  tb::write_file_atomically(at("out.txt"), "new");
  EXPECT_EQ(slurp(at("out.txt")), "new");
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"out.txt"});
}

TEST_F(IoTest, RefusesToReplaceASymlink) {
  spit(at("target.txt"), "precious");
  fs::create_symlink(at("target.txt"), at("link"));
  const std::string m = input_error_of([&] { tb::write_file_atomically(at("link"), "overwritten"); });
  EXPECT_TRUE(contains(m, cat("'", at("link"), "'"))) << m;
  EXPECT_TRUE(contains(m, "symbolic link")) << m;
  EXPECT_TRUE(contains(m, "refusing to replace")) << m;
  EXPECT_TRUE(fs::is_symlink(at("link")));
  EXPECT_EQ(fs::read_symlink(at("link")), fs::path(at("target.txt")));
  EXPECT_EQ(slurp(at("target.txt")), "precious");
  EXPECT_EQ(temporaries_under(dir_), "");
}

TEST_F(IoTest, RefusesADanglingSymlinkWithoutCreatingItsTarget) {
  fs::create_symlink(at("would-be-created"), at("dangling"));
  EXPECT_TRUE(contains(input_error_of([&] { tb::write_file_atomically(at("dangling"), "x"); }), "symbolic link"));
  EXPECT_FALSE(fs::exists(at("would-be-created")));
  EXPECT_TRUE(fs::is_symlink(at("dangling")));
  EXPECT_EQ(temporaries_under(dir_), "");
}

TEST_F(IoTest, RefusesToReplaceAFifo) {
  make_fifo("fifo");
  ::alarm(20);
  const std::string m = input_error_of([&] { tb::write_file_atomically(at("fifo"), "data"); });
  ::alarm(0);
  EXPECT_TRUE(contains(m, "FIFO")) << m;
  EXPECT_TRUE(contains(m, "refusing to replace")) << m;
  EXPECT_TRUE(fs::is_fifo(at("fifo")));
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"fifo"});
}

TEST_F(IoTest, RefusesToReplaceADirectory) {
  fs::create_directory(at("sub"));
  spit(at("sub/inside.txt"), "kept");
  const std::string m = input_error_of([&] { tb::write_file_atomically(at("sub"), "data"); });
  EXPECT_TRUE(contains(m, "directory")) << m;
  EXPECT_TRUE(fs::is_directory(at("sub")));
  EXPECT_EQ(slurp(at("sub/inside.txt")), "kept");
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"sub"});
}

TEST_F(IoTest, AWriteIntoAMissingFolderFailsAndLeavesNothing) {
  EXPECT_THROW(tb::write_file_atomically(at("missing/out.txt"), "data"), tb::RunError);
  EXPECT_TRUE(names_in(dir_).empty());
}

// A full disk: RLIMIT_FSIZE in a forked child, with SIGXFSZ ignored so that write() fails
// with EFBIG.  The child reports through its exit code: 0 = a one-line runtime_error (not
// an InputError) naming the path.
int write_with_file_size_limit(const std::string& path, const std::string& contents, rlim_t limit) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const struct rlimit r = {limit, limit};
    if (::setrlimit(RLIMIT_FSIZE, &r) != 0) ::_exit(10);
    std::signal(SIGXFSZ, SIG_IGN);
    int code = 5;  // no exception
    try {
      tb::write_file_atomically(path, contents);
    } catch (const InputError&) {
      code = 3;
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      code = contains(m, path) && m.find('\n') == std::string::npos ? 0 : 4;
    } catch (...) {
      code = 6;
    }
    ::_exit(code);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST_F(IoTest, AFailedWriteLeavesTheTargetAndNoTemporary) {
  const std::string big(64 * 1024, 'x');
  spit(at("existing.txt"), "old");
  EXPECT_EQ(write_with_file_size_limit(at("existing.txt"), big, 1024), 0);
  EXPECT_EQ(slurp(at("existing.txt")), "old");
  EXPECT_EQ(write_with_file_size_limit(at("new.txt"), big, 1024), 0);
  EXPECT_FALSE(fs::exists(at("new.txt")));
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"existing.txt"});
  EXPECT_EQ(temporaries_under(dir_), "");
}

TEST_F(IoTest, WritesTheProducersPiecesInOrder) {
  spit(at("out.txt"), "old");
  tb::write_file_atomically(at("out.txt"), [](const tb::ContentSink& sink) {
    sink("first ");
    sink("");
    sink(std::string(100000, 'y'));
    sink(" last");
  });
  EXPECT_EQ(slurp(at("out.txt")), "first " + std::string(100000, 'y') + " last");
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"out.txt"});
}

TEST_F(IoTest, AProducerThatThrowsLeavesTheTargetAndNoTemporary) {
  spit(at("existing.txt"), "old");
  const auto half_then_throw = [](const tb::ContentSink& sink) {
    sink("half of the new contents");
    throw std::runtime_error("the producer failed");
  };
  try {
    tb::write_file_atomically(at("existing.txt"), half_then_throw);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "the producer failed");
  }
  EXPECT_EQ(slurp(at("existing.txt")), "old");
  EXPECT_THROW(tb::write_file_atomically(at("new.txt"), half_then_throw), std::runtime_error);
  EXPECT_EQ(names_in(dir_), std::set<std::string>{"existing.txt"});
  EXPECT_EQ(temporaries_under(dir_), "");
}

// ---- check_writable ----------------------------------------------------------------------

TEST_F(IoTest, CheckWritableAcceptsNewAndRegularFiles) {
  EXPECT_NO_THROW(tb::check_writable(at("new.json"), "--out"));
  spit(at("old.json"), "x");
  EXPECT_NO_THROW(tb::check_writable(at("old.json"), "--out"));
  EXPECT_EQ(slurp(at("old.json")), "x");  // only checked, not touched
  EXPECT_FALSE(fs::exists(at("new.json")));
  // A bare name is checked against the current folder.
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  EXPECT_NO_THROW(tb::check_writable("bare.json", "--out"));
  fs::current_path(cwd);
}

TEST_F(IoTest, CheckWritableRefusesWhatWouldNotBeReplaced) {
  spit(at("target.txt"), "t");
  fs::create_symlink(at("target.txt"), at("link"));
  make_fifo("fifo");
  fs::create_directory(at("sub"));
  const std::string link = input_error_of([&] { tb::check_writable(at("link"), "--record"); });
  EXPECT_TRUE(contains(link, cat("--record '", at("link"), "' is a symbolic link"))) << link;
  const std::string fifo = input_error_of([&] { tb::check_writable(at("fifo"), "--log"); });
  EXPECT_TRUE(contains(fifo, cat("--log '", at("fifo"), "' is a FIFO"))) << fifo;
  const std::string sub = input_error_of([&] { tb::check_writable(at("sub"), "--gif"); });
  EXPECT_TRUE(contains(sub, cat("--gif '", at("sub"), "' is a directory"))) << sub;
  const std::string empty = input_error_of([] { tb::check_writable("", "--checkpoint"); });
  EXPECT_TRUE(contains(empty, "--checkpoint must not be empty")) << empty;
}

TEST_F(IoTest, CheckWritableRefusesAMissingOrNonFolderParent) {
  const std::string missing = input_error_of([&] { tb::check_writable(at("missing/x.json"), "--out"); });
  EXPECT_TRUE(contains(missing, cat("cannot write --out '", at("missing/x.json"), "'"))) << missing;
  EXPECT_TRUE(contains(missing, "does not exist")) << missing;
  spit(at("file"), "f");
  const std::string file = input_error_of([&] { tb::check_writable(at("file/x.json"), "--out"); });
  EXPECT_TRUE(contains(file, "does not exist")) << file;
  EXPECT_FALSE(fs::exists(at("missing")));
}

// ---- same_file ---------------------------------------------------------------------------

TEST_F(IoTest, SameFileOfExistingFiles) {
  spit(at("a.policy"), "a");
  spit(at("b.policy"), "b");
  fs::create_symlink(at("a.policy"), at("alias"));
  fs::create_hard_link(at("a.policy"), at("hard"));
  fs::create_directory(at("sub"));
  EXPECT_TRUE(tb::same_file(at("a.policy"), at("a.policy")));
  EXPECT_TRUE(tb::same_file(at("a.policy"), (dir_ / "." / "a.policy").string()));
  EXPECT_TRUE(tb::same_file(at("a.policy"), (dir_ / "sub" / ".." / "a.policy").string()));
  EXPECT_TRUE(tb::same_file(at("a.policy"), at("alias")));
  EXPECT_TRUE(tb::same_file(at("hard"), at("a.policy")));
  EXPECT_FALSE(tb::same_file(at("a.policy"), at("b.policy")));
  EXPECT_FALSE(tb::same_file(at("alias"), at("b.policy")));
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  EXPECT_TRUE(tb::same_file("a.policy", at("a.policy")));
  EXPECT_TRUE(tb::same_file("./a.policy", "a.policy"));
  fs::current_path(cwd);
}

TEST_F(IoTest, SameFileOfPathsThatDoNotExistYet) {
  EXPECT_TRUE(tb::same_file(at("new.json"), at("new.json")));
  EXPECT_TRUE(tb::same_file(at("new.json"), (dir_ / "." / "new.json").string()));
  EXPECT_TRUE(tb::same_file(at("new.json"), dir_.string() + "//new.json"));
  EXPECT_TRUE(tb::same_file(at("new.json"), (dir_ / "missing" / ".." / "new.json").string()));
  EXPECT_FALSE(tb::same_file(at("new.json"), at("other.json")));
  // One existing and one new path are different files.
  spit(at("old.json"), "x");
  EXPECT_FALSE(tb::same_file(at("old.json"), at("new.json")));
  const fs::path cwd = fs::current_path();
  fs::current_path(dir_);
  EXPECT_TRUE(tb::same_file("new.json", at("new.json")));
  EXPECT_TRUE(tb::same_file("./new.json", "new.json"));
  fs::current_path(cwd);
  EXPECT_FALSE(fs::exists(at("new.json")));
}

// ---- remove_stale_temporaries ------------------------------------------------------------

// Process ids above PID_MAX_LIMIT (2^22 on 64-bit Linux) never run, so their temporaries
// are stale whatever else runs on the machine; a live process's temporary is its write in
// progress and stays.
constexpr const char* kDead = "4194305";
constexpr const char* kDead2 = "999999999";
constexpr const char* kTooLong = "12345678901";  // more digits than any process id

TEST_F(IoTest, RemovesOnlyStaleTemporariesRecursively) {
  fs::create_directories(at("runs/ce/run-0"));
  const std::string dead = kDead, dead2 = kDead2, live = std::to_string(::getppid()),
                    self = std::to_string(::getpid());
  const std::set<std::string> stale = {"checkpoint.json.tmp." + dead,
                                       "checkpoint.json.tmp." + dead + ".0",
                                       "runs/ce/run-0/result.json.tmp." + dead2 + ".17",
                                       "runs/ce/run-0/generations.csv.tmp." + std::string(kTooLong) + ".2"};
  const std::set<std::string> kept = {
      "checkpoint.json", "keep.tmp.txt", "x.tmp.", "x.tmp." + dead + ".", "x.tmp.." + dead,
      "x.tmp." + dead + ".1.2", "x.tmp." + dead + "a", ".tmp." + dead, "tmp." + dead, "x.tmp",
      "x.tmp.-1", "x.tmp.1e3", "x.tmp." + live + ".0", "x.tmp." + self + ".0", "x.tmp." + self,
      "runs/ce/run-0/final.policy", "runs/ce/run-0/notes.tmp.md", "runs/ce/run-0/y.tmp." + live};
  for (const auto& f : stale) spit(at(f), "s");
  for (const auto& f : kept) spit(at(f), "k");
  // A symlink and a folder with stale-looking names are not files of ours.
  spit(at("outside.txt"), "outside");
  fs::create_symlink(at("outside.txt"), at("link.tmp." + dead + ".2"));
  fs::create_directory(at("dir.tmp." + dead));
  EXPECT_EQ(tb::remove_stale_temporaries(dir_.string()), static_cast<int>(stale.size()));
  for (const auto& f : stale) EXPECT_FALSE(fs::exists(at(f))) << f;
  for (const auto& f : kept) EXPECT_EQ(slurp(at(f)), "k") << f;
  EXPECT_TRUE(fs::is_symlink(at("link.tmp." + dead + ".2")));
  EXPECT_EQ(slurp(at("outside.txt")), "outside");
  EXPECT_TRUE(fs::is_directory(at("dir.tmp." + dead)));
  EXPECT_EQ(tb::remove_stale_temporaries(dir_.string()), 0);
}

TEST_F(IoTest, RemoveStaleTemporariesOfAMissingFolderIsNothing) {
  EXPECT_EQ(tb::remove_stale_temporaries(at("missing")), 0);
}

TEST_F(IoTest, RemovesOneFilesOwnTemporaries) {
  const std::string dead = kDead, live = std::to_string(::getppid());
  const std::set<std::string> kept = {"w.policy", "w.policy.tmp.x", "w.policy.tmp." + live + ".1",
                                      "other.tmp." + dead + ".2", "xw.policy.tmp." + dead + ".1"};
  for (const auto& f : kept) spit(at(f), "k");
  spit(at("w.policy.tmp." + dead + ".3"), "s");
  spit(at("w.policy.tmp." + dead), "s");
  EXPECT_EQ(tb::remove_stale_temporaries_of(at("w.policy")), 2);
  EXPECT_EQ(names_in(dir_), kept);
}

// ---- names near NAME_MAX, modes, folders inside a results folder --------------------------

TEST_F(IoTest, ANameOfNameMaxBytesIsWrittenThroughAShortTemporary) {
  const std::string name(NAME_MAX, 'w');  // "<name>.tmp.<pid>.<n>" would not fit
  tb::write_file_atomically(at(name), "fits");
  EXPECT_EQ(slurp(at(name)), "fits");
  EXPECT_EQ(names_in(dir_), std::set<std::string>{name});
}

TEST_F(IoTest, ANameLongerThanNameMaxIsRefusedBeforeWriting) {
  const std::string name(NAME_MAX + 1, 'w');
  const std::string m = input_error_of([&] { tb::check_writable(at(name), "--out"); });
  EXPECT_TRUE(contains(m, "at most " + std::to_string(NAME_MAX))) << m;
  EXPECT_THROW(tb::write_file_atomically(at(name), "x"), tb::InputError);
  EXPECT_TRUE(names_in(dir_).empty());
}

TEST_F(IoTest, TheShortTemporaryOfALongNameIsSweptAsItsOwn) {
  const std::string name(NAME_MAX, 'w');
  // The stem is ".<16 hex digits of the name's FNV-1a>"; a stale one with any other stem stays.
  tb::write_file_atomically(at(name), "x");
  std::string stale;  // the temporary's name, seen from inside a write
  tb::write_file_atomically(at(name), [&](const tb::ContentSink& sink) {
    for (const auto& n : names_in(dir_))
      if (n != name) stale = n;
    sink("y");
  });
  ASSERT_FALSE(stale.empty());
  EXPECT_LE(stale.size(), std::size_t{NAME_MAX});
  const std::string dead = kDead;
  const std::string stem = stale.substr(0, stale.find(".tmp."));
  spit(at(stem + ".tmp." + dead + ".1"), "s");
  spit(at(".0000000000000000.tmp." + dead + ".1"), "k");
  EXPECT_EQ(tb::remove_stale_temporaries_of(at(name)), 1);
  EXPECT_EQ(names_in(dir_), (std::set<std::string>{name, ".0000000000000000.tmp." + dead + ".1"}));
}

TEST_F(IoTest, AReplacedFileKeepsItsPermissions) {
  spit(at("private.json"), "old");
  ASSERT_EQ(::chmod(at("private.json").c_str(), 0600), 0);
  tb::write_file_atomically(at("private.json"), "new");
  struct stat st {};
  ASSERT_EQ(::stat(at("private.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(slurp(at("private.json")), "new");
}

TEST_F(IoTest, FolderInsideMakesAndOpensRealFolders) {
  EXPECT_EQ(tb::folder_inside(dir_.string(), "runs/ce/run-0", true), at("runs/ce/run-0"));
  EXPECT_TRUE(fs::is_directory(at("runs/ce/run-0")));
  EXPECT_EQ(tb::folder_inside(dir_.string(), "runs/ce/run-0", false), at("runs/ce/run-0"));
  // Without `create`, a missing step is no error and makes nothing.
  EXPECT_EQ(tb::folder_inside(dir_.string(), "runs/ga/run-1", false), at("runs/ga/run-1"));
  EXPECT_FALSE(fs::exists(at("runs/ga")));
}

TEST_F(IoTest, FolderInsideRefusesALinkAtAnyStep) {
  fs::create_directories(at("outside"));
  fs::create_directories(at("results/runs"));
  fs::create_symlink(at("outside"), at("results/runs/ce"));
  for (bool create : {true, false}) {
    const std::string m = input_error_of([&] { tb::folder_inside(at("results"), "runs/ce/run-0", create); });
    EXPECT_TRUE(contains(m, cat("'", at("results/runs/ce"), "' is a symbolic link"))) << m;
  }
  EXPECT_TRUE(fs::is_empty(at("outside")));  // nothing made through the link
  spit(at("results/runs/file"), "x");
  EXPECT_TRUE(contains(input_error_of([&] { tb::folder_inside(at("results"), "runs/file/run-0", true); }),
                       "is a regular file"));
}

TEST_F(IoTest, FolderInsideRefusesStepsThatLeaveTheRoot) {
  for (const char* rel : {"../x", "runs/../../x", "/etc", "runs//x", "./runs"})
    EXPECT_THROW(tb::folder_inside(dir_.string(), rel, true), tb::InputError) << rel;
  EXPECT_TRUE(names_in(dir_).empty());
}

// ---- checked numbers -----------------------------------------------------------------------

// The message of a rejected value: it names the value's origin and the range, on one line.
template <class F>
void expect_rejected(F&& f, const std::string& name, const std::string& range, const std::string& text) {
  const std::string m = input_error_of(f);
  EXPECT_TRUE(contains(m, name)) << "'" << text << "': " << m;
  EXPECT_TRUE(contains(m, range)) << "'" << text << "': " << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_LT(m.size(), 200u) << m;
}

TEST(ParseInteger, AcceptsDecimalIntegersInRange) {
  EXPECT_EQ(tb::parse_integer("5", 0, 10, "--games"), 5);
  EXPECT_EQ(tb::parse_integer("0", 0, 10, "--games"), 0);
  EXPECT_EQ(tb::parse_integer("10", 0, 10, "--games"), 10);
  EXPECT_EQ(tb::parse_integer("-3", -5, 5, "x"), -3);
  EXPECT_EQ(tb::parse_integer("007", 0, 10, "x"), 7);
  EXPECT_EQ(tb::parse_integer("-9223372036854775808", INT64_MIN, INT64_MAX, "x"), INT64_MIN);
  EXPECT_EQ(tb::parse_integer("9223372036854775807", INT64_MIN, INT64_MAX, "x"), INT64_MAX);
}

TEST(ParseInteger, RejectsEverythingElse) {
  const std::string range = "[1, 10000000]";
  for (const char* text : {"0", "10000001", "-1", "1e3", " 5", "5 ", "", "+5", "5.0", "0x10", "five", "5x",
                           "9223372036854775808", "18446744073709551616", "-9223372036854775809", "inf", "nan"})
    expect_rejected([&] { tb::parse_integer(text, 1, 10'000'000, "--games"); }, "--games must be an integer in " + range,
                    range, text);
  expect_rejected([] { tb::parse_integer("1025", 0, 1024, "--threads"); }, "--threads", "[0, 1024]", "1025");
  expect_rejected([] { tb::parse_integer("1000000", 0, 1024, "--threads"); }, "not '1000000'", "[0, 1024]", "1000000");
}

TEST(ParseInteger, QuotesLongTextShortened) {
  const std::string huge(300'000, '9');
  const std::string m = input_error_of([&] { tb::parse_integer(huge, 0, 10, "--games"); });
  EXPECT_TRUE(contains(m, "--games")) << m;
  EXPECT_LT(m.size(), 200u);
}

TEST(ParseUnsigned, AcceptsTheWholeRange) {
  EXPECT_EQ(tb::parse_unsigned("0", "--seed"), 0u);
  EXPECT_EQ(tb::parse_unsigned("18446744073709551615", "--seed"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(tb::parse_unsigned("9223372036854775808", "--seed"), std::uint64_t{1} << 63);
}

TEST(ParseUnsigned, RejectsSignsOverflowAndJunk) {
  for (const char* text : {"-1", "-0", "18446744073709551616", "99999999999999999999999", "1e3", " 5", "5 ", "", "+5",
                           "0x1", "1.0", "seed", "inf", "nan"})
    expect_rejected([&] { tb::parse_unsigned(text, "--seed"); }, "--seed", "[0, 18446744073709551615]", text);
}

TEST(ParseReal, AcceptsFiniteNumbersInRange) {
  EXPECT_EQ(tb::parse_real("0.5", 0, 1, "--lambda"), 0.5);
  EXPECT_EQ(tb::parse_real("0", 0, 1, "--lambda"), 0.0);
  EXPECT_EQ(tb::parse_real("1", 0, 1, "--lambda"), 1.0);
  EXPECT_EQ(tb::parse_real("1e3", 0, 1e6, "--tie-noise"), 1000.0);
  EXPECT_EQ(tb::parse_real("-2.5", -10, 10, "x"), -2.5);
  EXPECT_EQ(tb::parse_real("1000000", 0, 1e6, "--tie-noise"), 1e6);
}

TEST(ParseReal, RejectsNonFiniteOutOfRangeAndJunk) {
  const std::string range = tb::range_text(0.0, 1e6);
  for (const char* text : {"inf", "-inf", "INF", "infinity", "nan", "NaN", "-nan", "1e400", "-1e400", "-1", "-0.001",
                           "1000000.5", "1e7", " 1", "1 ", "", "+1", "1,5", "0x10", "one", "1e", "."})
    expect_rejected([&] { tb::parse_real(text, 0, 1e6, "--tie-noise"); }, "--tie-noise must be a finite number in " + range,
                    range, text);
}

TEST(CheckNumbers, RangesOfValuesReadElsewhere) {
  EXPECT_EQ(tb::check_integer(7, 0, 7, "bag_left"), 7);
  expect_rejected([] { tb::check_integer(99, 0, 7, "slots.stream.bag_left"); }, "slots.stream.bag_left", "[0, 7]", "99");
  expect_rejected([] { tb::check_integer(-5, 0, tb::kInt64Max, "pieces"); }, "pieces",
                  "[0, 9223372036854775807]", "-5");
  EXPECT_EQ(tb::check_real(0.25, 0, 1, "gamma"), 0.25);
  for (double v : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity(), 1.5, -0.5})
    expect_rejected([&] { tb::check_real(v, 0, 1, "gamma"); }, "gamma", tb::range_text(0.0, 1.0), std::to_string(v));
}

TEST(CheckNumbers, TextInMessages) {
  EXPECT_EQ(tb::range_text(std::int64_t{0}, std::int64_t{1024}), "[0, 1024]");
  EXPECT_EQ(tb::range_text(std::int64_t{1}, std::int64_t{10'000'000}), "[1, 10000000]");
  EXPECT_EQ(tb::shown("short"), "short");
  EXPECT_EQ(tb::shown(std::string(40, 'a')), std::string(40, 'a'));
  EXPECT_EQ(tb::shown(std::string(41, 'a')), std::string(40, 'a') + "...");
  EXPECT_EQ(tb::shown(std::string("a\nb\tc\x01", 6)), "a?b?c?");
}

}  // namespace
