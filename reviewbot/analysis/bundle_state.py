"""Reading a saved repository bundling (``repo_bundles.Bundling.state``, kept beside the index
as ``bundles.json``) without loading the clustering's numpy and scipy: which bundle holds a
line, for a review's context pack."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["bundle_at", "load_state"]


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
