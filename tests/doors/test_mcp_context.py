"""`get_review_context` over stdio through the MCP SDK's client: the context pack's text
within its budget, its snippets' ids, the index's callers, and the served folder's bounds."""

from __future__ import annotations

from pathlib import Path

from reviewbot.engine.languages import default_registry
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.index.fresh import index_path
from reviewbot.repo.git import Git
from tests.doors.test_mcp import call, structured, text_of
from tests.helpers import commit, write

UTIL = "def helper(x):\n    if x:\n        return 1\n    return 0\n"
USE = "from .util import helper\n\n\ndef use():\n    return helper(1)\n"
TOP = "from pkg.util import helper\n\n\ndef top():\n    return helper(2)\n"


def test_review_context_through_the_sdk(repo: Path) -> None:
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/util.py", UTIL)
    write(repo, "pkg/use.py", USE)
    write(repo, "top.py", TOP)
    commit(repo)
    write(repo, "pkg/util.py", UTIL.replace("return 1", "return x * 2 if x > 1 else 1"))
    write(repo, "top.py", TOP.replace("helper(2)", "helper(3)"))
    _, results = call(
        repo,
        [
            ("get_review_context", {"budget": 400}),
            ("get_review_context", {"budget": 50}),
            ("get_review_context", {"range": "--output=x"}),
        ],
    )
    git = Git(repo)
    update_index(git, index_path(git), IndexSettings(2 * 1024 * 1024, (), default_registry(), 1))
    _, scoped = call(repo / "pkg", [("get_review_context", {"budget": 400})])
    assert not results[0].is_error and not scoped[0].is_error, text_of(results[0])
    plain, inner = structured(results[0]), structured(scoped[0])
    assert "run `reviewbot index`" in plain["index"] and "- callers:" not in plain["text"]
    assert {s["path"] for s in plain["snippets"]} == {"pkg/util.py", "top.py"}
    for doc in (plain, inner):
        assert len(doc["text"]) <= 400 * 4 and doc["tokens"] <= 400 == doc["budget"]
        ids = [s["id"] for s in doc["snippets"]]
        assert len(set(ids)) == len(ids) and ids
        for s in doc["snippets"]:
            assert s["id"] == f"{s['path']}::{s['unit'].split()[-1]}@{s['start']}"
            assert (f"### `{s['id']}`" in doc["text"]) == s["shown"]
    # A budget below the floor, or an option for a range: one-line errors.
    assert results[1].is_error and "budget" in text_of(results[1])
    assert results[2].is_error and "\n" not in text_of(results[2]).strip()
    # Served from pkg/, with an index: callers from inside it, nothing from outside.
    assert inner["index"].startswith("callers and callees from the repository index")
    assert {s["path"] for s in inner["snippets"]} == {"pkg/util.py"}
    helper = inner["text"].split("### `pkg/util.py::helper@1`", 1)[1]
    assert "- callers: pkg/use.py:5 `function use`" in helper
    assert "top.py" not in inner["text"]
