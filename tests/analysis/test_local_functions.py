"""A JavaScript function declared in a callback's body is that body's: a name written in
another file is never it."""

from __future__ import annotations

from pathlib import Path

from tests.analysis.test_repo_impact import codes, review, setup


def test_a_function_local_to_a_callback_is_named_nowhere_else(repo: Path) -> None:
    # koa 9057541: `function request (server)` inside a `describe` callback removed, while
    # another test file gained `http.request({ port })` (Node's) and `client.request(1)`.
    setup(
        repo,
        {
            "a.test.js": (
                "describe('x', () => {\n  function request (s) {\n    return s\n  }\n"
                "  it('y', () => request(1))\n})\n"
            ),
            "b.test.js": "const http = require('http')\n\nhttp.get({})\n",
        },
        {
            "a.test.js": "describe('x', () => {\n  it('y', () => 1)\n})\n",
            "b.test.js": (
                "const http = require('http')\n\nhttp.get({})\nhttp.request({})\n"
                "client.request(1)\n"
            ),
        },
    )
    doc = review(repo)
    found = [i for i in doc["impact"] if i["name"] == "request"]
    assert [(i["total"], i["uncertain"]) for i in found] == [(0, 0)]
    assert codes(doc, "RB105") == []
