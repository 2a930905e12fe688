"""JSON documents of the inspection commands (lines are 1-based here, 0-based in the engine)."""

from __future__ import annotations

from typing import Any

from reviewbot import __version__
from reviewbot.analysis.hotspots import Hotspots
from reviewbot.analysis.inspection import ContextResult, DiffResult, FileResult, PositionsResult
from reviewbot.analysis.positions import PositionPair
from reviewbot.engine import Position
from reviewbot.engine.context import Band
from reviewbot.engine.structure import Unit
from reviewbot.render.indented import dumps_indented
from reviewbot.render.report_json import unit_doc

__all__ = [
    "context_doc",
    "diff_doc",
    "dumps",
    "entropy_doc",
    "heatmap_doc",
    "hotspots_doc",
    "positions_doc",
]


def dumps(doc: dict[str, Any]) -> str:
    return dumps_indented(doc) + "\n"


def _tool(profile: str) -> dict[str, Any]:
    return {"name": "reviewbot", "version": __version__, "profile": profile}


def _position(p: Position) -> dict[str, Any]:
    return {"line": p.line + 1, "scale": p.scale, "coefficient": p.coefficient, "label": p.label}


def _unit(u: Unit | None) -> dict[str, Any] | None:
    if u is None:
        return None
    return {
        "label": u.label,
        "kind": u.kind,
        "name": u.name,
        "start": u.start + 1,
        "end": u.end + 1,
    }


def positions_doc(result: PositionsResult) -> dict[str, Any]:
    return {
        "tool": _tool(result.profile),
        "files": [
            {
                "path": f.path,
                "language": f.language,
                "lines": f.lines,
                "positions": [_position(p) for p in f.positions],
                "warnings": list(f.warnings),
            }
            for f in result.files
        ],
        "top": [{"path": path, **_position(p)} for path, p in result.top],
        "skipped": [{"path": s.path, "reason": s.reason} for s in result.skipped],
    }


def _band(b: Band, empty: bool) -> dict[str, Any]:
    if empty:
        return {"start": None, "end": None, "content": ""}
    return {"start": b.start + 1, "end": b.end + 1, "content": b.content}


def context_doc(result: ContextResult) -> dict[str, Any]:
    c = result.context
    empty = result.index.line_count == 0
    return {
        "tool": _tool(result.profile),
        "path": result.path,
        "language": result.index.language.name,
        "lines": result.index.line_count,
        "center": None if empty else c.center + 1,
        "requested": c.requested + 1,
        "clamped": c.clamped,
        "unit": _unit(c.unit),
        "bands": {name: _band(getattr(c, name), empty) for name in ("fine", "medium", "coarse")},
        "peaks": [_position(p) for p in c.peaks],
        "warnings": list(result.warnings),
    }


def hotspots_doc(found: Hotspots, profile: str) -> dict[str, Any]:
    return {
        "tool": _tool(profile),
        "commits": found.commits,
        "files": [
            {
                "path": f.path,
                "changes": f.changes,
                "lines": f.lines,
                "irregularity": f.irregularity,
                "score": f.score,
                "units": [
                    {
                        "label": u.label,
                        "start": u.start,
                        "end": u.end,
                        "commits": u.commits,
                        "irregularity": u.irregularity,
                        "score": u.score,
                    }
                    for u in f.units
                ],
            }
            for f in found.files
        ],
    }


def entropy_doc(result: FileResult) -> dict[str, Any]:
    e = result.index.entropy
    return {
        "tool": _tool(result.profile),
        "path": result.path,
        "language": result.index.language.name,
        "lines": result.index.line_count,
        "bands": [
            {
                "scale": b.scale,
                "bit_cost": b.cost.bits,
                "rice_k": b.cost.rice_k,
                "predictor": b.cost.predictor,
                "sparse": b.cost.sparse,
                "groups": b.cost.groups,
            }
            for b in e.bands
        ],
        "total_bit_cost": e.total,
        "mean_bit_cost": e.mean,
        "warnings": list(result.warnings),
    }


def heatmap_doc(result: FileResult) -> dict[str, Any]:
    h = result.index.heatmap
    return {
        "tool": _tool(result.profile),
        "path": result.path,
        "language": result.index.language.name,
        "lines": result.index.line_count,
        "levels": [
            {
                "level": lv.level,
                "span": lv.span,
                "bit_cost": lv.cost.bits,
                "rice_k": lv.cost.rice_k,
                "predictor": lv.cost.predictor,
                "sparse": lv.cost.sparse,
                "details": lv.details,
            }
            for lv in h.levels
        ],
        "total_entropy": h.total,
        "per_line": [float(v) for v in h.per_line],
        "warnings": list(result.warnings),
    }


def _pair(p: PositionPair) -> dict[str, Any]:
    return {"old": _position(p.old), "new": _position(p.new)}


def diff_doc(result: DiffResult) -> dict[str, Any]:
    """diff_wavelet_context's answer."""
    head = {"path": result.path, "base": result.base, "head": result.head}
    d = result.positions
    if d is None:
        return {
            **head,
            "changed": False,
            "note": "the file does not differ between the two revisions",
        }
    return {
        "path": result.path,
        "old_path": result.old_path,
        "base": result.base,
        "head": result.head,
        "changed": True,
        "added": [_position(p) for p in d.added],
        "removed": [_position(p) for p in d.removed],
        "shifted": [_pair(p) for p in d.shifted],
        "magnitude_changed": [_pair(p) for p in d.magnitude_changed],
        "unchanged": [_pair(p) for p in d.unchanged],
        "units": [unit_doc(u) for u in result.units],
    }
