"""JS/TS module specifiers as TypeScript and Node read them: an extension names the typed file
of its flavour first; a package outside the repository holds its own values."""

from __future__ import annotations

from pathlib import Path

from tests.index.support import build, targets, vias

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


_IMMER = (
    "export interface ProducersFns {\n"
    "  produce(base: any, recipe: any): any\n"
    "}\n"
    "export class Immer implements ProducersFns {\n"
    "  produce = (base: any, recipe: any) => {\n"
    "    return recipe(base)\n"
    "  }\n"
    "  produceWithPatches = (base: any, recipe: any) => {\n"
    "    return [this.produce(base, recipe), []]\n"
    "  }\n"
    "}\n"
)


def test_destructuring_an_instance_reads_its_members(repo: Path) -> None:
    # immer's tests: `const {produce} = immer` (a local `new Immer(options)`), `const
    # {produce, produceWithPatches} = createPatchedImmer({...})` (which returns it), `const
    # {produce} = new Immer({autoFreeze: true})`: each key picked is Immer's member, as
    # `immer.produce` is (the TypeScript service counts them among its references).
    db = build(
        repo,
        {
            "src/immerClass.ts": _IMMER,
            "__tests__/base.js": (
                "import {Immer} from '../src/immerClass'\n"
                "function createPatchedImmer(options) {\n"
                "  const immer = new Immer(options)\n"
                "  const {produce} = immer\n"
                "  return immer\n"
                "}\n"
                "const {produce, produceWithPatches: patched} = createPatchedImmer({})\n"
                "const {produce: other} = new Immer({autoFreeze: true})\n"
            ),
            "__tests__/nested.js": (
                "import {Immer} from '../src/immerClass'\n"
                "export function runBaseTest(name) {\n"
                "  function createPatchedImmer(options) {\n"
                "    const immer = new Immer(options)\n"
                "    return immer\n"
                "  }\n"
                "  const {produce, produceWithPatches} = createPatchedImmer({})\n"
                "  const one = createPatchedImmer({})\n"
                "  one.produce({}, s => s)\n"
                "}\n"
            ),
        },
    )
    path = "__tests__/base.js"
    for line in (4, 7, 8):
        assert vias(db, path, line, "produce") >= {("Immer.produce", 1.0, "instance")}, line
    # (a key renamed, `produceWithPatches: patched`, is no free name of the file)
    assert targets(db, path, 7, "produceWithPatches") == {("Immer.produceWithPatches", 8)}
    # A function declared in a test's body (immer's runBaseTest): what it returns types its
    # calls' results (they were a guess among the members `produce`).
    nested = "__tests__/nested.js"
    for line in (7, 9):
        assert vias(db, nested, line, "produce") >= {("Immer.produce", 1.0, "instance")}, line
