"""A JavaScript arrow's one parameter with or without parentheses is one header."""

from __future__ import annotations

from pathlib import Path

from tests.analysis.test_repo_impact import review, setup


def test_an_arrow_parameter_put_in_parentheses_changes_no_signature(repo: Path) -> None:
    # koa 2f6e814: `const onerror = err => ctx.onerror(err)` became `(err) => ...`: no
    # parameter changed, so no impact line, and the hunk defines nothing new.
    lib = "const double = x => x * 2\n\nfunction run (items) {\n  return items.map(double)\n}\n"
    setup(
        repo,
        {"lib.js": lib + "\nmodule.exports = { run, double }\n"},
        {"lib.js": lib.replace("x =>", "(x) =>") + "\nmodule.exports = { run, double }\n"},
    )
    doc = review(repo)
    assert doc["impact"] == []
    assert [b["reason"] for b in doc["bundles"]] == ["one hunk, linked to no other"]
