"""SARIF 2.1.0 output (GitHub code scanning and other tools)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from reviewbot import __version__
from reviewbot.codes import CODES
from reviewbot.model import Finding, Report, Severity
from reviewbot.render.indented import dumps_indented

__all__ = ["artifact_uri", "sarif_doc", "sarif_json"]

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _properties(f: Finding) -> dict[str, Any]:
    props: dict[str, Any] = {
        m.name: {"before": m.before, "after": m.after} for m in f.metrics.measures()
    }
    if f.references is not None:
        props["references"] = {"before": None, "after": float(f.references)}
    return props


def artifact_uri(path: str) -> str:
    """A repository path as a relative URI reference (SARIF 3.10.2): every character but
    letters, digits, ``-._~`` and the folder separator percent-encoded (UTF-8), so a name can
    never read as a scheme (``c:x.py``), a query or a fragment, or hold a space or a quote."""
    try:
        data = path.encode("utf-8", "surrogateescape")  # a name that is not UTF-8: its bytes
    except UnicodeEncodeError:  # a surrogate that no byte stands for
        data = path.encode("utf-8", "replace")
    return quote(data, safe="/")


def sarif_doc(report: Report) -> dict[str, Any]:
    rules = [
        {
            "id": code,
            "name": entry.name,
            "shortDescription": {"text": entry.summary.split(":")[0]},
            "fullDescription": {"text": entry.summary},
            "defaultConfiguration": {"level": entry.level},
        }
        for code, entry in sorted(CODES.items())
    ]
    index = {r["id"]: i for i, r in enumerate(rules)}
    results = []
    for f in report.findings:
        results.append(
            {
                "ruleId": f.code,
                "ruleIndex": index[f.code],
                "level": _LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {
                                "uri": artifact_uri(f.path),
                                "uriBaseId": "SRCROOT",
                            },
                            "region": {"startLine": f.line, "endLine": max(f.line, f.end_line)},
                        },
                        "logicalLocations": [{"name": f.unit.label, "kind": "function"}],
                    }
                ],
                "partialFingerprints": {"reviewbotFingerprint/v1": f.fingerprint},
                "properties": _properties(f),
            }
        )
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "reviewbot",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"description": {"text": "repository root"}}},
                "results": results,
                "properties": {"base": report.base, "head": report.head},
            }
        ],
    }


def sarif_json(report: Report) -> str:
    return dumps_indented(sarif_doc(report)) + "\n"
