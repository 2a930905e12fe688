"""diff_wavelet_context: a file's important positions on two revisions, matched through the
diff's line mapping (the review profile's fix of WaveScope's position-only matching)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewbot.analysis.review import review_files
from reviewbot.config import Config
from reviewbot.diff.changes import collect, resolve_range
from reviewbot.diff.git import Git
from reviewbot.engine import FileIndex, get_profile
from reviewbot.errors import ReviewbotError
from reviewbot.render.report_json import report_doc
from reviewbot.review import options

__all__ = ["diff_context"]

WINDOW = 2  # lines: a mapped old position this close to a new one is the same boundary
MAGNITUDE = 0.2  # a relative change of |coefficient| above this is "magnitude changed"


def _position(p: Any) -> dict[str, Any]:
    return {"line": p.line + 1, "scale": p.scale, "coefficient": p.coefficient, "label": p.label}


def diff_context(
    root: Path, path: str, base: str, head: str | None, config: Config
) -> dict[str, Any]:
    git = Git(root)
    spec = f"{base}..{head}" if head else base
    rng = resolve_range(git, spec, staged=False)
    changed = [
        cf
        for cf in collect(git, rng, max_bytes=config.max_file_bytes, exclude=config.exclude)
        if cf.path == path or cf.old_path == path
    ]
    if not changed:
        return {
            "path": path,
            "base": rng.base,
            "head": rng.head,
            "changed": False,
            "note": "the file does not differ between the two revisions",
        }
    cf = changed[0]
    if cf.old_text is None and cf.new_text is None:
        raise ReviewbotError(f"{path}: {cf.reason or cf.status.value}: nothing to compare")
    profile = get_profile(config.profile)
    language = config.registry.detect(cf.path)
    old = FileIndex(cf.old_text or "", language, profile)
    new = FileIndex(cf.new_text or "", language, profile)
    old_pos = old.important_positions(0.3, 40) if cf.old_text is not None else []
    new_pos = new.important_positions(0.3, 40) if cf.new_text is not None else []
    line_map = cf.line_map
    remaining = {p.line: p for p in new_pos}
    out: dict[str, list[dict[str, Any]]] = {
        "added": [],
        "removed": [],
        "shifted": [],
        "magnitude_changed": [],
        "unchanged": [],
    }
    for p in old_pos:
        mapped = line_map.old_to_new(p.line + 1)
        match = None
        if mapped is not None:
            near = [q for q in remaining.values() if abs(q.line + 1 - mapped) <= WINDOW]
            match = min(near, key=lambda q: abs(q.line + 1 - mapped), default=None)
        if match is None:
            out["removed"].append(_position(p))
            continue
        del remaining[match.line]
        entry = {"old": _position(p), "new": _position(match)}
        before, after = abs(p.coefficient), abs(match.coefficient)
        if before and abs(after - before) / before > MAGNITUDE:
            out["magnitude_changed"].append(entry)
        elif match.line != p.line:
            out["shifted"].append(entry)
        else:
            out["unchanged"].append(entry)
    out["added"] = [_position(q) for q in sorted(remaining.values(), key=lambda q: q.line)]
    report = review_files([cf], options(config), base=rng.base, head=rng.head)
    units = report_doc(report)["files"][0]["units"]
    return {
        "path": cf.path,
        "old_path": cf.old_path,
        "base": rng.base,
        "head": rng.head,
        "changed": True,
        **out,
        "units": units,
    }
