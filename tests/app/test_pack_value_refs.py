"""A function no code calls but that is passed as a value (chi 0a20a0e's `func RealIP`, a
middleware: `r.Use(middleware.RealIP)` five times) is not "callers: none found in the index":
the pack says where it is referenced."""

from __future__ import annotations

from pathlib import Path

from reviewbot.render.formats import render_pack
from tests.app.test_context_pack import build_index, pack_of
from tests.helpers import commit, write

MIDDLEWARE = """package mw

import "net/http"

func RealIP(h http.Handler) http.Handler {
\treturn h
}
"""
APP = """package mw

import "net/http"

func Use(f func(http.Handler) http.Handler) {}

func Setup() {
\tUse(RealIP)
}

func Other() {
\tUse(RealIP)
}
"""


def test_a_function_passed_as_a_value_is_referenced_not_uncalled(repo: Path) -> None:
    write(repo, "go.mod", "module example.com/mw\n\ngo 1.21\n")
    write(repo, "mw.go", MIDDLEWARE)
    write(repo, "app.go", APP)
    commit(repo)
    build_index(repo)
    write(
        repo,
        "mw.go",
        MIDDLEWARE.replace("\treturn h\n", "\tif h == nil {\n\t\treturn nil\n\t}\n\treturn h\n"),
    )
    pack = pack_of(repo)
    (s,) = [s for s in pack.snippets if s.qualified == "RealIP"]
    assert s.callers == ()
    assert [(r.path, r.line) for r in s.referenced] == [("app.go", 8), ("app.go", 12)]
    text = render_pack(pack)
    assert "- callers: none; referenced 2 time(s) as a value: app.go:8 `function Setup`" in text
    assert "none found in the index (calls to it)" not in text
