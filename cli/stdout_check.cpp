#include "stdout_check.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "error.h"

namespace tb {
namespace {

bool stdout_was_closed = false;

}  // namespace

void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    if (fd == STDOUT_FILENO) stdout_was_closed = true;
    // open() returns the lowest free number, which is fd: 0, 1 and 2 are taken in order.
    if (::open("/dev/null", fd == STDERR_FILENO ? O_WRONLY : O_RDONLY) != fd) return;
  }
}

void check_stdout() {
  // std::cout is synchronized with stdio (the default), so its writes are stdout's; both are
  // looked at all the same.  The stream keeps no reason for a failed write, but errno does:
  // this flush's failure if it failed, else the last failure before it, which is the failed
  // write, since a command writes its report last.
  const int earlier = errno;
  errno = 0;
  std::cout.flush();
  std::fflush(stdout);
  if (!std::cout.fail() && !std::ferror(stdout)) return;
  if (stdout_was_closed) throw RunError("cannot write standard output: it is closed");
  const int reason = errno != 0 ? errno : earlier;
  throw RunError(std::string("cannot write standard output") + (reason ? std::string(": ") + std::strerror(reason) : ""));
}

}  // namespace tb
