// The one error type for bad input: a flag, a file's contents, or an output path the program
// must not touch.  The command line prints its message as one line and exits 2
// (docs/threat-model.md).  Everything else that fails is a runtime error and exits 1.
#pragma once

#include <stdexcept>

namespace tb {

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tb
