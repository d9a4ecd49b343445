"""An exclusive lock on a file that the kernel releases when its process dies.

Why ``fcntl.flock``: a run that is killed (kill -9, a power cut of the container) cannot remove a lock
file, so a lock that is a file's mere existence stays stuck until someone deletes it by hand. A flock
belongs to the open file description: it ends with the process, and two opens in one process exclude
each other too. The file holds a line naming the holder, for the refusal message.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class FileLock:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self.holder: str | None = None  # who holds it through this object

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, holder: str) -> str | None:
        """Take the lock for ``holder``; None when taken, else who holds it. Raises OSError."""
        if self._fd is not None:
            return None if holder == self.holder else self.holder
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            other = os.read(fd, 4096).decode("utf-8", "replace").strip()
            os.close(fd)
            return other or "another process"
        except OSError:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, holder.encode("utf-8") + b"\n", 0)
        self._fd, self.holder = fd, holder
        return None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd, self.holder = self._fd, None, None
            os.close(fd)  # closing the only descriptor releases the flock


__all__ = ["FileLock"]
