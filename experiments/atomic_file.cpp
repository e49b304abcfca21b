#include "atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tb {

void write_file_atomically(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  auto fail = [&](const char* what) {
    const std::string reason = std::strerror(errno);
    std::remove(tmp.c_str());
    throw std::runtime_error(std::string("cannot ") + what + " '" + path + "': " + reason);
  };
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) fail("write");
  const bool ok = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size() &&
                  std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  if (std::fclose(f) != 0 || !ok) fail("write");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail("rename into");
}

void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw std::runtime_error("cannot write '" + path + "': it is a directory");
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec))
    throw std::runtime_error("cannot write '" + path + "': folder '" + parent.string() + "' does not exist");
  if (access(parent.c_str(), W_OK) != 0)
    throw std::runtime_error("cannot write '" + path + "': folder '" + parent.string() + "' is not writable");
}

}  // namespace tb
