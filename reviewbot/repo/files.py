"""Reading source files and folders for the inspection commands.

Decides what can be analysed and says why not: binary files (a NUL byte in the first 4 KiB),
files over the size limit (folder scans only; a file named explicitly is always read), files
git ignores, excluded globs. Invalid UTF-8 is decoded with replacement characters, and said so.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import InputError

__all__ = [
    "Skipped",
    "SourceText",
    "Unreadable",
    "blob_id",
    "decode",
    "excluded",
    "is_binary",
    "iter_sources",
    "read_bytes",
    "read_source",
]

BINARY_PROBE = 4096
_SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".tox",
    }
)


class SourceText(NamedTuple):
    path: str  # as shown to the user
    text: str
    warnings: tuple[str, ...] = ()
    blob: str = ""  # git's object id of the bytes read (the cache key)


class Skipped(NamedTuple):
    path: str
    reason: str


def blob_id(data: bytes) -> str:
    """Git's object id of a blob with these bytes."""
    # Lazy: hashlib loads OpenSSL (~3 ms); the hook reads blobs by id and never needs this.
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:BINARY_PROBE]


def decode(data: bytes) -> tuple[str, tuple[str, ...]]:
    """UTF-8 (a BOM is dropped); invalid bytes become U+FFFD and a warning says how many."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), ()
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        count = text.count("\ufffd")
        return text, (f"invalid UTF-8: decoded with {count} replacement character(s)",)


class Unreadable(NamedTuple):
    """Why a file could not be read (said instead of reading it)."""

    reason: str


# Even a file named explicitly is refused past this size: reading it would cost several
# times its size in memory.
HARD_LIMIT = 256 * 1024 * 1024
_KINDS = {
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def read_bytes(path: Path, max_bytes: int | None = None) -> bytes | Unreadable:
    """A regular file's bytes, or why not: never opens a FIFO or device in a blocking way,
    never reads past ``max_bytes`` (or HARD_LIMIT). FileNotFoundError when absent."""
    limit = min(max_bytes, HARD_LIMIT) if max_bytes is not None else HARD_LIMIT
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if path.is_symlink():
            raise FileNotFoundError(f"{path}: broken symbolic link") from None
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Unreadable("symbolic link loop")
        return Unreadable(f"unreadable: {exc.strerror or exc}")
    if not stat.S_ISREG(info.st_mode):
        return Unreadable(f"not a regular file ({_kind(info.st_mode)})")
    if info.st_size > limit:
        return Unreadable(f"larger than {_human(limit)} ({info.st_size} bytes)")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return Unreadable(f"unreadable: {exc.strerror or exc}")
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):  # replaced between the two looks
            return Unreadable(f"not a regular file ({_kind(opened.st_mode)})")
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        return Unreadable(f"unreadable: {exc.strerror or exc}")
    finally:
        os.close(fd)
    if total > limit:
        return Unreadable(f"larger than {_human(limit)} (it grew while being read)")
    return b"".join(chunks)


def read_source(
    path: Path, shown: str | None = None, max_bytes: int | None = None, *, named: bool = True
) -> SourceText | Skipped:
    """A source file's text. A file the user ``named`` that cannot be read is an error (one
    line, naming why); a file found in a folder scan is a skip with the reason."""
    shown = shown if shown is not None else str(path)
    try:
        data = read_bytes(path, max_bytes)
    except FileNotFoundError as exc:
        broken = "broken symbolic link" in str(exc)
        raise InputError(
            f"{shown}: {'broken symbolic link' if broken else 'no such file'}"
        ) from None
    if isinstance(data, Unreadable):
        if named and data.reason.startswith(("not a regular file", "symbolic link loop")):
            raise InputError(f"{shown}: {data.reason}")
        return Skipped(shown, data.reason)
    return source_of(shown, data)


def source_of(shown: str, data: bytes, max_bytes: int | None = None) -> SourceText | Skipped:
    """A file's text from its bytes (a blob of some commit), or why it is skipped."""
    if max_bytes is not None and len(data) > max_bytes:
        return Skipped(shown, f"larger than {_human(max_bytes)} ({len(data)} bytes)")
    if is_binary(data):
        return Skipped(shown, "binary (NUL byte in the first 4 KiB)")
    text, warnings = decode(data)
    return SourceText(shown, text, warnings, blob_id(data))


def _human(n: int) -> str:
    if n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


def excluded(rel: str, patterns: Sequence[str]) -> bool:
    """Does an `exclude` glob match this repository-relative path (`**/` also matches at the
    top, `./x` patterns too)? One rule for `review`, the hook, `positions` and `hotspots`."""
    rel = rel.replace(os.sep, "/")
    return any(
        fnmatch.fnmatch(rel, p)
        or fnmatch.fnmatch("./" + rel, p)
        or fnmatch.fnmatch(rel, p.removeprefix("**/"))
        for p in patterns
    )


def _git_listing(folder: Path) -> tuple[list[str], list[str]] | None:
    """(files, ignored directories and files) under ``folder`` when it is in a git work tree."""

    def run(*args: str) -> list[str] | None:
        try:
            out = subprocess.run(
                ["git", "-C", str(folder), *args], capture_output=True, check=True, timeout=60
            ).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]

    files = run("ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", ".")
    if files is None:
        return None
    ignored = (
        run(
            "ls-files",
            "--others",
            "--ignored",
            "--exclude-standard",
            "--directory",
            "-z",
            "--",
            ".",
        )
        or []
    )
    return files, ignored


def _walk(folder: Path) -> list[str]:
    found: list[str] = []
    for root, dirs, names in os.walk(folder):
        rel_root = os.path.relpath(root, folder)
        links = [d for d in dirs if os.path.islink(os.path.join(root, d))]
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and d not in links)
        for name in sorted([*names, *links]):
            found.append(name if rel_root == "." else os.path.join(rel_root, name))
    return found


def iter_sources(
    paths: Sequence[str], *, max_bytes: int, exclude: Sequence[str]
) -> Iterator[SourceText | Skipped]:
    """Files named explicitly are read whatever their size (up to HARD_LIMIT); folders are
    scanned with skips, each with its reason."""
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            if not path.exists() and not path.is_symlink():
                raise InputError(f"{raw}: no such file or directory")
            found = read_source(path, raw, named=False)
            if isinstance(found, Skipped) and found.reason == "symbolic link loop":
                raise InputError(f"{raw}: symbolic link loop")
            yield found
            continue
        listing = _git_listing(path)
        if listing is None:
            rels, ignored = _walk(path), list[str]()
        else:
            rels, ignored = listing
        for rel in sorted(ignored):
            yield Skipped(_join(raw, rel.rstrip("/")), "ignored by git")
        for rel in sorted(rels):
            shown = _join(raw, rel)
            full = path / rel
            if excluded(rel, exclude):
                continue
            if full.is_symlink():
                yield Skipped(shown, "symbolic link")
                continue
            if full.is_dir():
                continue  # a submodule or nested repository's folder
            yield read_source(full, shown, max_bytes, named=False)


def _join(base: str, rel: str) -> str:
    if base in (".", "./"):
        return rel
    return base.rstrip("/") + "/" + rel
