"""The report as JSON (schema ``reviewbot.report/1``, shipped in reviewbot/schemas)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from reviewbot import __version__
from reviewbot.analysis.findings import CODES
from reviewbot.model import SCHEMA, Finding, Metrics, Report, UnitRef

__all__ = ["load_schema", "report_doc", "report_json"]


def load_schema() -> dict[str, Any]:
    text = resources.files("reviewbot.schemas").joinpath("report.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _num(x: float | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if float(x).is_integer() else round(float(x), 4)


def _metrics(ms: tuple[Metrics, ...]) -> dict[str, Any]:
    return {
        m.name: {"before": _num(m.before), "after": _num(m.after), "delta": _num(m.delta)}
        for m in ms
    }


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
        "metrics": _metrics(f.metrics),
        "unit": _unit(f.unit),
        "fingerprint": f.fingerprint,
        "in_diff": f.in_diff,
    }


def report_doc(report: Report) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {
            "name": "reviewbot",
            "version": __version__,
            "profile": report.profile,
            "codes": CODES,
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
                "units": [
                    {
                        "label": u.label,
                        "change": u.kind,
                        "old": _unit(u.old),
                        "new": _unit(u.new),
                        "metrics": _metrics(u.metrics),
                        "sparkline": u.sparkline,
                    }
                    for u in f.units
                ],
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
                "sparkline": c.sparkline,
                "weight": c.weight,
                "truncated": c.truncated,
            }
            for c in report.context
        ],
        "bundles": list(report.bundles),
        "impact": list(report.impact),
        "stats": {**report.stats, "findings_not_shown": report.truncated_findings},
    }


def report_json(report: Report) -> str:
    return json.dumps(report_doc(report), indent=2, ensure_ascii=False) + "\n"
