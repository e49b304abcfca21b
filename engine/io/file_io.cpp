#include "file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "fnv1a.h"

namespace tb {
namespace {

namespace fs = std::filesystem;

const char* kind_of(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// What sits at `name` in the folder `dir`: false if nothing (or it cannot be reached: the write
// will say), else true with its lstat in `st`.
bool stat_at(int dir, const std::string& name, struct stat& st) {
  return ::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

// Throws InputError if something other than a regular file sits at `name` in `dir` (`path`
// names it in the message).
void check_replaceable_at(int dir, const std::string& name, const std::string& path, std::string_view flag) {
  struct stat st {};
  if (!stat_at(dir, name, st)) return;
  if (!S_ISREG(st.st_mode))
    throw InputError(std::string(flag) + " '" + path + "' is " + kind_of(st.st_mode) +
                     "; refusing to replace it (give a regular file or a new path)");
}

// The folder part and the name part of a path ("." for a bare name).
std::pair<std::string, std::string> split_path(const std::string& path) {
  const fs::path p(path);
  return {p.has_parent_path() ? p.parent_path().string() : std::string("."), p.filename().string()};
}

// ".<16 hex digits>": the stem of a long name's temporaries.
std::string short_stem(const std::string& name) {
  Fnv1a h;
  for (char ch : name) h.add_byte(static_cast<std::uint8_t>(ch));
  char buf[20];
  std::snprintf(buf, sizeof buf, ".%016llx", static_cast<unsigned long long>(h.value()));
  return buf;
}

// The temporary of `name` written by this process: "<name>.tmp.<pid>.<n>", or, when that would
// pass NAME_MAX, ".<hash of name>.tmp.<pid>.<n>" (so any name that fits has a temporary that
// fits).  Both have the shape is_stale_temporary recognizes.
std::string temporary_name(const std::string& name, unsigned n) {
  const std::string suffix = ".tmp." + std::to_string(::getpid()) + "." + std::to_string(n);
  if (name.size() + suffix.size() <= NAME_MAX) return name + suffix;
  return short_stem(name) + suffix;
}

// "<stem>.tmp.<pid>" or "<stem>.tmp.<pid>.<n>", with a non-empty stem, whose writer is no
// longer running (a live process's temporary file is its write in progress).
bool is_stale_temporary(const std::string& name) {
  const std::size_t at = name.rfind(".tmp.");
  if (at == std::string::npos || at == 0) return false;
  const std::string tail = name.substr(at + 5);
  if (tail.empty() || tail.front() == '.' || tail.back() == '.') return false;
  int dots = 0;
  for (char ch : tail) {
    if (ch == '.') ++dots;
    else if (ch < '0' || ch > '9') return false;
  }
  if (dots > 1) return false;
  const std::string pid_text = tail.substr(0, tail.find('.'));
  if (pid_text.size() > 9) return true;  // no such process id
  const auto pid = static_cast<pid_t>(std::stol(pid_text));
  return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
}

}  // namespace

std::string read_input_file(const std::string& path, std::string_view what, std::size_t max_bytes) {
  const std::string head = "cannot read " + std::string(what) + " '" + path + "': ";
  // O_NONBLOCK: opening a FIFO must not wait for a writer; we refuse it right after.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) throw InputError(head + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw InputError(head + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputError(head + "it is " + kind_of(st.st_mode) + ", not a regular file");
  const auto too_big = [&] {
    return InputError(head + "larger than the " + std::to_string(max_bytes) + "-byte limit");
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_big();
  std::string text;
  text.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(head + std::strerror(errno));
    }
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) throw too_big();  // it grew
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

void check_replaceable(const std::string& path, std::string_view flag) {
  check_replaceable_at(AT_FDCWD, path, path, flag);
}

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

void check_name_fits(const std::string& path, std::string_view flag) {
  const std::string name = split_path(path).second;
  if (name.size() > NAME_MAX)
    throw InputError(std::string(flag) + ": the file name is " + std::to_string(name.size()) +
                     " bytes long; names may have at most " + std::to_string(NAME_MAX));
  if (path.size() >= PATH_MAX)
    throw InputError(std::string(flag) + ": the path is " + std::to_string(path.size()) +
                     " bytes long; paths must be shorter than " + std::to_string(PATH_MAX));
}

void check_writable(const std::string& path, std::string_view flag) {
  const std::string head = "cannot write " + std::string(flag) + " '" + path + "': ";
  if (path.empty()) throw InputError(std::string(flag) + " must not be empty");
  check_name_fits(path, flag);
  check_replaceable(path, flag);
  const std::string parent = split_path(path).first;
  struct stat st {};
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(head + "folder '" + parent + "' does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(head + "folder '" + parent + "' is not writable");
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  write_file_atomically(path, [contents](const ContentSink& sink) { sink(contents); });
}

// Every step below happens relative to the folder's descriptor, opened once: a folder of the
// path replaced by a link during the write does not move where the file goes.
void write_file_atomically(const std::string& path, const std::function<void(const ContentSink&)>& produce) {
  static std::atomic<unsigned> counter{0};
  if (path.empty()) throw InputError("output path must not be empty");
  check_name_fits(path, "output");
  const auto [dir_path, name] = split_path(path);
  if (name.empty() || name == "." || name == "..") throw InputError("output '" + path + "' names a folder, not a file");
  Fd dir{::open(dir_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (dir.fd < 0) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
  check_replaceable_at(dir.fd, name, path, "output");
  const std::string tmp = temporary_name(name, counter++);
  bool removed = false;  // the temporary file, once: its name may be taken again after that
  const auto remove_tmp = [&] {
    if (!removed) ::unlinkat(dir.fd, tmp.c_str(), 0);
    removed = true;
  };
  const auto fail = [&](const char* what, int err) {
    remove_tmp();
    throw RunError(std::string("cannot ") + what + " '" + path + "': " + std::strerror(err));
  };
  {
    // O_EXCL: never write through something that appeared at the temporary name.
    Fd f{::openat(dir.fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666)};
    if (f.fd < 0) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
    // A file that is replaced keeps its permissions (a private 0600 file stays private).
    struct stat old {};
    if (stat_at(dir.fd, name, old) && S_ISREG(old.st_mode) && ::fchmod(f.fd, old.st_mode & 07777) != 0)
      fail("set the permissions of", errno);
    const ContentSink sink = [&](std::string_view piece) {
      for (std::size_t done = 0; done < piece.size();) {
        const ssize_t n = ::write(f.fd, piece.data() + done, piece.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("write", n < 0 ? errno : ENOSPC);
        done += static_cast<std::size_t>(n);
      }
    };
    try {
      produce(sink);
    } catch (...) {
      remove_tmp();
      throw;
    }
    if (::fsync(f.fd) != 0) fail("write", errno);
    const int fd = f.fd;
    f.fd = -1;
    if (::close(fd) != 0) fail("write", errno);
  }
  // Checked again just before the rename: the target may have changed during a long write.
  try {
    check_replaceable_at(dir.fd, name, path, "output");
  } catch (...) {
    remove_tmp();
    throw;
  }
  if (::renameat(dir.fd, tmp.c_str(), dir.fd, name.c_str()) != 0) fail("rename into", errno);
}

std::string folder_inside(const std::string& root, std::string_view rel, bool create) {
  Fd at{::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (at.fd < 0) throw InputError("cannot open folder '" + root + "': " + std::strerror(errno));
  std::vector<std::string> steps;
  for (std::size_t begin = 0; begin <= rel.size();) {
    std::size_t end = rel.find('/', begin);
    if (end == std::string_view::npos) end = rel.size();
    steps.emplace_back(rel.substr(begin, end - begin));
    if (steps.back().empty() || steps.back() == "." || steps.back() == "..")
      throw InputError("folder '" + std::string(rel) + "' does not stay inside '" + root + "'");
    begin = end + 1;
  }
  std::string path = root;
  for (const std::string& step : steps) {
    path += "/" + step;
    if (create && ::mkdirat(at.fd, step.c_str(), 0777) != 0 && errno != EEXIST)
      throw RunError("cannot create folder '" + path + "': " + std::strerror(errno));
    // O_NOFOLLOW: a link at this step is refused, never followed out of `root`.
    Fd next{::openat(at.fd, step.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)};
    if (next.fd < 0) {
      const int err = errno;
      struct stat st {};
      if (!stat_at(at.fd, step, st)) {
        if (!create && err == ENOENT) return root + "/" + std::string(rel);  // missing: nothing to refuse
        throw RunError("cannot open folder '" + path + "': " + std::strerror(err));
      }
      throw InputError("'" + path + "' is " + kind_of(st.st_mode) + ", not a folder; refusing to write through it");
    }
    std::swap(at.fd, next.fd);
  }
  return path;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path pa = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  if (ea || eb) return fs::path(a).lexically_normal() == fs::path(b).lexically_normal();
  return pa == pb;
}

int remove_stale_temporaries(const std::string& dir) {
  int removed = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code kind;
    if (!it->is_regular_file(kind) || it->is_symlink(kind)) continue;
    if (!is_stale_temporary(it->path().filename().string())) continue;
    if (fs::remove(it->path(), kind)) ++removed;
  }
  return removed;
}

int remove_stale_temporaries_of(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  const std::string stem = p.filename().string() + ".tmp.";
  const std::string long_stem = short_stem(p.filename().string()) + ".tmp.";  // temporary_name
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code kind;
    if ((name.rfind(stem, 0) != 0 && name.rfind(long_stem, 0) != 0) || !is_stale_temporary(name) ||
        it->is_symlink(kind) || !it->is_regular_file(kind))
      continue;
    if (fs::remove(it->path(), kind)) ++removed;
  }
  return removed;
}

}  // namespace tb
