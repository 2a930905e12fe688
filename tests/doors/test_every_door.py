"""One real change through every door: the CLI's JSON, the hook (its FAST mode), the Action
against the fake GitHub and MCP's review_change report the same findings, metrics and
fingerprints, because they run one pipeline."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

from reviewbot.doors import hook
from reviewbot.render.report_json import report_doc
from tests.doors.github.test_action import Pr, pr  # noqa: F401 - the fixture
from tests.doors.test_mcp import call, structured
from tests.helpers import git


def essentials(doc: dict[str, Any]) -> dict[str, Any]:
    findings = [
        {
            k: f[k]
            for k in ("code", "severity", "path", "line", "end_line", "metrics", "fingerprint")
        }
        for f in doc["findings"]
    ]
    units = {
        f["path"]: [(u["label"], u["change"], u["metrics"]) for u in f["units"]]
        for f in doc["files"]
    }
    return {"findings": findings, "units": units}


def test_one_change_through_every_door(pr: Pr, cli: Any) -> None:  # noqa: F811
    spec = f"{pr.base}...{pr.head}"
    # The Action (its report output) against the fake GitHub.
    code, log = pr.run()
    assert code == 0, log
    outputs = dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())
    action = json.loads(Path(outputs["report"]).read_text())
    # The CLI.
    run = cli("review", "-C", str(pr.origin), spec, "--format", "json")
    assert run.code == 0, run.err
    command = json.loads(run.out)
    # MCP's review_change.
    (_, results) = call(pr.origin, [("review_change", {"range": spec, "max_findings": 50})])
    mcp = structured(results[0])
    # The hook: the same change staged on top of the base commit.
    git(pr.origin, "checkout", "-q", "--detach", pr.base)
    git(pr.origin, "read-tree", "-u", "--reset", pr.head)
    args = hook._parser().parse_args([])
    result = hook.run_hook(args, pr.origin, dict(os.environ), io.StringIO(), False)
    assert result.report is not None
    staged = report_doc(result.report)

    expected = essentials(command)
    assert expected["findings"], "the change has findings to compare"
    assert {f["code"] for f in expected["findings"]} >= {"RB101", "RB102"}
    assert essentials(action) == expected
    assert essentials(mcp) == expected
    assert essentials(staged) == expected
