"""`reviewbot mcp` as a subprocess, spoken to by the SDK's own client over stdio."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.doors.mcp import MAX_RESULT_CHARS, _fit
from reviewbot.engine import open_index
from reviewbot.render.report_json import report_doc
from tests.helpers import AFTER, BEFORE, commit, write

TOOLS = {
    "query_wavelet_context",
    "get_important_positions",
    "get_entropy_bands",
    "get_complexity_heatmap",
    "diff_wavelet_context",
    "review_change",
    "get_review_context",
    "find_definitions",
    "find_references",
    "get_callers",
    "get_callees",
    "search_code",
    "get_repo_map",
    "list_bundles",
    "get_bundle",
}


def structured(result: Any) -> dict[str, Any]:
    data = getattr(result, "structured_content", None)
    if data is None:
        data = json.loads(result.content[0].text)
    return dict(data)


def text_of(result: Any) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


async def session_run(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any]]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "reviewbot", "mcp", "--root", str(root)],
        env={**os.environ, "NO_COLOR": "1"},
        cwd=str(root),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        results = []
        for name, arguments in calls:
            results.append(await session.call_tool(name, arguments))
        return tools, results


def call(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any]]:
    return anyio.run(session_run, root, calls)


@pytest.fixture
def project(repo: Path) -> Path:
    write(repo, "shop.py", BEFORE)
    write(repo, "pkg/util.py", "def helper(x):\n    if x:\n        return 1\n    return 0\n")
    commit(repo)
    write(repo, "shop.py", "import os\n\n\n" + AFTER)
    return repo


def test_tools_agree_with_the_engine(project: Path) -> None:
    tools, results = call(
        project,
        [
            ("query_wavelet_context", {"path": "shop.py", "line": 8, "radius": 40}),
            ("get_important_positions", {"path": "shop.py", "limit": 5}),
            ("get_important_positions", {"path": ".", "limit": 5}),
            ("get_entropy_bands", {"path": "shop.py"}),
            ("get_complexity_heatmap", {"path": "shop.py", "top": 3}),
            ("diff_wavelet_context", {"path": "shop.py", "base": "HEAD"}),
            ("review_change", {"budget": 500}),
        ],
    )
    listed = {t.name: t for t in tools.tools}
    assert set(listed) == TOOLS
    for tool in listed.values():
        schema = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None)
        assert schema is not None and schema["type"] == "object" and tool.description
    assert (
        "path"
        in (
            getattr(listed["query_wavelet_context"], "input_schema", None)
            or listed["query_wavelet_context"].inputSchema
        )["required"]
    )
    assert not any(r.is_error for r in results), [text_of(r) for r in results if r.is_error]
    context, positions, folder, entropy, heat, diff, reviewed = map(structured, results)

    text = (project / "shop.py").read_text()
    index = open_index("shop.py", text)
    assert context["center"] == 8 and context["unit"]["label"] == "def apply"
    want = index.important_positions(0.3, 5)
    assert [(p["line"], p["label"]) for p in positions["files"][0]["positions"]] == [
        (p.line + 1, p.label) for p in want
    ]
    assert {f["path"] for f in folder["files"]} == {"shop.py", "pkg/util.py"}
    assert entropy["total_bit_cost"] == index.entropy.total
    assert heat["total_entropy"] == index.heatmap.total and len(heat["top_lines"]) == 3
    assert "per_line" not in heat
    moved = [
        p["new"]
        for p in diff["shifted"] + diff["magnitude_changed"]
        if p["old"]["label"] == "def ship"
    ]
    assert [p["label"] for p in moved] == ["def ship"]  # moved by the import, not new
    assert not any(p["label"] == "def ship" for p in diff["added"])
    direct = report_doc(
        review(GitChange(project), Config().with_overrides(budget=500, max_findings=20))
    )
    assert reviewed["findings"] == direct["findings"]
    assert reviewed["files"] == direct["files"]


def test_bad_inputs_are_errors_and_the_server_keeps_serving(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.py"
    outside.write_text("password = 1\n")
    (project / "link.py").symlink_to(outside)
    _, results = call(
        project,
        [
            ("get_entropy_bands", {"path": "../secret.py"}),
            ("get_entropy_bands", {"path": "link.py"}),
            ("get_entropy_bands", {"path": "nope.py"}),
            ("diff_wavelet_context", {"path": "shop.py", "base": "--upload-pack=touch /tmp/x"}),
            ("review_change", {"range": "no-such-rev..HEAD"}),
            ("query_wavelet_context", {"path": "shop.py", "line": "many"}),
            ("get_entropy_bands", {"path": "shop.py"}),
        ],
    )
    *bad, good = results
    for r in bad:
        assert r.is_error
        message = text_of(r)
        assert message and "Traceback (most recent call last)" not in message
    for r in bad[:5]:  # our own errors are one line
        assert len(text_of(r).splitlines()) == 1
    assert "invalid argument line" in text_of(bad[5])  # checked against the schema, one line
    assert "outside the served folder" in text_of(bad[0])
    assert "outside the served folder" in text_of(bad[1])
    assert "no such file" in text_of(bad[2])
    assert "invalid revision" in text_of(bad[3])
    assert not good.is_error and structured(good)["total_bit_cost"] > 0


def test_big_results_are_cut_with_a_note(project: Path) -> None:
    for i in range(400):
        write(project, f"many/m{i}.py", f"def f{i}(x):\n    return x\n")
    _, (result,) = call(project, [("get_important_positions", {"path": "many", "limit": 50})])
    data = structured(result)
    assert "truncated" in data and len(json.dumps(data)) <= 70_000


def test_a_review_cut_to_the_cap_keeps_its_findings_and_says_what_it_cut() -> None:
    """A 30-commit range answered `"findings": []` with `schema`, `base` and `head` blanked
    while the impact list, the bulk of it, went whole: an agent read a clean change. The
    review is cut in order of value, the findings last, and the note counts what was kept."""
    big = "x" * 400
    doc = {
        "schema": "reviewbot.report/1",
        "base": "HEAD~30",
        "head": "HEAD",
        "files": [{"path": f"f{k}.py", "units": [big]} for k in range(60)],
        "findings": [{"code": "RB101", "message": big} for _ in range(3)],
        "context": [big] * 80,
        "bundles": [],
        "impact": [{"name": f"n{k}", "references": [big] * 3} for k in range(60)],
        "stats": {"findings_total": 3},
    }
    cut = _fit(doc, ("context", "bundles", "impact", "files", "findings"))
    assert len(json.dumps(cut)) <= MAX_RESULT_CHARS
    assert cut["findings"] == doc["findings"] and cut["stats"] == doc["stats"]
    assert (cut["schema"], cut["base"], cut["head"]) == ("reviewbot.report/1", "HEAD~30", "HEAD")
    assert cut["context"] == [] and "context 0 of 80" in cut["truncated"]
    assert "impact" in cut["truncated"] and "findings" not in cut["truncated"]
