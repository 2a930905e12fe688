"""A class field holding an arrow function or a function expression (React class components'
`update = (fn) => {`) is a method: the index links `this.update(...)` to it, a re-sign
checks those calls (RB106), and the units table names it as the index does."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewbot.engine import open_index
from reviewbot.index.extract import extract
from reviewbot.index.grammars import compiled
from tests.analysis.test_repo_impact import codes, review, setup

TS = """export class Inner {
  count = 0;

  update = (fn: Function, touched: boolean) => {
    this.count = fn(this.count, touched);
  };

  push(value: number) {
    this.update((n: number) => n + value, true);
  }
}
"""
JS = TS.replace("fn: Function, touched: boolean", "fn, touched").replace("n: number", "n")
JS = JS.replace("value: number", "value")


@pytest.mark.parametrize(("name", "text"), [("inner.ts", TS), ("inner.js", JS)])
def test_a_re_signed_arrow_field_is_checked_against_its_calls(
    repo: Path, name: str, text: str
) -> None:
    # formik's FieldArray.tsx: `updateArrayField = (fn, alterTouched, alterErrors) => {` took
    # a required parameter more; its eight `this.updateArrayField(...)` calls were not told.
    new = text.replace("touched: boolean)", "touched: boolean, reason: string)")
    new = new.replace("(fn, touched)", "(fn, touched, reason)")
    setup(repo, {name: text}, {name: new})
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert f"{name}:9 (method Inner.push)" in stale["message"]
    assert "method Inner.update now takes" in stale["message"]


def test_an_arrow_field_is_a_method_in_the_index_and_the_units_table() -> None:
    facts = extract(compiled("typescript"), TS)
    assert facts is not None
    assert [(d.kind, d.qualified) for d in facts.definitions] == [
        ("class", "Inner"),
        ("field", "Inner.count"),
        ("method", "Inner.update"),
        ("method", "Inner.push"),
    ]
    units = [(u.kind, u.name) for u in open_index("inner.ts", TS).structure.units]
    assert units == [("class", "Inner"), ("method", "update"), ("method", "push")]
    # (a namespace's `const f = () => {` stays a function)
    text = "namespace N {\n  const f = (a: number) => {\n    return a;\n  };\n}\n"
    units = [(u.kind, u.name) for u in open_index("n.ts", text).structure.units]
    assert units == [("namespace", "N"), ("function", "f")]
