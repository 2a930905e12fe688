"""JS/TS module specifiers as TypeScript and Node read them: an extension names the typed file
of its flavour first; a package outside the repository holds its own values."""

from __future__ import annotations

from pathlib import Path

from tests.index.support import build, targets

HEADERS = "export class Headers {\n  static from(x) {\n    return x\n  }\n}\n"


def test_a_node_builtins_members_are_no_guess(repo: Path) -> None:
    # axios: `stream.Readable.from(...)` (`import stream from 'stream'`) linked to
    # `AxiosHeaders.from` at 1/3, a guess among the repository's three `from`s.
    db = build(
        repo,
        {
            "lib/headers.js": HEADERS,
            "lib/other.js": "export class Other {\n  static from(x) {\n    return x\n  }\n}\n",
            "main.js": (
                "import stream from 'stream'\nimport * as fs from 'node:fs'\n"
                "import * as util from './lib/headers.js'\n\n"
                "stream.Readable.from([1])\nfs.promises.from(2)\nutil.value.from(3)\n"
            ),
        },
    )
    assert targets(db, "main.js", 5, "from") == set()
    assert targets(db, "main.js", 6, "from") == set()
    # (a value of a module of the repository nobody can type: still a guess, as before)
    assert targets(db, "main.js", 7, "from") == {("Headers.from", 2)}


def test_a_cjs_specifier_names_the_d_cts_file(repo: Path) -> None:
    types = "export type Value = string\n\nexport declare function make(v: Value): Value\n"
    db = build(
        repo,
        {
            "index.d.ts": "export type Value = number\n",
            "index.d.cts": types,
            "types.d.mts": types,
            "a.ts": (
                "import { make } from './index.cjs'\nimport { make as m } from './types.mjs'\n"
                "make('a')\nm('b')\n"
            ),
        },
    )
    assert targets(db, "a.ts", 3, "make") == {("make", 3)}
    assert targets(db, "a.ts", 4, "m") == {("make", 3)}
