"""An update of files changed in place re-resolves only the references whose meaning the
change can alter (the other edges into the changed files move to the definitions' new ids),
and still equals a cold build: each skip, and each case that must not be skipped."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from reviewbot.index import build
from reviewbot.index.resolve import Resolver, Row, link_all
from tests.helpers import commit, write
from tests.index.support import dump, update

Edge = tuple[object, ...]


@pytest.fixture
def linked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """(file id, lookup) of every reference the updates resolve."""
    seen: list[tuple[int, str]] = []

    def spy(resolver: Resolver, rows: list[Row], workers: int) -> object:
        seen.extend((r[1], r[5]) for r in rows)
        return link_all(resolver, rows, workers)

    monkeypatch.setattr(build, "link_all", spy)
    return seen


def _update_equals_cold(
    repo: Path, tmp_path: Path, before: dict[str, str], after: dict[str, str]
) -> tuple[list[Edge], list[Edge]]:
    """Index ``before``, commit ``after`` over it and update: the update must equal a cold
    build of ``after``. Returns the edges before and after."""
    for name, text in before.items():
        write(repo, name, text)
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    old = dump(warm)["edges"]
    for name, text in after.items():
        write(repo, name, text)
    commit(repo)
    stats = update(repo, warm)
    indexed = {row[0] for row in dump(warm)["files"] if row[6] is None}
    # only the files of ``after`` read again (those skipped, a tsconfig.json, not counted)
    assert (stats.read, stats.reused) == (len(indexed & set(after)), len(indexed - set(after)))
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)
    return old, dump(warm)["edges"]


CORE = (
    "import os\n\n\ndef connect():\n    return os.sep\n\n\nclass Engine:\n"
    "    @property\n    def speed(self):\n        return 1\n\n    @speed.setter\n"
    "    def speed(self, value):\n        pass\n\n    def start(self):\n        return connect()\n"
)
USE = (
    "from pkg.core import Engine, connect\n\n\nconnect()\n\n\nclass Car(Engine):\n"
    "    def go(self):\n        self.start()\n        return self.speed\n"
)


def test_lines_moved_and_a_function_added_keep_the_other_files_edges(
    repo: Path, tmp_path: Path, linked: list[tuple[int, str]]
) -> None:
    """Definitions pushed down by new lines keep every edge from other files (at their new
    lines, as a cold build has them), and only the changed file's references and those of
    the added name are resolved again; a property's getter and setter (two definitions of
    one key) both keep theirs."""
    files = {"pkg/__init__.py": "", "pkg/core.py": CORE, "use.py": USE}
    edited = "# a comment\n\n\n" + CORE + "\n\ndef added():\n    return 2\n"
    old, new = _update_equals_cold(repo, tmp_path, files, {"pkg/core.py": edited})
    assert ("use.py", 4, 0, "pkg/core.py", 4, "connect", 1.0, "import") in old
    assert ("use.py", 4, 0, "pkg/core.py", 7, "connect", 1.0, "import") in new
    speed = {(e[4], e[6]) for e in new if e[:2] == ("use.py", 10) and e[5] == "speed"}
    assert speed == {(13, 1.0), (17, 1.0)}  # the getter and the setter
    conn = sqlite3.connect(tmp_path / "warm.sqlite")
    core = conn.execute("SELECT id FROM files WHERE path = 'pkg/core.py'").fetchone()[0]
    conn.close()
    again = {(f == core, lookup) for f, lookup in linked}
    assert (True, "connect") in again  # the changed file's own references
    assert {lookup for here, lookup in again if not here} <= {"added"}  # and no other


def test_a_definition_moved_between_files_is_followed(repo: Path, tmp_path: Path) -> None:
    """`helper` and the method `run` move from one module to another (neither module's
    imports change): the package's star re-exports and an `obj.run()` guess follow."""
    files = {
        "pkg/__init__.py": "from .x import *\nfrom .y import *\n",
        "pkg/x.py": "def helper():\n    pass\n\n\nclass K:\n    def run(self):\n        pass\n",
        "pkg/y.py": "def other():\n    pass\n\n\nclass L:\n    def stop(self):\n        pass\n",
        "app.py": "import pkg\nfrom pkg import helper\n\nhelper()\n\n\ndef go(obj):\n"
        "    return obj.run()\n",
    }
    after = {
        "pkg/x.py": "class K:\n    def stop(self):\n        pass\n",
        "pkg/y.py": "def other():\n    pass\n\n\ndef helper():\n    pass\n\n\n"
        "class L:\n    def run(self):\n        pass\n",
    }
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("app.py", 4, 0, "pkg/x.py", 1, "helper", 1.0, "import") in old
    assert ("app.py", 4, 0, "pkg/y.py", 5, "helper", 1.0, "import") in new
    assert ("app.py", 8, 15, "pkg/y.py", 10, "run", 1.0, "member") in new


def test_a_name_added_that_shadows_an_import_is_followed(repo: Path, tmp_path: Path) -> None:
    """The package defines `thing` after importing it (its imports unchanged): who imports
    `thing` from the package now means the package's own; a return type written with the
    shadowed name in the changed file follows too."""
    files = {
        "pkg/__init__.py": (
            "from .a import thing, Part\n\n\ndef make() -> Part:\n    return Part()\n"
        ),
        "pkg/a.py": "def thing():\n    pass\n\n\nclass Part:\n    def spin(self):\n        pass\n",
        "app.py": "from pkg import thing, make\n\nthing()\nx = make()\nx.spin()\n",
    }
    after = {
        "pkg/__init__.py": files["pkg/__init__.py"] + "\n\ndef thing():\n    return 1\n\n\n"
        "def Part():\n    return 2\n",
    }
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("app.py", 3, 0, "pkg/a.py", 1, "thing", 1.0, "import") in old
    assert ("app.py", 3, 0, "pkg/__init__.py", 8, "thing", 1.0, "import") in new
    assert ("app.py", 5, 2, "pkg/a.py", 6, "spin", 1.0, "instance") in old
    assert ("app.py", 5, 2, "pkg/a.py", 6, "spin", 1.0, "member") in new  # no longer typed


def test_a_method_added_to_a_base_class_is_followed_by_its_heirs(
    repo: Path, tmp_path: Path
) -> None:
    """`self.m()` in an unchanged subclass, and a typed `x.m()`, move from the grandparent's
    `m` to the one the changed base class now defines."""
    files = {
        "base.py": "class A:\n    def m(self):\n        pass\n",
        "mid.py": "from base import A\n\n\nclass B(A):\n    pass\n",
        "use.py": "from mid import B\n\n\nclass C(B):\n    def go(self):\n        return self.m()\n"
        "\n\nx = C()\nx.m()\n",
    }
    after = {"mid.py": "from base import A\n\n\nclass B(A):\n    def m(self):\n        return 1\n"}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 6, 20, "base.py", 2, "m", 1.0, "self") in old
    assert ("use.py", 6, 20, "mid.py", 5, "m", 1.0, "self") in new
    assert ("use.py", 10, 2, "mid.py", 5, "m", 1.0, "instance") in new


def test_a_class_whose_base_changed_in_the_same_file_is_followed(
    repo: Path, tmp_path: Path
) -> None:
    files = {
        "core.py": "class A:\n    def spin(self):\n        pass\n\n\nclass B:\n"
        "    def spin(self):\n        pass\n\n\nclass Engine(A):\n    pass\n",
        "use.py": "from core import Engine\n\n\nclass Car(Engine):\n    def go(self):\n"
        "        return self.spin()\n\n\nEngine.spin(None)\n",
    }
    after = {"core.py": files["core.py"].replace("Engine(A)", "Engine(B)")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 6, 20, "core.py", 2, "spin", 1.0, "self") in old
    assert ("use.py", 6, 20, "core.py", 7, "spin", 1.0, "self") in new
    assert ("use.py", 9, 7, "core.py", 2, "spin", 1.0, "import") in old
    assert ("use.py", 9, 7, "core.py", 7, "spin", 1.0, "import") in new


def test_a_guess_whose_candidates_grow_is_resolved_again(repo: Path, tmp_path: Path) -> None:
    """`obj.close()` nobody can type: a second class that the file reaches gains `close`,
    so the guess splits its confidence between the two."""
    files = {
        "a.py": "class A:\n    def close(self):\n        pass\n",
        "b.py": "class B:\n    def open(self):\n        pass\n",
        "use.py": "import a\nimport b\n\n\ndef go(obj):\n    obj.close()\n",
    }
    after = {
        "b.py": "class B:\n    def open(self):\n        pass\n\n    def close(self):\n"
        "        pass\n"
    }
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 6, 8, "a.py", 2, "close", 1.0, "member") in old
    assert ("use.py", 6, 8, "a.py", 2, "close", 0.5, "member") in new
    assert ("use.py", 6, 8, "b.py", 5, "close", 0.5, "member") in new


def test_a_capitalised_function_whose_return_type_changed_is_followed(
    repo: Path, tmp_path: Path
) -> None:
    """`x = Make(); x.spin()` with Make a function: what it returns now decides."""
    made = "from a import A\nfrom b import B\n\n\ndef Make() -> {}:\n    return {}()\n"
    files = {
        "a.py": "class A:\n    def spin(self):\n        pass\n",
        "b.py": "class B:\n    def spin(self):\n        pass\n",
        "make.py": made.format("A", "A"),
        "use.py": "from make import Make\n\nx = Make()\nx.spin()\n",
    }
    old, new = _update_equals_cold(repo, tmp_path, files, {"make.py": made.format("B", "B")})
    assert ("use.py", 4, 2, "a.py", 2, "spin", 1.0, "instance") in old
    assert ("use.py", 4, 2, "b.py", 2, "spin", 1.0, "instance") in new


def test_a_class_whose_base_changed_is_followed_through_what_returns_it(
    repo: Path, tmp_path: Path
) -> None:
    """`x = Engine.create(); x.spin()`: `create` returns `Self`, so the change of Engine's
    base (no name the update sees in `create`) still moves the edge."""
    core = (
        "from typing import Self\n\n\nclass A:\n    def spin(self):\n        pass\n\n\n"
        "class B:\n    def spin(self):\n        pass\n\n\nclass Engine(A):\n    @classmethod\n"
        "    def create(cls) -> Self:\n        return cls()\n"
    )
    files = {
        "core.py": core,
        "use.py": "from core import Engine\n\nx = Engine.create()\nx.spin()\n",
    }
    after = {"core.py": core.replace("Engine(A)", "Engine(B)")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 4, 2, "core.py", 5, "spin", 1.0, "instance") in old
    assert ("use.py", 4, 2, "core.py", 10, "spin", 1.0, "instance") in new


def test_an_import_added_from_a_module_already_imported_re_exports_its_name(
    repo: Path, tmp_path: Path, linked: list[tuple[int, str]]
) -> None:
    """The package also imports `other` from the module it already imports from (so it
    reaches the same files): who imports `other` through the package now means it, and
    nothing else outside the package is resolved again."""
    files = {
        "pkg/__init__.py": "from .a import thing\n",
        "pkg/a.py": "def thing():\n    pass\n\n\ndef other():\n    pass\n",
        "app.py": "from pkg import thing, other\n\nthing()\nother()\n",
    }
    after = {"pkg/__init__.py": "import os\nfrom .a import thing, other\n"}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert not any(e[:2] == ("app.py", 4) for e in old)
    assert ("app.py", 4, 0, "pkg/a.py", 5, "other", 1.0, "import") in new
    assert ("app.py", 3, 0, "pkg/a.py", 1, "thing", 1.0, "import") in new
    conn = sqlite3.connect(tmp_path / "warm.sqlite")
    init = conn.execute("SELECT id FROM files WHERE path = 'pkg/__init__.py'").fetchone()[0]
    conn.close()
    assert {lookup for f, lookup in linked if f != init} == {"other"}


@pytest.mark.parametrize("more", ["", "\n\nclass K:\n    pass\n"])
def test_an_import_of_another_file_changes_the_guesses_of_code_reaching_it(
    repo: Path, tmp_path: Path, more: str
) -> None:
    """`obj.close()` in a file that imports only `x`: once `x` imports `b` too, b's `close`
    is within reach and shares the guess (the update used to miss it), whether or not `x`
    also added a class (which makes all its names count as changed)."""
    files = {
        "a.py": "class A:\n    def close(self):\n        pass\n",
        "b.py": "class B:\n    def close(self):\n        pass\n",
        "x.py": "import a\n",
        "use.py": "import x\n\n\ndef go(obj):\n    obj.close()\n",
    }
    after = {"x.py": "import a\nimport b\n" + more}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 5, 8, "a.py", 2, "close", 1.0, "member") in old
    assert ("use.py", 5, 8, "a.py", 2, "close", 0.5, "member") in new
    assert ("use.py", 5, 8, "b.py", 2, "close", 0.5, "member") in new


def test_an_import_closure_walked_from_one_file_equals_the_one_worked_out_for_all(
    repo: Path, tmp_path: Path
) -> None:
    """An update works out the closures of the files it meets one by one: the same sets as
    the cold build's passes over every file, import cycles and package `__init__`s included."""
    files = {
        "pkg/__init__.py": "from .a import one\n",
        "pkg/a.py": "from . import b\n\n\ndef one():\n    pass\n",
        "pkg/b.py": "from .c import three\n",
        "pkg/c.py": "from pkg.a import one\n\n\ndef three():\n    pass\n",  # a cycle a-b-c
        "app.py": "import pkg\n",
        "lone.py": "import os\n",
    }
    for name, text in files.items():
        write(repo, name, text)
    commit(repo)
    database = tmp_path / "index.sqlite"
    update(repo, database)
    conn = sqlite3.connect(database)
    try:
        every = Resolver(conn)._closures()
        each = Resolver(conn, lazy=True)
        assert {f: each.reach(f) for f in every} == every
        ids = dict(conn.execute("SELECT path, id FROM files"))
    finally:
        conn.close()
    bits = {path: 1 << (sorted(every).index(file_id) + 1) for path, file_id in ids.items()}
    expected = sum(bits[p] for p in ("app.py", "pkg/__init__.py", "pkg/a.py", "pkg/b.py"))
    assert every[ids["app.py"]] == expected + bits["pkg/c.py"]
    assert every[ids["lone.py"]] == bits["lone.py"]


@pytest.mark.parametrize(
    ("changed", "before", "after"),
    [
        ("state.ts", "copy_: Alias", "copy_: B"),  # the property's written type
        ("alias.ts", "type Alias = A", "type Alias = B"),  # the alias the property names
    ],
)
def test_a_property_whose_type_changed_is_followed(
    repo: Path, tmp_path: Path, changed: str, before: str, after: str
) -> None:
    """`state.copy_.spin()` with `state: State`: what State's `copy_` is declared with, and
    what that alias names, decide (neither change is in use.ts)."""
    files = {
        "classes.ts": "export class A { spin(): void {} }\nexport class B { spin(): void {} }\n",
        "alias.ts": "import {A, B} from './classes'\nexport type Alias = A\n",
        "state.ts": (
            "import {Alias} from './alias'\nimport {B} from './classes'\n"
            "export interface State { copy_: Alias }\n"
        ),
        "use.ts": (
            "import {State} from './state'\n"
            "export function go(state: State) {\n  state.copy_.spin()\n}\n"
        ),
    }
    edited = {changed: files[changed].replace(before, after)}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("use.ts", 3, 14, "classes.ts", 1, "spin", 1.0, "instance") in old
    assert ("use.ts", 3, 14, "classes.ts", 2, "spin", 1.0, "instance") in new


def test_a_property_of_this_follows_a_base_that_changed_elsewhere(
    repo: Path, tmp_path: Path
) -> None:
    """`this.store.spin()` in Child (use.ts) extending Base (base.ts): Base's base changes
    from A to B, which declare `store` with other types; nothing in use.ts changes."""
    base = "import {A, B} from './holders'\nexport class Base extends A {}\n"
    files = {
        "classes.ts": "export class S { spin(): void {} }\nexport class T { spin(): void {} }\n",
        "holders.ts": (
            "import {S, T} from './classes'\n"
            "export class A { store: S = new S() }\n"
            "export class B { store: T = new T() }\n"
        ),
        "base.ts": base,
        "use.ts": (
            "import {Base} from './base'\n"
            "export class Child extends Base {\n  go() {\n    this.store.spin()\n  }\n}\n"
        ),
    }
    after = {"base.ts": base.replace("Base extends A", "Base extends B")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.ts", 4, 15, "classes.ts", 1, "spin", 1.0, "instance") in old
    assert ("use.ts", 4, 15, "classes.ts", 2, "spin", 1.0, "instance") in new


@pytest.mark.parametrize(
    ("changed", "before", "after"),
    [
        ("state.py", "-> A:", "-> B:"),  # a Python property's return annotation
        ("state.py", "holder: A", "holder: B"),  # a class-level annotation
    ],
)
def test_a_python_property_whose_type_changed_is_followed(
    repo: Path, tmp_path: Path, changed: str, before: str, after: str
) -> None:
    """`state.copy.spin()` and `state.holder.spin()` with `state: State`: what State's
    getter returns and its field is annotated with decide (use.py does not change)."""
    files = {
        "classes.py": (
            "class A:\n    def spin(self) -> None:\n        pass\n\n\n"
            "class B:\n    def spin(self) -> None:\n        pass\n"
        ),
        "state.py": (
            "from classes import A, B\n\n\nclass State:\n    holder: A\n\n"
            "    @property\n    def copy(self) -> A:\n        return A()\n"
        ),
        "use.py": (
            "from state import State\n\n\ndef go(state: State) -> None:\n"
            "    state.copy.spin()\n    state.holder.spin()\n"
        ),
    }
    edited = {changed: files[changed].replace(before, after)}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    line = 5 if "->" in before else 6  # the use of the changed declaration
    column = files["use.py"].split("\n")[line - 1].index("spin")
    assert ("use.py", line, column, "classes.py", 2, "spin", 1.0, "instance") in old
    assert ("use.py", line, column, "classes.py", 7, "spin", 1.0, "instance") in new


def test_a_python_property_follows_its_types_base_that_changed_elsewhere(
    repo: Path, tmp_path: Path
) -> None:
    """`state.copy.spin()`, State's getter `copy -> A`: A's base changes from B1 to B2 (in
    classes.py; neither `spin` nor State nor use.py changes)."""
    classes = "from bases import B1, B2\n\n\nclass A(B1):\n    pass\n"
    files = {
        "bases.py": (
            "class B1:\n    def spin(self) -> None:\n        pass\n\n\n"
            "class B2:\n    def spin(self) -> None:\n        pass\n"
        ),
        "classes.py": classes,
        "state.py": (
            "from classes import A\n\n\nclass State:\n"
            "    @property\n    def copy(self) -> A:\n        return A()\n"
        ),
        "use.py": (
            "from state import State\n\n\ndef go(state: State) -> None:\n    state.copy.spin()\n"
        ),
    }
    after = {"classes.py": classes.replace("A(B1)", "A(B2)")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 5, 15, "bases.py", 2, "spin", 1.0, "instance") in old
    assert ("use.py", 5, 15, "bases.py", 7, "spin", 1.0, "instance") in new


def test_what_a_loop_over_a_calls_result_binds_follows_its_annotation(
    repo: Path, tmp_path: Path
) -> None:
    """`for item in box.items(): item.spin()`: `items -> list[A]` becomes `list[B]` in
    box.py (use.py does not change)."""
    box = (
        "from classes import A, B\n\n\n"
        "class Box:\n    def items(self) -> list[A]:\n        return []\n"
    )
    files = {
        "classes.py": (
            "class A:\n    def spin(self) -> None:\n        pass\n\n\n"
            "class B:\n    def spin(self) -> None:\n        pass\n"
        ),
        "box.py": box,
        "use.py": (
            "from box import Box\n\n\ndef go(box: Box) -> None:\n"
            "    for item in box.items():\n        item.spin()\n"
        ),
    }
    after = {"box.py": box.replace("list[A]", "list[B]")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.py", 6, 13, "classes.py", 2, "spin", 1.0, "instance") in old
    assert ("use.py", 6, 13, "classes.py", 7, "spin", 1.0, "instance") in new


@pytest.mark.parametrize(
    ("changed", "before", "after"),
    [
        ("by.ts", "options: Options", "options: Other"),  # the callee's parameter type
        ("options.ts", "checker: A | Function", "checker: B | Function"),  # a key's type
        ("alias.ts", "type Alias = A", "type Alias = B"),  # what a key's type names
        ("options.ts", "export interface Other {", "export interface Other extends A {"),
    ],
)
def test_a_key_of_a_literal_argument_follows_the_types_it_is_read_through(
    repo: Path, tmp_path: Path, changed: str, before: str, after: str
) -> None:
    """`checkBy({checker: {spin: ...}})`: what checkBy's parameter, its type's `checker`, and
    the types named there declare decide what `spin` means (none of it changes in use.ts)."""
    files = {
        "classes.ts": (
            "export interface A { spin?(): void }\nexport interface B { spin?(): void }\n"
        ),
        "alias.ts": "import {A, B} from './classes'\nexport type Alias = A\n",
        "options.ts": (
            "import {A, B} from './classes'\nimport {Alias} from './alias'\n"
            "export interface Options { checker: A | Function; alias: Alias }\n"
            "export interface Other { checker: B }\n"
        ),
        "by.ts": (
            "import {Options, Other} from './options'\n"
            "export function checkBy(options: Options): void {}\n"
        ),
        "use.ts": (
            "import {checkBy} from './by'\n"
            "checkBy({checker: {spin: () => 1}, alias: {spin: () => 2}})\n"
        ),
    }
    edited = {changed: files[changed].replace(before, after)}
    assert edited[changed] != files[changed]
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    a_spin = [e for e in old if e[:2] == ("use.ts", 2) and e[3:6] == ("classes.ts", 1, "spin")]
    assert len(a_spin) == 2  # `checker: {spin}` and `alias: {spin}`, both A's
    assert new != old


def test_an_export_list_renamed_is_followed_by_its_importers(repo: Path, tmp_path: Path) -> None:
    """`export { g as h }` changed to export another function as h: use.ts's `h()` follows."""
    files = {
        "a.ts": "export function f(): void {}\nexport function k(): void {}\n",
        "b.ts": "import { f as g, k } from './a';\nexport { g as h };\n",
        "use.ts": "import { h } from './b';\nh();\n",
    }
    edited = {"b.ts": files["b.ts"].replace("g as h", "k as h")}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("use.ts", 2, 0, "a.ts", 1, "f", 1.0, "import") in old
    assert ("use.ts", 2, 0, "a.ts", 2, "k", 1.0, "import") in new


def test_a_call_chain_follows_a_return_type_changed_along_it(repo: Path, tmp_path: Path) -> None:
    """`make().child().spin()`: `child`'s written return type decides what `spin` means."""
    files = {
        "classes.ts": (
            "export class A { spin(): void {} }\nexport class B { spin(): void {} }\n"
            "export class Node { child(): A { return new A(); } }\n"
        ),
        "make.ts": (
            "import { Node } from './classes';\n"
            "export function make(): Node { return new Node(); }\n"
        ),
        "use.ts": "import { make } from './make';\nmake().child().spin();\n",
    }
    edited = {
        "classes.ts": files["classes.ts"].replace(
            "child(): A { return new A(); }", "child(): B { return new B(); }"
        )
    }
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("use.ts", 2, 15, "classes.ts", 1, "spin", 1.0, "instance") in old
    assert ("use.ts", 2, 15, "classes.ts", 2, "spin", 1.0, "instance") in new


def test_a_chain_follows_an_interface_merged_with_its_class(repo: Path, tmp_path: Path) -> None:
    """`string().required().spin()` with `required` typed only by the interface merged with
    the class: the interface's return type changed (another file's class), and a local bound
    to the chain, follow it."""
    files = {
        "classes.ts": "export class A { spin(): void {} }\nexport class B { spin(): void {} }\n",
        "schema.ts": (
            "import { A, B } from './classes';\n"
            "export default class S {\n  required() { return new A(); }\n}\n"
            "export default interface S {\n  required(): A;\n}\n"
            "export function string(): S { return new S(); }\n"
        ),
        "use.ts": (
            "import { string } from './schema';\nstring().required().spin();\n"
            "const v = string().required();\nv.spin();\n"
        ),
    }
    edited = {"schema.ts": files["schema.ts"].replace("required(): A;", "required(): B;")}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("use.ts", 2, 20, "classes.ts", 1, "spin", 1.0, "instance") in old
    assert ("use.ts", 2, 20, "classes.ts", 2, "spin", 1.0, "instance") in new
    assert ("use.ts", 4, 2, "classes.ts", 2, "spin", 1.0, "instance") in new


def test_a_return_type_read_from_the_body_follows_an_edit(repo: Path, tmp_path: Path) -> None:
    """`make()` writes no return type and returns `Box()`, then `Lid()`; `fluent()` returns
    `self.make()` in a class of another file: the calls typed through them follow the edit
    as a cold build does."""
    files = {
        "shapes.py": (
            "class Box:\n    def close(self):\n        pass\n\n\n"
            "class Lid:\n    def close(self):\n        pass\n\n\n"
            "def make():\n    return Box()\n"
        ),
        "chain.py": (
            "from shapes import make\n\n\n"
            "class Maker:\n    def fluent(self):\n        return make()\n"
        ),
        "use.py": (
            "from shapes import make\nfrom chain import Maker\n\n"
            "make().close()\nMaker().fluent().close()\n"
        ),
    }
    edited = {"shapes.py": files["shapes.py"].replace("return Box()", "return Lid()")}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    for line, column in ((4, 7), (5, 17)):
        assert ("use.py", line, column, "shapes.py", 2, "close", 1.0, "instance") in old
        assert ("use.py", line, column, "shapes.py", 7, "close", 1.0, "instance") in new


def test_a_conditional_receiver_follows_a_branch_whose_type_changed(
    repo: Path, tmp_path: Path
) -> None:
    """`(c ? this.a() : this).spin()` in a subclass: both branches are the class until the
    base's `a` (another file) returns an `A`; then they disagree and the call is a guess,
    as a cold build has it."""
    files = {
        "base.ts": (
            "export class A { spin(): void {} }\n"
            "export class Base {\n  a(): this { return this; }\n  spin(): void {}\n}\n"
        ),
        "use.ts": (
            "import { Base } from './base';\n"
            "export class S extends Base {\n"
            "  m(c: boolean) {\n    (c ? this.a() : this).spin();\n  }\n}\n"
        ),
    }
    edited = {
        "base.ts": files["base.ts"].replace(
            "a(): this { return this; }", "a(): A { return new A(); }"
        )
    }
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("use.ts", 4, 26, "base.ts", 4, "spin", 1.0, "instance") in old
    assert not any(row[:3] == ("use.ts", 4, 26) and row[-1] == "instance" for row in new)


def test_a_tsconfig_whose_paths_changed_is_followed_by_every_importer(
    repo: Path, tmp_path: Path
) -> None:
    """`paths` now maps `@lib/*` to another folder: a file that did not change follows (and a
    go.mod, kept the same way, would too)."""
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"@lib/*": ["./old/*"]}}}\n',
        "old/util.ts": "export function pad(): void {}\n",
        "new/util.ts": "\nexport function pad(): void {}\n",
        "app/use.ts": "import { pad } from '@lib/util';\npad();\n",
    }
    edited = {"tsconfig.json": files["tsconfig.json"].replace("./old/*", "./new/*")}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("app/use.ts", 2, 0, "old/util.ts", 1, "pad", 1.0, "import") in old
    assert ("app/use.ts", 2, 0, "new/util.ts", 2, "pad", 1.0, "import") in new
    assert not any(e[3] == "old/util.ts" for e in new if e[0] == "app/use.ts")


def test_a_go_receivers_call_follows_the_types_its_struct_embeds(
    repo: Path, tmp_path: Path
) -> None:
    """`s.T()` in a method of `Tester`, declared in another file of the package: when
    Tester's struct embeds another type, the call moves to that type's `T`."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "ab.go": (
            "package m\n\ntype A struct{}\n\nfunc (a *A) T() {}\n\n"
            "type B struct{}\n\nfunc (b *B) T() {}\n"
        ),
        "types.go": "package m\n\ntype Tester struct {\n\tA\n}\n",
        "use.go": "package m\n\nfunc (s *Tester) Run() {\n\ts.T()\n}\n",
    }
    after = {"types.go": files["types.go"].replace("\tA\n}", "\tB\n}")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.go", 4, 3, "ab.go", 5, "T", 1.0, "self") in old
    assert ("use.go", 4, 3, "ab.go", 9, "T", 1.0, "self") in new


def test_a_go_local_typed_by_a_receivers_call_follows_the_struct_it_embeds(
    repo: Path, tmp_path: Path
) -> None:
    """`v := s.T(); v.Get()` in a method of `Tester`: when Tester's struct embeds another
    type, whose `T` returns another type, `v.Get()` moves to that type's `Get`."""
    files = {
        "go.mod": "module example.com/m\n\ngo 1.21\n",
        "ab.go": (
            "package m\n\ntype A struct{}\n\nfunc (a *A) T() X { return X{} }\n\n"
            "type B struct{}\n\nfunc (b *B) T() Y { return Y{} }\n\n"
            "type X struct{}\n\nfunc (x X) Get() {}\n\ntype Y struct{}\n\nfunc (y Y) Get() {}\n"
        ),
        "types.go": "package m\n\ntype Tester struct {\n\tA\n}\n",
        "use.go": "package m\n\nfunc (s *Tester) Run() {\n\tv := s.T()\n\tv.Get()\n}\n",
    }
    after = {"types.go": files["types.go"].replace("\tA\n}", "\tB\n}")}
    old, new = _update_equals_cold(repo, tmp_path, files, after)
    assert ("use.go", 5, 3, "ab.go", 13, "Get", 1.0, "instance") in old
    assert ("use.go", 5, 3, "ab.go", 17, "Get", 1.0, "instance") in new


def test_a_java_containers_element_follows_its_class_changed(repo: Path, tmp_path: Path) -> None:
    """`List<Node> nodes; nodes.get(0).spin()`: the element's class decides what `spin`
    means; its base changed in another file."""
    files = {
        "src/p/A.java": "package p;\n\npublic class A { public void spin() {} }\n",
        "src/p/B.java": "package p;\n\npublic class B { public void spin() {} }\n",
        "src/p/Node.java": "package p;\n\npublic class Node extends A {}\n",
        "src/p/Use.java": (
            "package p;\n\nimport java.util.List;\n\n"
            "class Use {\n    void run(List<Node> nodes) {\n"
            "        nodes.get(0).spin();\n    }\n}\n"
        ),
    }
    edited = {"src/p/Node.java": files["src/p/Node.java"].replace("extends A", "extends B")}
    old, new = _update_equals_cold(repo, tmp_path, files, edited)
    assert ("src/p/Use.java", 7, 21, "src/p/A.java", 3, "spin", 1.0, "instance") in old
    assert ("src/p/Use.java", 7, 21, "src/p/B.java", 3, "spin", 1.0, "instance") in new


@pytest.mark.parametrize("changed", ["use/a.go", "t/t.go"])
def test_a_go_package_variable_whose_value_changed_is_followed(
    repo: Path, tmp_path: Path, changed: str
) -> None:
    """`x.M()` in b.go with `var x = t.NewT()` in a.go (another file of the package): again
    when x's declaration changes (`t.NewU()`), or what NewT returns does."""
    kinds = (
        "package t\n\ntype T struct{}\n\nfunc NewT() RET { return nil }\n\nfunc (x *T) M() {}\n\n"
        "type U struct{}\n\nfunc (u *U) M() {}\n"
    )
    files = {
        "go.mod": "module example.com/kit\n\ngo 1.21\n",
        "t/t.go": kinds.replace("RET", "*T"),
        "use/a.go": 'package use\n\nimport "example.com/kit/t"\n\nvar x = t.NewT()\n',
        "use/b.go": "package use\n\nfunc g() {\n\tx.M()\n}\n",
    }
    after = {
        "use/a.go": files["use/a.go"].replace("var x = t.NewT()", "var x = new(t.U)"),
        "t/t.go": kinds.replace("RET", "*U"),
    }
    old, new = _update_equals_cold(repo, tmp_path, files, {changed: after[changed]})
    assert ("use/b.go", 4, 3, "t/t.go", 7, "M", 1.0, "instance") in old
    assert ("use/b.go", 4, 3, "t/t.go", 11, "M", 1.0, "instance") in new
