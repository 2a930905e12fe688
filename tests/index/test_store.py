"""Updates equal cold builds; damaged, foreign and concurrent indexes; odd repositories."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reviewbot.errors import InputError
from reviewbot.index import build
from reviewbot.index.build import update_index
from reviewbot.index.store import SCHEMA, IndexUnavailable, connect_reader
from reviewbot.repo.git import Git
from tests.helpers import commit, git, write
from tests.index.support import SETTINGS, dump, index, update

FILES = {
    "pkg/__init__.py": "from .core import Engine\n",
    "pkg/core.py": (
        "class Engine:\n    def start(self):\n        return self.spin()\n\n"
        "    def spin(self):\n        return 1\n"
    ),
    "pkg/cars.py": (
        "from .core import Engine\n\n\nclass Car(Engine):\n    def go(self):\n"
        "        return self.start()\n"
    ),
    "web/app.js": "import { run } from './lib';\nrun();\n",
    "web/lib.js": "export function run() { return helper(); }\nfunction helper() { return 1; }\n",
    "notes.rb": "class Note\n  def show\n    render\n  end\nend\n",
}


def test_an_update_after_edits_renames_and_deletions_equals_a_cold_build(
    repo: Path, tmp_path: Path
) -> None:
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    first = update(repo, warm)
    assert first.created and first.read == len(FILES)
    # Edit a base class (its subclass's self.start() must follow), rename a module, delete
    # one, add one, and leave one changed only in the working tree.
    write(repo, "pkg/core.py", "class Engine:\n    def spin(self):\n        return 2\n")
    git(repo, "mv", "pkg/cars.py", "pkg/autos.py")
    git(repo, "rm", "-q", "notes.rb")
    write(repo, "pkg/trucks.py", "from .autos import Car\n\nCar().go()\n")
    commit(repo)
    write(repo, "web/lib.js", "export function run() { return 2; }\n")
    second = update(repo, warm)
    assert not second.created
    assert second.removed == 2 and second.read == 4  # core, autos, trucks, lib.js
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)
    assert update(repo, warm).read == 0  # nothing changed since


def test_a_corrupt_index_is_rebuilt(repo: Path, tmp_path: Path) -> None:
    db = tmp_path / "reviewbot" / "index.sqlite"  # the index's own folder, as in .git/reviewbot
    db.parent.mkdir()
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    update(repo, db)
    expected = dump(db)
    data = bytearray(db.read_bytes())
    data[100:4000] = b"\xff" * 3900  # the schema page
    db.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    with pytest.raises(IndexUnavailable):
        connect_reader(db)
    stats = update(repo, db)
    assert stats.created and dump(db) == expected


def test_a_foreign_sqlite_file_is_never_trusted(repo: Path, tmp_path: Path) -> None:
    db = tmp_path / "reviewbot" / "index.sqlite"
    db.parent.mkdir()
    conn = sqlite3.connect(db)
    # Tables named like ours, and a meta row of another schema.
    conn.execute("CREATE TABLE meta(key TEXT, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('schema', 'someone.else/1')")
    conn.execute("CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT, blob TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(IndexUnavailable):
        connect_reader(db)
    write(repo, "a.py", "def f():\n    return f()\n")
    commit(repo)
    stats = update(repo, db)
    assert stats.created and stats.files == 1
    reader = connect_reader(db)
    assert reader.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (SCHEMA,)
    reader.close()


def test_a_file_of_someone_else_named_as_the_index_is_left_alone(
    repo: Path, tmp_path: Path
) -> None:
    """`REVIEWBOT_INDEX` can name any path: a tracked README, another program's database, a
    damaged index outside the index's own folder. None is rebuilt over (a query used to
    replace it silently); an empty file or an index of ours is used."""
    write(repo, "a.py", "def f():\n    return 1\n")
    commit(repo)
    readme = tmp_path / "README.md"
    readme.write_text("# project\n")
    other = tmp_path / "shop.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers(name TEXT)")
    conn.commit()
    conn.close()
    damaged = tmp_path / "old-index.sqlite"
    update(repo, damaged)
    data = bytearray(damaged.read_bytes())
    data[100:4000] = b"\xff" * 3900
    damaged.write_bytes(bytes(data))
    for path in (readme, other, damaged):
        before = path.read_bytes()
        with pytest.raises(InputError, match="is not a reviewbot index; nothing was changed"):
            update(repo, path)
        assert path.read_bytes() == before
    for path in (readme, other):  # no lock, journal or WAL file beside them either
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(path.name + ".")]
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert update(repo, empty).files == 1 and update(repo, empty).read == 0


def test_a_repository_without_commits_indexes_its_staged_files(repo: Path) -> None:
    write(repo, "a.py", "def f():\n    return 1\n")
    git(repo, "add", "a.py")
    db = index(repo)
    assert dump(db)["defs"][0][:4] == ("a.py", "function", "f", "f")
    write(repo, "b.py", "x = 1\n")  # untracked: not indexed
    assert update(repo, db).read == 0


def test_files_that_do_not_parse_fall_back_to_the_outliner(repo: Path) -> None:
    broken = (
        "def ok():\n    return 1\n\n" + ")))) ((( ]] [[ }}}{{ \n" * 40 + "def later():\n  pass\n"
    )
    write(repo, "broken.py", broken)
    write(repo, "empty.py", "")
    write(repo, "binary.py", b"\x00\x01\x02")
    write(repo, "vendor/lib.py", "def v():\n    pass\n")
    commit(repo)
    db = index(repo)
    files = {row[0]: row for row in dump(db)["files"]}
    assert files["broken.py"][3] == "outline"
    assert files["empty.py"][3] == "tree-sitter"
    assert files["binary.py"][6] == "binary"
    assert files["vendor/lib.py"][6] == "vendored"
    names = {row[2] for row in dump(db)["defs"] if row[0] == "broken.py"}
    assert {"ok", "later"} <= names


_RACE = """
import sys
from pathlib import Path
from tests.index.support import update
update(Path(sys.argv[1]), Path(sys.argv[2]), jobs=2)
"""


def test_two_processes_indexing_at_once_both_succeed(repo: Path, tmp_path: Path) -> None:
    for k in range(40):
        write(repo, f"m{k}.py", f"def f{k}():\n    return f{(k + 1) % 40}()\n")
    commit(repo)
    db = tmp_path / "index.sqlite"
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _RACE, str(repo), str(db)],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(db) == dump(cold)


def test_an_update_follows_a_changed_base_class_into_unchanged_files(
    repo: Path, tmp_path: Path
) -> None:
    """`c.spin()` in an unchanged file means another method once a changed class takes
    another base, though the changed file defines no `spin` itself."""
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/a.py", "class A:\n    def spin(self):\n        return 'a'\n")
    write(repo, "pkg/b.py", "class B:\n    def spin(self):\n        return 'b'\n")
    write(
        repo, "pkg/core.py", "from .a import A\nfrom .b import B\n\n\nclass Engine(A):\n    pass\n"
    )
    write(
        repo,
        "pkg/use.py",
        "from .core import Engine\n\n\nclass Car(Engine):\n    def go(self):\n"
        "        return self.spin()\n\n\ndef drive():\n    c = Car()\n    return c.spin()\n",
    )
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    assert (
        dump(warm)["edges"]
        and ("pkg/use.py", 11, 13, "pkg/a.py", 2, "spin", 1.0, "instance") in dump(warm)["edges"]
    )
    write(
        repo, "pkg/core.py", "from .a import A\nfrom .b import B\n\n\nclass Engine(B):\n    pass\n"
    )
    commit(repo)
    assert update(repo, warm).read == 1
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)
    edges = dump(warm)["edges"]
    assert ("pkg/use.py", 11, 13, "pkg/b.py", 2, "spin", 1.0, "instance") in edges
    assert ("pkg/use.py", 6, 20, "pkg/b.py", 2, "spin", 1.0, "self") in edges


def test_an_update_follows_a_changed_return_type_into_unchanged_files(
    repo: Path, tmp_path: Path
) -> None:
    """`x = make(); x.spin()` and `self.part.spin()` in an unchanged file mean another
    class's method once a changed file's `make` says it returns another class."""
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/a.py", "class A:\n    def spin(self):\n        return 'a'\n")
    write(repo, "pkg/b.py", "class B:\n    def spin(self):\n        return 'b'\n")
    made = "from .a import A\nfrom .b import B\n\n\ndef make() -> {}:\n    return {}()\n"
    write(repo, "pkg/make.py", made.format("A", "A"))
    write(
        repo,
        "pkg/use.py",
        "from .make import make\n\n\nclass Car:\n    def __init__(self):\n"
        "        self.part = make()\n\n    def go(self):\n        x = make()\n"
        "        return x.spin(), self.part.spin()\n",
    )
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    assert ("pkg/use.py", 10, 17, "pkg/a.py", 2, "spin", 1.0, "instance") in dump(warm)["edges"]
    write(repo, "pkg/make.py", made.format("B", "B"))
    commit(repo)
    assert update(repo, warm).read == 1
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)
    edges = dump(warm)["edges"]
    assert ("pkg/use.py", 10, 17, "pkg/b.py", 2, "spin", 1.0, "instance") in edges
    assert ("pkg/use.py", 10, 35, "pkg/b.py", 2, "spin", 1.0, "instance") in edges


def test_other_settings_rebuild_every_file(repo: Path, tmp_path: Path) -> None:
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    db = tmp_path / "index.sqlite"
    update(repo, db)
    stats = update_index(Git(repo), db, SETTINGS._replace(exclude=("web/**",)))
    # every file read again; the two excluded ones skipped, not counted as read
    assert (stats.read, stats.reused, stats.skipped) == (len(FILES) - 2, 0, 2)
    skipped = {row[0]: row[6] for row in dump(db)["files"]}
    assert skipped["web/app.js"] == "excluded by the configuration"
    assert skipped["pkg/core.py"] is None


def test_an_index_of_older_rules_is_rebuilt_not_reused(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows written by an older extractor or resolver are never reused: bumping ``RULES`` (as a
    change of what is extracted or how it resolves must) reads every file again."""
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    db = tmp_path / "index.sqlite"
    monkeypatch.setattr(build, "RULES", build.RULES - 1)
    update(repo, db)
    monkeypatch.undo()
    assert update(repo, db).reused == 0
    again = update(repo, db)
    assert again.reused == len(FILES) - again.read and again.read == 0


def test_damage_past_the_schema_is_rebuilt_by_the_next_update(repo: Path, tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite"
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    update(repo, db)
    expected = dump(db)
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    data[3 * page :] = b"\xee" * (len(data) - 3 * page)  # the tables' pages, not the schema
    db.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    stats = update(repo, db)
    assert stats.created and dump(db) == expected


def test_an_update_follows_a_changed_reexport(repo: Path, tmp_path: Path) -> None:
    """The package's `__init__` now takes `thing` and `Base` from another module: code that
    imports them through the package (unchanged) means the other definitions."""
    write(
        repo,
        "pkg/a.py",
        "def thing():\n    pass\n\n\nclass Base:\n    def m(self):\n        pass\n",
    )
    write(
        repo,
        "pkg/b.py",
        "def thing():\n    pass\n\n\nclass Base:\n    def m(self):\n        pass\n",
    )
    write(repo, "pkg/__init__.py", "from .a import thing, Base\n")
    write(
        repo,
        "app.py",
        "import pkg\nfrom pkg import thing\n\nthing()\n\n\nclass C(pkg.Base):\n"
        "    def go(self):\n        return self.m()\n",
    )
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    edges = dump(warm)["edges"]
    assert ("app.py", 4, 0, "pkg/a.py", 1, "thing", 1.0, "import") in edges
    assert ("app.py", 9, 20, "pkg/a.py", 6, "m", 1.0, "self") in edges
    write(repo, "pkg/__init__.py", "from .b import thing, Base\n")
    commit(repo)
    assert update(repo, warm).read == 1
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)
    edges = dump(warm)["edges"]
    assert ("app.py", 4, 0, "pkg/b.py", 1, "thing", 1.0, "import") in edges
    assert ("app.py", 9, 20, "pkg/b.py", 6, "m", 1.0, "self") in edges


def test_a_cold_build_in_worker_processes_equals_one_in_this_process(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files extracted by a pool and references linked in slices by forked workers (written
    as the slices come, while the other tables are indexed) give the same index."""
    for name, text in FILES.items():
        write(repo, name, text)
    for k in range(6):
        write(
            repo,
            f"pkg/m{k}.py",
            f"from .cars import Car\n\n\ndef use{k}(c: Car):\n    return c.go()\n",
        )
    commit(repo)
    serial = tmp_path / "serial.sqlite"
    update(repo, serial, jobs=1)
    monkeypatch.setattr("reviewbot.index.build._PARALLEL_FROM", 1)
    monkeypatch.setattr("reviewbot.index.resolve._PARALLEL_FROM", 1)
    pooled = tmp_path / "pooled.sqlite"
    update(repo, pooled, jobs=2)
    assert dump(pooled) == dump(serial)
    conn = sqlite3.connect(pooled)
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    conn.close()
    assert {"edges_def", "refs_lookup", "refs_target", "file_links_dst"} <= indexes


def test_an_update_that_adds_an_init_file_equals_a_cold_build(repo: Path, tmp_path: Path) -> None:
    """Adding `lib/__init__.py` makes `lib` a package: `lib/util.py` is now `lib.util`, so the
    unchanged `app.py` that imports `lib.util` resolves (and removing it again unresolves)."""
    write(repo, "lib/util.py", "def helper():\n    return 1\n")
    write(repo, "app.py", "from lib.util import helper\n\nhelper()\n")
    write(repo, "src/top/__init__.py", "")
    write(repo, "src/top/mod.py", "from .inner.deep import f\n\nf()\n")
    write(repo, "src/top/inner/deep.py", "def f():\n    return 2\n")
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    for added in ("lib/__init__.py", "src/top/inner/__init__.py"):
        write(repo, added, "")
        commit(repo)
        assert update(repo, warm).read == 1
        cold = tmp_path / "cold.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{cold}{suffix}").unlink(missing_ok=True)
        update(repo, cold)
        assert dump(warm) == dump(cold)
    edges = dump(warm)["edges"]
    assert ("app.py", 3, 0, "lib/util.py", 1, "helper", 1.0, "import") in edges
    assert ("src/top/mod.py", 3, 0, "src/top/inner/deep.py", 1, "f", 1.0, "import") in edges
    git(repo, "rm", "-q", "lib/__init__.py")
    commit(repo)
    update(repo, warm)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{cold}{suffix}").unlink(missing_ok=True)
    update(repo, cold)
    assert dump(warm) == dump(cold)


def test_an_update_linked_in_worker_processes_equals_a_cold_build(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An update reads definitions on first use; one with many references forks workers,
    which must not read: it reads everything first, and the result is the same."""
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    write(repo, "pkg/core.py", "class Engine:\n    def start(self):\n        return 3\n")
    write(repo, "pkg/more.py", "from .cars import Car\n\n\ndef f(c: Car):\n    return c.go()\n")
    commit(repo)
    monkeypatch.setattr("reviewbot.index.resolve._PARALLEL_FROM", 1)
    assert update(repo, warm, jobs=2).read == 2
    monkeypatch.undo()
    cold = tmp_path / "cold.sqlite"
    update(repo, cold)
    assert dump(warm) == dump(cold)


def test_a_cold_build_is_renamed_into_place_and_a_killed_ones_file_goes(
    repo: Path, tmp_path: Path
) -> None:
    """A first build is written beside the index and renamed into place (in WAL mode, so
    readers never wait); what a killed build left beside it is removed by the next build."""
    db = tmp_path / "index.sqlite"
    stale = tmp_path / "index.sqlite.new-999999"
    stale.write_bytes(b"half a build")
    for name, text in FILES.items():
        write(repo, name, text)
    commit(repo)
    assert update(repo, db).created
    assert not stale.exists()
    assert sorted(p.name for p in tmp_path.glob("index.sqlite*")) == [
        "index.sqlite",
        "index.sqlite.lock",
    ]
    conn = connect_reader(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()


def test_an_update_follows_typed_literals_and_call_chains(repo: Path, tmp_path: Path) -> None:
    """`z.number().nullable().parse()` in an unchanged file follows a changed file's return
    type of `nullable`, and an object literal's `parse` whose written type changed."""
    schemas = (
        "export interface ZodType { parse(x: unknown): unknown; nullable(): RET }\n"
        "export interface ZodNullable extends ZodType { unwrap(): ZodType }\n"
        "export interface Internals { parse(p: unknown): unknown }\n"
        "export function number(): ZodType { return make(); }\n"
    )
    methods = (
        "import { ZodType, Internals } from './schemas';\n"
        "export function typeMethods(): Partial<RET> { return { parse(x) { return x; } }; }\n"
    )
    write(repo, "schemas.ts", schemas.replace("RET", "ZodNullable"))
    write(repo, "methods.ts", methods.replace("RET", "ZodType"))
    write(repo, "app.ts", "import * as z from './schemas';\nz.number().nullable().parse(2);\n")
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)
    parse = {(d, dl) for p, ln, _c, d, dl, n, _w, _v in dump(warm)["edges"] if n == "parse"}
    assert parse == {("schemas.ts", 1), ("methods.ts", 2)}
    for name, text in (
        ("methods.ts", methods.replace("RET", "Internals")),
        ("schemas.ts", schemas.replace("RET", "Internals")),
    ):
        write(repo, name, text)
        commit(repo)
        assert update(repo, warm).read == 1
        cold = tmp_path / f"cold-{name}.sqlite"
        update(repo, cold)
        assert dump(warm) == dump(cold)
    edges = dump(warm)["edges"]
    parse = {(d, dl) for p, ln, _c, d, dl, n, _w, _v in edges if p == "app.ts" and n == "parse"}
    assert parse == {("schemas.ts", 3), ("methods.ts", 2)}


def test_the_outliner_takes_no_import_keyword_for_a_name() -> None:
    """immer b00474e: a TS file tree-sitter could not read fell back to the outliner, whose
    `import {NOTHING} from "../internal"` held a reference named `from`: deleting a member
    named `from` elsewhere raised an RB105 on that import line. `from`, `as` and `type` of an
    import or export statement are keywords; elsewhere they may be names."""
    from reviewbot.engine.languages import default_registry
    from reviewbot.index.outline import outline

    text = (
        'import {NOTHING} from "../internal"\nexport type {A as B} from "./x"\n'
        "const from = 1\nfoo(from)\n"
    )
    facts = outline(text, default_registry().detect("a.ts"))
    found = [(r.name, r.line) for r in facts.references]
    assert found == [("NOTHING", 1), ("A", 2), ("B", 2), ("from", 3), ("foo", 4), ("from", 4)]


def test_a_gitattributes_change_redecides_which_unchanged_files_are_skipped(
    repo: Path, tmp_path: Path
) -> None:
    """Rows were kept by blob: a file marked `linguist-generated` after indexing kept its
    rows, one unmarked stayed out. Now an update after a change of `.gitattributes` decides
    again for the files under it, and equals a cold build each time."""
    write(repo, "src/a.py", "def a():\n    return 1\n")
    write(repo, "src/gen.py", "def g():\n    return a()\n")
    write(repo, "src/h.py", "# Code generated by protoc. DO NOT EDIT.\ndef h():\n    return 3\n")
    write(repo, "other.py", "def o():\n    return 4\n")
    write(repo, "src/.gitattributes", "gen.py linguist-generated\n")
    commit(repo)
    warm = tmp_path / "warm.sqlite"
    update(repo, warm)

    def skipped() -> dict[str, object]:
        return {str(row[0]): row[6] for row in dump(warm)["files"] if str(row[0]).endswith(".py")}

    assert skipped() == {
        "src/a.py": None,
        "src/gen.py": "generated (linguist-generated attribute)",
        "src/h.py": "generated (header says so)",
        "other.py": None,
    }
    write(repo, "src/.gitattributes", "a.py linguist-generated\nh.py linguist-generated=false\n")
    commit(repo)
    stats = update(repo, warm)
    assert skipped() == {
        "src/a.py": "generated (linguist-generated attribute)",
        "src/gen.py": None,
        "src/h.py": None,
        "other.py": None,
    }
    assert (stats.read, stats.reused) == (2, 1)  # gen.py and h.py read again; other.py kept
    assert dump(warm) == dump(index(repo, tmp_path / "cold1.sqlite"))
    (repo / "src/.gitattributes").unlink()  # h.py's header counts again, a.py is source again
    commit(repo)
    update(repo, warm)
    assert skipped()["src/h.py"] == "generated (header says so)" and skipped()["src/a.py"] is None
    assert dump(warm) == dump(index(repo, tmp_path / "cold2.sqlite"))
    write(repo, "README.md", "words\n")  # no attributes changed: nothing read again
    commit(repo)
    assert update(repo, warm).read == 0
