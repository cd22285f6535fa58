"""How every output file is written: whole or not at all, and never through someone else's name.

The bytes go to a fresh temporary file in the target's folder, named
``.NAME.tabletop-tmp-XXXXXXXX`` and opened exclusively without following a link (a file or
link already there under that name is never written through nor removed). It is flushed to
disk, then renamed onto the target in one step. Unless the caller asks to replace, that rename
never replaces a file that exists (``renameat2`` with RENAME_NOREPLACE, else a hard link and
an unlink), so a file made by someone else between a check and the write is kept and the write
fails with FileExistsError. New files follow the umask (0666 & ~umask), as other programs'.

A write stopped by a kill leaves its temporary file behind; its name says what it is, and
the next write to the same target removes such leftovers older than a minute.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

TEMP_MARK = ".tabletop-tmp-"
LEFTOVER_AGE = 60.0  # seconds: a temporary file older than this is a killed write's leftover
_NAME_ROOM = 200  # bytes of the target's name kept in a temporary name (NAME_MAX is 255)
_RENAME_NOREPLACE = 1
_AT_FDCWD = -100
_TOKEN_BYTES = 8  # random bytes in a temporary file's name, written as hex digits
_TOKEN_DIGITS = 2 * _TOKEN_BYTES
_HEX_DIGITS = frozenset("0123456789abcdef")


def _libc_renameat2() -> object | None:
    # The C library's functions through the program's own symbols (the C library among them),
    # not through a search for the library's file: that search runs a program (ldconfig) and
    # imports subprocess, a few milliseconds of every command's start.
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


_renameat2 = _libc_renameat2()


def _split(path: str | os.PathLike[str]) -> tuple[Path, str]:
    target = Path(path)
    if not target.name:
        raise IsADirectoryError(errno.EISDIR, "names a folder, not a file", str(path))
    return (target.parent if str(target.parent) else Path(".")), target.name


def _temp_prefix(name: str) -> str:
    short = name.encode("utf-8", "surrogateescape")[:_NAME_ROOM].decode("utf-8", "surrogateescape")
    return f".{short}{TEMP_MARK}"


def _is_token(text: str) -> bool:
    """Sixteen lower-case hex digits: the random part of a temporary file's name (tested
    without a pattern: a new one for each file name cost some 1 ms a write)."""
    return len(text) == _TOKEN_DIGITS and all(c in _HEX_DIGITS for c in text)


def leftovers(path: str | os.PathLike[str], *, age: float = LEFTOVER_AGE) -> list[Path]:
    """The temporary files of killed writes to ``path``: plain files of this user, named as
    this module names them, not changed for ``age`` seconds (a minute: no write still going)."""
    folder, name = _split(path)
    prefix = _temp_prefix(name)
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    now = time.time()
    for entry in names:
        if not entry.startswith(prefix) or not _is_token(entry[len(prefix) :]):
            continue
        candidate = folder / entry
        try:
            info = os.lstat(candidate)
        except OSError:
            continue
        if (
            stat.S_ISREG(info.st_mode)
            and info.st_uid == os.geteuid()
            and now - info.st_mtime >= age
        ):
            found.append(candidate)
    return found


def _clean(path: str | os.PathLike[str]) -> None:
    for leftover in leftovers(path):
        with contextlib.suppress(OSError):
            os.unlink(leftover)


def _fresh(folder: Path, name: str) -> tuple[int, Path]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    prefix = _temp_prefix(name)
    for _ in range(100):
        temp = folder / f"{prefix}{secrets.token_hex(_TOKEN_BYTES)}"
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def _rename_noreplace(temp: Path, target: Path, shown: str) -> None:
    """Move ``temp`` to ``target``, failing with FileExistsError (naming ``shown``) if
    ``target`` exists, even as a dangling link."""
    if _renameat2 is not None:
        done = _renameat2(  # type: ignore[operator]
            _AT_FDCWD, os.fsencode(temp), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE
        )
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise OSError(code, os.strerror(code), shown)
    try:
        os.link(temp, target, follow_symlinks=False)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), shown) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # a file system without hard links: the check and the rename are two steps here
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), shown) from None
        os.rename(temp, target)
        return
    os.unlink(temp)


def _keep_mode(handle: int, target: Path) -> None:
    """A file replaced keeps its mode (a new one has the umask's)."""
    with contextlib.suppress(OSError):
        info = os.lstat(target)
        if stat.S_ISREG(info.st_mode):
            os.fchmod(handle, stat.S_IMODE(info.st_mode))


def _finish(temp: Path, target: Path, replace: bool, shown: str) -> None:
    if replace:
        os.replace(temp, target)
    else:
        _rename_noreplace(temp, target, shown)


def _begin(path: str | os.PathLike[str], replace: bool) -> tuple[Path, Path, int, Path]:
    """The start of every atomic write: ``path``'s folder and target, refused if it exists
    (unless ``replace``), its leftovers cleaned up, and a fresh temporary file opened beside it
    (keeping the mode of the file it replaces)."""
    folder, name = _split(path)
    target = folder / name
    if not replace and os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
    _clean(target)
    handle, temp = _fresh(folder, name)
    if replace:
        _keep_mode(handle, target)
    return folder, target, handle, temp


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)


@contextlib.contextmanager
def atomic_path(
    path: str | os.PathLike[str], *, replace: bool = False, create: bool = True
) -> Iterator[Path]:
    """A fresh, empty temporary file beside ``path`` for the block to fill (by name, for
    writers that open files themselves; with ``create=False`` a fresh name only, for a writer
    that creates the file itself, exclusively); when the block ends without an error it is
    synced and renamed to ``path``, otherwise removed. An existing ``path`` is replaced only
    with ``replace`` (FileExistsError otherwise, raised before and after the block)."""
    folder, target, handle, temp = _begin(path, replace)
    os.close(handle)
    if not create:
        os.unlink(temp)
    try:
        yield temp
        handle = os.open(temp, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
        _finish(temp, target, replace, os.fspath(path))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    _sync_folder(folder)


@contextlib.contextmanager
def atomic_writer(
    path: str | os.PathLike[str],
    mode: str = "w",
    *,
    replace: bool = False,
    sync_folder: bool = True,
) -> Iterator[IO]:
    """A file to write ``path``'s new content to (text in UTF-8, or bytes with ``mode="wb"``);
    it becomes ``path`` in one rename when the block ends without an error, and nothing is
    written otherwise. An existing ``path`` is replaced only with ``replace``.

    The content is on disk before the rename, so ``path`` is never seen empty or half
    written, even after a power cut. ``sync_folder=False`` leaves the rename itself to the
    system's next write-back (a power cut may then leave the file as it was before): for
    bookkeeping rewritten at every move, no more durable than the game's log it goes with."""
    folder, target, fd, temp = _begin(path, replace)
    try:
        encoding = None if "b" in mode else "utf-8"
        newline = None if "b" in mode else ""
        with os.fdopen(fd, mode, encoding=encoding, newline=newline) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _finish(temp, target, replace, os.fspath(path))
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    if sync_folder:
        _sync_folder(folder)


def atomic_write_text(
    path: str | os.PathLike[str], text: str, *, replace: bool = False, sync_folder: bool = True
) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (see atomic_writer)."""
    with atomic_writer(path, replace=replace, sync_folder=sync_folder) as handle:
        handle.write(text)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, replace: bool = False) -> None:
    """Write ``data`` to ``path`` whole or not at all (see atomic_writer)."""
    with atomic_writer(path, "wb", replace=replace) as handle:
        handle.write(data)


def atomic_copy(
    source: str | os.PathLike[str], path: str | os.PathLike[str], *, replace: bool = False
) -> None:
    """Copy ``source``'s bytes to ``path`` whole or not at all (see atomic_writer)."""
    with open(source, "rb") as original, atomic_writer(path, "wb", replace=replace) as handle:
        while chunk := original.read(1 << 20):
            handle.write(chunk)
