"""The same edit made to two files (axios's index.d.ts and index.d.cts) is two edits in place,
never two units moved across, each from the other file."""

from __future__ import annotations

from pathlib import Path

from tests.analysis.test_repo_impact import review, setup

USE = (
    "use(onFulfilled?: ((value: V) => V | Promise<V>) | null, "
    "onRejected?: ((error: any) => any) | null, options?: Options): number;"
)
BEFORE = (
    "export interface Options {\n  synchronous?: boolean;\n}\n\n"
    f"export interface Manager<V> {{\n  {USE}\n  eject(id: number): void;\n}}\n"
)
AFTER = BEFORE.replace(
    "export interface Manager<V> {\n  use(onFulfilled?: ((value: V) => V | Promise<V>) | null, "
    "onRejected?: ((error: any) => any) | null, options?: Options): number;",
    "type RequestUse<T> = (onFulfilled?: ((value: T) => T | Promise<T>) | null, onRejected?: "
    "((error: any) => any) | null, options?: Options) => number;\n\n"
    "export interface Manager<V> {\n  use: RequestUse<V>;",
)


def test_the_same_edit_in_two_files_moves_nothing(repo: Path) -> None:
    # axios 82f94556: each file's new type read "moved from" the other file's method `use`,
    # and `use` (now a property) read removed in both.
    assert AFTER != BEFORE
    app = "import { Manager } from './index';\n\nexport function f(m: Manager<number>) {\n"
    app += "  return m.use(null, null);\n}\n"
    setup(
        repo,
        {"index.d.ts": BEFORE, "index.d.cts": BEFORE, "app.ts": app},
        {"index.d.ts": AFTER, "index.d.cts": AFTER},
    )
    doc = review(repo)
    changes = {
        (f["path"], u["label"]): (u["change"], u.get("old_path"))
        for f in doc["files"]
        for u in f["units"]
    }
    assert changes[("index.d.ts", "type RequestUse")] == ("added", None)
    assert changes[("index.d.cts", "type RequestUse")] == ("added", None)
    assert not [i for i in doc["impact"] if i["name"] == "use"]
