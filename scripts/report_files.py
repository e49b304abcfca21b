"""Where report.py writes: one results folder, held open, with the promise of tetrisbench's own
writer (engine/io/file_io.h, docs/threat-model.md).

- Every file is written to a new temporary beside it (O_EXCL | O_NOFOLLOW), flushed, and renamed
  over the target only if the target is missing or a regular file: a symlink, device, FIFO or
  folder in its place is refused, never written through.  A replaced file keeps its permissions.
- Every subfolder is opened relative to the folder's descriptor with O_NOFOLLOW, so a link in its
  place is refused and nothing leaves the folder.
A refusal or a failed write ends the script with one line on stderr (exit 1) and leaves the
target as it was.
"""
import itertools
import os
import stat
import sys

_counter = itertools.count()


def _fail(message):
    sys.exit(f"report.py: {message}")


class Folder:
    def __init__(self, path, fd=None):
        self.path = path
        try:
            self.fd = fd if fd is not None else os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as e:
            _fail(f"cannot open folder '{path}': {e.strerror}")

    def sub(self, name):
        """The subfolder `name`, made if missing; a link or file in its place is refused."""
        path = os.path.join(self.path, name)
        try:
            os.mkdir(name, dir_fd=self.fd)
        except FileExistsError:
            pass
        except OSError as e:
            _fail(f"cannot create folder '{path}': {e.strerror}")
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        except OSError:
            _fail(f"'{path}' is not a folder (a symbolic link or a file?); refusing to write through it")
        return Folder(path, fd)

    def _existing(self, name):
        """The target's lstat, or None if it is missing; refuses anything but a regular file."""
        try:
            st = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(st.st_mode):
            _fail(f"'{os.path.join(self.path, name)}' is not a regular file; refusing to replace it")
        return st

    def write(self, name, data):
        """Writes bytes (or text, as UTF-8) atomically to `name` in this folder."""
        if isinstance(data, str):
            data = data.encode()
        path = os.path.join(self.path, name)
        old = self._existing(name)
        tmp = f"{name}.tmp.{os.getpid()}.{next(_counter)}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666,
                         dir_fd=self.fd)
        except OSError as e:
            _fail(f"cannot write '{path}': {e.strerror}")
        try:
            try:
                if old is not None:
                    os.fchmod(fd, stat.S_IMODE(old.st_mode))
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
            self._existing(name)  # again: the target may have changed during the write
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException as e:
            try:
                os.unlink(tmp, dir_fd=self.fd)
            except OSError:
                pass
            if isinstance(e, OSError):
                _fail(f"cannot write '{path}': {e.strerror}")
            raise
