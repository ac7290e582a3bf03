"""Writing a file so that a reader sees the old bytes or the new ones, never half of either: the one
helper for every file we write in place (the OpenClaw config and its backup, ``compact -o``).

The new text goes to a temporary file in the same folder, is flushed to disk, takes the old file's
mode, owner and group, and is renamed over it; the backup copy of the old file is written the same way. A symlinked
config keeps its link (its target is replaced). Anything that goes wrong leaves the file
unchanged: PatchError. The text is written as given: line ends and a byte order mark stay as the
caller has them.

A process killed between creating its temporary file and renaming it (kill -9) leaves the file
behind. Its name carries the writer's pid (``.openclaw.json.cc-tmp-<pid>-<random>``), so the next
write removes those of ours whose writer is gone, and nothing else.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from .json5parse import PatchError

TEMP_TAG = "cc-tmp"
_TEMP = re.compile(rf"^\.(?P<name>.+)\.{TEMP_TAG}-(?P<pid>\d+)-[0-9a-f]{{8}}$")


def temp_path(target: Path) -> Path:
    """Where a write of ``target`` puts its text first (named after this process)."""
    return target.parent / f".{target.name}.{TEMP_TAG}-{os.getpid()}-{secrets.token_hex(4)}"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, and is someone else's
    return True


def clean_stale(folder: Path, names: tuple[str, ...]) -> list[Path]:
    """Remove our temporary files for ``names`` in ``folder`` whose writing process is gone."""
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _TEMP.match(entry.name)
        if match and match["name"] in names and not _alive(int(match["pid"])):
            try:
                entry.unlink()
                removed.append(entry)
            except OSError:
                pass
    return removed


def check_writable(path: Path) -> None:
    """Refuse (PatchError) when ``path`` could not be replaced: no write bit, or a folder we cannot write.

    A file without any write bit is refused even for root: someone made it read-only on purpose.
    """
    target = Path(os.path.realpath(path))
    if target.exists() and not target.stat().st_mode & 0o222:
        raise PatchError(f"{path} is read-only (the file was left unchanged; make it writable, "
                         "or add the lines below by hand)")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise PatchError(f"{path}: its folder {target.parent} is not writable (nothing was changed)")


def check_folder(folder: Path) -> None:
    """Refuse (PatchError) when ``folder`` could not be created or written (its nearest existing parent)."""
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("/"))
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise PatchError(f"{folder}: {existing} is not a writable folder (nothing was changed)")


Owner = tuple[int, int]


def owner_to_keep(path: Path) -> Owner | None:
    """The (uid, gid) a rewrite of ``path`` must keep: the file's, else (a new file, written by root) its
    folder's; None when that is who we are already. Root running ``setup`` on another user's 0600 config
    would otherwise leave it root's, and its owner could no longer read it."""
    try:
        st = path.stat() if path.exists() else (path.parent.stat() if os.geteuid() == 0 else None)
    except OSError:
        return None
    if st is None or (st.st_uid, st.st_gid) == (os.geteuid(), os.getegid()):
        return None
    return st.st_uid, st.st_gid


def give(path: Path, owner: Owner | None) -> None:
    """chown ``path`` (not through a link) to ``owner``; nothing when None."""
    if owner is not None:
        os.chown(path, *owner, follow_symlinks=False)


def _replace(target: Path, data: bytes, mode: int, owner: Owner | None = None) -> None:
    tmp = temp_path(target)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if owner is not None:  # before the mode: a chown may clear set-id bits
                try:
                    os.fchown(handle.fileno(), *owner)
                except PermissionError:
                    raise PatchError(f"{target} belongs to user {owner[0]}: rewriting it would make it yours, and its "
                                     "owner could lose it (the file was left unchanged; run this as its owner)") from None
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some file systems cannot open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def replace_bytes(path: Path, data: bytes, new_mode: int = 0o600) -> None:
    """Replace ``path``'s contents with ``data`` atomically and durably (fsync of the file and its folder).

    A symlink stays a symlink (its target is replaced); an existing file keeps its mode, a new one gets
    ``new_mode``. Our stale temporary files beside it are removed first. OSError on failure, with the
    file unchanged.
    """
    target = Path(os.path.realpath(path))
    clean_stale(target.parent, (target.name,))
    mode = target.stat().st_mode & 0o7777 if target.exists() else new_mode
    _replace(target, data, mode, owner_to_keep(target))


def write_atomic(path: Path, text: str, *, backup: Path | None = None) -> None:
    """Write ``text`` to ``path`` atomically; the old file is first copied (atomically) to ``backup``.

    A symlink stays a symlink (its target is replaced); the file keeps its mode, owner and group (the
    backup takes them too), or the write is refused (PatchError) when they cannot be kept.
    """
    check_writable(path)
    target = Path(os.path.realpath(path))
    clean_stale(target.parent, (target.name,))
    if backup is not None:
        clean_stale(Path(os.path.realpath(backup)).parent, (Path(os.path.realpath(backup)).name,))
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o600
        owner = owner_to_keep(target)
        if backup is not None and target.exists():
            _replace(Path(os.path.realpath(backup)), target.read_bytes(), mode, owner)
        _replace(target, text.encode("utf-8"), mode, owner)
    except OSError as exc:
        raise PatchError(f"{path}: cannot write: {exc.strerror or exc} (the file was left unchanged)") from None
