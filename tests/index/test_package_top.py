"""A Go or Java package's top-level names, as the resolver reads them for every file of the
package: each name read once from the package's files, whichever file asks (a relink asked for
the same name from each of a package's files, through all of its files each time)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from reviewbot.index.resolve import Resolver
from tests.index.support import build

FILES = {
    "m/a.go": "package m\n\nfunc Helper() int {\n\treturn 1\n}\n",
    **{
        f"m/use{k}.go": f"package m\n\nfunc Use{k}() int {{\n\treturn Helper()\n}}\n"
        for k in range(5)
    },
}


def test_each_file_of_a_package_sees_the_others_names_read_once(repo: Path) -> None:
    database = build(repo, FILES)
    conn = sqlite3.connect(database)
    try:
        resolver = Resolver(conn, lazy=True)
        reads: list[object] = []
        real = resolver.top.get

        def counted(key: Any, default: Any = None) -> Any:
            reads.append(key)
            return real(key, default)

        resolver.top.get = counted  # type: ignore[method-assign]
        helper = conn.execute("SELECT id FROM defs WHERE name = 'Helper'").fetchone()[0]
        found = {
            f.path: resolver.package_top(f, "Helper")
            for f in sorted(resolver.files.values(), key=lambda f: f.path)
        }
    finally:
        conn.close()
    assert found == {path: ([] if path == "m/a.go" else [helper]) for path in FILES}
    assert len(reads) == len(FILES)  # (6 files: each read once, not 5 times by 6 files)
