"""A function's decision points and nesting are its own lines': a nested function's (a local
`def`, a TS `function`, an object literal's method) are its own unit's, in RB101 and in the
unit table alike (valtio f05bc4b: proxySet's `decision points 27 -> 35` were its new nested
`*Impl` functions')."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.analysis.test_repo_impact import codes, review
from tests.helpers import commit, write


def _units(doc: Any) -> dict[str, Any]:
    return {u["label"]: u["metrics"] for f in doc["files"] for u in f["units"]}


def _change(repo: Path, name: str, before: str, after: str) -> Any:
    write(repo, name, before)
    commit(repo)
    write(repo, name, after)
    return review(repo)


def test_a_python_function_gaining_a_nested_helper_is_not_more_tangled(repo: Path) -> None:
    ifs = "".join(f"        if z > {k}:\n            return {k}\n" for k in range(1, 6))
    after = (
        f"def outer(x):\n    y = x + 1\n\n    def inner(z):\n{ifs}        return 0\n\n"
        "    return y + inner(y)\n"
    )
    doc = _change(repo, "b.py", "def outer(x):\n    y = x + 1\n    return y\n", after)
    units = _units(doc)
    assert units["def outer"]["branches"] == {"before": 0, "after": 0, "delta": 0}
    assert units["def outer"]["nesting"]["after"] == 0
    assert units["def outer > def inner"]["branches"]["after"] == 5
    assert [f["title"] for f in codes(doc, "RB101")] == []


def test_ts_nested_function_and_object_method_are_their_own_rows(repo: Path) -> None:
    before = "export function outer(x: number) {\n  const y = x + 1\n  return y\n}\n"
    after = (
        "export function outer(x: number) {\n  const y = x + 1\n  if (y > 9) {\n    return 0\n  }\n"
        "  function inner(z: number) {\n"
        + "".join(f"    if (z > {k}) {{\n      return {k}\n    }}\n" for k in range(1, 5))
        + "    return 0\n  }\n  const o = {\n    m(q: number) {\n      if (q) { return 1 }\n"
        "      if (q > 3) { return 3 }\n      return 2\n    },\n  }\n"
        "  return y + inner(y) + o.m(1)\n}\n"
    )
    doc = _change(repo, "a.ts", before, after)
    units = _units(doc)
    # Its own `if` counts, the nested function's four and the method's two do not.
    assert units["function outer"]["branches"] == {"before": 0, "after": 1, "delta": 1}
    assert units["function outer"]["nesting"]["after"] == 1
    assert units["function outer > function inner"]["branches"]["after"] == 4
    assert codes(doc, "RB101") == []
