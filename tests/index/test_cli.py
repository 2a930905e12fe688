"""The index commands' JSON shapes, through the main CLI and the launcher's fast entry."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange
from reviewbot.doors import index_cli
from reviewbot.render.report_json import report_doc
from tests.helpers import commit, write

SYMBOL_KEYS = {"name", "qualified", "kind", "path", "line", "end_line", "signature"}


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    write(repo, "app/core.py", "def helper(x):\n    '''Add one.'''\n    return x + 1\n")
    write(
        repo,
        "app/use.py",
        "from app.core import helper\n\n\ndef run():\n    return helper(2)\n",
    )
    write(repo, "app/__init__.py", "")
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "custom.sqlite"))
    return repo


def fast(*argv: str) -> tuple[int, Any, str]:
    out, err = io.StringIO(), io.StringIO()
    code = index_cli.main(list(argv), stdout=out, stderr=err)
    text = out.getvalue()
    return code, (json.loads(text) if text.startswith("{") else text), err.getvalue()


def index_here(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Commit what is written, work in ``repo`` with its index at ``tmp_path``, and build it."""
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "i.sqlite"))
    assert fast("index")[0] == 0


def test_index_counts_add_up_and_read_counts_only_files_indexed(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`read` counted every file looked at, the skipped too (vendored, generated, not source):
    "5 read" of one file indexed. Now read + reused == files, and + skipped == listed."""
    write(repo, "src/a.py", "def a():\n    return 1\n")
    write(repo, "src/b.py", "def b():\n    return 2\n")
    write(repo, "vendor/v.py", "def v():\n    return 3\n")
    write(repo, "src/gen.py", "def g():\n    return 4\n")
    write(repo, ".gitattributes", "src/gen.py linguist-generated\n")
    write(repo, "notes.txt", "words\n")
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "i.sqlite"))
    code, first, _ = fast("index", "--format", "json")
    assert code == 0
    got = [first[k] for k in ("listed", "files", "read", "reused", "skipped", "removed")]
    assert got == [6, 2, 2, 0, 4, 0]
    write(repo, "src/a.py", "def a():\n    return 5\n")
    write(repo, "vendor/v.py", "def v():\n    return 6\n")  # looked at again, skipped again
    (repo / "notes.txt").unlink()
    commit(repo)
    code, text, _ = fast("index")
    assert code == 0
    assert "of 5 files listed, 1 read, 1 reused, 3 skipped; 1 removed" in text
    code, again, _ = fast("index", "--format", "json")
    assert [again[k] for k in ("listed", "read", "reused", "skipped")] == [5, 0, 2, 3]


def test_index_then_queries_have_the_documented_shapes(project: Path, cli: Any) -> None:
    run = cli("index", "--format", "json")
    assert run.code == 0, run.err
    stats = run.json()
    assert stats["index"] == os.environ["REVIEWBOT_INDEX"]
    assert (stats["files"], stats["read"], stats["reused"]) == (3, 3, 0)
    assert stats["definitions"] == 2 and stats["edges"] >= 2

    code, refs, _ = fast("refs", "app/core.py:3", "--format", "json")
    assert code == 0
    assert set(refs) == {"symbol", "references", "truncated", "unlinked"}
    assert set(refs["symbol"]) == SYMBOL_KEYS and refs["symbol"]["qualified"] == "helper"
    assert [(r["path"], r["line"], r["kind"]) for r in refs["references"]] == [
        ("app/use.py", 1, "import"),
        ("app/use.py", 5, "call"),
    ]
    call = refs["references"][1]
    assert set(call) == {"path", "line", "kind", "confidence", "unit"}
    assert call["unit"] == {"label": "function run", "start": 4, "end": 5}
    assert refs["references"][0]["unit"] is None

    code, callers, _ = fast("callers", "app/core.py:1", "--format", "json")
    assert [(c["path"], c["unit"]["label"], c["lines"]) for c in callers["callers"]] == [
        ("app/use.py", "function run", [5])
    ]
    code, callees, _ = fast("callees", "app/use.py:5", "--format", "json")
    assert [c["unit"]["label"] for c in callees["callees"]] == ["function helper"]
    code, defs, _ = fast("defs", "helper", "--format", "json")
    assert [(d["path"], d["line"]) for d in defs["definitions"]] == [("app/core.py", 1)]
    code, found, _ = fast("search", "add one", "--format", "json")
    assert found["results"][0]["symbol"]["name"] == "helper"
    code, repo_map, _ = fast("map", "--budget", "100", "--format", "json")
    assert set(repo_map) == {"path", "budget", "tokens", "truncated", "files"}
    assert repo_map["tokens"] <= 100 and repo_map["files"]

    # Through the main CLI too (the same door).
    run = cli("refs", "app/core.py:3", "--format", "json")
    assert run.code == 0 and json.loads(run.out) == refs


def test_the_index_command_ends_once_its_output_is_out(project: Path) -> None:
    """Through the launcher, `reviewbot index` leaves what it built to the process's exit:
    no clean-up runs after its output (an exit handler), and the output is all out through a
    pipe; a query exits as usual."""
    script = (
        "import atexit, sys\n"
        "atexit.register(print, 'cleaned up')\n"
        "sys.argv = ['reviewbot', *sys.argv[1:]]\n"
        "from reviewbot.doors.launch import cli\n"
        "sys.exit(cli())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, "index", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "cleaned up" not in run.stdout
    assert json.loads(run.stdout)["files"] == 3
    query = subprocess.run(
        [sys.executable, "-c", script, "defs", "helper"], capture_output=True, text=True
    )
    assert query.returncode == 0, query.stderr
    assert "app/core.py" in query.stdout and query.stdout.endswith("cleaned up\n")


def test_a_stale_index_is_updated_unless_told_not_to(project: Path) -> None:
    assert fast("index")[0] == 0
    write(project, "app/core.py", "def helper(x):\n    return x\n\n\ndef other():\n    pass\n")
    code, stale, err = fast("defs", "other", "--format", "json", "--no-update")
    assert code == 0 and stale["definitions"] == [] and stale["stale"] == 1
    assert "stale" in err
    code, fresh, err = fast("defs", "other", "--format", "json")
    assert code == 0 and [d["line"] for d in fresh["definitions"]] == [5]
    assert "stale" not in fresh and err == ""


def test_usage_errors_are_one_line(project: Path) -> None:
    assert fast("index")[0] == 0
    code, _, err = fast("refs", "app/core.py")
    assert code == 2 and "FILE:LINE" in err
    code, _, err = fast("refs", "app/nothing.py:1")
    assert code == 2 and "not in the index" in err
    code, _, err = fast("map", "--budget", "0")
    assert code == 2 and "--budget" in err


def test_an_index_that_cannot_answer_is_one_line_naming_the_fix(
    project: Path, tmp_path: Path
) -> None:
    assert fast("index")[0] == 0
    with sqlite3.connect(tmp_path / "custom.sqlite") as conn:
        conn.execute("DROP TABLE search")  # as if damaged: the search query cannot run
    code, out, err = fast("search", "helper", "--no-update")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "the index is damaged" in err
    assert "run `reviewbot index` to build it again" in err
    # An index an older reviewbot built (another schema): said so, not "damaged".
    with sqlite3.connect(tmp_path / "custom.sqlite") as conn:
        conn.execute("UPDATE meta SET value = 'reviewbot.index/2' WHERE key = 'schema'")
    code, out, err = fast("search", "helper", "--no-update")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "built by another version of reviewbot (reviewbot.index/2" in err
    assert "run `reviewbot index` to build it again" in err
    code, out, _ = fast("search", "helper")  # without --no-update: built again, answered
    assert code == 0 and "helper" in out


def test_search_ranks_code_above_the_fields_that_repeat_its_words(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """ "progress bar" should find the class and its methods before its fields, even when the
    fields are referenced far more often (every `self.pos` is a reference)."""
    fields = "".join(f"        self.f{k} = 0\n" for k in range(6))
    uses = "".join(f"        self.f{k} += self.f{k} + self.f{k}\n" for k in range(6))
    write(
        repo,
        "bar.py",
        "class ProgressBar:\n    def __init__(self):\n"
        + fields
        + "\n    def render_progress(self):\n"
        + uses,
    )
    # Other code, so that "progress" and "bar" are rare words (as in any real repository).
    write(repo, "other.py", "".join(f"def task_{k}(x):\n    return x\n\n\n" for k in range(40)))
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "i.sqlite"))
    code, found, err = fast("search", "progress bar", "--format", "json")
    assert code == 0, err
    kinds = [r["symbol"]["kind"] for r in found["results"]]
    assert "field" in kinds, kinds  # the fields match too ...
    first_field = kinds.index("field")  # ... but after every code unit
    assert set(kinds[:first_field]) == {"class", "method"}, kinds
    assert all(k == "field" for k in kinds[first_field:]), kinds


def test_repository_text_cannot_drive_the_terminal(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """File names and signatures come from the repository: in the text answers an escape
    sequence, a carriage return, a bidirectional override or a newline is shown as an escape,
    never sent to the terminal (it could retitle or clear it, or fake a line)."""
    evil = "esc\x1b]0;PWNED\x07nl\n\x1b[2Jcr\rbidi\u202e"
    write(repo, "lib.js", 'export function spike(a = "\x1b[31mRED") {\n  return a;\n}\n')
    write(repo, f"{evil}.js", 'import { spike } from "./lib";\n\nexport const x = spike();\n')
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "evil.sqlite"))
    assert fast("index")[0] == 0
    answers = [
        fast("defs", "spike")[1],
        fast("refs", "lib.js:1")[1],
        fast("callers", "lib.js:1")[1],
        fast("search", "spike")[1],
        fast("map", "--budget", "500")[1],
    ]
    for text in answers:
        assert isinstance(text, str) and "spike" in text
        assert not any(c in text for c in "\x1b\x07\r\u202e"), text
    refs = answers[1]
    assert "esc\\x1b]0;PWNED\\x07nl\\n\\x1b[2Jcr\\x0dbidi\\u202e.js:3" in refs
    assert len(refs.splitlines()) == 3  # the symbol's line, the import and the call
    assert '"\\x1b[31mRED"' in answers[0]  # the signature's default, escaped
    # JSON keeps the real names (json.dumps escapes what a terminal would read).
    doc = fast("refs", "lib.js:1", "--format", "json")[1]
    assert doc["references"][0]["path"] == f"{evil}.js"


def test_a_name_that_is_not_utf8_is_left_out_not_fatal(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """SQLite's text holds UTF-8 only: such a file is left out of the index, the rest is
    indexed and answers; a query naming it says why."""
    (repo / os.fsdecode(b"bad\xffname.py")).write_bytes(b"def f():\n    return 1\n")
    write(repo, "core.py", "def keep():\n    return 2\n")
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "nu.sqlite"))
    code, doc, err = fast("index", "--format", "json")
    assert code == 0 and doc["files"] == 1, err
    assert fast("defs", "keep")[1].startswith("core.py:1: function keep")
    code, _, err = fast("refs", os.fsdecode(b"bad\xffname.py") + ":1")
    assert code == 2 and "not indexed: its name is not UTF-8" in err


def test_odd_locations_limits_and_places_are_usage_errors(project: Path) -> None:
    assert fast("index")[0] == 0
    for argv in (
        ("refs", "app/core.py:99999999999999999999999"),
        ("defs", "helper", "--limit", "99999999999999999999"),
        ("map", "no/such/folder"),
    ):
        code, out, err = fast(*argv)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (argv, err)
    index = Path(os.environ["REVIEWBOT_INDEX"])
    index.unlink()
    index.mkdir()
    code, _, err = fast("defs", "helper")
    assert code == 2 and "is a folder, not an index file" in err


def test_an_index_shared_by_two_repositories_never_answers_for_the_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One REVIEWBOT_INDEX exported for two repositories (a shell profile, a CI job): the
    index records which repository it describes; the other's review does not use it (RB105
    from A's files in B would be false), its queries rebuild it, and --no-update refuses."""
    shared = tmp_path / "shared.sqlite"
    monkeypatch.setenv("REVIEWBOT_INDEX", str(shared))
    a, b = tmp_path / "a", tmp_path / "b"
    for repo in (a, b):
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        write(repo, "core.py", "def gone():\n    return 1\n\n\ndef keep():\n    return 2\n")
    write(a, "a_only.py", "from core import gone\n\n\ndef secret_a_caller():\n    return gone()\n")
    commit(a)
    commit(b)
    monkeypatch.chdir(a)
    assert fast("index")[0] == 0
    write(b, "core.py", "def keep():\n    return 2\n")
    report = pipeline.review(GitChange(b, environ=dict(os.environ)), Config())
    assert "a_only" not in json.dumps(report_doc(report))
    (gone,) = [i for i in report.impact if i.name == "gone"]
    assert gone.fallback == "index of another repository; run `reviewbot index`"
    monkeypatch.chdir(b)
    code, _, err = fast("defs", "secret_a_caller", "--no-update")
    assert code == 2 and "describes another repository" in err
    assert fast("defs", "secret_a_caller")[1] == "no definition of secret_a_caller\n"


def test_a_moved_repositorys_own_index_still_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone copied (`cp -r`) or its folder renamed: the index inside its git directory
    recorded the old path, and the review silently fell back to git grep (chi: a renamed
    method's calls went unsaid). The index in the repository's own git directory describes
    it; `reviewbot index` reuses what it read."""
    monkeypatch.delenv("REVIEWBOT_INDEX", raising=False)
    old = tmp_path / "old"
    subprocess.run(["git", "init", "-q", str(old)], check=True)
    write(old, "core.py", "def gone():\n    return 1\n\n\ndef keep():\n    return 2\n")
    write(old, "use.py", "from core import gone\n\n\ndef caller():\n    return gone()\n")
    commit(old)
    monkeypatch.chdir(old)
    assert fast("index")[0] == 0
    moved = tmp_path / "moved"
    old.rename(moved)
    write(moved, "core.py", "def keep():\n    return 2\n")
    report = pipeline.review(GitChange(moved), Config())
    (gone,) = [i for i in report.impact if i.name == "gone"]
    assert (gone.source, gone.fallback) == ("index", "")
    assert [f.code for f in report.findings] == ["RB105"]
    monkeypatch.chdir(moved)
    code, out, _ = fast("index", "--format", "json")
    assert code == 0 and out["reused"] >= 1, out


def test_the_map_keeps_to_its_budget_as_printed_and_shows_overloads_once(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    stubs = "".join(
        f"@overload\ndef convert(x: {t}) -> {t}: ...\n\n\n" for t in ("int", "str", "bytes")
    )
    body = "def convert(x):\n    return x\n"
    many = "".join(
        f"def helper_number_{k}(value, other=None):\n    return value\n\n\n" for k in range(40)
    )
    write(repo, "lib.py", "from typing import overload\n\n\n" + stubs + body + "\n\n" + many)
    write(repo, "use.py", "from lib import convert\n\nconvert(1)\n")
    index_here(repo, monkeypatch, tmp_path)
    for budget in range(30, 400, 7):
        code, text, _ = fast("map", "--budget", str(budget))
        assert code == 0 and len(text) <= budget * 4, (budget, len(text))
    code, text, _ = fast("map", "--budget", "2000")
    assert sum("def convert" in line for line in text.splitlines()) == 1


def test_a_name_where_a_place_belongs_points_to_defs_and_none_found_is_said(
    project: Path,
) -> None:
    assert fast("index")[0] == 0
    code, _, err = fast("callers", "helper")
    assert code == 2 and "reviewbot defs NAME" in err
    code, text, _ = fast("callees", "app/core.py:1")  # helper calls nothing indexed
    assert code == 0 and text.splitlines()[1:] == [
        "  none found in the index (calls to code outside the repository are not indexed)"
    ]


def test_the_map_shows_a_method_under_its_class(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two classes' `invoke` methods are central; each is printed indented under its class
    (which comes along, paid from the budget, though nothing references the class itself),
    not flush with the module's functions where the two read as one function twice."""
    write(
        repo,
        "core.py",
        "class Context:\n    def invoke(self, cb):\n        return cb()\n\n\n"
        "class Command:\n    def invoke(self, ctx):\n        return ctx\n\n\n"
        "def start():\n    return 1\n",
    )
    write(
        repo,
        "use.py",
        "from core import Context, Command, start\n\n\n"
        "def run(c: Context, d: Command):\n    c.invoke(start)\n    d.invoke(c)\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    code, text, _ = fast("map", "--budget", "2000")
    lines = text.splitlines()
    block = lines[lines.index("core.py:") + 1 :][:5]
    assert [line[9:] for line in block] == [  # after `  {line:>5}  `
        "class Context",
        "  def invoke(self, cb)",
        "class Command",
        "  def invoke(self, ctx)",
        "def start()",
    ]
    for budget in range(20, 120, 3):  # the class lines are paid for: the budget holds
        code, text, _ = fast("map", "--budget", str(budget))
        assert code == 0 and len(text) <= budget * 4, (budget, len(text))


def test_search_keeps_words_of_any_script_and_drops_one_letter_fragments(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`ünïcödé` was searched as `n OR c OR d`, which every `n: int` matched with confidence;
    a German docstring's word could not be found at all."""
    write(
        repo,
        "lib.py",
        "def read(n: int, c: str, d: bytes):\n    return n\n\n\n"
        'def messen(x):\n    """Die Größe messen."""\n    return x\n',
    )
    index_here(repo, monkeypatch, tmp_path)
    assert fast("search", "ünïcödé")[1] == "no match\n"
    code, text, _ = fast("search", "größe")
    assert code == 0 and "messen" in text and "read" not in text


def test_search_finds_a_class_whose_name_starts_with_a_lone_capital(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """starlette's `search gzip` listed `GZipResponder.gzip_buffer` and a test's helper, not
    `GZipMiddleware` (indexed as `g zip middleware`: no word `gzip`)."""
    write(
        repo,
        "gzip.py",
        "class GZipMiddleware:\n    def __call__(self, scope):\n        return scope\n\n\n"
        "class Other:\n    pass\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    code, text, _ = fast("search", "gzip")
    assert code == 0 and "GZipMiddleware" in text.splitlines()[0], text
    assert "Other" not in text


def test_search_finds_a_word_in_another_form(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """cattrs: `search "disambiguate union by unique field"` never found
    `create_default_dis_func`, whose docstring says "disambiguation function ... unique
    fields": words are matched by their stem (SQLite's porter tokenizer)."""
    write(
        repo,
        "dis.py",
        'def create_dis_func(classes):\n    """Generate a disambiguation function from unique '
        'fields."""\n    return classes\n\n\ndef unrelated(x):\n    return x\n',
    )
    index_here(repo, monkeypatch, tmp_path)
    for query in ("disambiguate", "disambiguators unique field"):
        code, text, _ = fast("search", query)
        assert code == 0 and "create_dis_func" in text.splitlines()[0], text
        assert "unrelated" not in text


def test_a_map_leaves_out_type_variables(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """starlette's map listed `T = TypeVar("T")` and `P = ParamSpec("P")` among the most
    central definitions (every generic signature names them); a plain constant stays."""
    write(
        repo,
        "gen.py",
        "import typing\nfrom typing import ParamSpec, TypeVar\n\n"
        'T = TypeVar("T")\nP = ParamSpec("P")\nU = typing.TypeVar("U", bound=int)\n'
        "LIMIT = 10\n\n\n"
        "def first(xs: list[T]) -> T:\n    return xs[0]\n",
    )
    for k in range(3):
        write(
            repo,
            f"use{k}.py",
            "from gen import LIMIT, P, T, U, first\n\n\n"
            f"def f{k}(x: list[T], u: U) -> T:\n    return first(x) if LIMIT else x[0]\n",
        )
    index_here(repo, monkeypatch, tmp_path)
    code, text, _ = fast("map", "--budget", "2000")
    assert code == 0 and "LIMIT = 10" in text and "def first(" in text, text
    assert "TypeVar" not in text and "ParamSpec" not in text, text


def test_a_map_of_a_folder_shows_the_folder_first(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """jsoup's `map .../select --budget 300` listed Validate and Node, none of select/: the
    folder's PageRank mass flowed to the helpers every class calls."""
    write(repo, "helper/validate.py", "def not_null(x):\n    return x\n")
    for k in range(4):
        write(
            repo,
            f"select/s{k}.py",
            f"from helper.validate import not_null\n\n\ndef select_{k}(q):\n"
            "    return not_null(q)\n",
        )
    index_here(repo, monkeypatch, tmp_path)
    code, text, _ = fast("map", "select", "--budget", "2000")
    files = [line for line in text.splitlines() if not line.startswith(" ")]
    assert code == 0 and files[-1] == "helper/validate.py:" and len(files) == 5


def test_a_map_shows_the_repositorys_api_before_its_internals_and_no_init(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """testify's `map --budget 1000` was mostly `internal/spew/*` and `internal/difflib` (a
    copy of a third-party package calling itself: PageRank's mass) with spew's `func
    init()`, and no `mock.Mock`. The repository's API comes first, then what it keeps for
    itself (`internal/`, `_private`), then tests; a bare `init` or `main` is never shown."""
    write(repo, "go.mod", "module example.com/kit\n\ngo 1.21\n")
    spew = "".join(f"func S{k}() int {{\n\treturn S{(k + 1) % 6}() + F()\n}}\n\n" for k in range(6))
    write(repo, "internal/spew/spew.go", f"package spew\n\nfunc init() {{}}\n\n{spew}")
    write(repo, "internal/spew/f.go", "package spew\n\nfunc F() int {\n\treturn S0()\n}\n")
    write(
        repo,
        "mock/mock.go",
        'package mock\n\nimport "example.com/kit/internal/spew"\n\n'
        "type Mock struct{}\n\nfunc (m *Mock) On() int {\n\treturn spew.S1()\n}\n\n"
        "func main() {}\n",
    )
    write(
        repo,
        "mock/mock_test.go",
        "package mock\n\nfunc TestOn() {\n\tm := &Mock{}\n\tm.On()\n}\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    code, text, _ = fast("map", "--budget", "2000")
    files = [line for line in text.splitlines() if not line.startswith(" ")]
    assert code == 0 and files[0] == "mock/mock.go:" and files[-1] == "mock/mock_test.go:", text
    assert sorted(files[1:-1]) == ["internal/spew/f.go:", "internal/spew/spew.go:"], text
    assert "init()" not in text and "main()" not in text, text


def test_bundling_a_folder_or_another_target_keeps_the_repositorys_bundling(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An agent's `list_bundles` with another target (or a server rooted in a folder)
    replaced the one saved bundling the context pack names bundles from."""
    for k in range(6):
        write(repo, f"pkg/m{k}.py", f"def f{k}(x):\n    return x + {k}\n")
    index_here(repo, monkeypatch, tmp_path)
    assert fast("bundles")[0] == 0
    saved = tmp_path / "bundles.json"
    before = saved.read_bytes()
    assert fast("bundles", "--target-chars", "1000")[0] == 0
    assert fast("bundles", "pkg")[0] == 0
    assert saved.read_bytes() == before
    assert len(list(tmp_path.glob("bundles-*.json"))) == 2


def test_two_references_on_one_line_show_their_columns_and_a_tiny_map_says_so(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write(repo, "lib.py", "def width(s):\n    return len(s)\n")
    write(repo, "use.py", "from lib import width\n\nboth = width('a') + width('bb')\n")
    index_here(repo, monkeypatch, tmp_path)
    lines = fast("refs", "lib.py:1")[1].splitlines()
    assert "  use.py:3:8: call in variable both" in lines
    assert "  use.py:3:21: call in variable both" in lines
    assert "  use.py:1: import" in lines  # alone on its line: no column
    assert fast("map", "--budget", "3")[1] == "no definition fits in a budget of 3 tokens\n"


def test_search_finds_the_product_before_the_tests_that_exercise_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """scrapy's "retry failed requests" found a test first and `RetryMiddleware` fourth."""
    write(
        repo,
        "pkg/retry.py",
        'class RetryMiddleware:\n    """Retry failed requests."""\n\n'
        "    def process_response(self, request):\n        return request\n",
    )
    for k in range(30):  # words common to a few definitions only, as in a real repository
        write(repo, f"pkg/f{k}.py", f'def filler_{k}(value):\n    """Value {k}."""\n    return 1\n')
    write(
        repo,
        "tests/test_retry.py",
        "def test_retry_failed_requests():\n    '''Retry failed requests.'''\n    return 1\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    first = fast("search", "retry failed requests")[1].splitlines()[0]
    assert first.startswith("pkg/retry.py:1:"), first


def test_search_ranks_the_definition_named_by_the_words_first(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Typing the words of a name asks for that definition: `reset_form` first, above a much
    called unit whose docstring says "reset the form" over and over, the functions nested in
    `reset_form` (their qualified names hold its words) and a class whose name has one word
    more (formik's "reset form" put `resetForm` below units that only mention the words)."""
    write(
        repo,
        "forms/reset.py",
        "def reset_form(state):\n"
        "    def clear_touched():\n        return {}\n\n"
        "    def clear_errors():\n        return {}\n\n"
        "    return clear_touched(), clear_errors(), state\n",
    )
    write(
        repo,
        "forms/helpers.py",
        "def clear_after_submit(form, reset=True):\n"
        '    """Reset the form: reset form values, reset form errors, reset form touched, so\n'
        '    that after a reset the form is as new (reset form state)."""\n'
        "    return form\n\n\n"
        "class ResetFormButton:\n    def click(self):\n        return 1\n",
    )
    calls = "".join(f"    clear_after_submit(x{k})\n" for k in range(25))
    write(
        repo,
        "forms/use.py",
        f"from forms.helpers import clear_after_submit\n\n\ndef go(x):\n{calls}",
    )
    for k in range(30):  # words common to a few definitions only, as in a real repository
        write(repo, f"pkg/f{k}.py", f'def filler_{k}(value):\n    """Value {k}."""\n    return 1\n')
    index_here(repo, monkeypatch, tmp_path)
    for query in ("reset form", "resetForm", "reset_form"):
        code, found, err = fast("search", query, "--format", "json")
        assert code == 0, err
        first = [r["symbol"]["qualified"] for r in found["results"]]
        assert first[0] == "reset_form", (query, first)
        assert first.index("ResetFormButton") < first.index("reset_form.clear_touched"), first


def test_search_ranks_a_name_however_many_units_mention_its_words(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """marshmallow's "validates schema" left `validates_schema` out of the results: the 194
    test members under `TestValidatesSchemaDecorator` hold the words in their qualified names
    and docstrings and filled the candidates BM25 ranks."""
    prose = " ".join(f"word{k}" for k in range(60))
    write(
        repo,
        "lib/decorators.py",
        f'def validates_schema(fn=None):\n    """Register a hook. {prose}."""\n    return fn\n',
    )
    members = "".join(
        f"    def test_validates_schema_{k}(self):\n"
        "        class ValidatingSchema:\n"
        "            def validate_schema(self):\n"
        '                """Validates the schema."""\n'
        "                return 1\n\n"
        "        return ValidatingSchema\n\n"
        for k in range(40)
    )
    write(repo, "tests/test_decorators.py", f"class TestValidatesSchemaDecorator:\n{members}")
    for k in range(10):  # the words in under half of the definitions, as in marshmallow
        fillers = "".join(f"def filler_{k}_{j}(value):\n    return {j}\n\n\n" for j in range(30))
        write(repo, f"pkg/f{k}.py", fillers)
    index_here(repo, monkeypatch, tmp_path)
    code, found, err = fast("search", "validates schema", "--limit", "5", "--format", "json")
    assert code == 0, err
    first = [r["symbol"]["qualified"] for r in found["results"]]
    assert first[0] == "validates_schema", first


def test_a_member_whose_untyped_calls_are_linked_to_nothing_says_so(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Six `flush` methods in reach: `x.flush()` (x of unknown type) links to none of them
    (a guess of 1 in 6 tells nothing), and `refs` / `callers` said "0" and "none found" as if
    nothing called it. They count those calls."""
    classes = "".join(
        f"class C{k}:\n    def flush(self):\n        return {k}\n\n\n" for k in range(6)
    )
    write(repo, "m.py", classes)
    write(repo, "app.py", "import m\n\n\ndef f(x):\n    return x.flush()\n")
    index_here(repo, monkeypatch, tmp_path)
    code, doc, _ = fast("refs", "m.py:2", "--format", "json")
    assert code == 0 and doc["references"] == [] and doc["unlinked"] == 1
    code, text, _ = fast("callers", "m.py:2")
    assert "(1 `.flush` reference(s) on receivers of unknown type: not linked)" in text
    code, doc, _ = fast("refs", "app.py:4", "--format", "json")  # a function: no such count
    assert doc["unlinked"] == 0


def test_a_decorator_is_a_call_in_the_definition_it_decorates(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """rq: `refs pass_cli_config` listed its 9 uses `@pass_cli_config` as `other` outside any
    unit, and `callers` found none; a decorator is called with the definition under it (a
    bare or dotted name, or a call's result), so it is a call in that definition, as the
    impact (RB105) has it."""
    write(
        repo,
        "lib.py",
        "def wrap(func):\n    return func\n\n\ndef option(name):\n    return wrap\n\n\n"
        "class App:\n    def command(self, func):\n        return func\n",
    )
    write(
        repo,
        "cli.py",
        "from lib import App, option, wrap\n\napp = App()\n\n\n@app.command\n@option(\n"
        "    'name',\n)\n@wrap\ndef run(name):\n    return name\n\n\nclass Job:\n    @wrap\n"
        "    def go(self):\n        return 1\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    code, doc, _ = fast("refs", "lib.py:1", "--format", "json")
    assert code == 0
    assert [
        (r["path"], r["line"], r["kind"], r["unit"] and r["unit"]["label"])
        for r in doc["references"]
    ] == [
        ("cli.py", 1, "import", None),
        ("cli.py", 10, "call", "function run"),
        ("cli.py", 16, "call", "method Job.go"),
        ("lib.py", 6, "other", "function option"),
    ]
    code, doc, _ = fast("callers", "lib.py:1", "--format", "json")
    assert [(c["unit"]["label"], c["lines"]) for c in doc["callers"]] == [
        ("function run", [10]),
        ("method Job.go", [16]),
    ]
    code, doc, _ = fast("callers", "lib.py:10", "--format", "json")  # `@app.command`
    assert [(c["unit"]["label"], c["lines"]) for c in doc["callers"]] == [("function run", [6])]
    code, doc, _ = fast("callees", "cli.py:11", "--format", "json")
    assert {c["unit"]["label"] for c in doc["callees"]} >= {
        "function wrap",
        "function option",
        "method App.command",
    }


def test_search_fits_the_terminal_width(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """pluggy at 80 columns: `search` printed lines of 82-170 columns (long signatures)."""
    params = ", ".join(f"argument_number_{k}: int = {k}" for k in range(8))
    write(
        repo,
        "hooks.py",
        f"def call_hooks({params}):\n    return 0\n\n\ndef hook():\n    return 1\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    monkeypatch.setenv("COLUMNS", "60")
    code, text, _ = fast("search", "call hooks")
    lines = text.splitlines()
    assert code == 0 and all(len(line) <= 60 for line in lines), lines
    assert lines[0] == "hooks.py:1: function call_hooks"
    assert lines[1].startswith("    def call_hooks(argument_number_0: int = 0,") and lines[
        1
    ].endswith("…")
    assert "hooks.py:5: function hook  def hook()" in lines


def test_refs_callers_defs_and_the_map_fit_the_terminal_width(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """axios and formik at 80 columns: `refs` and `callers` printed 85-96 columns (a long
    unit's label and `(confidence 0.3333)`), `map` up to about 200 (a long signature)."""
    params = ", ".join(f"argument_number_{k}: int = {k}" for k in range(8))
    write(repo, "a/Box.py", "class Box:\n    def size(self):\n        return 1\n")
    write(repo, "b/Bag.py", "class Bag:\n    def size(self):\n        return 2\n")
    write(
        repo,
        "tests/unit/adapters/some_rather_long_folder_name/test_sizes_of_things.py",
        "from a.Box import Box\nfrom b.Bag import Bag\n\n\n"
        f"def a_test_whose_name_says_a_great_deal_about_what_it_does({params}):\n"
        "    return thing.size() + thing.size()\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    monkeypatch.setenv("COLUMNS", "60")
    for argv in (
        ("refs", "a/Box.py:2"),
        ("callers", "a/Box.py:2"),
        ("defs", "a_test_whose_name_says_a_great_deal_about_what_it_does"),
        ("map", "--budget", "400"),
    ):
        code, text, _ = fast(*argv)
        lines = text.splitlines()
        assert code == 0 and all(len(line) <= 60 for line in lines), (argv, lines)
    code, text, _ = fast("callers", "a/Box.py:2")
    lines = text.splitlines()
    # The place whole (the file's name and its line), the unit's label whole below it (too
    # long beside it), then the tail; confidences in two digits.
    assert lines[1].startswith("  tests/") and lines[1].endswith("/test_sizes_of_things.py:5:")
    label = " ".join(x.strip() for x in lines[2:4])
    assert label == "function a_test_whose_name_says_a_great_deal_about_what_it_does", lines
    assert lines[4] == "      lines 6 (confidence 0.5)"
    code, doc, _ = fast("refs", "a/Box.py:2", "--format", "json")
    assert {r["confidence"] for r in doc["references"]} == {0.5}  # (JSON: as stored)


def test_a_callers_unit_too_long_beside_its_place_goes_whole_below(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """rq at 80 columns: `callers` cut a unit's label inside its name (`method
    …testSk…tream`), the class left out; when the label fits on a line of its own it goes
    there whole, under its place."""
    write(repo, "a/Box.py", "class Box:\n    def size(self):\n        return 1\n")
    write(
        repo,
        "tests/unit/adapters/test_sizes.py",
        "from a.Box import Box\n\n\nclass QueueCallbackTestCase:\n"
        "    def test_enqueue_with_success_callback(self):\n        return Box().size()\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    monkeypatch.setenv("COLUMNS", "80")
    code, text, _ = fast("callers", "a/Box.py:2")
    lines = text.splitlines()
    assert code == 0 and all(len(line) <= 80 for line in lines), lines
    assert lines[1:] == [
        "  tests/unit/adapters/test_sizes.py:5:",
        "      method QueueCallbackTestCase.test_enqueue_with_success_callback",
        "      lines 6",
    ], lines


def test_a_name_level_link_is_marked_as_such(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ruby has no parser here: the index links its names only, and `refs` said so nowhere
    (rack's `q_values`: two references at confidence 1, like resolved ones). Now each is
    `by name` in the text and `"by_name": true` in the JSON; a Python one is neither."""
    write(repo, "util.rb", "module Util\n  def self.q_values(h)\n    h\n  end\nend\n")
    write(repo, "use.rb", "def best(h)\n  Util.q_values(h).first\nend\n")
    write(repo, "app/core.py", "def helper(x):\n    return x + 1\n")
    write(repo, "app/use.py", "from app.core import helper\n\nhelper(2)\n")
    index_here(repo, monkeypatch, tmp_path)
    code, doc, _ = fast("refs", "util.rb:2", "--format", "json")
    assert code == 0 and [(r["path"], r["by_name"]) for r in doc["references"]] == [
        ("use.rb", True)
    ], doc
    code, text, _ = fast("refs", "util.rb:2")
    assert "use.rb:2: call by name in function best" in text, text
    code, doc, _ = fast("refs", "app/core.py:1", "--format", "json")
    assert {r["path"] for r in doc["references"]} == {"app/use.py"}
    assert all("by_name" not in r for r in doc["references"]), doc


def test_refs_on_a_doc_comment_answer_for_the_definition_below_it(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """commons-io IOUtils.java:2700, in the Javadoc of skipFully: `refs` answered for class
    IOUtils (50 references); a review attaches a doc comment to the unit below it, and so do
    refs, callers and callees."""
    write(
        repo,
        "src/p/Util.java",
        "package p;\n\npublic class Util {\n    /**\n     * Skips.\n     *\n"
        "     * @param n how many\n     */\n    @Deprecated\n"
        "    public static int skip(int n) {\n        return n;\n    }\n\n"
        "    // a note, then a blank line\n\n    public static int other() {\n"
        "        return skip(2);\n    }\n}\n",
    )
    write(repo, "src/p/Use.java", "package p;\n\nclass Use {\n    int go() {\n"
          "        return Util.skip(1);\n    }\n}\n")  # fmt: skip
    index_here(repo, monkeypatch, tmp_path)
    for line in (4, 5, 6, 7, 8):
        code, doc, _ = fast("refs", f"src/p/Util.java:{line}", "--format", "json")
        assert code == 0 and doc["symbol"]["qualified"] == "Util.skip", (line, doc["symbol"])
    code, doc, _ = fast("callers", "src/p/Util.java:5", "--format", "json")
    assert doc["symbol"]["qualified"] == "Util.skip", doc
    code, doc, _ = fast("refs", "src/p/Util.java:14", "--format", "json")  # (not above one)
    assert doc["symbol"]["qualified"] == "Util", doc


def test_a_refs_row_too_long_keeps_its_unit_whole_on_a_line_below(
    repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """commons-io and rq at 80 columns: `other in met….close`, `attribute in
    m….test_enqueue_with_success_callback`: the place and the kind first, the unit whole
    under them, as `search` puts a signature."""
    write(repo, "lib.py", "def helper():\n    return 1\n")
    write(
        repo,
        "tests/some/rather/long/folder/test_lib.py",
        "from lib import helper\n\n\nclass TestQueue:\n"
        "    def test_enqueue_with_success_callback(self):\n        return helper()\n",
    )
    index_here(repo, monkeypatch, tmp_path)
    monkeypatch.setenv("COLUMNS", "60")
    _, text, _ = fast("refs", "lib.py:1")
    lines = text.splitlines()
    at = lines.index("  tests/some/rather/long/folder/test_lib.py:6: call")
    assert lines[at + 1] == "      in method TestQueue.test_enqueue_with_success_callback", lines
