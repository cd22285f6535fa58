"""Rendered faces kept on disk between runs, so a window's first paint need not draw them again.

A face's file is named by a digest of everything that decides its pixels (``FaceArt``
gathers it: the card's data row and view as drawn, the piece's look, the pixel size and zoom
bucket), together with what is the same for the whole run (``run_identity``): the source of
the modules that draw faces (and the program's version), the Qt and PySide6 versions, the
platform plugin, the font families installed and those the faces' fonts resolve to. Any
change to one of these names another file: a stale face is never shown; the old file is left
to the pruning. (A font file replaced under the same family name is not seen: remove the
folder then.)

Each file holds the raw pixels of one face after a short header (size, row length, pixel
format, a CRC-32 of the pixels). A file that is short, damaged or of another format is not
used: the face is drawn and its file written again. A file is written whole or not at all
(a temporary file beside it, renamed), but not flushed to the disk first: the checksum catches
a file a power cut left half written. (tabletop/persist/atomic.py's writer, for files that
must last, also syncs and looks for leftovers at every write: some 1 ms a face.) A face larger
than ``FACE_BYTES`` is not kept. The folder is kept under ``LIMIT_BYTES``: past it, the oldest
files go, and the temporary files of killed writes.

The folder: ``$XDG_CACHE_HOME/tabletop/faces`` (``~/.cache`` when unset; the usual cache folder
on Windows and macOS). ``TABLETOP_FACE_CACHE=off`` (or ``0``, ``no``, ``false``) turns the store
off: every face is drawn.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import BinaryIO

import PySide6
from PySide6.QtCore import qVersion
from PySide6.QtGui import QFontDatabase, QFontInfo, QGuiApplication, QImage

from tabletop import __version__
from tabletop.codecache import cache_root, switched_off

from . import card_layouts, card_parts, layout, piece_art, token_art, units

FORMAT = b"TTFACE1\n"
HEADER = struct.Struct(">IIIII")  # width, height, bytes per line, QImage format, CRC-32
LIMIT_BYTES = 128 * 1024 * 1024
# a face drawn larger (a card at four times the scene's scale and more, zoomed far in) is not
# kept: it would take long to write, and a few of them would push the start's faces out
FACE_BYTES = 3 * 512 * 1024
PRUNE_TO = 0.75  # past the limit, the oldest files go until the folder is this share of it
SWITCH = "TABLETOP_FACE_CACHE"
SUFFIX = ".face"
TEMP_MARK = ".tmp-"  # a face being written: .<name>.face.tmp-<random>, renamed when whole
LEFTOVER_AGE = 24 * 3600.0
# the modules whose code decides a face's pixels (faces.py adds itself)
DRAWING_MODULES = (card_layouts, card_parts, layout, piece_art, token_art, units)


def cache_folder() -> Path | None:
    """Where faces are kept; None when the store is turned off."""
    if switched_off(SWITCH):
        return None
    return cache_root() / "faces"


def source_digest(paths: list[str]) -> str:
    """A digest of the files' bytes (the drawing code as it is on disk now)."""
    digest = hashlib.blake2b(digest_size=16)
    for path in paths:
        digest.update(path.encode("utf-8", "surrogateescape"))
        try:
            digest.update(Path(path).read_bytes())
        except OSError:
            digest.update(b"?")
    return digest.hexdigest()


def run_identity(extra_sources: list[str]) -> str:
    """What every face of this run depends on besides its own data: the program's version and
    drawing code, Qt, the platform plugin, the font families installed and those the faces'
    fonts resolve to (regular and bold)."""
    sources = [m.__file__ or "" for m in DRAWING_MODULES] + extra_sources
    fonts: list[object] = []
    if QGuiApplication.instance() is not None:
        # a family added or removed may change what a text falls back to
        fonts.append(sorted(QFontDatabase.families()))
        for families in (piece_art.SERIF, piece_art.SANS):
            for bold in (False, True):
                info = QFontInfo(piece_art.font_of(families, bold=bold))
                fonts.append((info.family(), info.styleName(), info.weight()))
    return repr(
        (
            FORMAT,
            __version__,  # where the sources cannot be read (a frozen program), at least this
            source_digest(sources),
            qVersion(),
            PySide6.__version__,
            QGuiApplication.platformName() if QGuiApplication.instance() is not None else "",
            fonts,
        )
    )


class FaceStore:
    """Faces on disk, by key (a text naming everything that decides the pixels)."""

    def __init__(self, folder: Path, limit_bytes: int = LIMIT_BYTES) -> None:
        self.folder = folder
        self.limit_bytes = limit_bytes
        self._pruned = False
        self._made = False  # the folder exists

    @classmethod
    def from_env(cls) -> FaceStore | None:
        """The user's store, or None when it is turned off."""
        folder = cache_folder()
        return cls(folder) if folder is not None else None

    def path(self, key: str) -> Path:
        return self.folder / self.file_name(key)

    @staticmethod
    def file_name(key: str) -> str:
        """The name of the file that keeps the face named ``key``."""
        name = hashlib.blake2b(key.encode("utf-8", "surrogateescape"), digest_size=20).hexdigest()
        return f"{name}{SUFFIX}"

    def load(self, key: str) -> QImage | None:
        """The face stored under ``key``; None when there is none or its file is not whole.

        The pixels are read straight into the image's own memory (no bytes object in between,
        no copy of them): a window's first paint loads some forty faces."""
        try:
            with open(os.path.join(self.folder, self.file_name(key)), "rb", buffering=0) as handle:
                return _read_face(handle)
        except OSError:
            return None

    def save(self, key: str, image: QImage) -> None:
        """Keep ``image`` under ``key``, whole or not at all; a folder that cannot be written
        is passed over."""
        if image.isNull() or image.sizeInBytes() > FACE_BYTES:
            return
        pixels = memoryview(image.constBits())[: image.bytesPerLine() * image.height()]
        header = HEADER.pack(
            image.width(),
            image.height(),
            image.bytesPerLine(),
            image.format().value,
            zlib.crc32(pixels),
        )
        target = self.path(key)
        try:
            if not self._made:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._made = True
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}{TEMP_MARK}", dir=self.folder)
        except OSError:
            self._made = False  # removed meanwhile: made again at the next face
            return
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(FORMAT + header)
                out.write(pixels)
            os.replace(temp, target)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            return
        if not self._pruned:  # once a run: the folder changes little within one
            self._pruned = True
            self.prune()

    def prune(self) -> None:
        """Past the limit, remove the oldest faces until the folder is back to PRUNE_TO of it;
        remove what killed writes left behind (their temporary files, a day old)."""
        entries = []
        now = time.time()
        with contextlib.suppress(OSError), os.scandir(self.folder) as found:
            for entry in found:
                if SUFFIX not in entry.name or not entry.is_file(follow_symlinks=False):
                    continue
                with contextlib.suppress(OSError):
                    info = entry.stat(follow_symlinks=False)
                    if entry.name.endswith(SUFFIX):
                        entries.append((info.st_mtime, info.st_size, entry.path))
                    elif TEMP_MARK in entry.name and now - info.st_mtime > LEFTOVER_AGE:
                        os.unlink(entry.path)
        total = sum(size for _, size, _ in entries)
        if total <= self.limit_bytes:
            return
        for _, size, path in sorted(entries):
            if total <= self.limit_bytes * PRUNE_TO:
                break
            with contextlib.suppress(OSError):
                os.unlink(path)
                total -= size


def _read_face(handle: BinaryIO) -> QImage | None:
    """The face in an open file; None when the file is short, long, damaged or of another
    format. The file's size is checked against its header before any pixel memory is taken."""
    start = len(FORMAT) + HEADER.size
    head = handle.read(start)
    if len(head) < start or not head.startswith(FORMAT):
        return None
    width, height, line, fmt, crc = HEADER.unpack_from(head, len(FORMAT))
    if width == 0 or height == 0 or line < width:
        return None
    if os.fstat(handle.fileno()).st_size != start + line * height:
        return None
    try:
        image = QImage(width, height, QImage.Format(fmt))
    except (ValueError, TypeError):
        return None
    if image.isNull() or image.bytesPerLine() != line:
        return None
    pixels = image.bits()
    done = 0
    while done < len(pixels):
        got = handle.readinto(pixels[done:])
        if not got:
            return None
        done += got
    return image if zlib.crc32(pixels) == crc else None
