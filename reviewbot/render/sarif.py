"""SARIF 2.1.0 output (GitHub code scanning and other tools)."""

from __future__ import annotations

import json
from typing import Any

from reviewbot import __version__
from reviewbot.analysis.findings import CODES
from reviewbot.model import Report, Severity

__all__ = ["sarif_doc", "sarif_json"]

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_NAMES = {
    "RB101": "ComplexitySpike",
    "RB102": "DenseNewUnit",
    "RB103": "DeeperNesting",
    "RB104": "RepetitiveGrowth",
    "RB105": "DeletedButReferenced",
}
_DEFAULT = {
    "RB101": "warning",
    "RB102": "warning",
    "RB103": "note",
    "RB104": "note",
    "RB105": "warning",
}


def sarif_doc(report: Report) -> dict[str, Any]:
    rules = [
        {
            "id": code,
            "name": _NAMES.get(code, code),
            "shortDescription": {"text": text.split(":")[0]},
            "fullDescription": {"text": text},
            "defaultConfiguration": {"level": _DEFAULT.get(code, "warning")},
        }
        for code, text in sorted(CODES.items())
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
                            "artifactLocation": {"uri": f.path, "uriBaseId": "SRCROOT"},
                            "region": {"startLine": f.line, "endLine": max(f.line, f.end_line)},
                        },
                        "logicalLocations": [{"name": f.unit.label, "kind": "function"}],
                    }
                ],
                "partialFingerprints": {"reviewbotFingerprint/v1": f.fingerprint},
                "properties": {m.name: {"before": m.before, "after": m.after} for m in f.metrics},
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
    return json.dumps(sarif_doc(report), indent=2, ensure_ascii=False) + "\n"
