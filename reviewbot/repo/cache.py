"""An incremental cache of per-file engine results, keyed by content, engine and configuration.

Entries live under the repository's git directory (``.git/reviewbot/cache``), never in the work
tree, or under ``REVIEWBOT_CACHE_DIR``. The key is the file's git blob id (the SHA-1 of
``blob <size>\\0<content>``), the engine version, the profile and the language table, so a
change to any of them misses. Writes go to a temporary file that is renamed into place, so two
processes can write at once and a reader never sees half an entry; an entry that does not parse
is ignored and rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from reviewbot import __version__
from reviewbot.engine.languages import Language
from reviewbot.errors import InputError
from reviewbot.repo.git import Git

__all__ = ["CACHE_FORMAT", "Cache", "find_cache", "language_key"]

# What the entries hold and how they were computed: bumped when the outline (the units) or
# the signal changes within one release (2: a decorator's call in a Python class is no unit;
# a TS function bound on the line below its name is one; 3: a JS/TS accessor is `get x` or
# `set x`, no method `x()`; a Kotlin extension function is `fun Call.await`, not `fun Call`; a JS
# class assigned to a member, `module.exports = class App {`, holds its methods, and
# `b: function () {` in a literal is one; 4: a JS/TS regular expression literal's or a Go quoted
# string's backtick opens no multi-line string that hid the units below it; `export default ok &&
# function f(` is a unit; a TS member typed as a function or with default type parameters is one;
# 5: a Rust `where` clause at its header's indentation keeps the body in the unit, a `#[cfg(all(`
# attribute over lines is no member, a name starting with `end` closes no block, Ruby's `def
# self.parse` is the unit `parse`; a unit's `edit`, its one or two changed lines; a callback's
# label keeps its text's words up to 200 characters, it was cut at 40; a JS/TS fallback arrow
# wrapped below its binding, `const f =` / `blocks[2] ||` / `(() => {`, is a unit; a Java
# `try (R r = new R(a)) {` is no anonymous class whose calls were methods; 6 (out21): a
# TypeScript function's overload signatures are the unit of the declaration they overload).
CACHE_FORMAT = 6
T = TypeVar("T")


def language_key(language: Language) -> str:
    table = json.dumps(
        [
            language.name,
            sorted(language.keywords.items()),
            language.line_comments,
            [b._asdict() for b in language.block_comments],
            language.indent_weight,
            language.decorator_weight,
            language.string_delimiters,
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(table.encode()).hexdigest()[:16]


class Cache:
    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.hits = 0
        self.misses = 0

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def _path(self, kind: str, key: str) -> Path:
        assert self.root is not None
        return self.root / kind / key[:2] / f"{key}.json"

    def key(self, blob: str, profile: str, language: Language, extra: str = "") -> str:
        parts = f"{CACHE_FORMAT}|{__version__}|{profile}|{language_key(language)}|{blob}|{extra}"
        return hashlib.sha256(parts.encode()).hexdigest()

    def get(self, kind: str, key: str) -> Any | None:
        if self.root is None:
            return None
        path = self._path(kind, key)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # corrupt or unreadable: rebuilt by the caller, overwritten by put
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        return entry.get("value")

    def put(self, kind: str, key: str, value: Any) -> None:
        if self.root is None:
            return
        path = self._path(kind, key)
        tmp: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"key": key, "value": value}, fh)
            os.replace(tmp, path)  # atomic: readers see the old entry or the new one
        except OSError:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def through(self, kind: str, key: str, compute: Callable[[], T]) -> T:
        found = self.get(kind, key)
        if found is not None:
            self.hits += 1
            return found  # type: ignore[no-any-return]
        self.misses += 1
        value = compute()
        self.put(kind, key, value)
        return value


def find_cache(start: Path, *, disabled: bool = False, override: str | None = None) -> Cache:
    """The cache for a folder: ``override`` (the door reads REVIEWBOT_CACHE_DIR), else the
    git directory's, else none."""
    if disabled:
        return Cache(None)
    if override:
        return Cache(Path(override))
    try:
        git = Git(start if start.is_dir() else start.parent)
    except InputError:
        return Cache(None)
    return Cache(git.git_dir() / "reviewbot" / "cache")
