// Standard output as a checked output (docs/threat-model.md): a report that did not reach
// stdout (a full disk, /dev/full, a pipe whose reader left while SIGPIPE is ignored, a closed
// descriptor) is a failed run, exit 1 with one line, never a truncated report and exit 0.
#pragma once

namespace tb {

// Called first in main: puts /dev/null on whichever of descriptors 0, 1 and 2 the caller left
// closed, so that no file the program opens later (a results folder's lock) takes its number
// and receives the progress lines or the report.  A closed stdout gets /dev/null opened for
// reading: every write to it fails, and check_stdout() says that stdout was closed.
void reserve_standard_descriptors();

// Flushes std::cout and stdout; throws RunError ("cannot write standard output: REASON") if
// any write to them failed since the start.  Called once a command is done, and by commands
// that write to stdout as they go, after each flush, so that they stop at the first failure.
void check_stdout();

}  // namespace tb
