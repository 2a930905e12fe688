"""Resolution rules found missing or too wide by bench/index_quality.py, each on a small
example shaped like the code where the benchmark met it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from reviewbot.index import query
from reviewbot.index.configs import is_module_config, summary
from tests.index.support import build, links, targets, vias


def test_bare_specifier_of_a_package_in_the_repository(repo: Path) -> None:
    # A monorepo's tests import their own package by name (`"geo"`, `"@acme/geo/shapes"`):
    # the package's folder (where its package.json is) and its src/ hold the modules.
    db = build(
        repo,
        {
            "packages/geo/package.json": '{"name": "geo"}\n',
            "packages/geo/src/index.ts": "export * from './make.js';\n",
            "packages/geo/src/make.ts": "export function make(): number { return 1; }\n",
            "packages/geo/src/shapes/index.ts": "export function area(): number { return 2; }\n",
            "packages/app/main.ts": (
                "import * as geo from 'geo';\n"
                "import { area } from '@acme/geo/shapes';\n"
                "import { make } from 'left-pad';\n"
                "geo.make();\n"
                "area();\n"
                "make();\n"
            ),
        },
    )
    assert targets(db, "packages/app/main.ts", 4, "make") == {("make", 1)}
    assert targets(db, "packages/app/main.ts", 5, "area") == {("area", 1)}
    # A package that is not in the repository is not one of its folders.
    assert targets(db, "packages/app/main.ts", 6, "make") == set()


def test_namespace_reexported_and_ts_namespace_members(repo: Path) -> None:
    db = build(
        repo,
        {
            "core/util.ts": "export function issue(): void {}\n",
            "core/index.ts": "export * as util from './util.js';\n",
            "helpers.ts": (
                "export namespace helpers {\n  export function assertEqual(): void {}\n}\n"
            ),
            "app.ts": (
                "import { util } from './core/index.js';\n"
                "import { helpers } from './helpers.js';\n"
                "util.issue();\n"
                "helpers.assertEqual();\n"
                "util.missing();\n"
            ),
        },
    )
    assert targets(db, "app.ts", 3, "issue") == {("issue", 1)}
    assert targets(db, "app.ts", 4, "assertEqual") == {("assertEqual", 2)}
    assert targets(db, "app.ts", 5, "missing") == set()


def test_interface_and_value_sharing_a_name(repo: Path) -> None:
    # `interface Box` and `const Box`: a type position means the interface, a value the const.
    db = build(
        repo,
        {
            "box.ts": (
                "export interface Box { size: number }\n"
                "export const Box = { make(): Box { return { size: 1 }; } };\n"
                "const mine: Box = Box.make();\n"
            ),
            "app.ts": (
                "import { Box } from './box';\n"
                "export function open(b: Box): number { return b.size; }\n"
                "export const copy = Box;\n"
            ),
        },
    )
    assert targets(db, "box.ts", 2, "Box") == {("Box", 1)}  # the return type
    assert targets(db, "box.ts", 3, "Box") == {("Box", 1), ("Box", 2)}  # `: Box`, `= Box`
    sure = {(ln, dl, c) for p, ln, n, _q, dl, c in links(db) if p == "app.ts" and n == "Box"}
    assert (2, 1, 1.0) in sure and (3, 2, 1.0) in sure  # one meaning each, so sure
    assert (2, 2, 1.0) not in sure and (3, 1, 1.0) not in sure


def test_overloads_are_one_meaning(repo: Path) -> None:
    db = build(
        repo,
        {
            "fmt.ts": (
                "export function fmt(a: string): string;\n"
                "export function fmt(a: number): string;\n"
                "export function fmt(a: unknown): string { return String(a); }\n"
            ),
            "app.ts": "import { fmt } from './fmt';\nfmt(1);\n",
        },
    )
    calls = {(dl, c) for p, ln, n, _q, dl, c in links(db) if (p, ln, n) == ("app.ts", 2, "fmt")}
    assert calls == {(1, 1.0), (2, 1.0), (3, 1.0)}


def test_unknown_receivers_prefer_what_the_file_imports(repo: Path) -> None:
    # Two versions of a library side by side (`v3/`, `v4/`): `obj.lt()` in a file importing v4
    # (through a re-export) means v4's `lt`, not v3's; a file importing neither gets none (its
    # `n` comes from code that never reaches either class).
    db = build(
        repo,
        {
            "v3/num.ts": "export class Num3 {\n  lt(): void {}\n}\n",
            "v4/num.ts": "export class Num4 {\n  lt(): void {}\n}\n",
            "v4/index.ts": "export * from './num';\n",
            "app4.ts": "import * as z from './v4/index';\nexport function f(n: any) { n.lt(); }\n",
            "free.ts": "export function g(n: any) { n.lt(); }\n",
        },
    )
    assert targets(db, "app4.ts", 2, "lt") == {("Num4.lt", 2)}
    assert targets(db, "free.ts", 1, "lt") == set()


def test_a_lone_member_is_no_guess_for_code_that_never_reaches_it(repo: Path) -> None:
    # Two projects side by side: the web one's only `decode` method is not what the formatter's
    # `value.decode()` (bytes) calls, since nothing the formatter imports reaches it; the web
    # project's own untyped `ws.decode()` still links to it.
    db = build(
        repo,
        {
            "web/__init__.py": "",
            "web/endpoints.py": (
                "class Endpoint:\n    def decode(self, message):\n        return message\n"
            ),
            "web/app.py": (
                "from web import endpoints\n\n\ndef run(ws):\n    return ws.decode(1)\n"
            ),
            "fmt/__init__.py": "",
            "fmt/html.py": "def text(value):\n    return value.decode('utf-8')\n",
        },
    )
    assert targets(db, "web/app.py", 5, "decode") == {("Endpoint.decode", 2)}
    assert targets(db, "fmt/html.py", 2, "decode") == set()


def test_object_literal_methods_and_values_of_modules(repo: Path) -> None:
    # Methods of an object literal are members (`obj.endsWith()` can mean them); a method of a
    # value a module exports (`core.Thing.init()`, Thing made by a factory) is a member guess.
    db = build(
        repo,
        {
            "core.ts": (
                "export const methods = {\n"
                "  endsWith(s: string) { return s; },\n"
                "};\n"
                "export const Thing = make({\n"
                "  init(): void {},\n"
                "});\n"
                "function make<T>(x: T): T { return x; }\n"
            ),
            "app.ts": (
                "import * as core from './core';\n"
                "export function f(s: any) { s.endsWith('x'); }\n"
                "core.Thing.init();\n"
            ),
        },
    )
    assert targets(db, "app.ts", 2, "endsWith") == {("methods.endsWith", 2)}
    assert targets(db, "app.ts", 3, "init") == {("Thing.init", 5)}


def test_java_methods_and_fields_are_apart(repo: Path) -> None:
    # javapoet's CodeBlock: `builder()` is the static method even where a local is named
    # `builder`, and `other.builder` (no call) is the field, never the method.
    db = build(
        repo,
        {
            "src/p/Block.java": (
                "package p;\n\n"
                "public final class Block {\n"
                "    final Builder builder = new Builder();\n"
                "    static Builder builder() { return new Builder(); }\n"
                "    static Block of(Block other) {\n"
                "        Builder builder = builder();\n"
                "        other.builder.hashCode();\n"
                "        Builder next = other == null\n            ? Block.builder() : null;\n"
                "        return null;\n"
                "    }\n"
                "    static final class Builder { Builder builder() { return this; } }\n"
                "}\n"
            ),
        },
    )
    path = "src/p/Block.java"
    assert targets(db, path, 7, "builder") == {("Block.builder", 5)}
    assert targets(db, path, 8, "builder") == {("Block.builder", 4)}
    # After a ternary's `?`, `Block.builder()` is the class's static method, for sure.
    assert targets(db, path, 10, "builder") == {("Block.builder", 5)}


def test_ts_enum_members_and_members_through_a_namespace(repo: Path) -> None:
    # zod v3: `enum Kind { ZodString = "ZodString" }` next to `class ZodString`; the enum's
    # member names are not references to the class, and `z.Kind.ZodString` is the enum's
    # member, not the class; `z.core.check()` is core's function.
    db = build(
        repo,
        {
            "types.ts": (
                'export class ZodString {}\nexport enum Kind {\n  ZodString = "ZodString",\n}\n'
            ),
            "core.ts": "export function check(): void {}\n",
            "index.ts": "export * from './types';\nexport * as core from './core';\n",
            "app.ts": (
                "import * as z from './index';\n"
                "const k = z.Kind.ZodString;\n"
                "z.core.check();\n"
                "const s = new z.ZodString();\n"
            ),
        },
    )
    assert targets(db, "types.ts", 3, "ZodString") == set()
    assert ("ZodString", 1) not in targets(db, "app.ts", 2, "ZodString")
    assert targets(db, "app.ts", 3, "check") == {("check", 1)}
    assert targets(db, "app.ts", 4, "ZodString") == {("ZodString", 1)}


def test_an_instance_of_a_class_from_outside_is_not_guessed(repo: Path) -> None:
    # Pygments' cmdline: `parser = argparse.ArgumentParser(); parser.parse_args()` is
    # argparse's method, not click's `Command.parse_args` of the same repository.
    db = build(
        repo,
        {
            "core.py": "class Command:\n    def parse_args(self, args):\n        return args\n",
            "cmdline.py": (
                "import argparse\n"
                "from argparse import ArgumentParser\n"
                "import core  # reaches Command\n"
                "def main(cmd):\n"
                "    parser = argparse.ArgumentParser()\n"
                "    parser.parse_args()\n"
                "    other: ArgumentParser = make()\n"
                "    other.parse_args()\n"
                "    cmd.parse_args([])\n"
            ),
        },
    )
    assert targets(db, "cmdline.py", 6, "parse_args") == set()
    assert targets(db, "cmdline.py", 8, "parse_args") == set()
    # An untyped receiver may still be the repository's class.
    assert targets(db, "cmdline.py", 9, "parse_args") == {("Command.parse_args", 2)}


def test_a_string_literals_methods_are_not_the_repositorys(repo: Path) -> None:
    # Pygments' formatters define `format`; `"{}".format(x)` is str.format, `f.format()` may be
    # one of theirs.
    db = build(
        repo,
        {
            "fmt.py": "class Formatter:\n    def format(self, tokens, out):\n        pass\n",
            "use.py": (
                "def show(f, x):\n    text = '{}!'.format(x)\n    f.format([], \"{}\" .format(x))\n"
                "import fmt  # reaches Formatter\n"
            ),
            "ui.ts": "export function label(n: number) { return `${n}`.padStart(3); }\n"
            "export class Pad { padStart(): void {} }\n",
        },
    )
    assert targets(db, "use.py", 2, "format") == set()
    assert targets(db, "use.py", 3, "format") == {("Formatter.format", 2)}  # f.format only
    assert targets(db, "ui.ts", 1, "padStart") == set()


def test_typed_object_literals_and_interface_chains(repo: Path) -> None:
    # zod's shape: `z.string()` is an overloaded function (its signatures end with `;`)
    # returning an interface that extends another; the methods are written in object literals
    # under a type that names the interface (a function's return type, a const's annotation).
    # The TypeScript service calls the literal's method and the interface member one symbol.
    db = build(
        repo,
        {
            "schemas.ts": (
                "export interface ZodType<T> { refine(check: unknown): this; }\n"
                "export interface ZodString extends ZodType<Array<string>> { trim(): this; }\n"
                "export function string(p: string): ZodString;\n"
                "export function string(p?: unknown): ZodString { return make(); }\n"
                "type Methods<T> = { [K in keyof T]?: T[K] };\n"
                "function typeMethods(): Methods<ZodType<unknown>> {\n"
                "  return {\n"
                "    refine(check) { return this; },\n"
                "  };\n"
                "}\n"
                "export const strings: ZodString = { trim() { return this; } };\n"
                "const loose = { trim() { return 1; } };\n"
            ),
            "app.ts": (
                "import * as z from './schemas';\nz.string('a').refine(1);\nz.string('b').trim();\n"
            ),
        },
    )
    assert targets(db, "app.ts", 2, "refine") == {("ZodType.refine", 1), ("typeMethods.refine", 8)}
    # An untyped literal (`loose`) is no member of ZodString.
    assert targets(db, "app.ts", 3, "trim") == {("ZodString.trim", 2), ("strings.trim", 11)}


def test_a_module_name_bound_to_overloads_means_them_all(repo: Path) -> None:
    # click's `convert_type`: three `@t.overload` stubs and the implementation; a call in the
    # same file (as from an importing file) means all four, not the first stub only.
    db = build(
        repo,
        {
            "types.py": (
                "import typing as t\n\n"
                "@t.overload\n"
                "def convert_type(ty: None) -> str: ...\n"
                "@t.overload\n"
                "def convert_type(ty: int) -> int: ...\n"
                "def convert_type(ty):\n"
                "    return ty\n"
                "NAMES = [convert_type(1)]\n"
            ),
            "use.py": "from types import convert_type\nconvert_type(None)\n",
        },
    )
    stubs = {("convert_type", 4), ("convert_type", 6), ("convert_type", 7)}
    assert targets(db, "types.py", 9, "convert_type") == stubs
    assert targets(db, "use.py", 2, "convert_type") == stubs
    sure = {
        c for p, ln, n, _q, _dl, c in links(db) if (p, ln, n) == ("types.py", 9, "convert_type")
    }
    assert sure == {1.0}


def test_a_value_returned_by_an_untyped_receivers_method(repo: Path) -> None:
    # starlette's tests: `client = test_client_factory(app)` is untyped, but the only
    # `websocket_connect` the test reaches says it returns a WebSocketTestSession, so
    # `with client.websocket_connect("/") as ws: ws.receive_json()` is the session's method,
    # not the server side's `WebSocket.receive_json`.
    db = build(
        repo,
        {
            "testclient.py": (
                "class Session:\n"
                "    def receive_json(self): ...\n"
                "    def __enter__(self): return self\n"
                "class TestClient:\n"
                "    def websocket_connect(self, url) -> 'Session': ...\n"
            ),
            "websockets.py": "class WebSocket:\n    def receive_json(self): ...\n",
            "test_ws.py": (
                "import testclient\n"
                "import websockets\n"
                "def test_ws(factory, other):\n"
                "    client = factory()\n"
                "    with client.websocket_connect('/') as ws:\n"
                "        ws.receive_json()\n"
                "    session = client.websocket_connect('/')\n"
                "    session.receive_json()\n"
                "    other.receive_json()\n"
            ),
        },
    )
    assert targets(db, "test_ws.py", 6, "receive_json") == {("Session.receive_json", 2)}
    assert targets(db, "test_ws.py", 8, "receive_json") == {("Session.receive_json", 2)}
    # An untyped receiver stays a guess among both.
    both = {("Session.receive_json", 2), ("WebSocket.receive_json", 2)}
    assert targets(db, "test_ws.py", 9, "receive_json") == both


def test_a_method_called_on_a_calls_value(repo: Path) -> None:
    # zod's tests: `const schema = z.number().nullable(); schema.parse(1)` and chains
    # `z.number().nullable().parse(2)`: the value is what `nullable` says it returns (the one
    # `nullable` the file reaches), so `parse` is ZodType's, not the internals' namesake.
    db = build(
        repo,
        {
            "schemas.ts": (
                "export interface ZodType { parse(x: unknown): unknown; nullable(): ZodNullable }\n"
                "export interface ZodNullable extends ZodType { unwrap(): ZodType; }\n"
                "export interface Internals { parse(p: unknown): unknown; }\n"
                "export function number(): ZodType { return make(); }\n"
            ),
            "app.ts": (
                "import * as z from './schemas';\n"
                "const schema = z.number().nullable();\n"
                "schema.parse(1);\n"
                "z.number().nullable().parse(2);\n"
                "anything().other().parse(3);\n"
            ),
        },
    )
    assert targets(db, "app.ts", 3, "parse") == {("ZodType.parse", 1)}
    assert targets(db, "app.ts", 4, "parse") == {("ZodType.parse", 1)}
    # `other` is no member anyone defines: a guess among both.
    assert targets(db, "app.ts", 5, "parse") == {("ZodType.parse", 1), ("Internals.parse", 3)}


def test_a_union_type_alias_has_its_members_members(repo: Path) -> None:
    # immer's `type ImmerState = ProxyObjectState | ProxyArrayState | ...`: `state.revoke_()`
    # on an ImmerState is the base interface's `revoke_`, sure (not a guess among namesakes).
    db = build(
        repo,
        {
            "proxy.ts": (
                "interface ProxyBaseState { revoke_(): void }\n"
                "export interface ProxyObjectState extends ProxyBaseState { base_: any }\n"
                "export interface ProxyArrayState extends ProxyBaseState { base_: any[] }\n"
                "export type ImmerState = ProxyObjectState | ProxyArrayState | null | 'none'\n"
                "export class Scope { revoke_(): void {} }\n"
            ),
            "scope.ts": (
                "import { ImmerState } from './proxy';\n"
                "export function revoke(state: ImmerState) { state.revoke_(); }\n"
            ),
        },
    )
    found = {
        (q, dl, c) for p, ln, n, q, dl, c in links(db) if (p, ln, n) == ("scope.ts", 2, "revoke_")
    }
    assert found == {("ProxyBaseState.revoke_", 1, 1.0)}


def test_a_module_augmentation_is_one_declaration_with_what_it_augments(repo: Path) -> None:
    # zod's prototype tests: `declare module "zod/v4/core" { interface $ZodType {...} }`
    # merges into core's $ZodType; every use of core's $ZodType is one of the augmentation
    # too (the TypeScript service's answer), sure. An interface of that name that augments
    # nothing stays apart.
    db = build(
        repo,
        {
            "packages/zod/package.json": '{"name": "zod"}\n',
            "packages/zod/src/v4/core/index.ts": "export interface $ZodType { run(): void }\n",
            "packages/zod/src/v4/tests/proto.test.ts": (
                "import * as core from 'zod/v4/core';\n"
                'declare module "zod/v4/core" {\n'
                "  interface $ZodType { _core(): string }\n"
                "}\n"
                "export function f(t: core.$ZodType): void {}\n"
            ),
            "packages/zod/src/v4/other.ts": "interface $ZodType { other(): void }\n",
            "packages/zod/src/v4/use.ts": (
                "import type { $ZodType } from './core/index';\nlet t: $ZodType;\n"
            ),
        },
    )
    found = {
        (q, dl, c)
        for p, ln, n, q, dl, c in links(db)
        if (p, ln, n) == ("packages/zod/src/v4/use.ts", 2, "$ZodType")
    }
    assert found == {("$ZodType", 1, 1.0), ("$ZodType", 3, 1.0)}
    used = targets(db, "packages/zod/src/v4/tests/proto.test.ts", 5, "$ZodType")
    assert used == {("$ZodType", 1), ("$ZodType", 3)}


def test_a_local_shadowing_a_module_function_is_typed_by_its_call(repo: Path) -> None:
    # starlette's test_endpoints.py: a module-level fixture `def client(...)` and, in a test,
    # `client = factory(app)`; `with client.websocket_connect("/") as ws` is not the fixture
    # function's member (it has none) but the only reachable `websocket_connect`'s return type.
    db = build(
        repo,
        {
            "testclient.py": (
                "class Session:\n"
                "    def send_text(self, t): ...\n"
                "class TestClient:\n"
                "    def websocket_connect(self, url) -> Session: ...\n"
            ),
            "websockets.py": "class WebSocket:\n    def send_text(self, t): ...\n",
            "test_ws.py": (
                "import testclient\n"
                "import websockets\n"
                "def client(factory):\n"
                "    return factory()\n"
                "def test_ws(factory):\n"
                "    client = factory()\n"
                "    with client.websocket_connect('/') as ws:\n"
                "        ws.send_text('hi')\n"
            ),
        },
    )
    assert targets(db, "test_ws.py", 8, "send_text") == {("Session.send_text", 2)}


def test_a_callback_parameter_typed_by_a_typescript_functions_argument(repo: Path) -> None:
    # immer's tests: `produce(base, draft => draft.add(1))` with `base = new Set()`; produce's
    # generic signature hands its argument (as `Draft<Base>`, a Set again) to the recipe, so
    # the TypeScript service calls `draft.add` a reference of `DraftSet.add` (an override of
    # Set's). The same through a local `produce` (destructured, as the tests' patched immer),
    # to a class of the repository; not through a JavaScript function (no signature: of the
    # file or imported) nor a global (`it`), which stay guesses.
    db = build(
        repo,
        {
            "src/immer.ts": (
                "type Draft<T> = T\n"
                "export function produce<B, D = Draft<B>>(base: B, recipe: (d: D) => void): B {\n"
                "  return base\n"
                "}\n"
            ),
            "src/mapset.ts": (
                "export class DraftSet extends Set<any> {\n"
                "  add(value: any): this { return this }\n"
                "}\n"
                "export class Box { open(): void {} }\n"
            ),
            "tests/set.test.js": (
                "import {produce} from '../src/immer'\n"
                "import {Box} from '../src/mapset'\n"
                "function run(base, recipe) { return recipe(base) }\n"
                "test('sets', () => {\n"
                "  const base = new Set([1])\n"
                "  produce(base, draft => { draft.add(2) })\n"
                "  produce(new Box(), (b) => { b.open() })\n"
                "  run(new Set([1]), d => { d.add(3) })\n"
                "  it('x', s => s.add(4), new Set())\n"
                "})\n"
                "test('local', () => {\n"
                "  const {produce} = patched()\n"
                "  produce(new Set(), function (draft) { draft.add(5) })\n"
                "  helper(new Set(), d => d.add(6))\n"
                "})\n"
                "import {helper} from './helper'\n"
            ),
            "tests/helper.js": "export function helper(base, fn) { return fn(base) }\n",
        },
    )
    path = "tests/set.test.js"
    assert vias(db, path, 6, "add") == {("DraftSet.add", 0.5, "callback")}
    assert vias(db, path, 7, "open") == {("Box.open", 0.5, "callback")}
    assert vias(db, path, 13, "add") == {("DraftSet.add", 0.5, "callback")}
    # No signature to go by: the lone `add` the file reaches, as a guess.
    assert vias(db, path, 8, "add") == {("DraftSet.add", 1.0, "member")}
    assert vias(db, path, 9, "add") == {("DraftSet.add", 1.0, "member")}
    assert vias(db, path, 14, "add") == {("DraftSet.add", 1.0, "member")}


def test_a_comment_ending_with_a_dot_is_no_receiver(repo: Path) -> None:
    # immer's finalize.ts: `// ... to handle those.` on the line above `handleValue(` read
    # `those.handleValue` (a member nobody can type); a real chain over two lines stays one.
    db = build(
        repo,
        {
            "fin.ts": (
                "export function handleValue(x: number): void {}\n"
                "export function f(a: any): void {\n"
                "  // We recurse here to handle those.\n"
                "  handleValue(1)\n"
                "  /* see the docs.\n"
                "   */\n"
                "  handleValue(2)\n"
                "  a\n"
                "    .handleValue(3)\n"
                "}\n"
            ),
            "fin.py": (
                "def handle(x):\n"
                "    pass\n"
                "def g():\n"
                "    # then handle those.\n"
                "    handle(1)\n"
                "    y = 1  # a trailing one.\n"
                "    handle(y)\n"
            ),
        },
    )
    assert vias(db, "fin.ts", 4, "handleValue") == {("handleValue", 1.0, "local")}
    assert vias(db, "fin.ts", 7, "handleValue") == {("handleValue", 1.0, "local")}
    assert vias(db, "fin.ts", 9, "handleValue") == set()  # `a.handleValue`: a's member
    assert vias(db, "fin.py", 5, "handle") == {("handle", 1.0, "local")}
    assert vias(db, "fin.py", 7, "handle") == {("handle", 1.0, "local")}


def test_a_javascript_local_of_a_builtin_class(repo: Path) -> None:
    # immer's perf scripts: `const versions = new Set(); versions.add(v)` is a Set, as the
    # TypeScript service says: the repository's overrides of Set's `add` (DraftSet's, which
    # the service counts as one method with Set's), at 0.5, not a guess among the `add`s
    # the file reaches; a class of the repository keeps its own member.
    db = build(
        repo,
        {
            "src/mapset.ts": (
                "export class DraftSet extends Set<any> {\n"
                "  add(value: any): this { return this }\n"
                "}\n"
                "export class Bag { add(x: any): void {} }\n"
            ),
            "perf/run.js": (
                "import {Bag} from '../src/mapset'\n"
                "const versions = new Set()\n"
                "versions.add(1)\n"
                "const bag = new Bag()\n"
                "bag.add(2)\n"
                "const when = new Date()\n"
                "when.add(3)\n"
            ),
        },
    )
    assert vias(db, "perf/run.js", 3, "add") == {("DraftSet.add", 0.5, "family")}
    assert vias(db, "perf/run.js", 5, "add") == {("Bag.add", 1.0, "instance")}
    assert vias(db, "perf/run.js", 7, "add") == set()  # Date's: nothing here overrides it


def test_a_property_of_a_typed_receiver_has_its_written_type(repo: Path) -> None:
    # immer's mapset.ts: `function prepareSetCopy(state: SetState)` then
    # `state.copy_!.add(v)`, where SetState (an interface of another file) declares
    # `copy_: AnySet | undefined` and `type AnySet = Set<any>`: the TypeScript service calls
    # that `add` a reference of `DraftSet.add` (an override of Set's). The same through two
    # properties (`state.scope_.processedForPatches_.add(s)`, scope_ declared in a base
    # interface of each member of a union), and to a class of the repository (`Box.open`).
    db = build(
        repo,
        {
            "src/types.ts": (
                "export type AnySet = Set<any>\n"
                "export interface Scope { processed_: Set<any>; box_: Box }\n"
                "export interface BaseState { readonly scope_: Scope }\n"
                "export interface SetState extends BaseState { copy_: AnySet | undefined }\n"
                "export interface MapState extends BaseState { copy_: any }\n"
                "export type State = SetState | MapState\n"
                "export class Box { open(): void {} }\n"
                "export type Options = { box?: Box }\n"
            ),
            "src/mapset.ts": (
                "import {SetState, State, Options} from './types'\n"
                "export class DraftSet extends Set<any> {\n"
                "  add(value: any): this { return this }\n"
                "}\n"
                "export function prepare(state: SetState, o: Options, x: any) {\n"
                "  state.copy_!.add(1)\n"
                "  state.copy_?.add(2)\n"
                "  o.box!.open()\n"
                "  x.copy_.add(3)\n"
                "}\n"
                "export function mark(state: State) {\n"
                "  state.scope_.processed_.add(state)\n"
                "  state.scope_.box_.open()\n"
                "  state.scope_.missing_.add(4)\n"
                "}\n"
            ),
        },
    )
    path = "src/mapset.ts"
    assert vias(db, path, 6, "add") == {("DraftSet.add", 0.5, "family")}
    assert vias(db, path, 7, "add") == {("DraftSet.add", 0.5, "family")}
    assert vias(db, path, 8, "open") == {("Box.open", 1.0, "instance")}
    assert vias(db, path, 12, "add") == {("DraftSet.add", 0.5, "family")}
    assert vias(db, path, 13, "open") == {("Box.open", 1.0, "instance")}
    # Untyped (`x: any`) or a property nobody declared: the guesses of before.
    assert vias(db, path, 9, "add") == {("DraftSet.add", 1.0, "member")}
    assert vias(db, path, 14, "add") == {("DraftSet.add", 1.0, "member")}


def test_declared_properties_are_no_guesses_and_an_alias_is_no_proof(repo: Path) -> None:
    # zod: `z.number().nullable()` types its value by the lone `nullable` method the file
    # reaches; an interface's property of that name (`nullable?: boolean`) is no candidate for
    # an `obj.name` nobody can type. `schema: ZodTypeAny` (`type ZodTypeAny = ZodType`) then
    # `schema.shape` after `instanceof ZodObject`: ZodType has no `shape`, but the alias is no
    # proof (the service narrows): the guess stays.
    db = build(
        repo,
        {
            "types.ts": (
                "export interface Opts { nullable?: boolean; shape: number }\n"
                "export class ZodType { nullable(): ZodType { return this } }\n"
                "export class ZodObject extends ZodType { get shape(): number { return 1 } }\n"
                "export type ZodTypeAny = ZodType\n"
            ),
            "use.ts": (
                "import {ZodTypeAny, ZodObject} from './types'\n"
                "export function f(s: any, schema: ZodTypeAny) {\n"
                "  s.nullable()\n"
                "  if (schema instanceof ZodObject) schema.shape\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "use.ts", 3, "nullable") == {("ZodType.nullable", 1.0, "member")}
    assert vias(db, "use.ts", 4, "shape") == {("ZodObject.shape", 1.0, "member")}


def test_a_property_destructured_from_a_typed_local_has_its_written_type(repo: Path) -> None:
    # immer's finalize.ts: `const {patchPlugin_} = rootScope` (rootScope: ImmerScope, whose
    # `patchPlugin_?: PatchesPlugin`), then `patchPlugin_!.generatePatches_(...)`: the
    # TypeScript service's reference of PatchesPlugin's method; so with a renaming pattern.
    db = build(
        repo,
        {
            "plugins.ts": (
                "export interface PatchesPlugin { generatePatches_(s: any): void }\n"
                "export interface Other { generatePatches_(s: any): void }\n"
                "export interface ImmerScope { patchPlugin_?: PatchesPlugin; n: number }\n"
            ),
            "finalize.ts": (
                "import {ImmerScope} from './plugins'\n"
                "export function finalize(rootScope: ImmerScope, other: any) {\n"
                "  const {patchPlugin_} = rootScope\n"
                "  patchPlugin_!.generatePatches_(1)\n"
                "  const {patchPlugin_: plugin} = rootScope\n"
                "  plugin?.generatePatches_(2)\n"
                "  const {patchPlugin_: guess} = other\n"
                "  guess.generatePatches_(3)\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "finalize.ts", 4, "generatePatches_") == {
        ("PatchesPlugin.generatePatches_", 1.0, "instance")
    }
    assert vias(db, "finalize.ts", 6, "generatePatches_") == {
        ("PatchesPlugin.generatePatches_", 1.0, "instance")
    }
    # `other: any`: both methods of that name, as a guess (one file: one meaning).
    assert {q for q, _c, v in vias(db, "finalize.ts", 8, "generatePatches_")} == {
        "PatchesPlugin.generatePatches_",
        "Other.generatePatches_",
    }


def test_a_key_of_an_object_literal_of_a_written_type_is_its_property(repo: Path) -> None:
    # immer's proxy.ts: `const state: ProxyState = {..., revoke_: null as any}` with
    # `type ProxyState = ProxyObjectState | ProxyArrayState`, both extending ProxyBaseState
    # (`revoke_(): void`): the TypeScript service's reference of ProxyBaseState.revoke_. A
    # literal of no written type, or nested in another key, names nothing.
    db = build(
        repo,
        {
            "proxy.ts": (
                "interface Base { revoke_(): void; n: number }\n"
                "interface ObjState extends Base { copy_: any }\n"
                "interface ArrState extends Base { copy_: any[] }\n"
                "type State = ObjState | ArrState\n"
                "export function make() {\n"
                "  const state: State = {\n"
                "    revoke_: null as any,\n"
                "    copy_: {revoke_: 1},\n"
                "  }\n"
                "  const plain = {revoke_: 2}\n"
                "  return [state, plain]\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "proxy.ts", 7, "revoke_") == {("Base.revoke_", 1.0, "instance")}
    assert {q for q, _c, _v in vias(db, "proxy.ts", 8, "copy_")} == {
        "ObjState.copy_",
        "ArrState.copy_",
    }
    assert vias(db, "proxy.ts", 8, "revoke_") == set()
    assert vias(db, "proxy.ts", 10, "revoke_") == set()


def test_a_property_of_this_declared_in_a_base_class_elsewhere(repo: Path) -> None:
    # `this.store.get()` in a subclass whose base (another file) declares `store: Store`;
    # `this.scope.set.add()` through a property declared in this class. The in-file rule saw
    # neither (no declaration of `store` in the file; two properties deep).
    db = build(
        repo,
        {
            "base.ts": (
                "export class Store { get(): number { return 1 } }\n"
                "export class Cache { get(): number { return 2 } }\n"
                "export interface Scope { set: Set<any> }\n"
                "export class Base { store: Store = new Store() }\n"
            ),
            "sets.ts": "export class DraftSet extends Set<any> { add(v: any): void {} }\n",
            "child.ts": (
                "import {Base, Scope} from './base'\n"
                "export class Child extends Base {\n"
                "  scope: Scope\n"
                "  run() {\n"
                "    this.store.get()\n"
                "    this.scope.set.add(1)\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "child.ts", 5, "get") == {("Store.get", 1.0, "instance")}
    assert vias(db, "child.ts", 6, "add") == {("DraftSet.add", 0.5, "family")}


def test_a_property_has_no_family_of_namesakes(repo: Path) -> None:
    # zod's internals: `def` is redeclared down a long chain of interfaces; a typed access of
    # one is that property, not each redeclaration (as a method's overrides are): linking
    # them all added half as many edges again to zod's index.
    db = build(
        repo,
        {
            "types.ts": (
                "export interface Base { def: number; run(): void }\n"
                "export interface Str extends Base { def: 1; run(): void }\n"
                "export function f(b: Base) {\n"
                "  b.def\n"
                "  b.run()\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "types.ts", 4, "def") == {("Base.def", 1.0, "instance")}
    assert vias(db, "types.ts", 5, "run") == {
        ("Base.run", 1.0, "instance"),
        ("Str.run", 0.5, "family"),
    }


def test_a_local_typed_by_an_alias_of_an_outside_class(repo: Path) -> None:
    # immer: `type AnySet = Set<any>`; `const s: AnySet = ...; s.add(v)` is a Set's `add`,
    # which the TypeScript service counts with its override `DraftSet.add`; Map's `get` is
    # no method of the repository (no guess among the repository's `get`s).
    db = build(
        repo,
        {
            "types.ts": "export type AnySet = Set<any>\nexport type AnyMap = Map<any, any>\n",
            "sets.ts": (
                "export class DraftSet extends Set<any> { add(v: any): this { return this } }\n"
                "export class Store { get(): number { return 1 } }\n"
            ),
            "use.ts": (
                "import {AnySet, AnyMap} from './types'\n"
                "import {Store} from './sets'\n"
                "export function f(s: AnySet, m: AnyMap) {\n"
                "  s.add(1)\n"
                "  m.get(2)\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "use.ts", 4, "add") == {("DraftSet.add", 0.5, "family")}
    assert vias(db, "use.ts", 5, "get") == set()


def test_an_export_cycle_does_not_depend_on_the_order_of_questions(repo: Path) -> None:
    # zod's v3: index.ts re-exports external.ts, which re-exports types.ts and ZodError.ts,
    # which imports ZodType from index.ts. Asked first through external.ts (a.ts), index.ts
    # was read while external.ts was being worked out (a cycle, nothing) and that nothing was
    # kept: err.ts's own import then linked to nothing, and an update (other questions, in
    # another order) differed from a cold build.
    db = build(
        repo,
        {
            "a.ts": "import { ZodType } from './external'\nexport const x: ZodType = 1 as any\n",
            "err.ts": "import { ZodType } from './index'\nexport function f(t: ZodType) {}\n",
            "external.ts": "export * from './types'\nexport * from './err'\n",
            "index.ts": "export * from './external'\n",
            "types.ts": "export class ZodType {}\n",
        },
    )
    assert targets(db, "a.ts", 1, "ZodType") == {("ZodType", 1)}
    assert targets(db, "err.ts", 1, "ZodType") == {("ZodType", 1)}


def test_a_python_property_chain_has_its_annotated_type(repo: Path) -> None:
    # rich's `console.options.update_width(80)` (`options` a property `-> ConsoleOptions`) and
    # `self._theme_stack.pop_theme()`, and a dataclass's field (`box: Box`): typed through the
    # getter's return annotation and the class-level annotation, in another file than the use.
    db = build(
        repo,
        {
            "pkg/__init__.py": "",
            "pkg/opts.py": (
                "class Options:\n"
                "    def update_width(self, width: int) -> 'Options':\n"
                "        return self\n"
                "\n"
                "\n"
                "class Box:\n"
                "    def open(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Other:\n"
                "    def update_width(self) -> None:\n"
                "        pass\n"
                "\n"
                "    def open(self) -> None:\n"
                "        pass\n"
            ),
            "pkg/con.py": (
                "from dataclasses import dataclass\n"
                "from typing import Optional\n"
                "from pkg.opts import Box, Options\n"
                "\n"
                "\n"
                "@dataclass\n"
                "class Holder:\n"
                "    box: Box\n"
                "    name: str = ''\n"
                "\n"
                "\n"
                "class Console:\n"
                "    @property\n"
                "    def options(self) -> Optional[Options]:\n"
                "        return Options()\n"
                "\n"
                "    @property\n"
                "    def loose(self):\n"
                "        return Options()\n"
                "\n"
                "    @property\n"
                "    def holder(self) -> Holder:\n"
                "        return Holder(Box())\n"
                "\n"
                "    def pop(self) -> None:\n"
                "        self.options.update_width(1)\n"
                "\n"
                "    @property\n"
                "    def vague(self):\n"
                "        return self.cache[0]\n"
            ),
            "app.py": (
                "from pkg.con import Console, Holder\n"
                "\n"
                "\n"
                "def run(console: Console, holder: Holder) -> None:\n"
                "    console.options.update_width(80)\n"
                "    holder.box.open()\n"
                "    console.holder.box.open()\n"
                "    console.loose.update_width(2)\n"
                "    holder.name.open()\n"
                "    console.vague.update_width(3)\n"
            ),
        },
    )
    sure = {("Options.update_width", 1.0, "instance")}
    assert vias(db, "app.py", 5, "update_width") == sure
    assert vias(db, "pkg/con.py", 26, "update_width") == sure
    assert vias(db, "app.py", 6, "open") == {("Box.open", 1.0, "instance")}
    assert vias(db, "app.py", 7, "open") == {("Box.open", 1.0, "instance")}
    # No annotation on the getter: what its `return` says (`return Options()`); nothing
    # written or said, or a builtin's value: the guesses of before, never a "family" of the
    # builtin's overrides (a TypeScript rule).
    assert vias(db, "app.py", 8, "update_width") == sure
    guess = {("Options.update_width", 0.5, "member"), ("Other.update_width", 0.5, "member")}
    assert vias(db, "app.py", 10, "update_width") == guess
    assert {v for _q, _c, v in vias(db, "app.py", 9, "open")} == {"member"}


def test_a_long_signature_keeps_its_return_annotation(repo: Path) -> None:
    # rich's `Syntax.from_path(cls, path, ... 12 parameters) -> "Syntax"`: its header is longer
    # than a stored signature; cut in its parameters, it still says what it returns, so
    # `syntax = Syntax.from_path(path)` then `syntax.lexer` is the Syntax's.
    params = ",\n".join(f"        option_{k}: Optional[Tuple[int, int]] = None" for k in range(12))
    db = build(
        repo,
        {
            "syntax.py": (
                "from typing import Optional, Tuple\n"
                "\n"
                "\n"
                "class Syntax:\n"
                "    lexer = None\n"
                "\n"
                "    @classmethod\n"
                f"    def from_path(\n        cls,\n        path: str,\n{params},\n"
                '    ) -> "Syntax":\n'
                "        return cls()\n"
                "\n"
                "\n"
                "class Other:\n"
                "    lexer = None\n"
            ),
            "use.py": (
                "from syntax import Syntax\n"
                "\n"
                "\n"
                "def test() -> None:\n"
                "    syntax = Syntax.from_path('x')\n"
                "    assert syntax.lexer\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        (signature,) = conn.execute(
            "SELECT signature FROM defs WHERE qualified = 'Syntax.from_path'"
        ).fetchone()
    finally:
        conn.close()
    assert len(signature) <= 300
    assert signature.startswith("def from_path(cls, path: str, option_0: Optional[")
    assert signature.endswith('…) -> "Syntax"')
    assert vias(db, "use.py", 6, "lexer") == {("Syntax.lexer", 1.0, "instance")}


def test_a_local_holding_a_typed_locals_method_result(repo: Path) -> None:
    # rich's panel.py: `child_options = options.update(width=...)` with the parameter
    # `options: ConsoleOptions`, then `child_options.update_width(4)`: what
    # ConsoleOptions.update returns, not a guess among every `update`'s.
    db = build(
        repo,
        {
            "opts.py": (
                "class ConsoleOptions:\n"
                "    def update(self, width: int) -> 'ConsoleOptions':\n"
                "        return self\n"
                "\n"
                "    def update_width(self, width: int) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Cache:\n"
                "    def update(self) -> 'Cache':\n"
                "        return self\n"
                "\n"
                "    def update_width(self, width: int) -> None:\n"
                "        pass\n"
            ),
            "panel.py": (
                "import re\n"
                "from opts import ConsoleOptions\n"
                "\n"
                "\n"
                "def render(options: ConsoleOptions, pattern: re.Pattern) -> None:\n"
                "    child_options = options.update(width=3)\n"
                "    child_options.update_width(4)\n"
                "    found = pattern.match('x')\n"
                "    found.update_width(5)\n"
            ),
        },
    )
    assert vias(db, "panel.py", 7, "update_width") == {
        ("ConsoleOptions.update_width", 1.0, "instance")
    }
    # A library's class (`re.Pattern`): its method returns none of the repository's classes.
    assert vias(db, "panel.py", 9, "update_width") == set()


def test_a_loop_over_a_calls_result_binds_what_its_annotation_says_it_holds(repo: Path) -> None:
    # click's core.py: `for param in self.get_params(ctx): rv = param.get_help_record(ctx)`,
    # with `def get_params(self, ctx) -> list[Parameter]`: Parameter's method, not a guess
    # among every `get_help_record`. In a comprehension too; `tuple[X, ...]` and an iterator
    # hold X; a dict, a tuple of fixed size and an unannotated function say nothing.
    db = build(
        repo,
        {
            "params.py": (
                "class Parameter:\n"
                "    def get_help_record(self, ctx: object) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Other:\n"
                "    def get_help_record(self, ctx: object) -> None:\n"
                "        pass\n"
            ),
            "core.py": (
                "import collections.abc as cabc\n"
                "import typing as t\n"
                "from params import Other, Parameter\n"
                "\n"
                "\n"
                "class Command:\n"
                "    def get_params(self, ctx: object) -> 't.List[Parameter]':\n"
                "        return []\n"
                "\n"
                "    def walk(self) -> cabc.Iterator[Parameter]:\n"
                "        yield from ()\n"
                "\n"
                "    def pair(self) -> tuple[Parameter, Other]:\n"
                "        return Parameter(), Other()\n"
                "\n"
                "    def loose(self, ctx: object):\n"
                "        return []\n"
                "\n"
                "    def format(self, ctx: object) -> None:\n"
                "        for param in self.get_params(ctx):\n"
                "            param.get_help_record(ctx)\n"
                "        [p.get_help_record(ctx) for p in self.walk()]\n"
                "        for q in self.pair():\n"
                "            q.get_help_record(ctx)\n"
                "        for r in self.loose(ctx):\n"
                "            r.get_help_record(ctx)\n"
            ),
        },
    )
    sure = {("Parameter.get_help_record", 1.0, "instance")}
    assert vias(db, "core.py", 21, "get_help_record") == sure
    assert vias(db, "core.py", 22, "get_help_record") == sure
    guess = {("Parameter.get_help_record", 0.5, "member"), ("Other.get_help_record", 0.5, "member")}
    assert vias(db, "core.py", 24, "get_help_record") == guess
    assert vias(db, "core.py", 26, "get_help_record") == guess


def test_typing_by_annotations_never_guesses_at_full_confidence(repo: Path) -> None:
    # Adversarial pass 9: (1) `response = client.get("/")`, `client` untyped: the `get`s in
    # reach return `httpx.Response` (a library's) and `Resp`: not surely a Resp (starlette's
    # tests linked httpx's `response.status_code` to its Response at 1.0). (2) A loop variable
    # bound again in its scope (`for p in [C()]`, `for p in p.children`) has no one type.
    # (3) `y = x.make()` with `x = lib.Foo()`: what Foo.make returns, as before the rule that
    # writes `T.m()` for a typed local's call (which reads no module path).
    db = build(
        repo,
        {
            "lib.py": (
                "class Bar:\n    def go(self) -> None:\n        pass\n\n\n"
                "class Foo:\n    def make(self) -> Bar:\n        return Bar()\n"
            ),
            "m.py": (
                "import httpx\n"
                "import lib\n"
                "\n"
                "\n"
                "class Resp:\n"
                "    status_code = 200\n"
                "\n"
                "    def go(self) -> None:\n"
                "        pass\n"
                "\n"
                "    children: list['Resp'] = []\n"
                "\n"
                "\n"
                "class Client:\n"
                "    def get(self, url: str) -> httpx.Response:\n"
                "        return httpx.get(url)\n"
                "\n"
                "\n"
                "class Endpoint:\n"
                "    def get(self, request: object) -> Resp:\n"
                "        return Resp()\n"
                "\n"
                "\n"
                "class C:\n"
                "    def go(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "def items() -> list[Resp]:\n"
                "    return []\n"
                "\n"
                "\n"
                "def test(client):\n"
                "    response = client.get('/')\n"
                "    assert response.status_code == 200\n"
                "    for p in items():\n"
                "        p.go()\n"
                "    for p in [C()]:\n"
                "        p.go()\n"
                "    for q in items():\n"
                "        for q in q.children:\n"
                "            q.go()\n"
                "    x = lib.Foo()\n"
                "    y = x.make()\n"
                "    y.go()\n"
            ),
        },
    )
    assert {v for _q, _c, v in vias(db, "m.py", 35, "status_code")} <= {"member"}
    for line in (37, 39, 42):
        assert {v for _q, _c, v in vias(db, "m.py", line, "go")} <= {"member"}, line
    assert vias(db, "m.py", 45, "go") == {("Bar.go", 1.0, "instance")}


def test_a_cut_signature_never_shows_a_tail_that_is_not_its_end(repo: Path) -> None:
    # A `)` in a comment inside the parameters (`# see f)`) is no end of them: the comment is
    # no part of the signature (it was shown as `def f(a, # see f…) more, params) -> Foo`,
    # then cut plainly); a default of one backslash (`sep="\\"`) does not hide the real end.
    params = ",\n".join(f"    option_{k}: int = {k}" for k in range(14))
    db = build(
        repo,
        {
            "a.py": (
                f"def commented(\n    a,  # see f)\n{params},\n) -> 'Foo':\n    pass\n\n\n"
                f"def escaped(\n    sep=\"\\\\\",\n{params},\n) -> 'Foo':\n    pass\n"
            )
        },
    )
    conn = sqlite3.connect(db)
    try:
        found = dict(conn.execute("SELECT name, signature FROM defs"))
    finally:
        conn.close()
    assert found["commented"].startswith("def commented(a, option_0: int = 0, ")
    assert found["commented"].endswith(" = 13) -> 'Foo'") and "see f" not in found["commented"]
    assert found["escaped"].endswith("…) -> 'Foo'")
    assert all(len(s) <= 300 for s in found.values())


def test_a_decorator_named_as_the_definition_under_it_means_the_outer_name(repo: Path) -> None:
    # marshmallow's tests: `@post_load(pass_original=True)` over a method `def post_load` of
    # a schema: the decorator runs before the method binds its name in the class, so it is
    # the imported `post_load` (as jedi says), not the method it decorates. A setter's
    # `@spans.setter` still means the getter above it.
    db = build(
        repo,
        {
            "decorators.py": "def post_load(fn=None, pass_original=False):\n    return fn\n",
            "schema.py": (
                "from decorators import post_load\n"
                "\n"
                "\n"
                "class MySchema:\n"
                "    @post_load(pass_original=True)\n"
                "    def post_load(self, data):\n"
                "        return data\n"
                "\n"
                "    @property\n"
                "    def spans(self):\n"
                "        return 1\n"
                "\n"
                "    @spans.setter\n"
                "    def spans(self, value):\n"
                "        pass\n"
            ),
        },
    )
    assert targets(db, "schema.py", 5, "post_load") == {("post_load", 1)}
    assert targets(db, "schema.py", 13, "spans") == {("MySchema.spans", 10)}


_CHECKS = {
    "checks/interfaces.ts": (
        "export interface Args { value: any }\n"
        "export interface Checker {\n"
        "  check(value: any, args?: Args): boolean;\n"
        "  message?(args: Args): string;\n"
        "}\n"
        "export interface Limits { max: number }\n"
        "export interface ByOptions {\n"
        "  name: string;\n"
        "  checker?: Checker | Function;\n"
        "  limits?: Partial<Limits>;\n"
        "}\n"
        # (an implementation: a literal's `check` is its own, not a use of this one's)
        "export class Impl implements Checker { check(value: any): boolean { return true; } }\n"
    ),
    "checks/by.ts": (
        "import { ByOptions } from './interfaces';\n"
        "export function checkBy(options: ByOptions, each?: boolean): void {}\n"
        "export function addAll(first: string, ...all: ByOptions[]): void {}\n"
        "export class Registry {\n"
        "  constructor(name: string, options: ByOptions) {}\n"
        "}\n"
    ),
}


def test_keys_of_object_literals_typed_by_the_parameter_they_are_passed_to(repo: Path) -> None:
    # A validation library's decorators: `checkBy({name, checker: {check, message}})` where
    # checkBy's parameter is `options: ByOptions` and ByOptions says `checker?: Checker |
    # Function`: each key is a reference of the property the TypeScript service types it by
    # (contextual typing), nested keys through the outer key's declared type (a union's
    # class of the repository; `Partial<T>` has T's keys). A literal passed where nothing is
    # written (`any`), or to a callee found only as a guess, names nothing.
    db = build(
        repo,
        {
            **_CHECKS,
            "rules.ts": (
                "import { checkBy, addAll, Registry } from './checks/by';\n"
                "import { Checker } from './checks/interfaces';\n"
                "export function positive(thing: any) {\n"
                "  checkBy({ name: 'p', checker: { check: v => v > 0, message: () => 'no' } });\n"
                "  new Registry('r', { name: 'r', checker: { message: () => '' } });\n"
                "  addAll('x', { name: 'a' }, { name: 'b', limits: { max: 2 } });\n"
                "  const c = { message: () => 'plain' } as Checker;\n"
                "  thing.go({ message: 1 });\n"
                "  untyped({ message: 2 });\n"
                "  return c;\n"
                "}\n"
                "function untyped(o: any) {}\n"
                "function own(): Checker { return { check: () => true }; }\n"
                "export class Rule {\n"
                "  apply(options: ByOptions): void {}\n"
                "  run() { this.apply({ name: 'n', checker: { message: () => 'm' } }); }\n"
                "}\n"
                "import { ByOptions } from './checks/interfaces';\n"
            ),
        },
    )
    sure = "instance"
    assert vias(db, "rules.ts", 4, "name") == {("ByOptions.name", 1.0, sure)}
    assert vias(db, "rules.ts", 4, "checker") == {("ByOptions.checker", 1.0, sure)}
    assert vias(db, "rules.ts", 4, "check") == {("Checker.check", 1.0, sure)}
    assert vias(db, "rules.ts", 4, "message") == {("Checker.message", 1.0, sure)}
    # `new F(a, {...})`: the constructor's second parameter.
    assert vias(db, "rules.ts", 5, "message") == {("Checker.message", 1.0, sure)}
    # A rest parameter types every argument from its place on; `Partial<Limits>` keeps keys.
    assert {q for q, _c, _v in vias(db, "rules.ts", 6, "name")} == {"ByOptions.name"}
    assert vias(db, "rules.ts", 6, "max") == {("Limits.max", 1.0, sure)}
    # `{...} as T`, and a return under the function's written return type.
    assert vias(db, "rules.ts", 7, "message") == {("Checker.message", 1.0, sure)}
    assert vias(db, "rules.ts", 13, "check") == {("Checker.check", 1.0, sure)}
    # No written type where the literal goes: no link, not even a guess; and a literal passed
    # to a local's method (`thing.go`) is not even stored (nothing could type it).
    assert vias(db, "rules.ts", 8, "message") == set()
    assert vias(db, "rules.ts", 9, "message") == set()
    conn = sqlite3.connect(db)
    try:
        stored = conn.execute(
            "SELECT r.line FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE f.path = 'rules.ts' AND r.name = 'message' AND r.line IN (8, 9)"
        ).fetchall()
    finally:
        conn.close()
    assert stored == [(9,)]
    # `this.apply({...})`: the enclosing class's method's parameter.
    assert vias(db, "rules.ts", 16, "message") == {("Checker.message", 1.0, sure)}


def test_only_a_property_getter_types_what_its_attribute_holds(repo: Path) -> None:
    # `car.motor.start()`: with `motor` a `@property` (or `functools.cached_property`) getter
    # returning Engine, `car.motor` is an Engine; with `motor` a plain method (or an
    # `lru_cache`d one), `car.motor` is a bound method whose `start` is no Engine's.
    db = build(
        repo,
        {
            "cars.py": (
                "import functools\n"
                "\n"
                "\n"
                "class Engine:\n"
                "    def start(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Pump:\n"
                "    def start(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Car:\n"
                "    @property\n"
                "    def motor(self) -> Engine:\n"
                "        return Engine()\n"
                "\n"
                "    @functools.cached_property\n"
                "    def spare(self) -> Engine:\n"
                "        return Engine()\n"
                "\n"
                "    def plain(self) -> Engine:\n"
                "        return Engine()\n"
                "\n"
                "    @functools.lru_cache()\n"
                "    def cached(self) -> Engine:\n"
                "        return Engine()\n"
                "\n"
                "\n"
                "def drive(car: Car) -> None:\n"
                "    car.motor.start()\n"
                "    car.spare.start()\n"
                "    car.plain.start()\n"
                "    car.cached.start()\n"
            ),
        },
    )
    sure = {("Engine.start", 1.0, "instance")}
    assert vias(db, "cars.py", 32, "start") == sure
    assert vias(db, "cars.py", 33, "start") == sure
    for line in (34, 35):
        assert {v for _q, _c, v in vias(db, "cars.py", line, "start")} == {"member"}


def test_a_property_typed_by_a_nested_class_or_self(repo: Path) -> None:
    # In a class body `Inner` is the class's own nested `Inner`, not the module's; a getter
    # returning `Self` holds the receiver's class (a subclass overriding `start`).
    db = build(
        repo,
        {
            "m.py": (
                "from typing import Self\n"
                "\n"
                "\n"
                "class Inner:\n"
                "    def spin(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Outer:\n"
                "    class Inner:\n"
                "        def spin(self) -> None:\n"
                "            pass\n"
                "\n"
                "    inner: Inner\n"
                "\n"
                "    @property\n"
                "    def prop(self) -> Inner:\n"
                "        return self.inner\n"
                "\n"
                "    @property\n"
                "    def me(self) -> Self:\n"
                "        return self\n"
                "\n"
                "    def start(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "class Sub(Outer):\n"
                "    def start(self) -> None:\n"
                "        pass\n"
                "\n"
                "\n"
                "def f(o: Outer, s: Sub) -> None:\n"
                "    o.inner.spin()\n"
                "    o.prop.spin()\n"
                "    s.me.start()\n"
            ),
        },
    )
    nested = {("Outer.Inner.spin", 1.0, "instance")}
    assert vias(db, "m.py", 34, "spin") == nested
    assert vias(db, "m.py", 35, "spin") == nested
    assert vias(db, "m.py", 36, "start") == {("Sub.start", 1.0, "instance")}


def test_an_export_list_renaming_its_own_names_or_imports(repo: Path) -> None:
    # A schema library's index: `import { create as createString } from './string'` then
    # `export { createString as string }`: callers of `string()` call `create`. The same for a
    # function of the module itself exported under another name; the renamed name binds
    # nothing in the module (`string` there is not the export).
    db = build(
        repo,
        {
            "string.ts": "export function create(): number { return 1 }\n",
            "index.ts": (
                "import { create as createString } from './string';\n"
                "function own(): void {}\n"
                "export { createString as string, own as mine };\n"
                "export { createString };\n"
                "string();\n"
            ),
            "use.ts": (
                "import { string, mine, createString } from './index';\n"
                "string();\n"
                "mine();\n"
                "createString();\n"
            ),
        },
    )
    assert targets(db, "use.ts", 2, "string") == {("create", 1)}
    assert targets(db, "use.ts", 3, "mine") == {("own", 2)}
    assert targets(db, "use.ts", 4, "createString") == {("create", 1)}
    assert targets(db, "index.ts", 5, "string") == set()


def test_a_constructors_references_and_callers_are_its_classes_calls(repo: Path) -> None:
    # `Thing(1)` runs `Thing.__init__`: `refs` and `callers` of the constructor list it, and
    # a use of the class that is no call (a type, an isinstance) is not one.
    db = build(
        repo,
        {
            "lib.py": "class Thing:\n    def __init__(self, size):\n        self.size = size\n",
            "app.py": (
                "from lib import Thing\n\n\ndef make():\n    return Thing(1)\n\n\n"
                "def check(x):\n    return isinstance(x, Thing)\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        init = query.symbol_at(conn, "lib.py", 2)
        assert init is not None
        hits, _more = query.references(conn, init)
        assert [(h.path, h.line) for h in hits] == [("app.py", 5)]
        assert [(c.symbol and c.symbol.qualified, c.lines) for c in query.callers(conn, init)] == [
            ("make", (5,))
        ]
    finally:
        conn.close()


def test_what_types_a_literal_is_read_as_the_typescript_service_reads_it(repo: Path) -> None:
    # Adversarial pass 10: each context below typed a literal's keys wrongly at 1.0.
    db = build(
        repo,
        {
            "types.ts": (
                "export interface Opts { a: number }\n"
                "export interface Other { a: number; z: number }\n"
                "export interface Foo { bar: number }\n"
                "export function string(): Foo { return { bar: 1 }; }\n"
                "export interface Circle { kind: 'circle'; r: number }\n"
                "export interface Square { kind: 'square'; r: number }\n"
                "export function run(o: Opts): void {}\n"
                "export function prim(p?: string | Opts): void {}\n"
                "export function draw(s: Circle | Square): void {}\n"
                "export function ov(o: Opts): void;\n"
                "export function ov(o: Other): void;\n"
                "export function ov(o: any): void {}\n"
                "export function take<Opts>(s: Opts): void {}\n"
                "export class Box<Opts> { set(s: Opts): void {} reset() { this.set({ a: 0 }); } }\n"
            ),
            "use.ts": (
                "import { run, prim, draw, ov, take, Opts, Other } from './types';\n"
                "export function local() {\n"
                "  const run = (o: Other) => {};\n"
                "  run({ a: 1, z: 1 });\n"
                "}\n"
                "export function param(run: (o: any) => void) { run({ a: 2 }); }\n"
                "prim({ bar: 1, a: 2 });\n"
                "draw({ kind: 'circle', r: 1 });\n"
                "ov({ a: 1, z: 2 });\n"
                "take({ a: 5 });\n"
                "export class C {\n"
                "  m(o: Opts) {}\n"
                "  go() { const lit = { m(o: Other) {}, run() { this.m({ a: 1, z: 1 }); } }; }\n"
                "  ok() { this.m({ a: 3 }); }\n"
                "}\n"
                "function outer(): Other {\n"
                "  function* g() { yield 1; return { a: 2 }; }\n"
                "  const p: Partial<Other> = { z: 1 };\n"
                "  return { a: 1, z: 1 };\n"
                "}\n"
                "async function later(): Promise<Other> { return { z: 3 }; }\n"
                "run({ a: 9 });\n"
                "function loose(): Other | unknown { return { z: 4 }; }\n"
            ),
            "tests.ts": (
                "declare function it(name: string, fn: () => void): void;\n"
                "it('one', () => {\n"
                "  interface State { a: number }\n"
                "  const foo = (x: State) => x;\n"
                "});\n"
                "it('two', () => {\n"
                "  interface State { a: string; b: number }\n"
                "  const foo = (x: State) => x;\n"
                "  foo({ a: '', b: 1 });\n"
                "  const s = { a: 'x' } as State;\n"
                "});\n"
            ),
        },
    )

    def meant(path: str, line: int, name: str) -> set[str]:
        return {q for q, _c, _v in vias(db, path, line, name)}

    # A local function shadowing the import: its own parameter's type; a parameter: nothing.
    assert meant("use.ts", 4, "a") == {"Other.a"}
    assert meant("use.ts", 6, "a") == set()
    # `string` in a type is the primitive, not the repository's function `string()`.
    assert meant("use.ts", 7, "bar") == set()
    assert meant("use.ts", 7, "a") == {"Opts.a"}
    # A discriminated union: the tag picks one member, which is not read; nothing.
    assert meant("use.ts", 8, "r") == set()
    # Overloads typing the argument differently: nothing.
    assert meant("use.ts", 9, "a") == set()
    # A type parameter named like a repository interface is no interface.
    assert meant("use.ts", 10, "a") == set()
    assert meant("types.ts", 14, "a") == set()
    # `this` of an object literal's method is not the class's.
    assert meant("use.ts", 13, "a") == set()
    assert meant("use.ts", 14, "a") == {"Opts.a"}
    # A generator's return is not the outer function's; `Partial<T>` and an async function's
    # `Promise<T>` are T.
    assert meant("use.ts", 17, "a") == set()
    assert meant("use.ts", 18, "z") == {"Other.z"}
    assert meant("use.ts", 19, "a") == {"Other.a"}
    assert meant("use.ts", 21, "z") == {"Other.z"}
    assert meant("use.ts", 22, "a") == {"Opts.a"}
    assert meant("use.ts", 23, "z") == set()  # (a union with `unknown` is `unknown`)
    # Sibling tests' `State`s: the callee is the one in scope, its parameter's type one of two
    # namesakes of the file: nothing rather than both.
    assert meant("tests.ts", 9, "a") == set()
    assert meant("tests.ts", 10, "a") == set()


def test_a_base_class_named_through_a_submodule_imported_from_its_package(repo: Path) -> None:
    # typer's `from . import core` then `class TyperGroup(core.Group)`: `self.m()` and
    # `super().m()` look in core.Group (they were guesses among every `m`).
    db = build(
        repo,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": (
                "class Command:\n    def invoke(self, ctx):\n        return 1\n\n"
                "    def main(self):\n        return 2\n"
            ),
            "pkg/other.py": "class Other:\n    def main(self):\n        return 3\n",
            "pkg/group.py": (
                "from . import core\n\n\nclass Group(core.Command):\n"
                "    def invoke(self, ctx):\n        self.main()\n"
                "        return super().invoke(ctx)\n"
            ),
        },
    )
    assert vias(db, "pkg/group.py", 6, "main") == {("Command.main", 1.0, "self")}
    assert vias(db, "pkg/group.py", 7, "invoke") == {("Command.invoke", 1.0, "super")}


def test_a_base_named_through_a_parameter_shadowing_the_submodule_is_not_the_submodules(
    repo: Path,
) -> None:
    # `from . import core`, then in `def factory(core)` a `class G(core.Command)`: that `core`
    # is the parameter (anything), not the submodule: G's `super().invoke()` is no sure
    # `Command.invoke`. The module-level class beside it still is.
    db = build(
        repo,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "class Command:\n    def invoke(self):\n        return 1\n",
            "pkg/group.py": (
                "from . import core\n\n\n"
                "def factory(core):\n    class G(core.Command):\n"
                "        def invoke(self):\n            return super().invoke()\n"
                "    return G\n\n\n"
                "class H(core.Command):\n    def invoke(self):\n        return super().invoke()\n"
            ),
        },
    )
    assert all(v != "super" for _q, _c, v in vias(db, "pkg/group.py", 7, "invoke"))
    assert vias(db, "pkg/group.py", 13, "invoke") == {("Command.invoke", 1.0, "super")}


def test_a_call_chain_is_typed_from_its_head_through_each_written_return(repo: Path) -> None:
    # yup's `string().required().notRequired()`: `string` is an overloaded `create` whose
    # overloads say `StringSchema` (the implementation says nothing: callers never see its
    # signature), `required` returns a StringSchema: `notRequired` is StringSchema's, not
    # every `notRequired`'s. Python: a local's written type heads the chain.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class StringSchema {\n"
                "  required(): StringSchema { return this; }\n"
                "  notRequired(): StringSchema { return this; }\n"
                "}\n"
                "export class NumberSchema {\n"
                "  required(): NumberSchema { return this; }\n"
                "  notRequired(): NumberSchema { return this; }\n"
                "}\n"
                "export function create(): StringSchema;\n"
                "export function create(x: number): StringSchema;\n"
                "export function create(x?: number) { return new StringSchema(); }\n"
            ),
            "use.ts": (
                "import { create as string } from './schema';\n"
                "string().required().notRequired();\n"
                "string()\n  .required('msg')\n  .notRequired();\n"
                "const s = string();\n"
                "s.required().notRequired();\n"
            ),
            "shapes.py": (
                "class Box:\n    def open(self) -> 'Box':\n        return self\n\n"
                "    def close(self) -> None:\n        pass\n\n\n"
                "class Lid:\n    def open(self) -> 'Lid':\n        return self\n\n"
                "    def close(self) -> None:\n        pass\n\n\n"
                "def use() -> None:\n    b = Box()\n    b.open().open().close()\n"
            ),
        },
    )
    sure = {"StringSchema.notRequired"}
    assert {q for q, c, v in vias(db, "use.ts", 2, "notRequired") if v == "instance"} == sure
    assert {q for q, c, v in vias(db, "use.ts", 5, "notRequired") if v == "instance"} == sure
    assert {q for q, c, v in vias(db, "use.ts", 7, "notRequired") if v == "instance"} == sure
    assert vias(db, "shapes.py", 19, "close") == {("Box.close", 1.0, "instance")}


def test_a_javascript_call_chain_is_typed_from_its_head(repo: Path) -> None:
    # yup's test/yup.js: `string().cast(undefined)` and `string().defined().cast('foo')`, where
    # `string` is the TypeScript sources' `create`. A JavaScript file's calls as receivers were
    # never read (only TypeScript's): `cast` was a guess among every `cast`.
    db = build(
        repo,
        {
            "src/schema.ts": (
                "export class StringSchema {\n"
                "  defined(): StringSchema { return this; }\n"
                "  cast(v: unknown): string { return ''; }\n"
                "}\n"
                "export class Lazy { cast(v: unknown): unknown { return v; } }\n"
                "export class Reference { cast(v: unknown): unknown { return v; } }\n"
                "export function create(): StringSchema { return new StringSchema(); }\n"
            ),
            "test/use.js": (
                "import { create as string } from '../src/schema';\n"
                "string().cast(undefined);\n"
                "string()\n  .defined()\n  .cast('foo');\n"
                "const s = string().defined();\n"
                "s.cast(1);\n"
            ),
        },
    )
    sure = {("StringSchema.cast", 1.0, "instance")}
    assert vias(db, "test/use.js", 2, "cast") == sure
    assert vias(db, "test/use.js", 5, "cast") == sure
    assert vias(db, "test/use.js", 7, "cast") == sure


def test_super_member_calls_go_to_the_base_in_typescript_javascript_and_java(repo: Path) -> None:
    # yup's `clone(spec) { const next = super.clone(spec); ... }`: `super.clone` was a guess
    # among every `clone` (the override itself too), at 1/their number; it is the base's, and
    # no override's (the family of a TS method does not apply to a call that names its class).
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n  clone(spec?: number): Schema { return this; }\n}\n"
                "export class ArraySchema extends Schema {\n"
                "  clone(spec?: number) {\n    const next = super.clone(spec);\n"
                "    return next;\n  }\n}\n"
                "export class Other {\n  clone() { return this; }\n}\n"
            ),
            "shape.js": (
                "export class Shape {\n  draw() { return 1; }\n}\n"
                "export class Box extends Shape {\n"
                "  draw() {\n    return super.draw() + 1;\n  }\n}\n"
                "export class Pen {\n  draw() { return 0; }\n}\n"
            ),
            "p/Base.java": (
                "package p;\n\npublic class Base {\n    public int size() { return 1; }\n}\n"
            ),
            "p/Child.java": (
                "package p;\n\npublic class Child extends Base {\n"
                "    public int size() { return super.size() + 1; }\n}\n"
            ),
            "p/Other.java": (
                "package p;\n\npublic class Other {\n    public int size() { return 0; }\n}\n"
            ),
        },
    )
    assert vias(db, "schema.ts", 6, "clone") == {("Schema.clone", 1.0, "super")}
    assert vias(db, "shape.js", 6, "draw") == {("Shape.draw", 1.0, "super")}
    assert vias(db, "p/Child.java", 4, "size") == {("Base.size", 1.0, "super")}


def test_what_a_super_call_returns_is_what_the_base_method_returns(repo: Path) -> None:
    # yup's `clone(spec) { const next = super.clone(spec); ...; return next; }` (the base's
    # `clone(): this`): `array().clone().cast(x)` is the schema's `cast`. Python's `return
    # super().make()` alike, read from the class that says it even when the receiver is a
    # subclass (C's `make` is B's, whose `super()` is A).
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n"
                "  clone(spec?: number): this { return this; }\n"
                "  cast(v: unknown): unknown { return v; }\n"
                "}\n"
                "export class ArraySchema extends Schema {\n"
                "  clone(spec?: number) {\n    const next = super.clone(spec);\n"
                "    return next;\n  }\n}\n"
                "export class Lazy { cast(v: unknown): unknown { return v; } }\n"
                "export class Ref { cast(v: unknown): unknown { return v; } }\n"
            ),
            "use.ts": (
                "import { ArraySchema } from './schema';\nnew ArraySchema().clone().cast(1);\n"
            ),
            "shapes.py": (
                "class Box:\n    def close(self):\n        pass\n\n\n"
                "class Lid:\n    def close(self):\n        pass\n\n\n"
                "class A:\n    def make(self):\n        return Box()\n\n\n"
                "class B(A):\n    def make(self):\n        return super().make()\n\n\n"
                "class C(B):\n    pass\n\n\n"
                "def use():\n    C().make().close()\n    B().make().close()\n"
            ),
        },
    )
    assert vias(db, "use.ts", 2, "cast") == {("Schema.cast", 1.0, "instance")}
    assert vias(db, "shapes.py", 26, "close") == {("Box.close", 1.0, "instance")}
    assert vias(db, "shapes.py", 27, "close") == {("Box.close", 1.0, "instance")}


def test_a_class_methods_overloads_say_what_it_returns_not_its_implementation(
    repo: Path,
) -> None:
    # yup's BooleanSchema: `strip(enabled: false): BooleanSchema<...>;` `strip(enabled?:
    # true): BooleanSchema<...>;` `strip(v: any) { return super.strip(v); }`: callers see the
    # overloads only. (A class body's overload keeps no `;` in its signature, as a function's
    # does, so they were read as three implementations, the last saying nothing sure.)
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n"
                "  strip(v?: boolean): any { return this; }\n"
                "  cast(v: unknown): unknown { return v; }\n"
                "}\n"
                "export class BooleanSchema extends Schema {\n"
                "  strip(enabled: false): BooleanSchema;\n"
                "  strip(enabled?: true): BooleanSchema;\n"
                "  strip(v: any): any {\n    return super.strip(v);\n  }\n"
                "  isTrue(): boolean { return true; }\n"
                "}\n"
                "export class Lazy { isTrue(): boolean { return false; } }\n"
                "export class Ref { isTrue(): boolean { return false; } }\n"
                "export function bool(): BooleanSchema { return new BooleanSchema(); }\n"
            ),
            "use.ts": ("import { bool } from './schema';\nbool().strip().isTrue();\n"),
        },
    )
    assert vias(db, "use.ts", 2, "isTrue") == {("BooleanSchema.isTrue", 1.0, "instance")}


def test_returns_that_differ_in_words_type_a_method_when_they_come_to_one_class(
    repo: Path,
) -> None:
    # yup's `round(method) { if (method === 'trunc') return this.truncate(); ...; return
    # this.transform(...); }`: both are the schema. Returns that come to different classes
    # still say nothing (`pick`), as a chain through them.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class NumberSchema {\n"
                "  transform(): NumberSchema { return this; }\n"
                "  truncate() { return this.transform(); }\n"
                "  round(m: string) {\n"
                "    if (m === 'trunc') return this.truncate();\n"
                "    return this.transform();\n"
                "  }\n"
                "  pick(m: string) {\n"
                "    if (m) return new Other();\n"
                "    return this.transform();\n"
                "  }\n"
                "  cast(v: unknown): number { return 1; }\n"
                "}\n"
                "export class Other { cast(v: unknown): unknown { return v; } }\n"
                "export class Lazy { cast(v: unknown): unknown { return v; } }\n"
            ),
            "use.ts": (
                "import { NumberSchema } from './schema';\n"
                "new NumberSchema().round('x').cast(1);\n"
                "new NumberSchema().pick('x').cast(1);\n"
            ),
        },
    )
    assert vias(db, "use.ts", 2, "cast") == {("NumberSchema.cast", 1.0, "instance")}
    assert all(v != "instance" for _q, _c, v in vias(db, "use.ts", 3, "cast"))


def test_a_generic_type_alias_of_one_class_types_a_parameter_as_that_class(repo: Path) -> None:
    # yup's `type AnySchema<T = any, C = any> = Schema<T, C>` and `concat(schema: AnySchema)
    # { let combined = schema.clone(); ... }`: Schema's `clone`. An alias of its own type
    # parameter (`type Id<T> = T`) names no class.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema<T> {\n  clone(): Schema<T> { return this; }\n}\n"
                "export class ReferenceSet {\n  clone(): ReferenceSet { return this; }\n}\n"
                "export type AnySchema<T = any> = Schema<T>;\n"
                "export type Id<T> = T;\n"
                "export function concat(schema: AnySchema, other: Id<Schema<number>>) {\n"
                "  schema.clone();\n"
                "  other.clone();\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "schema.ts", 10, "clone") == {("Schema.clone", 1.0, "instance")}
    assert all(v != "instance" for _q, _c, v in vias(db, "schema.ts", 11, "clone"))


def test_a_subclass_receivers_family_is_below_it_not_its_siblings_overrides(repo: Path) -> None:
    # yup: `mixed().oneOf(...)` runs Schema's `oneOf` (MixedSchema does not override it) or an
    # override below MixedSchema, never StringSchema's: a sibling's override is no family of a
    # call on a MixedSchema. A call through the base still reaches every override.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n  oneOf(): Schema { return this; }\n}\n"
                "export class MixedSchema extends Schema {}\n"
                "export class StringSchema extends Schema {\n"
                "  oneOf(): StringSchema { return this; }\n}\n"
                "export class Strict extends MixedSchema {\n"
                "  oneOf(): Strict { return this; }\n}\n"
            ),
            "use.ts": (
                "import { Schema, MixedSchema } from './schema';\n"
                "new MixedSchema().oneOf();\n"
                "export function f(s: Schema) {\n  s.oneOf();\n}\n"
            ),
        },
    )
    assert vias(db, "use.ts", 2, "oneOf") == {
        ("Schema.oneOf", 1.0, "instance"),
        ("Strict.oneOf", 0.5, "family"),
    }
    assert vias(db, "use.ts", 4, "oneOf") == {
        ("Schema.oneOf", 1.0, "instance"),
        ("StringSchema.oneOf", 0.5, "family"),
        ("Strict.oneOf", 0.5, "family"),
    }


def test_a_subclass_receivers_family_keeps_the_literals_written_under_it(repo: Path) -> None:
    # zod: `z.number().lt(5)` is `_ZodNumber`'s `lt` (ZodNumber extends it), and the object
    # literal that implements ZodNumber (`inst.lt = ...` in zod, a literal typed ZodNumber
    # here) is its family at 0.5, as the TypeScript service counts it.
    db = build(
        repo,
        {
            "schemas.ts": (
                "export interface _ZodNumber {\n  lt(v: number): this;\n}\n"
                "export interface ZodNumber extends _ZodNumber {}\n"
                "export const impl: ZodNumber = {\n"
                "  lt(v: number) {\n    return this;\n  },\n};\n"
                "export function number(): ZodNumber {\n  return impl;\n}\n"
            ),
            "use.ts": "import { number } from './schemas';\nnumber().lt(5);\n",
        },
    )
    assert vias(db, "use.ts", 2, "lt") == {
        ("_ZodNumber.lt", 1.0, "instance"),
        ("impl.lt", 0.5, "family"),
    }


def test_a_conditional_receiver_is_typed_when_its_branches_agree(repo: Path) -> None:
    # yup's `describe(options) { const next = (options ? this.resolve(options) : this).clone();
    # }`, with `resolve() { let schema = this; ...; return schema; }`: both branches are the
    # schema. Branches of different classes type nothing.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n"
                "  resolve(o: number) {\n    let schema = this;\n    return schema;\n  }\n"
                "  clone(): Schema { return this; }\n"
                "  describe(o?: number) {\n"
                "    const next = (o ? this.resolve(o) : this).clone();\n"
                "    (o ? new Other() : this).clone();\n"
                "  }\n"
                "}\n"
                "export class Other {\n  clone(): Other { return this; }\n}\n"
                "export class Ref {\n  clone(): Ref { return this; }\n}\n"
            ),
        },
    )
    assert vias(db, "schema.ts", 8, "clone") == {("Schema.clone", 1.0, "instance")}
    assert all(v != "instance" for _q, _c, v in vias(db, "schema.ts", 9, "clone"))


def test_a_function_bound_to_a_const_returns_what_its_body_returns(repo: Path) -> None:
    # `export const makeLazy = () => new Lazy()` (an expression body) and `const f = function
    # () { return new Lazy(); }`: a call of either is a Lazy. An async arrow's is a promise.
    db = build(
        repo,
        {
            "lazy.ts": (
                "export class Lazy {\n  cast(v: unknown): unknown { return v; }\n}\n"
                "export class Ref {\n  cast(v: unknown): unknown { return v; }\n}\n"
                "export class Other {\n  cast(v: unknown): unknown { return v; }\n}\n"
            ),
            "make.js": (
                "import { Lazy } from './lazy';\n"
                "export const makeLazy = () => new Lazy();\n"
                "export const makeLazy2 = function () {\n  return new Lazy();\n};\n"
                "export const later = async () => new Lazy();\n"
            ),
            "use.ts": (
                "import { makeLazy, makeLazy2, later } from './make';\n"
                "makeLazy().cast(1);\n"
                "makeLazy2().cast(2);\n"
                "later().cast(3);\n"
            ),
        },
    )
    sure = {("Lazy.cast", 1.0, "instance")}
    assert vias(db, "use.ts", 2, "cast") == sure
    assert vias(db, "use.ts", 3, "cast") == sure
    assert all(v != "instance" for _q, _c, v in vias(db, "use.ts", 4, "cast"))


def test_a_chain_headed_by_a_call_with_type_arguments_is_typed_from_its_head(repo: Path) -> None:
    # yup's type tests: `mixed<string>().strip().cast('')` and `const m =
    # mixed<string>().required(); m.cast('')`. The type arguments hid the chain's head, so the
    # chain was `().strip()`: what any `strip` returns, and several types declare one.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Schema {\n"
                "  strip(on = true): any { return this; }\n"
                "  required(): any { return this; }\n"
                "  cast(v: unknown): any { return v; }\n"
                "}\n"
                "export class MixedSchema<T> extends Schema {}\n"
                "export interface MixedSchema<T> extends Schema {\n"
                "  strip(on: false): MixedSchema<T>;\n"
                "  strip(on?: true): MixedSchema<T>;\n"
                "  required(): MixedSchema<NonNullable<T>>;\n"
                "}\n"
                "export class StringSchema extends Schema {}\n"
                "export interface StringSchema extends Schema {\n"
                "  strip(on: false): StringSchema;\n"
                "  required(): StringSchema;\n"
                "}\n"
                "export class Lazy { cast(v: unknown): any { return v; } }\n"
                "export class Reference { cast(v: unknown): any { return v; } }\n"
                "export function create<T>(): MixedSchema<T> { return new MixedSchema<T>(); }\n"
            ),
            "use.ts": (
                "import { create as mixed } from './schema';\n"
                "mixed<string>().strip().cast('');\n"
                "const m = mixed<Map<string, number[]>>().required();\n"
                "m.cast('');\n"
            ),
        },
    )
    sure = {("Schema.cast", 1.0, "instance")}
    assert vias(db, "use.ts", 2, "cast") == sure
    assert vias(db, "use.ts", 4, "cast") == sure


def test_a_chain_reads_return_types_from_the_interface_merged_with_a_class(repo: Path) -> None:
    # yup: `export default class StringSchema` writes no return types and `export default
    # interface StringSchema` (the same type, by declaration merging) writes them: a chain
    # goes on through the interface's signatures, to the class's own members. A class and an
    # interface of different names (or modules) are not merged: nothing typed there.
    db = build(
        repo,
        {
            "string.ts": (
                "export default class StringSchema {\n"
                "  required(message?: string) { return this.clone(); }\n"
                "  notRequired() { return this.clone(); }\n"
                "  clone() { return this; }\n"
                "}\n"
                "export default interface StringSchema {\n"
                "  required(message?: string): StringSchema;\n"
                "  notRequired(): StringSchema;\n"
                "}\n"
                "export function create(): StringSchema { return new StringSchema(); }\n"
            ),
            "number.ts": (
                "export class NumberSchema {\n"
                "  required() { return this.copy as any; }\n"
                "  notRequired() { return this.copy as any; }\n"
                "}\n"
                "export interface NumberLike {\n"
                "  required(): NumberSchema;\n"
                "}\n"
                "export function num(): NumberSchema { return new NumberSchema(); }\n"
            ),
            "use.ts": (
                "import { create as string } from './string';\n"
                "import { num } from './number';\n"
                "string().required().notRequired();\n"
                "const v = string().required();\n"
                "v.notRequired();\n"
                "num().required().notRequired();\n"
            ),
            "shapes.py": (
                "class Box:\n    def open(self) -> 'Box':\n        return self\n\n"
                "    def close(self) -> None:\n        pass\n\n\n"
                "class Lid:\n    def open(self) -> 'Lid':\n        return self\n\n"
                "    def close(self) -> None:\n        pass\n\n\n"
                "def make() -> Box:\n    return Box()\n\n\n"
                "def use() -> None:\n    c = make().open()\n    c.close()\n\n\n"
                "def shadowed(make):\n    c = make().open()\n    c.close()\n"
            ),
        },
    )
    # Python: a local bound to a chain is typed from the chain's head (Box, not every
    # `open`'s class), unless the head is a parameter named like the module's function.
    assert vias(db, "shapes.py", 23, "close") == {("Box.close", 1.0, "instance")}
    assert {q for q, c, v in vias(db, "shapes.py", 28, "close") if c == 1.0} == set()
    sure = {"StringSchema.notRequired"}
    assert {q for q, c, v in vias(db, "use.ts", 3, "notRequired") if v == "instance"} == sure
    assert {q for q, c, v in vias(db, "use.ts", 5, "notRequired") if v == "instance"} == sure
    assert {q for q, c, v in vias(db, "use.ts", 6, "notRequired") if v == "instance"} == set()


def test_chains_and_export_lists_read_as_the_service_reads_them(repo: Path) -> None:
    # Adversarial pass 11: overloads returning different classes type the call by the first
    # (never by all of them at once), an overload set written `: any` is not its
    # implementation's type; `this` along a chain is the receiver's class; an export list
    # swapping two names exports each under the other's.
    db = build(
        repo,
        {
            "schema.ts": (
                "export class Conn { close(): number { return 1; } }\n"
                "export class Other { close(): number { return 3; } }\n"
                "export function conv(x: string): Conn;\n"
                "export function conv(x: number): Other;\n"
                "export function conv(x: any): any { return x; }\n"
                "export function loose(x: string): any;\n"
                "export function loose(x: any): Conn { return new Conn(); }\n"
                "export class Base { me(): this { return this; } run(): number { return 1; } }\n"
                "export class Sub extends Base { run(): number { return 2; } }\n"
                "export function sub(): Sub { return new Sub(); }\n"
            ),
            "swap.ts": (
                "function a() { return 1; }\nfunction b() { return 2; }\n"
                "export { a as b, b as a };\n"
            ),
            "use.ts": (
                "import { conv, loose, sub } from './schema';\n"
                "import { a, b } from './swap';\n"
                "conv(1).close();\n"
                "loose('x').close();\n"
                "sub().me().run();\n"
                "a() + b();\n"
            ),
        },
    )

    def sure(line: int, name: str) -> set[str]:
        return {q for q, c, _v in vias(db, "use.ts", line, name) if c == 1.0}

    # (TS picks the first overload the arguments fit; the index, which does not read the
    # arguments' types, the first declared: `conv(1)` is Other's for the service, a known miss)
    assert sure(3, "close") == {"Conn.close"}
    assert sure(4, "close") == set()
    assert sure(5, "run") == {"Sub.run"}
    assert targets(db, "use.ts", 6, "a") == {("b", 2)}
    assert targets(db, "use.ts", 6, "b") == {("a", 1)}


def test_python_chains_through_coroutines_callables_and_parameters(repo: Path) -> None:
    # A coroutine's `close` is not its awaited value's; a `Callable` local is no class; a
    # parameter named like an imported function is not that function.
    db = build(
        repo,
        {
            "pkg/__init__.py": "",
            "pkg/schema.py": (
                "from typing import Callable, Optional\n\n\n"
                "class Conn:\n    def close(self) -> None:\n        pass\n\n\n"
                "class Builder:\n    async def aopen(self) -> Conn:\n        return Conn()\n\n"
                "    def open(self) -> Conn:\n        return Conn()\n\n\n"
                "def builder() -> Builder:\n    return Builder()\n\n\n"
                "def other() -> Conn:\n    return Conn()\n"
            ),
            "pkg/use.py": (
                "from pkg.schema import builder, other\n\n\n"
                "def f(make):\n"
                "    builder().aopen().close()\n"
                "    builder().open().close()\n\n\n"
                "def h(other):\n"
                "    other().close()\n"
                "    s = other()\n"
                "    s.close()\n"
            ),
        },
    )
    # (an untyped receiver's `close`: a guess among the members in reach, as before)
    assert {v for _q, _c, v in vias(db, "pkg/use.py", 5, "close")} == {"member"}
    assert vias(db, "pkg/use.py", 6, "close") == {("Conn.close", 1.0, "instance")}
    assert {v for _q, _c, v in vias(db, "pkg/use.py", 10, "close")} == {"member"}
    assert {v for _q, _c, v in vias(db, "pkg/use.py", 12, "close")} == {"member"}


def test_a_literal_typed_by_a_class_merged_with_its_interface(repo: Path) -> None:
    # yup's `class StringSchema` and `interface StringSchema` (declaration merging) are one
    # class: a literal written under it is typed, not left out as two sibling namesakes.
    db = build(
        repo,
        {
            "s.ts": (
                "export class Schema { label: string = '' }\n"
                "export interface Schema { meta?: number }\n"
                "export function make(s: Schema): void {}\n"
                "make({ label: 'x', meta: 1 });\n"
            ),
        },
    )
    assert {q for q, _c, _v in vias(db, "s.ts", 4, "label")} == {"Schema.label"}
    assert {q for q, _c, _v in vias(db, "s.ts", 4, "meta")} == {"Schema.meta"}


def test_a_member_of_a_union_return_type_is_one_of_its_classes(repo: Path) -> None:
    # `f(): A | B` (or a type alias of the union): `f().m()` runs A.m or B.m, one of two, not
    # both surely; when only one of the union's classes has `m`, it is that one.
    db = build(
        repo,
        {
            "shapes.ts": (
                "export class A {\n  m(): number { return 1; }\n}\n"
                "export class B {\n  m(): number { return 2; }\n}\n"
                "export class C {\n  n(): number { return 3; }\n}\n"
                "export type AB = A | B;\n"
            ),
            "app.ts": (
                "import { A, B, C, AB } from './shapes';\n"
                "export function f(): A | B { return new A(); }\n"
                "export function g(): A | C | null { return null; }\n"
                "export function h(): AB { return new B(); }\n"
                "f().m();\n"
                "g().m();\n"
                "h().m();\n"
            ),
        },
    )
    assert vias(db, "app.ts", 5, "m") == {("A.m", 0.5, "union"), ("B.m", 0.5, "union")}
    assert vias(db, "app.ts", 6, "m") == {("A.m", 1.0, "instance")}
    assert vias(db, "app.ts", 7, "m") == {("A.m", 0.5, "union"), ("B.m", 0.5, "union")}


def test_java_constructor_calls_link_the_constructor_of_their_arity(repo: Path) -> None:
    # `new Shape(2, 3)` runs `Shape(int a, int b)`, not every constructor of Shape; `this(1)`
    # and `super(r)` call constructors too. Where the arity does not pick one (two of one
    # arity), each is one of those (`overload`, 1/their number). `extends Shape` is the
    # class, not its constructors (it linked to all three).
    db = build(
        repo,
        {
            "src/p/Shape.java": (
                "package p;\n\npublic class Shape {\n"
                "    public Shape() {\n        this(1);\n    }\n"
                "    public Shape(int a) {\n    }\n"
                "    public Shape(int a, int b) {\n    }\n"
                "}\n"
            ),
            "src/p/Circle.java": (
                "package p;\n\npublic class Circle extends Shape {\n"
                "    public Circle(int r) {\n        super(r);\n    }\n}\n"
            ),
            "src/p/Two.java": (
                "package p;\n\npublic class Two<T> {\n"
                "    public Two(int a) {\n    }\n    public Two(String s) {\n    }\n}\n"
            ),
            "src/p/Main.java": (
                "package p;\n\npublic class Main {\n    public static void main(String[] args) {\n"
                "        Shape s = new Shape(2, 3);\n"
                "        Shape t = new Shape(/* one */ 2);\n"
                "        Circle c = new Circle(4);\n"
                "        Two<String> w = new Two<String>(5);\n"
                "    }\n}\n"
            ),
        },
    )
    assert vias(db, "src/p/Shape.java", 5, "this") == {("Shape.Shape", 1.0, "self")}
    assert targets(db, "src/p/Shape.java", 5, "this") == {("Shape.Shape", 7)}
    assert targets(db, "src/p/Circle.java", 5, "super") == {("Shape.Shape", 7)}
    assert targets(db, "src/p/Circle.java", 3, "Shape") == {("Shape", 3)}
    assert targets(db, "src/p/Main.java", 5, "Shape") == {("Shape", 3), ("Shape.Shape", 9)}
    assert targets(db, "src/p/Main.java", 6, "Shape") == {("Shape", 3), ("Shape.Shape", 7)}
    assert targets(db, "src/p/Main.java", 7, "Circle") == {("Circle", 3), ("Circle.Circle", 4)}
    assert {(q, c, v) for q, c, v in vias(db, "src/p/Main.java", 8, "Two") if q != "Two"} == {
        ("Two.Two", 0.5, "overload")
    }
    conn = sqlite3.connect(db)
    try:
        one = query.symbol_at(conn, "src/p/Shape.java", 7)
        assert one is not None and one.kind == "constructor"
        hits, _more = query.references(conn, one)
        assert [(h.path, h.line) for h in hits] == [
            ("src/p/Circle.java", 5),
            ("src/p/Main.java", 6),
            ("src/p/Shape.java", 5),
        ]
        callers = query.callers(conn, one)
        assert [c.symbol and c.symbol.qualified for c in callers] == [
            "Circle.Circle",
            "Main.main",
            "Shape.Shape",
        ]
    finally:
        conn.close()


def test_cls_in_a_classmethod_and_an_inherited_constructor_run_the_bases(repo: Path) -> None:
    # `cls(1)` in a classmethod makes an instance of the class: its `__init__` runs. `Sub(3)`,
    # Sub defining no `__init__`, runs its base's (and `Leaf(4)` below it); `Own(5)` runs
    # Own's own. TypeScript alike: `new Sub(1)` runs Base's `constructor`.
    db = build(
        repo,
        {
            "core.py": (
                "class Base:\n    def __init__(self, a):\n        self.a = a\n\n"
                "    @classmethod\n    def make(cls):\n        return cls(1)\n\n\n"
                "class Sub(Base):\n    def go(self):\n        return 2\n\n\n"
                "class Leaf(Sub):\n    pass\n\n\n"
                "class Own(Base):\n    def __init__(self):\n        super().__init__(0)\n"
            ),
            "app.py": (
                "from core import Base, Leaf, Own, Sub\n\n\ndef use():\n"
                "    return Base(1), Sub(3), Leaf(4), Own()\n"
            ),
            "shapes.ts": (
                "export class Base {\n  constructor(x: number) {}\n}\n"
                "export class Sub extends Base {\n  go(): number { return 1; }\n}\n"
                "export class Own extends Base {\n  constructor() { super(0); }\n}\n"
                "const s = new Sub(1);\nconst o = new Own();\n"
            ),
        },
    )
    assert targets(db, "core.py", 7, "cls") == {("Base", 1)}
    conn = sqlite3.connect(db)
    try:
        init = query.symbol_at(conn, "core.py", 2)
        assert init is not None
        hits, _more = query.references(conn, init)
        calls = {(h.path, h.line, h.name) for h in hits if h.kind == "call"}
        assert calls >= {("core.py", 7, "cls"), ("app.py", 5, "Sub"), ("app.py", 5, "Leaf")}
        assert not any(h.name == "Own" for h in hits)
        assert {c.symbol.qualified for c in query.callers(conn, init) if c.symbol} >= {
            "Base.make",
            "use",
        }
        ts_init = query.symbol_at(conn, "shapes.ts", 2)
        assert ts_init is not None
        ts_hits, _more = query.references(conn, ts_init)
        assert [(h.line, h.name) for h in ts_hits if h.kind == "call"] == [(10, "Sub")]
    finally:
        conn.close()


def test_namesake_classes_of_one_written_type_are_no_union(repo: Path) -> None:
    # `try: from a import W / except ImportError: from b import W`: `w: W` is either W, one
    # name's definitions (as before: 1/their files, via instance), not a union's classes.
    db = build(
        repo,
        {
            "a.py": "class W:\n    def get(self):\n        return 1\n",
            "b.py": "class W:\n    def get(self):\n        return 2\n",
            "app.py": (
                "try:\n    from a import W\nexcept ImportError:\n    from b import W\n\n\n"
                "def use(w: W):\n    return w.get()\n"
            ),
        },
    )
    assert {v for _q, _c, v in vias(db, "app.py", 8, "get")} == {"instance"}


def test_a_function_without_a_written_return_type_returns_what_its_returns_say(
    repo: Path,
) -> None:
    # Django's and yup's factories and fluent methods write no return type: `return Box()`,
    # `return self`, `return cls(...)`, `return self._clone()`, `return x` (a local of a
    # known type) and TypeScript's `return new Box()` / `return this.test()` type the call.
    # Returns that disagree, a return in a nested function, an async function and a
    # constructor say nothing.
    db = build(
        repo,
        {
            "shapes.py": (
                "class Box:\n"
                "    def open(self):\n"
                "        return self\n"
                "\n"
                "    @classmethod\n"
                "    def empty(cls):\n"
                "        return cls()\n"
                "\n"
                "    def _clone(self):\n"
                "        c = self.__class__()\n"
                "        return c\n"
                "\n"
                "    def filter(self):\n"
                "        clone = self._clone()\n"
                "        return clone\n"
                "\n"
                "    def close(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "class Lid:\n"
                "    def close(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "def make():\n"
                "    if make:\n"
                "        return None\n"
                "    return Box()\n"
                "\n"
                "\n"
                "def either(flag):\n"
                "    if flag:\n"
                "        return Box()\n"
                "    return Lid()\n"
                "\n"
                "\n"
                "def outer():\n"
                "    def inner():\n"
                "        return Lid()\n"
                "    return inner\n"
                "\n"
                "\n"
                "async def later():\n"
                "    return Box()\n"
                "\n"
                "\n"
                "def use():\n"
                "    make().open().filter().close()\n"
                "    Box.empty().close()\n"
                "    either(1).close()\n"
                "    outer().close()\n"
                "    later().close()\n"
                "    Crate.empty().close()\n"
                "\n"
                "\n"
                "class Crate(Box):\n"
                "    def close(self):\n"
                "        pass\n"
            ),
            "schema.ts": (
                "export class Schema {\n"
                "  clone(): this { return this; }\n"
                "  test() { return this.clone(); }\n"
                "}\n"
                "export class NumberSchema extends Schema {\n"
                "  min() { return this.test(); }\n"
                "  positive() {}\n"
                "  constructor() { super(); return new Other(); }\n"
                "}\n"
                "export class Other { positive() {} }\n"
                "export function number() { return new NumberSchema(); }\n"
            ),
            "use.ts": (
                "import { number } from './schema';\n"
                "number().min().positive();\n"
                "const n = number();\n"
                "n.min().positive();\n"
            ),
        },
    )
    box = {("Box.close", 1.0, "instance")}
    assert vias(db, "shapes.py", 49, "close") == box  # make -> open -> filter
    assert ("Box.filter", 1.0, "instance") in vias(db, "shapes.py", 49, "filter")
    assert vias(db, "shapes.py", 50, "close") == box  # cls()
    for line in (51, 52, 53):  # disagreeing returns, a nested function's, an async one's
        assert all(c < 1.0 for _q, c, _v in vias(db, "shapes.py", line, "close")), line
    # A subclass's call of the inherited classmethod: `cls` is the subclass.
    assert vias(db, "shapes.py", 54, "close") == {("Crate.close", 1.0, "instance")}
    # `this.test()` returns `this.clone()`, which returns `this`: the receiver's class.
    sure = {("NumberSchema.positive", 1.0, "instance")}
    assert vias(db, "use.ts", 2, "positive") == sure
    assert vias(db, "use.ts", 4, "positive") == sure


def test_a_class_merged_with_its_interface_has_the_family_of_both(repo: Path) -> None:
    # yup: `class Schema implements ISchema` and `interface Schema` are one type; its
    # methods' calls are also references of the interface ISchema's method (the service
    # answers for the family), whichever of the two declarations the members live in.
    db = build(
        repo,
        {
            "types.ts": "export interface ISchema {\n  cast(value: any): any;\n}\n",
            "schema.ts": (
                "import { ISchema } from './types';\n"
                "export default class Schema implements ISchema {\n"
                "  cast(value: any): any { return value; }\n"
                "}\n"
                "export default interface Schema {\n"
                "  label(): Schema;\n"
                "}\n"
                "export function make(): Schema { return new Schema(); }\n"
            ),
            "use.ts": "import { make } from './schema';\nmake().cast(1);\n",
        },
    )
    found = vias(db, "use.ts", 2, "cast")
    assert ("Schema.cast", 1.0, "instance") in found
    assert ("ISchema.cast", 0.5, "family") in found


def test_a_generator_is_not_typed_by_its_return(repo: Path) -> None:
    # Calling a function that yields gives a generator, whatever its `return` says: pytest's
    # and contextlib's `yield` then `return Result()` (a `@contextmanager`'s call is a context
    # manager), a TS class's `*items()`. Its call's members are no method of the returned class.
    db = build(
        repo,
        {
            "gen.py": (
                "import contextlib\n"
                "\n"
                "\n"
                "class Box:\n"
                "    def close(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "class Lid:\n"
                "    def close(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "def boxes():\n"
                "    yield 1\n"
                "    return Box()\n"
                "\n"
                "\n"
                "@contextlib.contextmanager\n"
                "def opened():\n"
                "    yield Lid()\n"
                "    return Box()\n"
                "\n"
                "\n"
                "def made():\n"
                "    def inner():\n"
                "        yield 1\n"
                "    return Box()\n"
                "\n"
                "\n"
                "def use():\n"
                "    boxes().close()\n"
                "    opened().close()\n"
                "    made().close()\n"
            ),
            "gen.ts": (
                "export class Box { close() {} }\n"
                "export class Lid { close() {} }\n"
                "export class Shelf {\n"
                "  *items() { yield 1; return new Box(); }\n"
                "}\n"
                "new Shelf().items().close();\n"
            ),
        },
    )
    for line in (32, 33):
        assert all(c < 1.0 for _q, c, _v in vias(db, "gen.py", line, "close")), line
    # A `yield` in a nested function is not the outer one's.
    assert vias(db, "gen.py", 34, "close") == {("Box.close", 1.0, "instance")}
    assert all(c < 1.0 for _q, c, _v in vias(db, "gen.ts", 6, "close"))


def test_a_returned_call_of_a_parameter_is_not_the_module_class_of_its_name(repo: Path) -> None:
    # `def build(Model): return Model()` and React-style `function mount(Component) { return
    # new Component(); }`: the parameter (or a local rebound to another class) is called, not
    # the module's class of that name; the call's type is not known.
    db = build(
        repo,
        {
            "make.py": (
                "class Model:\n"
                "    def save(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "class Draft:\n"
                "    def save(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "def build(Model):\n"
                "    return Model()\n"
                "\n"
                "\n"
                "def rebound():\n"
                "    Model = Draft\n"
                "    return Model()\n"
                "\n"
                "\n"
                "def use():\n"
                "    build(Draft).save()\n"
                "    rebound().save()\n"
            ),
            "mount.ts": (
                "export class Component { render() {} }\n"
                "export class Page { render() {} }\n"
                "export function mount(Component: any) { return new Component(); }\n"
                "mount(Page).render();\n"
            ),
        },
    )
    for line in (21, 22):
        assert all(c < 1.0 for _q, c, _v in vias(db, "make.py", line, "save")), line
    assert all(c < 1.0 for _q, c, _v in vias(db, "mount.ts", 4, "render"))


def test_a_static_method_returning_this_returns_its_class_not_an_instance(repo: Path) -> None:
    # Sequelize-style `static init() { ...; return this; }`: `this` in a static method is the
    # class, so `Model.init().save()` is no call of the instance method `save`; `return new
    # this()` is an instance (of the receiver's class).
    db = build(
        repo,
        {
            "model.ts": (
                "export class Model {\n"
                "  static init() { return this; }\n"
                "  static either(f: boolean) { if (f) { return this; } return new Model(); }\n"
                "  static create() { return new this(); }\n"
                "  save() {}\n"
                "}\n"
                "export class Draft { save() {} }\n"
                "Model.init().save();\n"
                "Model.either(true).save();\n"
                "Model.create().save();\n"
            ),
        },
    )
    for line in (8, 9):
        assert all(c < 1.0 for _q, c, _v in vias(db, "model.ts", line, "save")), line
    assert vias(db, "model.ts", 10, "save") == {("Model.save", 1.0, "instance")}


def test_a_returned_cls_call_is_the_receivers_class_only_in_a_classmethod(repo: Path) -> None:
    # `cls = registry[kind]; return cls()` in a plain method makes whatever class the registry
    # holds, not the receiver's; a classmethod's `return cls()` is the receiver's class.
    db = build(
        repo,
        {
            "forms.py": (
                "class Form:\n"
                "    def save(self):\n"
                "        pass\n"
                "\n"
                "\n"
                "class Widget:\n"
                "    def save(self):\n"
                "        pass\n"
                "\n"
                "    def build(self, registry):\n"
                '        cls = registry["form"]\n'
                "        return cls()\n"
                "\n"
                "    def build_kept(self, registry):\n"
                '        cls = registry["form"]\n'
                "        made = cls()\n"
                "        return made\n"
                "\n"
                "    @classmethod\n"
                "    def make(cls):\n"
                "        return cls()\n"
                "\n"
                "\n"
                "def use(registry):\n"
                "    Widget().build(registry).save()\n"
                "    Widget().build_kept(registry).save()\n"
                "    Widget.make().save()\n"
            ),
        },
    )
    for line in (25, 26):
        assert all(c < 1.0 for _q, c, _v in vias(db, "forms.py", line, "save")), line
    assert vias(db, "forms.py", 27, "save") == {("Widget.save", 1.0, "instance")}


def test_this_and_super_only_where_they_are_the_class_instance_and_its_base(repo: Path) -> None:
    # `const x = this` and `(c ? this : this)` are the class's instance in its methods (and
    # arrows there), not in a nested `function` (its own `this`), a static method (the class
    # itself: `go` is no static of A) nor an object literal's method (the literal). `super.go`
    # in an object literal's method is the literal's prototype's, in a Java anonymous class
    # the created type's: not the enclosing class's base.
    db = build(
        repo,
        {
            "a.ts": (
                "class A {\n"
                "  go(): void {}\n"
                "  run(c: boolean): object {\n"
                "    const f = function () { const x = this; x.go(); };\n"
                "    const g = () => { const y = this; y.go(); };\n"
                "    const h = function () { (c ? this : this).go(); };\n"
                "    return { go() {}, m() { const s = this; s.go(); } };\n"
                "  }\n"
                "  static make(): void { const z = this; z.go(); }\n"
                "}\n"
                "class B extends A { run(): object { return { go() { super.go(); } }; } }\n"
                "class D extends A { go(): void { super.go(); } }\n"
            ),
            "B.java": (
                "class Base { void go() {} }\n"
                "class B extends Base {\n"
                "  void go() {}\n"
                "  void run() {\n"
                "    Object o = new Object() { void f() { super.go(); } };\n"
                "    super.go();\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    for line in (4, 6, 7, 9, 11):
        assert ("A.go", 1.0) not in {(q, c) for q, c, _v in vias(db, "a.ts", line, "go")}, line
    assert ("A.go", 1.0, "instance") in vias(db, "a.ts", 5, "go")  # (D's: its family)
    assert vias(db, "a.ts", 12, "go") == {("A.go", 1.0, "super")}
    assert all(v != "super" for _q, _c, v in vias(db, "B.java", 5, "go"))
    assert vias(db, "B.java", 6, "go") == {("Base.go", 1.0, "super")}


def test_plain_this_member_is_the_class_only_where_this_is_its_instance(repo: Path) -> None:
    # yup's `createValidation({ test(value) { this.resolve(x) } })` in a Schema method: the
    # literal's `this` (a TestContext by the option's type), not the Schema. `this.m()` is the
    # class's `m` in its methods, arrows there and static methods (the class: its static `m`);
    # in a nested `function` or an object literal's method it is no link to the class at 1.0;
    # a function's written `this: T` parameter says what `this` is (mobx's
    # `function make_(this: Annotation, ...)`), also in a call chain's head.
    db = build(
        repo,
        {
            "a.ts": (
                "class Ctx { resolve(): Ctx { return this; } go(): void {} }\n"
                "class A {\n"
                "  resolve(): A { return this; }\n"
                "  go(): void {}\n"
                "  static make(): void { this.make(); }\n"
                "  run(): object {\n"
                "    const g = () => { this.go(); };\n"
                "    const f = function () { this.go(); };\n"
                "    const t = function (this: Ctx) { this.go(); this.resolve().go(); };\n"
                "    return { m() { this.resolve(); }, n(this: Ctx) { this.go(); } };\n"
                "  }\n"
                "}\n"
                "function top(this: Ctx, n: number) { this.go(); }\n"
                "function loose<T>(this: T) { this.go(); }\n"
                "class B { go(): void {} run(this: Ctx): void { this.go(); } }\n"
            ),
        },
    )
    assert vias(db, "a.ts", 15, "go") == {("Ctx.go", 1.0, "instance")}  # `run(this: Ctx)`
    assert vias(db, "a.ts", 5, "make") == {("A.make", 1.0, "self")}
    assert vias(db, "a.ts", 7, "go") == {("A.go", 1.0, "self")}
    for line, name in ((8, "go"), (10, "resolve"), (14, "go")):
        assert all(c < 1.0 for _q, c, _v in vias(db, "a.ts", line, name)), line
    for line in (9, 10, 13):
        assert vias(db, "a.ts", line, "go") == {("Ctx.go", 1.0, "instance")}, line
    # (line 9's second `go`: the chain `this.resolve().go()` read from `this: Ctx`)
    assert vias(db, "a.ts", 9, "resolve") == {("Ctx.resolve", 1.0, "instance")}


def test_this_in_an_object_literal_or_a_java_anonymous_class_is_its_own(repo: Path) -> None:
    # mobx's `const arrayExtensions = { splice() {...}, replace() { this.splice() } }`: the
    # literal's own splice (TypeScript types `this` as the literal). Under a written type
    # (zod's `return {...}` in a function returning `_LazyMethodsOf<ZodType>`) `this` is that
    # type, not the literal: no own link. A Java anonymous class's `this.go()` and `go()` are
    # its own go, not the enclosing class's; a lambda's `this` stays the enclosing class's.
    db = build(
        repo,
        {
            "a.ts": (
                "class K { splice(): void {} }\n"
                "const ext = {\n"
                "  splice(): void {},\n"
                "  replace(): void { this.splice(); },\n"
                "};\n"
                "interface Shape { splice(): void }\n"
                "function typed(): Shape {\n"
                "  return { splice(): void {}, go(): void { this.splice(); } };\n"
                "}\n"
            ),
            "A.java": (
                "package p;\n\n"
                "class A {\n"
                "    void go() {}\n"
                "    void run() {\n"
                "        Runnable r = new Runnable() {\n"
                "            public void run() { this.go(); go(); }\n"
                "            void go() {}\n"
                "        };\n"
                "        Runnable q = () -> { this.go(); };\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "a.ts", 4, "splice") == {("ext.splice", 1.0, "local")}
    assert all(q != "typed.splice" and v == "member" for q, _c, v in vias(db, "a.ts", 8, "splice"))
    assert targets(db, "A.java", 7, "go") == {("A.run.go", 8)}
    assert targets(db, "A.java", 10, "go") == {("A.go", 4)}


def test_an_object_literals_own_member_is_not_one_a_later_spread_may_replace(
    repo: Path,
) -> None:
    # `{ go() {}, ...base, run() { this.go() } }`: base's go, when it has one, replaces the
    # literal's (a later key wins): no sure link to it. Spread first, the own go is the go.
    db = build(
        repo,
        {
            "a.ts": (
                "declare const base: object;\n"
                "const f = { go() {}, ...base, run() { this.go(); } };\n"
                "const g = { ...base, go() {}, run() { this.go(); } };\n"
            ),
        },
    )
    assert ("f.go", 1.0, "local") not in vias(db, "a.ts", 2, "go")
    assert vias(db, "a.ts", 3, "go") == {("g.go", 1.0, "local")}


def test_a_java_anonymous_class_nested_in_one_a_static_block_or_an_enum_constant(
    repo: Path,
) -> None:
    # `go()` in an anonymous class inside another: the outer one's own go when the inner one
    # declares none (not the named class's); one in a static block (its methods are the
    # class's members in the index) has its own go; an enum constant's body `A { ... }` is an
    # anonymous class of the enum's type: its `help()` / `this.help()` its own help, and
    # `this.other()` the enum's.
    db = build(
        repo,
        {
            "p/A.java": (
                "package p;\n\n"
                "class A {\n"
                "    void go() {}\n"
                "    static Runnable s;\n"
                "    static {\n"
                "        s = new Runnable() {\n"
                "            public void run() { go(); }\n"
                "            void go() {}\n"
                "        };\n"
                "    }\n"
                "    void m() {\n"
                "        Runnable r = new Runnable() {\n"
                "            public void run() {\n"
                "                Runnable in = new Runnable() {\n"
                "                    public void run() { go(); }\n"
                "                };\n"
                "            }\n"
                "            void go() {}\n"
                "        };\n"
                "    }\n"
                "}\n"
            ),
            "p/E.java": (
                "package p;\n\n"
                "enum E {\n"
                "    A { void go() { help(); this.help(); this.other(); } void help() {} },\n"
                "    B;\n"
                "    void help() {}\n"
                "    void other() {}\n"
                "}\n"
            ),
        },
    )
    assert targets(db, "p/A.java", 8, "go") == {("A.go", 9)}
    assert targets(db, "p/A.java", 16, "go") == {("A.m.go", 19)}
    assert vias(db, "p/E.java", 4, "help") == {("E.A.help", 1.0, "local")}
    assert vias(db, "p/E.java", 4, "other") == {("E.other", 1.0, "instance")}


def test_a_receiver_cast_with_as_is_of_the_type_written(repo: Path) -> None:
    # yup's `(field as ISchema<any>).cast(v)` and zod's `(payload as $RefinementCtx).addIssue`:
    # the member of the type written (generic arguments dropped); `as any` and a type
    # parameter say nothing; `(s as string).includes()` is the language's string's, no guess
    # among the repository's `includes`; an indexed access `as Box['inner']` is not a Box,
    # an array `as Box[]` not one. In a .tsx file too.
    source = (
        "export interface ISchema<T> { cast(v: unknown): T }\n"
        "export class Other { cast(v: unknown): number { return 1; } }\n"
        "export class Str { includes(x: string): boolean { return true; } }\n"
        "export function f(field: unknown, s: unknown) {\n"
        "  (field as ISchema<any>).cast(1);\n"
        "  (field as any).cast(2);\n"
        "  (s as string).includes('x');\n"
        "}\n"
        "export function g<T>(x: unknown) { (x as T).cast(3); }\n"
        "export class Box { inner!: Other; cast(v: unknown): number { return 0; } }\n"
        "export function h(x: unknown) {\n"
        "  (x as Box['inner']).cast(4);\n"
        "  (x as Box['inner'] | undefined).cast(5);\n"
        "  (x as Box[]).cast(6);\n"
        "}\n"
    )
    db = build(repo, {"a.ts": source, "b.tsx": source})
    for path in ("a.ts", "b.tsx"):
        assert vias(db, path, 5, "cast") == {("ISchema.cast", 1.0, "instance")}, path
        assert all(c < 1.0 for _q, c, _v in vias(db, path, 6, "cast")), path
        assert vias(db, path, 7, "includes") == set(), path
        assert all(c < 1.0 for _q, c, _v in vias(db, path, 9, "cast")), path
        # `Box['inner']` is the type of Box's inner (an Other), not a Box
        for line in (12, 13, 14):
            assert ("Box.cast", 1.0, "instance") not in vias(db, path, line, "cast"), line


def test_a_typescript_indexed_access_type_is_no_instance_of_its_object_type(repo: Path) -> None:
    # `a: Options['parser']` is the type of Options' `parser` property, not an Options: its
    # `a.parse()` is no sure link to `Options.parse` (a parameter, a local, a class field).
    db = build(
        repo,
        {
            "c.ts": (
                "interface Options { parser: Parser; parse(): void }\n"
                "class Parser { parse(): void {} }\n"
                "function f(a: Options['parser'], b: Options) {\n"
                "  a.parse();\n"
                "  b.parse();\n"
                "}\n"
                "class K {\n"
                "  opt: Options['parser'] = new Parser();\n"
                "  run(): void { this.opt.parse(); }\n"
                "}\n"
            ),
        },
    )
    assert vias(db, "c.ts", 5, "parse") == {("Options.parse", 1.0, "instance")}
    for line in (4, 9):
        assert ("Options.parse", 1.0) not in {
            (q, c) for q, c, _v in vias(db, "c.ts", line, "parse")
        }


def test_super_call_returning_this_is_the_subclass_instance(repo: Path) -> None:
    # `super.clone()` where A's clone returns `this`: TypeScript gives the caller's `this`
    # (a B), so `next.go()` is B's go, not A's. `new B().clone()` (what any clone returns:
    # A's `this` or B's) is no overload set: TS's first-overload choice (A) does not apply.
    db = build(
        repo,
        {
            "a.ts": (
                "class A {\n"
                "  clone() { return this; }\n"
                "  go(): void {}\n"
                "}\n"
                "class B extends A {\n"
                "  go(): void {}\n"
                "  clone() { const next = super.clone(); next.go(); return next; }\n"
                "  run() { super.clone().go(); }\n"
                "}\n"
                "new B().clone().go();\n"
            ),
        },
    )
    for line in (7, 8):
        assert ("B.go", 1.0, "instance") in vias(db, "a.ts", line, "go"), line
        assert ("A.go", 1.0, "instance") not in vias(db, "a.ts", line, "go"), line
    assert all(c < 1.0 for _q, c, _v in vias(db, "a.ts", 10, "go"))


def test_tsconfig_paths_lead_bare_specifiers_to_the_repository(repo: Path) -> None:
    # zustand's own tests import `'zustand'` and `'zustand/middleware'`, which its
    # tsconfig.json maps (JSON with comments and a trailing comma, as TypeScript reads it) to
    # ./src/index.ts and ./src/*.ts; no package.json is in a folder named zustand.
    db = build(
        repo,
        {
            "package.json": '{"name": "zustand"}\n',
            "tsconfig.json": (
                '{\n  // the compiler\'s options\n  "compilerOptions": {\n'
                '    "strict": true /* FIXME */,\n'
                '    "paths": {\n'
                '      "zustand": ["./src/index.ts"],\n'
                '      "zustand/*": ["./src/*.ts"],\n'
                "    },\n  },\n}\n"
            ),
            "src/index.ts": "export { create } from './react.ts';\n",
            "src/react.ts": "export function create(): number { return 1; }\n",
            "src/middleware.ts": "export function persist(): number { return 2; }\n",
            "tests/basic.test.ts": (
                "import { create } from 'zustand';\n"
                "import { persist } from 'zustand/middleware';\n"
                "import { render } from 'react';\n"
                "create();\n"
                "persist();\n"
                "render();\n"
            ),
        },
    )
    assert targets(db, "tests/basic.test.ts", 4, "create") == {("create", 1)}
    assert targets(db, "tests/basic.test.ts", 5, "persist") == {("persist", 1)}
    # A package the configuration does not map stays outside.
    assert targets(db, "tests/basic.test.ts", 6, "render") == set()


def test_tsconfig_extends_base_url_and_the_nearest_configuration(repo: Path) -> None:
    # A monorepo: the root's tsconfig.base.json sets `baseUrl` and `@app/*`; the web
    # package's tsconfig.json extends it (the substitutions stay relative to the base's
    # `baseUrl`), and a bare `lib/money` is a path under `baseUrl`. A tool folder's own
    # tsconfig.json, the nearest above its files, maps `@app/*` elsewhere.
    db = build(
        repo,
        {
            "tsconfig.base.json": (
                '{"compilerOptions": {"baseUrl": ".", "paths": {"@app/*": ["packages/*/src"]}}}\n'
            ),
            "packages/web/tsconfig.json": '{"extends": "../../tsconfig.base"}\n',
            "packages/shop/src/index.ts": "export function buy(): number { return 1; }\n",
            "lib/money.ts": "export function cents(): number { return 2; }\n",
            "tools/tsconfig.json": '{"compilerOptions": {"paths": {"@app/*": ["./fake/*"]}}}\n',
            "tools/fake/shop.ts": "export function buy(): number { return 3; }\n",
            "packages/web/main.ts": (
                "import { buy } from '@app/shop';\nimport { cents } from 'lib/money';\n"
                "buy();\ncents();\n"
            ),
            "tools/check.ts": "import { buy } from '@app/shop';\nbuy();\n",
        },
    )
    shop = "packages/shop/src/index.ts"
    assert _where(db, "packages/web/main.ts", 3, "buy") == {(shop, 1)}
    assert targets(db, "packages/web/main.ts", 4, "cents") == {("cents", 1)}
    assert _where(db, "tools/check.ts", 2, "buy") == {("tools/fake/shop.ts", 1)}


def _where(db: Path, path: str, line: int, name: str) -> set[tuple[str, int]]:
    """(path, line) of the definitions the reference ``name`` on ``path:line`` means."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT df.path, d.line FROM edges e "
            "JOIN refs r ON r.id = e.ref_id JOIN files rf ON rf.id = r.file_id "
            "JOIN defs d ON d.id = e.def_id JOIN files df ON df.id = d.file_id "
            "WHERE rf.path = ? AND r.line = ? AND r.name = ?",
            (path, line, name),
        ).fetchall()
    finally:
        conn.close()
    return set(rows)


def test_a_tsconfig_is_read_as_typescript_reads_it() -> None:
    # Comments and trailing commas go; a string holding `//`, `/*` or an escaped quote stays;
    # what cannot be read is nothing, and only local `extends` are kept (a package's cannot
    # be followed in the repository).
    text = (
        '{ "extends": ["@tsconfig/node20", "./base.json"], // a comment\n'
        '  "compilerOptions": { "baseUrl": "src/*/x", /* */ "paths": {\n'
        '    "a\\"//b": ["./c/*"], "two/*/stars/*": ["./d"], }, }, }'
    )
    assert json.loads(summary("tsconfig.json", text)) == {
        "extends": ["./base.json"],
        "baseUrl": "src/*/x",
        "paths": {'a"//b': ["./c/*"]},
    }
    assert summary("tsconfig.json", '{"compilerOptions": {"paths": ') == ""
    assert summary("tsconfig.json", '{"compilerOptions": {"strict": true}}') == ""
    assert summary("go.mod", "// x\nmodule example.com/m\n") == "example.com/m"
    assert is_module_config("a/tsconfig.app.json") and is_module_config("jsconfig.json")
    assert not is_module_config("a/config.json") and not is_module_config("go.sum")
