"""The structural engine: pure numerics over text (no files, git or environment)."""

from __future__ import annotations

from reviewbot.engine.index import FileIndex, Position
from reviewbot.engine.languages import Language, LanguageRegistry, default_registry
from reviewbot.engine.profiles import DEFAULT_PROFILE, Profile, get_profile

__all__ = ["DEFAULT_PROFILE", "FileIndex", "Position", "Profile", "get_profile", "open_index"]


def open_index(
    path: str,
    text: str,
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    registry: LanguageRegistry | None = None,
    language: Language | None = None,
) -> FileIndex:
    """Index ``text`` as the file ``path`` (the name picks the language table)."""
    prof = get_profile(profile) if isinstance(profile, str) else profile
    lang = language or (registry or default_registry()).detect(path)
    return FileIndex(text, lang, prof)
