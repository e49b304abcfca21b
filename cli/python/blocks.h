// Long calls play their games in blocks, so that Ctrl-C can stop them: between blocks the
// GIL is taken and PyErr_CheckSignals run, and a pending KeyboardInterrupt ends the call.
// Game g of a call is the same game in any blocking, so the results never depend on it; a
// single game still runs to its end (the engine has no way to stop one).
#pragma once

#include <cstdint>
#include <functional>

namespace tb::python {

// Calls play(begin, end) on consecutive ranges that cover [0, total), the first `first` long;
// a range grows while ranges take well under a second and shrinks back when one takes longer,
// so short games are not cut into tiny blocks and long ones still stop soon.  Call it with the
// GIL released; it takes the GIL only to look for signals, and throws py::error_already_set
// for one.
void play_in_blocks(std::int64_t total, std::int64_t first, const std::function<void(std::int64_t, std::int64_t)>& play);

}  // namespace tb::python
