"""Reading source files and folders for the inspection commands.

Decides what can be analysed and says why not: binary files (a NUL byte in the first 4 KiB),
files over the size limit (folder scans only; a file named explicitly is always read), files
git ignores, excluded globs. Invalid UTF-8 is decoded with replacement characters, and said so.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import InputError

__all__ = [
    "Skipped",
    "SourceText",
    "blob_id",
    "decode",
    "excluded",
    "is_binary",
    "iter_sources",
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


def read_source(
    path: Path, shown: str | None = None, max_bytes: int | None = None
) -> SourceText | Skipped:
    shown = shown if shown is not None else str(path)
    try:
        if max_bytes is not None:
            size = path.stat().st_size
            if size > max_bytes:
                return Skipped(shown, f"larger than {_human(max_bytes)} ({size} bytes)")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{shown}: is a directory, expected a file") from None
    except OSError as exc:
        return Skipped(shown, f"unreadable: {exc.strerror or exc}")
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
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        rel_root = os.path.relpath(root, folder)
        for name in sorted(names):
            found.append(name if rel_root == "." else os.path.join(rel_root, name))
    return found


def iter_sources(
    paths: Sequence[str], *, max_bytes: int, exclude: Sequence[str]
) -> Iterator[SourceText | Skipped]:
    """Files named explicitly are read whatever their size; folders are scanned with skips."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError(f"{raw}: no such file or directory")
        if path.is_file():
            yield read_source(path, raw)
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
            if full.is_symlink() or not full.is_file():
                continue
            yield read_source(full, shown, max_bytes)


def _join(base: str, rel: str) -> str:
    if base in (".", "./"):
        return rel
    return base.rstrip("/") + "/" + rel
