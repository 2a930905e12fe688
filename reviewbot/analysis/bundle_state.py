"""Reading a saved repository bundling (``repo_bundles.Bundling.state``, kept beside the index
as ``bundles.json``) without loading the clustering's numpy and scipy: which bundle holds a
line, for a review's context pack."""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

__all__ = ["bundle_at", "load_state"]


DEFAULT_STATE = "bundles.json"  # the repository's bundling at the default target, as a whole


def state_name(scope: str, target: int, default_target: int) -> str:
    """The file a bundling is kept in beside the index: the whole repository's at the default
    target in ``DEFAULT_STATE`` (the one the context pack names bundles from); another target
    or a folder's (an agent's question) in its own file, so it never replaces that one."""
    if not scope and target == default_target:
        return DEFAULT_STATE
    key = "".join(c if c.isalnum() else "-" for c in scope.strip("/"))[:40] or "all"
    return f"bundles-{key}-{zlib.crc32(scope.encode('utf-8', 'surrogateescape')):08x}-{target}.json"


def load_state(path: Path) -> dict[str, Any] | None:
    """The saved bundling at ``path``, or None when there is none or it cannot be read."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


def bundle_at(state: dict[str, Any], path: str, line: int) -> tuple[str, str] | None:
    """The (id, title) of the bundle of a saved bundling (``Bundling.state``) whose card holds
    ``line`` of ``path`` (the card starting last at or before it), or None."""
    assign, titles = state.get("assign"), state.get("titles")
    if not isinstance(assign, dict) or not isinstance(titles, list):
        return None
    best: tuple[int, int] | None = None
    prefix = f"{path}::"
    for card_id, label in assign.items():
        if not card_id.startswith(prefix) or not isinstance(label, int):
            continue
        start = card_id.rsplit("@", 1)[-1]
        if start.isdigit() and int(start) <= line and (best is None or int(start) > best[0]):
            best = (int(start), label)
    if best is None or not 0 <= best[1] < len(titles):
        return None
    entry = titles[best[1]]
    if not (isinstance(entry, list) and len(entry) == 2):
        return None
    return str(entry[0]), str(entry[1])
