"""The structural engine: pure numerics over text (no files, git or environment)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reviewbot.engine.lines import LineIndex
from reviewbot.engine.profiles import DEFAULT_PROFILE, Profile, get_profile

if TYPE_CHECKING:
    from reviewbot.engine.index import FileIndex, Position, open_index

__all__ = [
    "DEFAULT_PROFILE",
    "FileIndex",
    "LineIndex",
    "Position",
    "Profile",
    "get_profile",
    "open_index",
]

_NUMERIC = frozenset({"FileIndex", "Position", "open_index"})


def __getattr__(name: str) -> Any:
    """``FileIndex``, ``Position`` and ``open_index`` load with numpy, on first use."""
    if name in _NUMERIC:
        # Lazy: index.py imports numpy (~90 ms of a ~200 ms hook run); the hook needs only
        # LineIndex, so the numeric index loads when something asks for it.
        from reviewbot.engine import index

        return getattr(index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
