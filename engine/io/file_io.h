// Every file tetrisbench reads or writes goes through here (docs/threat-model.md):
// - reads accept regular files only (never a FIFO, device, socket or folder) and stop at a
//   size cap, so no input can block or exhaust memory;
// - writes go to a fresh temporary file in the same folder, are flushed, and are renamed
//   over the target only if the target is missing or a regular file (never a symlink, device
//   or folder), so a reader never sees a partial file and a failed write leaves nothing;
// - the folders below a results folder are walked with O_NOFOLLOW (folder_inside), so a link
//   inside it never sends a write elsewhere.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "error.h"

namespace tb {

// The default cap of read_input_file: far above any real config, policy, replay or checkpoint.
inline constexpr std::size_t kMaxInputBytes = std::size_t{256} << 20;

// The whole file; throws InputError "cannot read <what> '<path>': <reason>" when it is
// missing, not a regular file, unreadable or larger than max_bytes.
std::string read_input_file(const std::string& path, std::string_view what,
                            std::size_t max_bytes = kMaxInputBytes);

// True if `path` names something (lstat: a dangling symlink exists too).
bool path_exists(const std::string& path);

// Throws InputError if something other than a regular file (a symlink, device, FIFO, socket or
// folder) sits at `path`.  `flag` names the option in the message.
void check_replaceable(const std::string& path, std::string_view flag);

// Throws InputError if the file name of `path` is longer than NAME_MAX or the path reaches
// PATH_MAX: such a file can never be written, so it is refused before the work.
void check_name_fits(const std::string& path, std::string_view flag);

// Throws InputError unless `path` may be written: a non-empty name that fits (above), missing
// or a regular file (not a symlink, device, FIFO, socket or folder), in a folder that exists
// and is writable.  Called before long runs so that no work is lost.  `flag` names the option
// in the message.
void check_writable(const std::string& path, std::string_view flag);

// Writes `contents` atomically (see above).  The temporary is "<name>.tmp.<pid>.<n>", or
// ".<hash of name>.tmp.<pid>.<n>" when that would not fit NAME_MAX; a replaced file keeps its
// permission bits.  Throws InputError if the target may not be replaced, RunError (one line,
// with the path) if writing fails; either way the target is unchanged and no temporary file
// is left.
void write_file_atomically(const std::string& path, std::string_view contents);

// Receives consecutive pieces of a file's contents.
using ContentSink = std::function<void(std::string_view)>;
// The same, with the contents handed over in pieces: `produce` passes them to its sink in order,
// so a large file needs no buffer of its own size (every new page of such a buffer costs a page
// fault).  If produce throws, its exception reaches the caller and nothing is left, as above.
void write_file_atomically(const std::string& path, const std::function<void(const ContentSink&)>& produce);

// The folder `root/rel` ("runs/cmaes/run-0"), checked one step at a time below `root`: each
// step is opened with O_NOFOLLOW | O_DIRECTORY, so a symlink, file or device at any step is
// refused (InputError) and nothing is ever written through it out of `root`.  With `create`,
// missing steps are made (mkdirat); without it, a missing step ends the walk (the folder does
// not exist yet).  `rel` must be relative with no "." or ".." step.  `root` itself may be
// reached through links: the user named it.  Returns "root/rel".
std::string folder_inside(const std::string& root, std::string_view rel, bool create);

// True if the two paths name the same file, existing or not (symlinks resolved).
bool same_file(const std::string& a, const std::string& b);

// Removes, under `dir` (recursively), the temporary files write_file_atomically leaves when
// killed between creating and renaming them ("<name>.tmp.<pid>.<n>", or "<name>.tmp.<pid>"
// from older versions) whose process <pid> no longer runs.  Returns how many.
int remove_stale_temporaries(const std::string& dir);
// The same for one file's own temporaries ("<path>.tmp.<pid>.<n>" beside it).
int remove_stale_temporaries_of(const std::string& path);

}  // namespace tb
