"""The report as JSON (schema ``reviewbot.report/1``, shipped in reviewbot/schemas)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources
from json.encoder import encode_basestring
from typing import Any

from reviewbot import __version__
from reviewbot.codes import describe
from reviewbot.model import (
    MEASURE_FIELDS,
    SCHEMA,
    Finding,
    MetricsChange,
    Report,
    Stats,
    UnitChange,
    UnitRef,
)
from reviewbot.render.indented import Fragment, dumps_indented
from reviewbot.render.style import sparkline

__all__ = ["load_schema", "report_doc", "report_json", "stats_doc", "unit_doc"]


def load_schema() -> dict[str, Any]:
    text = resources.files("reviewbot.schemas").joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _num(x: float | None) -> float | int | None:
    if x is None:
        return None
    f = float(x)
    return int(x) if f.is_integer() else round(f, 4)


def _metrics(change: MetricsChange) -> dict[str, Any]:
    """``change.measures()`` as JSON, written from the two sides directly (a review of a large
    file writes thousands)."""
    before, after = change.before, change.after
    if before is None and after is None:
        return {}
    doc: dict[str, Any] = {}
    if before is None and after is not None:  # a new unit (all of a new file's)
        for name, attr in MEASURE_FIELDS:
            doc[name] = {"before": None, "after": _num(float(getattr(after, attr))), "delta": None}
        return doc
    for name, attr in MEASURE_FIELDS:
        b = None if before is None else float(getattr(before, attr))
        a = None if after is None else float(getattr(after, attr))
        delta = None if b is None or a is None else a - b
        doc[name] = {"before": _num(b), "after": _num(a), "delta": _num(delta)}
    return doc


def _unit(u: UnitRef | None) -> dict[str, Any] | None:
    return None if u is None else {"label": u.label, "start": u.start, "end": u.end}


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity.value,
        "path": f.path,
        "line": f.line,
        "end_line": f.end_line,
        "title": f.title,
        "message": f.message,
        "metrics": _finding_metrics(f),
        "unit": _unit(f.unit),
        "fingerprint": f.fingerprint,
        "in_diff": f.in_diff,
    }


def _finding_metrics(f: Finding) -> dict[str, Any]:
    doc = _metrics(f.metrics)
    if f.references is not None:
        doc["references"] = {"before": None, "after": f.references, "delta": None}
    return doc


def stats_doc(stats: Stats, not_shown: int) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "files": stats.files,
        "files_analysed": stats.files_analysed,
        "files_skipped": stats.files_skipped,
        "lines_added": stats.lines_added,
        "lines_removed": stats.lines_removed,
        "units_changed": stats.units_changed,
        "units_measures_changed": stats.units_measures_changed,
        "findings": stats.findings._asdict(),
        "findings_total": stats.findings_total,
        "files_not_reviewed": stats.files_not_reviewed,
        "seconds": stats.seconds,
    }
    if stats.hotspots_touched is not None:
        doc["hotspots_touched"] = [h._asdict() for h in stats.hotspots_touched]
    doc["findings_not_shown"] = not_shown
    return doc


SPARK_WIDTH = 24


@lru_cache(maxsize=4096)
def _unit_sparkline(shape: tuple[float, ...]) -> str:
    """A unit's sparkline, drawn once per distinct shape (the units of a large file share a
    few shapes: short functions of the same form)."""
    return sparkline(shape, width=SPARK_WIDTH)


def unit_doc(u: UnitChange) -> dict[str, Any]:
    return {
        "label": u.label,
        "change": u.kind,
        "old": _unit(u.old),
        "new": _unit(u.new),
        "metrics": _metrics(u.metrics),
        "sparkline": _unit_sparkline(u.shape),
        # Renamed or moved: what it was called, and (moved) where it was.
        **({"old_label": u.old_label} if u.old_label is not None else {}),
        **({"old_path": u.old_path} if u.old_path is not None else {}),
    }


def _number_text(value: float | None) -> str:
    """``_num(value)`` as JSON text, for a value already made a float (or None)."""
    if value is None:
        return "null"
    text = _NUMBER_TEXT.get(value)
    if text is None:
        text = dumps_indented(_num(value))  # NaN and the infinities as json.dumps writes them
        if len(_NUMBER_TEXT) < 65536:  # the values of a large file repeat: small counts
            _NUMBER_TEXT[value] = text
    return text


_NUMBER_TEXT: dict[float, str] = {}


def _metrics_text(change: MetricsChange, key: str) -> str:
    """``_metrics(change)`` as ``dumps_indented`` writes it at the indentation ``key`` ends
    with."""
    before, after = change.before, change.after
    if before is None and after is None:
        return "{}"
    sub = key + "  "
    leaf = sub + "  "
    parts = []
    for name, attr in MEASURE_FIELDS:
        b = None if before is None else float(getattr(before, attr))
        a = None if after is None else float(getattr(after, attr))
        d = None if b is None or a is None else a - b
        parts.append(
            f'{sub}{encode_basestring(name)}: {{{leaf}"before": {_number_text(b)},{leaf}'
            f'"after": {_number_text(a)},{leaf}"delta": {_number_text(d)}{sub}}}'
        )
    return "{" + ",".join(parts) + key + "}"


def _ref_text(u: UnitRef | None, newline: str) -> str:
    """``_unit(u)`` as ``dumps_indented`` writes it at the indentation ``newline`` ends with."""
    if u is None:
        return "null"
    inner = newline + "  "
    return (
        f'{{{inner}"label": {encode_basestring(u.label)},{inner}"start": {u.start!r},'
        f'{inner}"end": {u.end!r}{newline}}}'
    )


class _Units(Fragment):
    """A file's units in the report: ``[unit_doc(u) for u in units]``, each row written from a
    template (a review of a large new file writes tens of thousands; ``test_render`` compares
    the text with the plain document's)."""

    __slots__ = ("units",)

    def __init__(self, units: Sequence[UnitChange]) -> None:
        self.units = units

    def plain(self) -> list[dict[str, Any]]:
        return [unit_doc(u) for u in self.units]

    def write(self, out: list[str], newline: str) -> None:
        if not self.units:
            out.append("[]")
            return
        row = newline + "  "  # a unit's braces
        key = row + "  "  # its keys
        rows: list[str] = []
        for u in self.units:
            metrics_text = _metrics_text(u.metrics, key)
            extra = ""
            if u.old_label is not None:
                extra += f',{key}"old_label": {encode_basestring(u.old_label)}'
            if u.old_path is not None:
                extra += f',{key}"old_path": {encode_basestring(u.old_path)}'
            rows.append(
                f'{{{key}"label": {encode_basestring(u.label)},{key}"change": '
                f'{encode_basestring(u.kind)},{key}"old": {_ref_text(u.old, key)},{key}'
                f'"new": {_ref_text(u.new, key)},{key}"metrics": {metrics_text},{key}'
                f'"sparkline": {encode_basestring(_unit_sparkline(u.shape))}{extra}{row}}}'
            )
        out.append("[" + row + ("," + row).join(rows) + newline + "]")


def report_doc(report: Report) -> dict[str, Any]:
    return _report_doc(report, lambda units: [unit_doc(u) for u in units])


def _report_doc(
    report: Report, unit_rows: Callable[[Sequence[UnitChange]], list[dict[str, Any]] | Fragment]
) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {
            "name": "reviewbot",
            "version": __version__,
            "profile": report.profile,
            "codes": describe(),
        },
        "base": report.base,
        "head": report.head,
        "files": [
            {
                "path": f.path,
                "old_path": f.old_path,
                "status": f.status.value,
                **({"reason": f.reason} if f.reason else {}),
                "language": f.language,
                "added": f.added,
                "removed": f.removed,
                "units": unit_rows(f.units),
                "warnings": list(f.warnings),
            }
            for f in report.files
        ],
        "findings": [_finding(f) for f in report.findings],
        "context": [
            {
                "path": c.path,
                "new_start": c.new_start,
                "new_end": c.new_end,
                "old_start": c.old_start,
                "old_end": c.old_end,
                "unit": _unit(c.unit),
                "bands": {"fine": c.fine, "medium": c.medium, "coarse": c.coarse},
                "sparkline": sparkline(c.shape, width=SPARK_WIDTH),
                "weight": c.weight,
                "truncated": c.truncated,
                "removal": c.removal,
                # the fine band as a diff, removed lines in their place (`bands.fine` holds
                # the new side's lines only)
                "diff": [
                    {"mark": r.mark, "old": r.old, "new": r.new, "text": r.text} for r in c.rows
                ],
            }
            for c in report.context
        ],
        "bundles": [
            {
                "id": b.id,
                "title": b.title,
                "reason": b.reason,
                "hunks": [
                    {
                        "path": h.path,
                        "new_start": h.new_start,
                        "new_end": h.new_end,
                        "old_start": h.old_start,
                        "old_end": h.old_end,
                    }
                    for h in b.hunks
                ],
            }
            for b in report.bundles
        ],
        "impact": [
            {
                "name": i.name,
                "unit": i.unit,
                "path": i.path,
                "change": i.change,
                "references": [
                    {k: v for k, v in r._asdict().items() if k != "now" or v} for r in i.references
                ],
                "total": i.total,
                "in_change_total": i.in_change_total,
                "truncated": i.truncated,
                "incomplete": i.incomplete,
                "uncertain": i.uncertain,
                "source": i.source,
                **({"fallback": i.fallback} if i.fallback else {}),
                **({"retargeted": i.retargeted, "now": i.now} if i.retargeted else {}),
                **({"detail": i.detail} if i.detail else {}),
            }
            for i in report.impact
        ],
        "stats": stats_doc(report.stats, report.truncated_findings),
    }


def report_json(report: Report) -> str:
    """The report's JSON text: ``report_doc`` as ``json.dumps(indent=2, ensure_ascii=False)``
    writes it, its units written from a template."""
    return dumps_indented(_report_doc(report, _Units)) + "\n"
