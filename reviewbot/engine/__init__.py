"""The structural engine: pure numerics over text (no files, git or environment).

``FileIndex`` and ``Position`` load on first use: the per-file index needs numpy, while the
language and profile tables (what configuration and the repository index read) do not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reviewbot.engine.languages import Language, LanguageRegistry, default_registry
from reviewbot.engine.profiles import DEFAULT_PROFILE, Profile, get_profile

if TYPE_CHECKING:
    from reviewbot.engine.index import FileIndex, Position

__all__ = ["DEFAULT_PROFILE", "FileIndex", "Position", "Profile", "get_profile", "open_index"]


def __getattr__(name: str) -> Any:
    if name in ("FileIndex", "Position"):
        # Lazy: engine.index imports numpy (0.1-0.3 s); the tables above must not cost that.
        from reviewbot.engine import index

        return getattr(index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_index(
    path: str,
    text: str,
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    registry: LanguageRegistry | None = None,
    language: Language | None = None,
) -> FileIndex:
    """Index ``text`` as the file ``path`` (the name picks the language table)."""
    # Lazy: see __getattr__.
    from reviewbot.engine.index import FileIndex

    prof = get_profile(profile) if isinstance(profile, str) else profile
    lang = language or (registry or default_registry()).detect(path)
    return FileIndex(text, lang, prof)
