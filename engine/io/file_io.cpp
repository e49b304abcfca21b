#include "file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

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

// Throws InputError if something other than a regular file sits at `path`.
void check_replaceable(const std::string& path, std::string_view flag) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // missing (or unreachable: the write will say)
  if (!S_ISREG(st.st_mode))
    throw InputError(std::string(flag) + " '" + path + "' is " + kind_of(st.st_mode) +
                     "; refusing to replace it (give a regular file or a new path)");
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

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

void check_writable(const std::string& path, std::string_view flag) {
  const std::string head = "cannot write " + std::string(flag) + " '" + path + "': ";
  if (path.empty()) throw InputError(std::string(flag) + " must not be empty");
  check_replaceable(path, flag);
  const fs::path p(path);
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  struct stat st {};
  if (::stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(head + "folder '" + parent.string() + "' does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw InputError(head + "folder '" + parent.string() + "' is not writable");
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  write_file_atomically(path, [contents](const ContentSink& sink) { sink(contents); });
}

void write_file_atomically(const std::string& path, const std::function<void(const ContentSink&)>& produce) {
  static std::atomic<unsigned> counter{0};
  check_replaceable(path, "output");
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  bool removed = false;  // the temporary file, once: its name may be taken again after that
  const auto remove_tmp = [&] {
    if (!removed) ::unlink(tmp.c_str());
    removed = true;
  };
  const auto fail = [&](const char* what, int err) {
    remove_tmp();
    throw RunError(std::string("cannot ") + what + " '" + path + "': " + std::strerror(err));
  };
  {
    // O_EXCL: never write through something that appeared at the temporary name.
    Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666)};
    if (f.fd < 0) throw RunError("cannot write '" + path + "': " + std::strerror(errno));
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
    check_replaceable(path, "output");
  } catch (...) {
    remove_tmp();
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename into", errno);
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
  int removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code kind;
    if (name.rfind(stem, 0) != 0 || !is_stale_temporary(name) || it->is_symlink(kind) || !it->is_regular_file(kind))
      continue;
    if (fs::remove(it->path(), kind)) ++removed;
  }
  return removed;
}

}  // namespace tb
