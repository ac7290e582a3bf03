"""Writing a config file so that a reader sees the old text or the new one, never half of either.

The new text goes to a temporary file in the same folder, is flushed to disk, takes the old file's
mode, and is renamed over it, after one backup copy of the old file. A symlinked config keeps its
link (its target is replaced). Anything that goes wrong leaves the file unchanged: PatchError.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .json5parse import PatchError


def write_atomic(path: Path, text: str, *, backup: Path | None = None) -> None:
    """Write ``text`` to ``path`` atomically; the old file is first copied to ``backup``.

    A symlink stays a symlink (its target is replaced); the file keeps its mode. A file without
    any write bit is refused, even for root: someone made it read-only on purpose.
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.stat().st_mode & 0o222:
        raise PatchError(f"{path} is read-only (the file was left unchanged; make it writable, "
                         "or add the lines below by hand)")
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o600
        if backup is not None and target.exists():
            shutil.copy2(target, backup)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise PatchError(f"{path}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise PatchError(f"{path}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
        raise
