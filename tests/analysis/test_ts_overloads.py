"""A TypeScript function's overload signatures and its implementation are one unit (valtio
f05bc4b: `intersectionImpl` was three rows, `:112 added`, `:116 added`, `:117 renamed from
intersection()`, while `unionImpl`'s three were `added` and `union()` `removed`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewbot.engine import open_index
from tests.analysis.test_repo_impact import review
from tests.helpers import commit, write

OVERLOADED = """export function on(a: string, cb: () => void): void;
export function on(a: string, key: string, cb: () => void): void;
export function on(a: string, b: any, c?: any): void {
  return;
}
"""


def _impl(name: str) -> str:
    return (
        f"  function {name}<T, U>(\n    this: S<T>,\n    other: R<U>,\n  ): Set<T & U>\n"
        f"  function {name}<T>(this: S<T>, other: Set<T>): Set<T>\n"
        f"  function {name}<T>(\n    this: S<T>,\n    other: R<unknown> | Set<T>,\n"
        "  ): Set<unknown> {\n    const result = make()\n"
        "    for (const v of this.values()) if (other.has(v)) result.add(v)\n"
        "    return result\n  }\n"
    )


def test_overload_signatures_are_the_unit_of_their_implementation() -> None:
    units = open_index("a.ts", OVERLOADED).structure.units
    assert [(u.name, u.start, u.end) for u in units] == [("on", 0, 4)]


def test_overloaded_helpers_replacing_methods_are_one_row_each(repo: Path) -> None:
    method = (
        "    {name}(other: Set<T>): Set<T> {{\n      const result = make()\n"
        "      for (const v of this.values()) if (other.has(v)) result.add(v)\n"
        "      return result\n    }},\n"
    )
    before = (
        "export function proxySet<T>() {\n  const s = {\n"
        + method.format(name="intersection")
        + method.format(name="union")
        + "  }\n  return s\n}\n"
    )
    after = (
        "export function proxySet<T>() {\n"
        + _impl("intersectionImpl")
        + _impl("unionImpl")
        + "  const s = {\n    intersection: intersectionImpl,\n    union: unionImpl,\n  }\n"
        "  return s\n}\n"
    )
    write(repo, "s.ts", before)
    commit(repo)
    write(repo, "s.ts", after)
    doc = review(repo)
    rows: list[Any] = [u for f in doc["files"] for u in f["units"]]
    labels = [u["label"] for u in rows]
    assert len(labels) == len(set(labels)), labels  # (no three rows of one label)
    changes = {u["label"]: u["change"] for u in rows}
    impls = ("intersectionImpl", "unionImpl")
    assert {changes[f"function proxySet > function {n}"] for n in impls} == {"added"}, changes
