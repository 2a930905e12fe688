"""The index's MCP tools through a real stdio session: shapes, confinement, errors."""

from __future__ import annotations

from pathlib import Path

from tests.doors.test_mcp import call, structured, text_of
from tests.helpers import commit, write


def test_index_tools_answer_inside_the_served_root(repo: Path) -> None:
    write(repo, "lib/core.py", "def helper():\n    return 1\n")
    write(repo, "lib/use.py", "from lib.core import helper\n\n\ndef run():\n    return helper()\n")
    write(repo, "lib/__init__.py", "")
    write(repo, "other/x.py", "from lib.core import helper\n\nhelper()\n")
    for k in range(3):  # namesakes outside the root, listed before it (the limit counts inside)
        write(repo, f"a{k}.py", 'def helper():\n    """helper helper"""\n    return 0\n')
    commit(repo)
    root = repo / "lib"
    _tools, results = call(
        root,
        [
            ("find_definitions", {"name": "helper"}),
            ("find_references", {"path": "core.py", "line": 1}),
            ("get_callers", {"path": "core.py", "line": 1}),
            ("get_callees", {"path": "use.py", "line": 4}),
            ("search_code", {"query": "helper"}),
            ("get_repo_map", {"budget": 200}),
            ("find_references", {"path": "../other/x.py", "line": 1}),
            ("find_references", {"path": "core.py", "line": "1"}),
            ("find_definitions", {"name": "helper", "limit": 1}),
            ("search_code", {"query": "helper", "limit": 1}),
        ],
    )
    defs = structured(results[0])
    assert [(d["path"], d["line"], d["kind"]) for d in defs["definitions"]] == [
        ("core.py", 1, "function")
    ]
    refs = structured(results[1])
    assert refs["symbol"]["qualified"] == "helper"
    # other/x.py is outside the served folder: its reference is not shown.
    assert sorted((r["path"], r["line"], r["kind"]) for r in refs["references"]) == [
        ("use.py", 1, "import"),
        ("use.py", 5, "call"),
    ]
    callers = structured(results[2])["callers"]
    assert [(c["path"], c["unit"]["label"], c["lines"]) for c in callers] == [
        ("use.py", "function run", [5])
    ]
    callees = structured(results[3])["callees"]
    assert [(c["path"], c["unit"]["label"]) for c in callees] == [("core.py", "function helper")]
    found = structured(results[4])["results"]
    assert found and found[0]["symbol"]["path"] == "core.py"
    repo_map = structured(results[5])
    assert {f["path"] for f in repo_map["files"]} <= {"core.py", "use.py", "__init__.py"}
    assert repo_map["files"] and repo_map["tokens"] <= 200
    assert results[6].is_error and "outside the served folder" in text_of(results[6])
    assert results[7].is_error
    assert [d["path"] for d in structured(results[8])["definitions"]] == ["core.py"]
    assert [r["symbol"]["path"] for r in structured(results[9])["results"]] == ["core.py"]
