// The one error type of tetrisbench (docs/architecture.md "One error type"): a one-line
// message and the exit status it maps to.  The command line catches it in one place
// (cli/main.cpp) and exits with that status.
//   InputError (exit 2)  bad input: a flag, a file's contents, a config, a checkpoint, or an
//                        output path the program must not touch.  Nothing was written.
//   RunError   (exit 1)  a run that could not finish: a write failed, the weights diverged, a
//                        replay does not reproduce.
// The layers' own kinds of bad input (PolicyError, ReplayError, ConfigError, ...) derive from
// InputError only to name their origin; nothing handles them differently.
#pragma once

#include <stdexcept>
#include <string>

namespace tb {

class Error : public std::runtime_error {
 public:
  int exit_code() const { return exit_code_; }

 protected:
  Error(int exit_code, const std::string& what) : std::runtime_error(what), exit_code_(exit_code) {}

 private:
  int exit_code_;
};

struct InputError : Error {
  explicit InputError(const std::string& what) : Error(2, what) {}
};

struct RunError : Error {
  explicit RunError(const std::string& what) : Error(1, what) {}
};

}  // namespace tb
