// Writing results safely: a temporary file in the same folder, flushed, then renamed, so a
// reader never sees a partial file and a failed run leaves nothing behind.
#pragma once

#include <string>

namespace tb {

// Throws std::runtime_error with a one-line message on failure.
void write_file_atomically(const std::string& path, const std::string& contents);

// Throws std::runtime_error unless `path` could be written (its folder exists and is
// writable, and it is not a folder).  Checked before long runs so no work is lost.
void check_writable(const std::string& path);

}  // namespace tb
