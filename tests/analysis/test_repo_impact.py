"""Impact, RB105 and RB106 from the repository index, on small real repositories in Python,
TypeScript, Go and Java; the hook's use of the index through its real entry point."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reviewbot.analysis.signatures import (
    Call,
    Param,
    call_at,
    fits,
    header_change,
    parameters,
    reordered,
)
from reviewbot.app import pipeline
from reviewbot.app.config import Config, parse_config
from reviewbot.app.pipeline import GitChange, index_file
from reviewbot.errors import ConfigError
from reviewbot.index.build import IndexSettings, update_index
from reviewbot.render.hook_text import hook_text
from reviewbot.render.markdown import render_markdown
from reviewbot.render.report_json import load_schema, report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from reviewbot.repo.git import Git
from tests.helpers import commit, git, index_held, write


def build_index(repo: Path) -> Path:
    config = Config()
    settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry, jobs=1)
    database = index_file(Git(repo))
    update_index(Git(repo), database, settings)
    return database


def review(repo: Path, *, staged: bool = False, mode: pipeline.Mode = pipeline.Mode.FULL) -> Any:
    doc = report_doc(pipeline.review(GitChange(repo, staged=staged), Config(), mode=mode))
    jsonschema.validate(doc, load_schema())
    return doc


def setup(repo: Path, before: dict[str, str], after: dict[str, str | None]) -> None:
    for name, text in before.items():
        write(repo, name, text)
    commit(repo)
    build_index(repo)
    for name, new in after.items():
        if new is None:
            (repo / name).unlink()
        else:
            write(repo, name, new)


def codes(doc: Any, code: str) -> list[Any]:
    return [f for f in doc["findings"] if f["code"] == code]


def entry(doc: Any, name: str) -> Any:
    (found,) = [i for i in doc["impact"] if i["name"] == name]
    return found


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


PY_LIB = """def load(path, mode):
    return open(path, mode).read()


def helper(x):
    return x + 1


def fact(n):
    return 1 if n < 2 else n * fact(n - 1)
"""
PY_APP = """from pkg.lib import load, helper


def main():
    data = load("a.txt", "r")
    return helper(len(data))


def other():
    return load("b", mode="r")


def keyworded():
    return load(path="c", mode="r", encoding="utf-8")


def broken():
    return load()
"""


def test_python_rb105_rb106_and_the_impact_entries(repo: Path) -> None:
    new_lib = (
        "def load(path, mode, encoding):\n    return open(path, mode).read()\n\n\n"
        "def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\n"
    )
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP, "NOTES.md": "load"},
        {"pkg/lib.py": new_lib},
    )
    database = index_file(Git(repo))
    before = digest(database)
    doc = review(repo)
    assert digest(database) == before  # the review rolled its states back
    (gone,) = codes(doc, "RB105")
    assert gone["path"] == "pkg/lib.py" and gone["in_diff"] is True
    assert "helper is deleted" in gone["title"]
    assert "pkg/app.py:1 (import), 6 (function main)" in gone["message"]
    (stale,) = codes(doc, "RB106")
    # main() and other() call it the old way; keyworded() already passes encoding.
    assert "pkg/app.py:5 (function main)" in stale["message"]
    assert "pkg/app.py:5 (function main), 10 (function other)" in stale["message"]
    assert "keyworded" not in stale["message"] and stale["line"] == 1
    assert "broken" not in stale["message"]  # it fits neither list: not "the old way"
    load = entry(doc, "load")
    assert load["change"] == "signature" and load["source"] == "index"
    assert load["detail"] == "added encoding (required)"
    places = {(r["path"], r["line"], r["unit"], r["kind"]) for r in load["references"]}
    assert places == {
        ("pkg/app.py", 1, None, "import"),
        ("pkg/app.py", 5, "function main", "call"),
        ("pkg/app.py", 10, "function other", "call"),
        ("pkg/app.py", 14, "function keyworded", "call"),
        ("pkg/app.py", 18, "function broken", "call"),
    }  # never NOTES.md, never the definition itself
    assert load["total"] == 5 and not any(r["in_change"] for r in load["references"])
    # A body-only change lists nothing, and a recursive call is no reference to itself.
    assert [i["name"] for i in doc["impact"]] == ["helper", "load"]


def test_python_changes_in_the_change_count_as_in_change(repo: Path) -> None:
    new_app = PY_APP.replace('load("a.txt", "r")', 'load("a.txt", "r", "utf-8")')
    new_lib = PY_LIB.replace("def load(path, mode):", "def load(path, mode, encoding):")
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP},
        {"pkg/lib.py": new_lib, "pkg/app.py": new_app},
    )
    doc = review(repo)
    refs = {r["line"]: r["in_change"] for r in entry(doc, "load")["references"]}
    assert refs[5] is True and refs[10] is False
    (stale,) = codes(doc, "RB106")
    assert "pkg/app.py:10" in stale["message"] and "pkg/app.py:5" not in stale["message"]


def test_python_reordered_parameters_and_a_rename(repo: Path) -> None:
    shout = "(t):\n    x = t.upper()\n    return x + '!'\n"
    lib = "def scale(value, factor):\n    return value * factor\n\n\ndef shout" + shout
    app = "from m.lib import scale, shout\n\n\ndef run():\n    return shout(str(scale(2, 3)))\n"
    new = "def scale(factor, value):\n    return value * factor\n\n\ndef yell" + shout
    setup(repo, {"m/__init__.py": "", "m/lib.py": lib, "m/app.py": app}, {"m/lib.py": new})
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert "scale" in stale["title"] and "m/app.py:5" in stale["message"]
    (renamed,) = codes(doc, "RB105")
    assert "shout is renamed to yell" in renamed["title"]
    assert entry(doc, "shout")["change"] == "renamed"


def test_staged_side_is_resolved_not_the_working_tree(repo: Path) -> None:
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP},
        {"pkg/lib.py": PY_LIB.replace("def helper(x):\n    return x + 1\n", "")},
    )
    git(repo, "add", "-A")
    write(repo, "pkg/lib.py", PY_LIB)  # the working tree puts it back, unstaged
    staged = review(repo, staged=True, mode=pipeline.Mode.FAST)
    assert [f["title"] for f in codes(staged, "RB105")] == [
        "helper is deleted but still referenced"
    ]
    assert codes(review(repo, mode=pipeline.Mode.FAST), "RB105") == []


def test_without_an_index_the_grep_fallback_says_so(repo: Path) -> None:
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/lib.py", PY_LIB)
    write(repo, "pkg/app.py", PY_APP)
    commit(repo)
    write(repo, "pkg/lib.py", PY_LIB.replace("(path, mode)", "(path, mode, encoding)"))
    doc = review(repo)
    load = entry(doc, "load")
    assert load["source"] == "grep" and {r["kind"] for r in load["references"]} == {"text"}
    assert codes(doc, "RB106") == []  # RB106 needs resolved calls
    assert codes(review(repo, mode=pipeline.Mode.FAST), "RB105") == []


TS_LIB = """export function load(path: string, mode: string): string {
  return path + mode;
}

export function helper(x: number): number {
  return x + 1;
}
"""
TS_APP = """import { load, helper } from './lib';

export function main(): number {
  const data = load('a', 'r');
  return helper(data.length);
}

export function spread(args: [string, string]): string {
  return load(...args);
}
"""


def test_typescript(repo: Path) -> None:
    new_lib = (
        "export function load(path: string, mode: string, enc: string): string {\n"
        "  return path + mode + enc;\n}\n"
    )
    setup(repo, {"src/lib.ts": TS_LIB, "src/app.ts": TS_APP}, {"src/lib.ts": new_lib})
    doc = review(repo)
    (gone,) = codes(doc, "RB105")
    assert (
        "helper" in gone["title"] and "src/app.ts:1 (import), 5 (function main)" in gone["message"]
    )
    (stale,) = codes(doc, "RB106")
    assert "src/app.ts:4 (function main)" in stale["message"]
    assert "src/app.ts:9" not in stale["message"]  # a spread: its count is unknown
    # An optional parameter added keeps the old calls valid.
    write(repo, "src/lib.ts", TS_LIB.replace("mode: string)", "mode: string, enc?: string)"))
    assert codes(review(repo), "RB106") == []


GO_LIB = """package lib

func Load(path string, mode string) string {
	return path + mode
}

func Helper(x int) int {
	return x + 1
}
"""
GO_MAIN = """package main

import "example.com/m/lib"

func main() {
	data := lib.Load("a", "r")
	println(lib.Helper(len(data)))
}
"""


def test_go(repo: Path) -> None:
    new_lib = (
        "package lib\n\nfunc Load(path, mode string, extra ...int) string {\n"
        "\treturn path + mode\n}\n"
    )
    setup(
        repo,
        {"go.mod": "module example.com/m\n\ngo 1.21\n", "lib/lib.go": GO_LIB, "main.go": GO_MAIN},
        {"lib/lib.go": new_lib},
    )
    doc = review(repo)
    (gone,) = codes(doc, "RB105")
    assert "Helper" in gone["title"] and "main.go:7 (function main)" in gone["message"]
    assert codes(doc, "RB106") == []  # a variadic parameter: the old calls still fit
    write(repo, "lib/lib.go", GO_LIB.replace("mode string)", "mode string, n int)"))
    (stale,) = codes(review(repo), "RB106")
    assert "main.go:6 (function main)" in stale["message"]


JAVA_LIB = """package p;

public class Lib {
    public static String load(String path, String mode) {
        return path + mode;
    }

    public static int helper(int x) {
        return x + 1;
    }
}
"""
JAVA_APP = """package p;

class App {
    int run() {
        String data = Lib.load("a", "r");
        return Lib.helper(data.length());
    }
}
"""


def test_java(repo: Path) -> None:
    new_lib = JAVA_LIB.replace("String mode)", "String mode, int flags)").replace(
        "    public static int helper(int x) {\n        return x + 1;\n    }\n", ""
    )
    setup(
        repo, {"src/p/Lib.java": JAVA_LIB, "src/p/App.java": JAVA_APP}, {"src/p/Lib.java": new_lib}
    )
    doc = review(repo)
    (gone,) = codes(doc, "RB105")
    assert "helper" in gone["title"] and "src/p/App.java:6 (method App.run)" in gone["message"]
    (stale,) = codes(doc, "RB106")
    assert "src/p/App.java:5 (method App.run)" in stale["message"]


def test_the_hook_entry_point_reports_a_staged_deletion(repo: Path) -> None:
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP},
        {"pkg/lib.py": PY_LIB.replace("def helper(x):\n    return x + 1\n", "")},
    )
    git(repo, "add", "-A")
    hook = Path(sys.executable).parent / "reviewbot-hook"
    env = {**os.environ, "NO_COLOR": "1"}
    out = subprocess.run(
        [str(hook), "pkg/lib.py"], cwd=repo, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "RB105" in out and "helper is deleted but still referenced" in out
    # Without the index the hook stays as it was: no RB105.
    index_file(Git(repo)).unlink()
    out = subprocess.run(
        [str(hook), "pkg/lib.py"], cwd=repo, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "[RB105]" not in out and "RB105/RB106 not checked: no index" in out


@pytest.mark.parametrize(
    ("signature", "name", "language", "method", "shape"),
    [
        ("def f(a, b=1, *args, c, d=2, **kw)", "f", "python", False, "a! b *args c! d **kw"),
        ("def m(self, a, /, b)", "m", "python", True, "a! b!"),
        (
            "function f(a: number, b?: string, ...r: any[]): void",
            "f",
            "typescript",
            False,
            "a! b *r",
        ),
        ("g = (x, y = () => 1) =>", "g", "javascript", False, "x! y"),
        ("func (r *T) M(a, b int, c ...string) error", "M", "go", True, "a! b! *c"),
        ("public <T> int m(Map<K, V> a, String... b)", "m", "java", True, "a! *b"),
    ],
)
def test_parameters_per_language(
    signature: str, name: str, language: str, method: bool, shape: str
) -> None:
    params = parameters(signature, name, language, method)
    assert params is not None
    shown = " ".join(
        ("*" if p.kind == "varargs" else "**" if p.kind == "varkw" else "")
        + p.name
        + ("!" if p.required else "")
        for p in params
    )
    assert shown == shape


def test_calls_and_fits() -> None:
    text = 'x = load("a, b", f(1, 2), mode="r")'
    call = call_at(text, text.index("("), "python")
    assert call == Call(2, ("mode",), False)
    params = parameters("def load(path, extra, mode)", "load", "python", False)
    assert params is not None and fits(call, params, "python") is True
    assert fits(Call(1, ("mode",), False), params, "python") is False  # extra missing
    assert fits(Call(0, (), True), params, "python") is None
    old = parameters("def s(a, b)", "s", "python", False)
    new = parameters("def s(b, a)", "s", "python", False)
    assert old is not None and new is not None
    assert reordered(old, new, Call(2, (), False))
    assert not reordered(old, new, Call(0, ("a", "b"), False))


@pytest.mark.parametrize(
    ("argument", "header", "fit"),
    [
        ("1", "void f(int x)", True),
        ('"a"', "void f(int x)", False),
        ('"a"', "void f(final @NonNull String x)", True),
        ("1", "void f(java.lang.String x)", False),
        ("-2.5f", "void f(Boolean x)", False),
        ("null", "void f(long x)", False),
        ("null", "void f(Integer x)", True),
        ("true", "void f(T x)", True),  # a type variable takes anything
        ('"a"', "void f(int[] x)", True),  # an array: not read (no int)
        ('"a"', "void f(int x[])", True),
        ("'c'", "void f(String x)", False),
        ("n", "void f(String x)", True),  # no literal
        ('"a"', "void f(Object... x)", True),
    ],
)
def test_a_java_literal_argument_fits_the_types_it_can_be(
    argument: str, header: str, fit: bool
) -> None:
    text = f"f({argument});"
    call = call_at(text, 1, "java")
    params = parameters(header, "f", "java", True)
    assert call is not None and params is not None
    assert fits(call, params, "java") is fit


def test_a_damaged_index_falls_back_to_grep_and_the_hook_goes_on(repo: Path) -> None:
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP},
        {"pkg/lib.py": PY_LIB.replace("(path, mode)", "(path, mode, encoding)")},
    )
    index_file(Git(repo)).write_bytes(b"not a database at all" * 100)
    doc = review(repo)
    assert entry(doc, "load")["source"] == "grep" and codes(doc, "RB106") == []
    assert codes(review(repo, mode=pipeline.Mode.FAST), "RB106") == []
    # The hook says what it could not check, instead of passing silently.
    report = pipeline.review(GitChange(repo), Config(), mode=pipeline.Mode.FAST)
    assert report.index_note == "index damaged; run `reviewbot index`"
    text = hook_text(report, "staged change", max_findings=50, show_info=False)
    assert "RB105/RB106 not checked: index damaged; run `reviewbot index`" in text


def test_the_hook_names_an_index_of_other_settings(repo: Path) -> None:
    setup(
        repo,
        {"pkg/__init__.py": "", "pkg/lib.py": PY_LIB, "pkg/app.py": PY_APP},
        {"pkg/lib.py": PY_LIB.replace("(path, mode)", "(path, mode, encoding)")},
    )
    write(repo, ".reviewbot.toml", 'exclude = ["docs/**"]\n')
    git(repo, "add", "-A")
    hook = Path(sys.executable).parent / "reviewbot-hook"
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(
        [str(hook), "--fail-on", "warning", "pkg/lib.py"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "[RB106]" not in done.stdout  # no finding: not checked
    assert "RB105/RB106 not checked: index built with other settings" in done.stdout


def test_rb105_for_a_file_s_last_function_sits_on_its_last_line(repo: Path) -> None:
    """Deleting the last function of a file (the usual place for a new one to be removed):
    RB105 sits on the file's last line, inside the hunk, so the Action can post it inline
    (it was one line past the end)."""
    lib = "def keep():\n    return 1\n\n\ndef gone():\n    return 2\n"
    setup(
        repo,
        {"lib.py": lib, "app.py": "from lib import gone\n\n\ndef run():\n    return gone()\n"},
        {"lib.py": "def keep():\n    return 1\n"},
    )
    (found,) = codes(review(repo), "RB105")
    assert (found["path"], found["line"], found["in_diff"]) == ("lib.py", 2, True)


def test_a_file_tree_sitter_cannot_parse_still_has_its_impact(repo: Path) -> None:
    """tree-sitter-typescript 0.23 reads an interface of bare call signatures (no `;`) as
    errors past the index's 25% limit: the index outlines such a file, and the review found
    no declaration in it at all (deleting `helper` listed nothing). It outlines it too."""
    sigs = "".join(f"  <T>(value{k}?: T): Box<T>\n" for k in range(6))
    broken = "interface Maker {\n  <T>(value: T): Box<T>\n" + sigs + "}\n\n" + TS_LIB
    setup(
        repo,
        {"src/lib.ts": broken, "src/app.ts": TS_APP},
        {"src/lib.ts": broken.replace("export function helper", "function helper2")},
    )
    doc = review(repo)
    refs = [(r["path"], r["line"]) for r in entry(doc, "helper")["references"]]
    assert ("src/app.ts", 5) in refs


def test_removing_one_overload_or_half_of_an_accessor_lists_its_calls_with_rb105(
    repo: Path,
) -> None:
    """The calls of a removed overload signature, or of a removed getter whose setter stays,
    now reach the namesake left in the scope (the TypeScript service and jedi count them as
    the removed declaration's references): they are its impact, and an RB105 that says what
    they reach now, since whether it serves them is not known (a setter does not serve a
    read; here the setter's own decorator names the removed getter: the module breaks)."""
    lib = (
        "export function on(a: string, cb: () => void): void;\n"
        "export function on(a: string, key: string, cb: () => void): void;\n"
        "export function on(a: string, b: any, c?: any): void {\n  return;\n}\n"
    )
    app = (
        "import { on } from './lib';\n\n"
        "export function main(): void {\n"
        "  on('x', () => {});\n"
        "  on('x', 'k', () => {});\n"
        "}\n"
    )
    text = (
        "class Text:\n"
        "    @property\n"
        "    def spans(self):\n"
        "        return self._spans\n\n"
        "    @spans.setter\n"
        "    def spans(self, value):\n"
        "        self._spans = value\n"
    )
    use = "from text import Text\n\n\ndef show(t: Text):\n    return t.spans\n"
    setup(
        repo,
        {"src/lib.ts": lib, "src/app.ts": app, "text.py": text, "use.py": use},
        {
            "src/lib.ts": lib.replace(
                "export function on(a: string, key: string, cb: () => void): void;\n", ""
            ),
            "text.py": text.replace(
                "    @property\n    def spans(self):\n        return self._spans\n\n", ""
            ),
        },
    )
    doc = review(repo)
    (on,) = [i for i in doc["impact"] if i["name"] == "on" and i["change"] == "removed"]
    # (line 4's `on('x', () => {})` fits only the first overload: never the removed one's)
    assert {(r["path"], r["line"]) for r in on["references"]} == {
        ("src/app.ts", 1),  # the import
        ("src/app.ts", 5),
    }
    assert (on["retargeted"], on["now"]) == (2, "")  # two declarations remain: none named
    assert {r.get("now", "") for r in on["references"]} == {""}
    (spans,) = [i for i in doc["impact"] if i["name"] == "spans" and i["change"] == "removed"]
    # (the setter's decorator names the getter: it breaks too)
    assert [(r["path"], r["line"]) for r in spans["references"]] == [
        ("text.py", 2),
        ("use.py", 5),
    ]
    messages = {f["title"]: f["message"] for f in codes(doc, "RB105")}
    assert set(messages) == {
        "on is deleted but still referenced",
        "spans is deleted but still referenced",
    }
    assert (
        "(All now reach other declarations of on: check that they serve them.)"
        in messages["on is deleted but still referenced"]
    )
    # (the decorator `@spans.setter` runs before the setter binds `spans`: it reaches
    # nothing now; `t.spans` reaches the setter)
    assert (
        "(1 of them now reach method Text.spans at text.py:3: check"
        in messages["spans is deleted but still referenced"]
    )


def test_a_half_edited_file_tree_sitter_cannot_parse_deletes_nothing(repo: Path) -> None:
    """Staging a file mid-edit (an unclosed parenthesis: 99% of it errors to tree-sitter) made
    every declaration tree-sitter had read before "deleted but still referenced": the new side
    is outlined, so the old one is too, and what is still there is no deletion."""
    lib = (
        "TIMEOUT = 3\n\n\n"
        "def load(path, mode):\n    return open(path, mode).read()\n\n\n"
        "def helper(x):\n    return x + TIMEOUT\n"
    )
    app = "from lib import TIMEOUT, load, helper\n\nhelper(load('a', 'r')) + TIMEOUT\n"
    broken = lib.replace("mode):", "mode:").replace(".read()", ".read(")
    setup(repo, {"lib.py": lib, "app.py": app}, {"lib.py": broken})
    doc = review(repo)
    assert codes(doc, "RB105") == []
    assert [i["name"] for i in doc["impact"] if i["change"] == "removed"] == []


def test_a_half_edited_file_still_reports_what_it_really_deletes(repo: Path) -> None:
    """A file left with syntax errors: a declaration no line defines any more is deleted (a
    constant, which the outliner does not see, included), one tree-sitter's recovery swallowed
    (`def third` read into the unclosed call above it) is not, and no header is re-signed."""
    lib = (
        "TIMEOUT = 5\n\n\n"
        "def helper(a):\n    return a + TIMEOUT\n\n\n"
        "def other(b):\n    return b\n\n\n"
        "def third(c):\n    return c\n"
    )
    app = "from lib import TIMEOUT, helper, other, third\n\nhelper(1) + other(TIMEOUT) + third(2)\n"
    broken = lib.replace("TIMEOUT = 5\n\n\n", "").replace("return a + TIMEOUT", "return a + 5")
    broken = broken.replace("    return b\n", "    return foo(b\n")
    setup(repo, {"lib.py": lib, "app.py": app}, {"lib.py": broken})
    doc = review(repo)
    assert [f["title"] for f in codes(doc, "RB105")] == ["TIMEOUT is deleted but still referenced"]
    assert {(i["name"], i["change"]) for i in doc["impact"]} == {("TIMEOUT", "removed")}


def test_a_reference_reaching_another_declaration_only_silences_rb105_when_it_surely_works(
    repo: Path,
) -> None:
    """Adversarial pass 8: `s.size() + o.size()` (the other `size` on the line decided for
    both), and a removed override whose callers now reach an abstract method, a base method of
    other parameters, or (renamed) the base without being updated: each breaks, each is an
    RB105. A removed override whose base method serves its callers is not."""
    lib = (
        "import abc\n\n\n"
        "class Srv:\n    def size(self):\n        return 1\n\n\n"
        "class Other:\n    def size(self):\n        return 2\n\n\n"
        "class Base(abc.ABC):\n    @abc.abstractmethod\n    def run(self):\n        ...\n\n"
        "    def save(self):\n        return 0\n\n"
        "    def load(self, path):\n        return path\n\n\n"
        "class Impl(Base):\n    def run(self):\n        return 1\n\n"
        "    def save(self, path, mode):\n        return 1\n\n"
        "    def load(self, path):\n        return 2\n"
    )
    app = (
        "from lib import Impl, Other, Srv\n\n\n"
        "def go(s: Srv, o: Other, i: Impl):\n"
        "    total = s.size() + o.size()\n"
        "    i.run()\n"
        "    i.save('out', 'w')\n"
        "    return i.load('in') + total\n"
    )
    gone = (
        lib.replace("class Srv:\n    def size(self):\n        return 1\n", "class Srv:\n    pass\n")
        .replace("    def run(self):\n        return 1\n\n", "")
        .replace("    def save(self, path, mode):\n        return 1\n\n", "")
        .replace(
            "    def load(self, path):\n        return 2\n",
            "    def extra(self):\n        return 'x' * 3\n",
        )
    )
    setup(repo, {"lib.py": lib, "app.py": app}, {"lib.py": gone})
    titles = {f["title"] for f in codes(review(repo), "RB105")}
    assert titles == {
        "size is deleted but still referenced",  # only Other has a size
        "run is deleted but still referenced",  # Base.run is abstract
        "save is deleted but still referenced",  # Base.save takes no path and mode
    }  # and not load: Base.load(path) serves `i.load('in')`
    # A renamed override's callers left behind now run the base's method: they were missed.
    write(
        repo,
        "lib.py",
        lib.replace(
            "    def load(self, path):\n        return 2\n",
            "    def fetch(self, path):\n        return 2\n",
        ),
    )
    assert "load is renamed to fetch but still referenced" in {
        f["title"] for f in codes(review(repo), "RB105")
    }


def test_typescript_a_method_removed_from_a_class_that_implements_an_interface(repo: Path) -> None:
    """`Srv implements Svc` loses `stop()`: `s.stop()` now reaches the interface's member,
    which runs nothing (tsc: TS2339). An interface is no base whose method serves it."""
    lib = (
        "export interface Svc {\n  stop(): void;\n}\n\n"
        "export class Srv implements Svc {\n  stop(): void {\n    return;\n  }\n\n"
        "  start(): number {\n    return 1;\n  }\n}\n"
    )
    app = "import { Srv } from './lib';\n\nexport function go(s: Srv): void {\n  s.stop();\n}\n"
    gone = lib.replace("  stop(): void {\n    return;\n  }\n\n", "")
    setup(repo, {"src/lib.ts": lib, "src/app.ts": app}, {"src/lib.ts": gone})
    (found,) = codes(review(repo), "RB105")
    assert found["title"] == "stop is deleted but still referenced"
    assert "now reach method Svc.stop at src/lib.ts:2" in found["message"]


def test_a_file_the_grammar_cannot_read_on_both_sides_is_still_re_signed(repo: Path) -> None:
    """mobx's observable.ts is 47% errors to tree-sitter-typescript as committed: a header
    changed there is a re-signing (the sides are read alike), unlike one in a file the change
    itself breaks."""
    sigs = "".join(f"  <T>(value{k}?: T): Box<T>\n" for k in range(6))
    broken = "interface Maker {\n  <T>(value: T): Box<T>\n" + sigs + "}\n\n" + TS_LIB
    resigned = broken.replace("helper(x: number)", "helper(x: number, y: number)")
    setup(repo, {"src/lib.ts": broken, "src/app.ts": TS_APP}, {"src/lib.ts": resigned})
    found = entry(review(repo), "helper")
    assert found["change"] == "signature" and found["total"] >= 1


def test_java_an_overload_removed_breaks_the_calls_that_fit_it_only(repo: Path) -> None:
    """jsoup f2ea9dfe removed `onStack(ArrayList, Element)` and kept `onStack(Element)`: the
    calls `onStack(el)` were the kept overload's all along (the index counts overloads as one
    meaning), and an RB105 said 16 of them still referenced the removed one. A call whose
    arguments fit the removed overload (`conv("a")` after `conv(String)` went, `conv(int)`
    left) is one that may break: an RB105."""
    lib = (
        "package p;\n\nimport java.util.List;\n\npublic class Lib {\n"
        "    public boolean onStack(Object el) {\n        return el != null;\n    }\n\n"
        "    static boolean onStack(List<Object> q, Object el) {\n"
        "        return q.contains(el);\n    }\n\n"
        "    public int conv(String s) {\n        return s.length();\n    }\n\n"
        "    public int conv(int n) {\n        return n;\n    }\n}\n"
    )
    app = (
        "package p;\n\npublic class App {\n    int run(Lib l, Object o) {\n"
        '        boolean a = l.onStack(o);\n        return l.conv("a") + (a ? 1 : 0);\n    }\n}\n'
    )
    gone = lib.replace(
        "    static boolean onStack(List<Object> q, Object el) {\n"
        "        return q.contains(el);\n    }\n\n",
        "",
    ).replace("    public int conv(String s) {\n        return s.length();\n    }\n\n", "")
    setup(repo, {"src/p/Lib.java": lib, "src/p/App.java": app}, {"src/p/Lib.java": gone})
    doc = review(repo)
    assert [f["title"] for f in codes(doc, "RB105")] == ["conv is deleted but still referenced"]
    (on,) = [i for i in doc["impact"] if i["name"] == "onStack"]
    assert on["references"] == []


def test_a_signature_cut_short_is_no_parameter_list(repo: Path) -> None:
    """A header longer than a stored signature is cut inside its parameters, its return type
    kept (`def configure(text: str, …, quiet: …) -> str`). Read as a whole list it made the
    cut parameter required and the ones after it vanish: click 0585f456 widened `prompt`'s
    first annotation and an RB106 said its 10 callers (all fine) called it the old way. What
    the cut hides is not known: no RB106 from it."""
    params = ",\n    ".join(f"parameter_number_{i}: int = {i}" for i in range(7))
    api = (
        f"def configure(\n    text: str,\n    {params},\n    verbose: bool = False,\n"
        "    quiet: bool = False,\n) -> str:\n    return text\n"
    )
    use = (
        "from api import configure\n\n\n"
        "def main():\n    return configure('x', parameter_number_1=2)\n"
    )
    widened = api.replace("text: str,", "text: str | bytes | bytearray | memoryview,")
    setup(repo, {"api.py": api, "use.py": use}, {"api.py": widened})
    doc = review(repo)
    assert codes(doc, "RB106") == []
    header = widened.split(":\n")[0]  # the whole header still reads
    assert parameters(header, "configure", "python", False) is not None
    assert parameters("def configure(text: str, par…) -> str", "configure", "python", False) is None


def test_typescript_removing_an_overload_sets_implementation_breaks_every_call(
    repo: Path,
) -> None:
    """class-validator's `validateSync`: two overload signatures and the implementation after
    them. Removing the implementation leaves signatures nothing implements: every call was the
    implementation's (even `v.validateSync(model)`, whose one argument does not fit the
    implementation's two required parameters), all listed, with an RB105."""
    lib = (
        "export class Validator {\n"
        "  validateSync(object: object, options?: string): number;\n"
        "  validateSync(schema: string, object: object, options?: string): number;\n"
        "  validateSync(a: object | string, b: any, c?: any): number {\n"
        "    return 1;\n"
        "  }\n"
        "}\n"
    )
    app = (
        "import { Validator } from './lib';\n\n"
        "export function main(v: Validator): number {\n"
        "  const n = v.validateSync({});\n"
        "  return n + v.validateSync('s', {});\n"
        "}\n"
    )
    gone = lib.replace(
        "  validateSync(a: object | string, b: any, c?: any): number {\n    return 1;\n  }\n", ""
    )
    setup(repo, {"src/lib.ts": lib, "src/app.ts": app}, {"src/lib.ts": gone})
    doc = review(repo)
    (entry_,) = [i for i in doc["impact"] if i["name"] == "validateSync"]
    assert entry_["change"] == "removed"
    assert {(r["path"], r["line"]) for r in entry_["references"]} == {
        ("src/app.ts", 4),
        ("src/app.ts", 5),
    }
    assert [f["title"] for f in codes(doc, "RB105")] == [
        "validateSync is deleted but still referenced"
    ]


@pytest.mark.parametrize(
    ("lib", "app", "edit", "old_call", "new_call", "bare"),
    [
        (
            "export class Thing {\n  constructor(size: number) {}\n}\n",
            "import { Thing } from './lib';\n"
            "export function make(): string {\n"
            "  const t = new Thing(1);\n"
            "  return t.constructor.name;\n"
            "}\n"
            "export function other(): Thing {\n  return new Thing(2, 3);\n}\n",
            ("size: number", "size: number, unit: string"),
            "src/app.ts:3 (function make)",
            "src/app.ts:7",
            "export class Thing {}\n",
        ),
        (
            "class Thing:\n    def __init__(self, size):\n        self.size = size\n",
            "from src.lib import Thing\n\n\ndef make():\n    return Thing(1)\n\n\n"
            "def other():\n    return Thing(2, 'm')\n",
            ("size):", "size, unit):"),
            "src/app.py:5 (function make)",
            "src/app.py:9",
            "class Thing:\n    pass\n",
        ),
    ],
    ids=["typescript", "python"],
)
def test_a_re_signed_constructor_lists_the_classes_instantiations(
    repo: Path, lib: str, app: str, edit: tuple[str, str], old_call: str, new_call: str, bare: str
) -> None:
    # A constructor gains a required parameter: `new Thing(1)` / `Thing(1)` run it and now
    # fail (RB106); the call already passing two arguments does not. `t.constructor` (TS) is
    # the class object, no reference of the constructor.
    ext = ".ts" if "export" in lib else ".py"
    files = {f"src/lib{ext}": lib, f"src/app{ext}": app}
    if ext == ".py":
        files["src/__init__.py"] = ""
    setup(repo, files, {f"src/lib{ext}": lib.replace(*edit)})
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert old_call in stale["message"]
    assert new_call not in stale["message"]
    (found,) = doc["impact"]
    lines = {(r["path"], r["line"]) for r in found["references"]}
    assert lines == {
        (f"src/app{ext}", 3 if ext == ".ts" else 5),
        (new_call.split(":")[0], int(new_call.split(":")[1])),
    }
    # Removed, the class is still built (a base's constructor or the default one may serve):
    # the instantiations are listed, and no RB105 claims they break.
    write(repo, f"src/lib{ext}", bare)
    doc = review(repo)
    assert codes(doc, "RB105") == []
    (gone,) = [i for i in doc["impact"] if i["change"] == "removed"]
    assert len(gone["references"]) == 2


def test_removing_one_branch_of_a_conditional_definition_breaks_its_callers(repo: Path) -> None:
    # typer's `if WINDOWS: from ._win import wrap` / `else: def wrap(...)`: the `else`
    # definition removed, `wrap` is bound on Windows only; the calls elsewhere are listed with
    # an RB105. Moving the function away and importing it back is no such thing.
    term = (
        "import sys\n\nif sys.platform == 'win32':\n    from pkg._win import wrap\n"
        "else:\n\n    def wrap(text):\n        return text\n"
    )
    files = {
        "pkg/__init__.py": "",
        "pkg/_win.py": "def wrap(text):\n    return text.upper()\n",
        "pkg/term.py": term,
        "app.py": "from pkg.term import wrap\n\n\ndef show():\n    return wrap('x')\n",
    }
    gone = term.replace("else:\n\n    def wrap(text):\n        return text\n", "")
    setup(repo, files, {"pkg/term.py": gone})
    (found,) = codes(review(repo), "RB105")
    assert "app.py:1 (import), 5 (function show)" in found["message"]
    # A move: `def wrap` leaves for pkg/_win.py, which term.py now imports it from.
    write(repo, "pkg/term.py", "def wrap(text):\n    return text\n")
    commit(repo)
    build_index(repo)
    write(repo, "pkg/term.py", "from pkg._win import wrap\n")
    assert codes(review(repo), "RB105") == []


def test_static_and_class_methods_called_through_their_class_are_checked(repo: Path) -> None:
    # tqdm: `def format_interval(t)` of a `@staticmethod` now `(t, sep)`; its calls
    # `tqdm.format_interval(elapsed)` pass the parameters as written (a class method's `cls`
    # is bound, like self). A plain method called `Thing.m(obj, 1)` takes its receiver first
    # (its class imported: the index links it via the import; it was judged as `obj.m(obj, 3)`).
    lib = (
        "class Thing:\n    @staticmethod\n    def interval(t):\n        return t\n\n"
        "    @classmethod\n    def make(cls, n):\n        return cls()\n\n"
        "    def plain(self, a, b):\n        return a\n"
    )
    use = (
        "from m import Thing\n\n\ndef use(obj):\n    Thing.interval(1)\n"
        "    Thing.make(2)\n    return Thing.plain(obj, 3)\n"
    )
    after = (
        lib.replace("interval(t)", "interval(t, sep)")
        .replace("make(cls, n)", "make(cls, n, m)")
        .replace("plain(self, a, b)", "plain(self, a)")
    )
    setup(repo, {"m.py": lib, "use.py": use}, {"m.py": after})
    found = {f["title"]: f["message"] for f in codes(review(repo), "RB106")}
    assert set(found) == {  # (not `Thing.plain(obj, 3)`: it passes the new way)
        "interval() is called the old way in 1 place(s)",
        "make() is called the old way in 1 place(s)",
    }
    assert "use.py:5" in found["interval() is called the old way in 1 place(s)"]
    assert "use.py:6" in found["make() is called the old way in 1 place(s)"]


def test_a_method_becoming_a_property_or_ceasing_to_be_one_is_re_signed(repo: Path) -> None:
    # `def total(self)` kept its header but gained `@property` (or `@functools.cached_property`)
    # or lost it: every `obj.total()` (or every `obj.total` read as a value) breaks.
    lib = (
        "import functools\n\n\nclass Cart:\n    def total(self):\n        return 1\n\n"
        "    @property\n    def size(self):\n        return 2\n"
    )
    use = (
        "from m import Cart\n\n\ndef use():\n    cart = Cart()\n    a = cart.total()\n"
        "    b = cart.size\n    return a + b\n"
    )
    after = lib.replace(
        "    def total(self):", "    @functools.cached_property\n    def total(self):"
    ).replace("    @property\n    def size", "    def size")
    setup(repo, {"m.py": lib, "use.py": use}, {"m.py": after})
    doc = review(repo)
    found = {f["title"]: f["message"] for f in codes(doc, "RB106")}
    assert set(found) == {
        "total is now a property but still called in 1 place(s)",
        "size is no longer a property but still read as one in 1 place(s)",
    }
    assert "use.py:6" in found["total is now a property but still called in 1 place(s)"]
    assert "use.py:7" in found["size is no longer a property but still read as one in 1 place(s)"]
    assert entry(doc, "total")["detail"] == "now a property"
    assert entry(doc, "size")["detail"] == "no longer a property"
    # Callers that follow: no finding.
    write(repo, "use.py", use.replace("cart.total()", "cart.total").replace(".size", ".size()"))
    assert codes(review(repo), "RB106") == []


def test_functions_moved_to_a_new_file_are_named_on_their_new_header(repo: Path) -> None:
    # tqdm: `disp_len`, `disp_trim` moved from utils.py into a new width.py while std.py
    # still imports them from utils: the RB105 said "utils.py is moved", on width.py's last
    # line (the old lines' place read in the new file); now it names them, on disp_len's
    # header, and a comment there silences it.
    utils = (
        "import os\n\n\ndef cols():\n    return os.sep\n\n\n"
        "def disp_len(s):\n    return len(s)\n\n\ndef disp_trim(s, n):\n    return s[:n]\n"
    )
    use = "from utils import disp_len, disp_trim\n\nx = disp_len('a') + len(disp_trim('a', 1))\n"
    width = (
        "# Widths.\n\n\ndef disp_len(s):\n    return len(s)\n\n\n"
        "def disp_trim(s, n):\n    return s[:n]\n\n\nEND = 1\n"
    )
    setup(
        repo,
        {"utils.py": utils, "std.py": use},
        {"utils.py": utils.split("\n\n\ndef disp_len")[0] + "\n", "width.py": width},
    )
    git(repo, "add", "-N", "width.py")
    rep = pipeline.review(GitChange(repo), Config())
    (found,) = [f for f in rep.findings if f.code == "RB105"]
    assert found.title == "disp_len, disp_trim moved to width.py but still imported from utils.py"
    assert (found.path, found.line) == ("width.py", 4)
    text = " ".join(review_text(rep, Style(False), width=80).split())
    assert "comment on line 4, the moved declaration's header" in text
    write(repo, "width.py", width.replace("(s):", "(s):  # reviewbot: ignore[RB105]", 1))
    assert codes(review(repo), "RB105") == []


def test_a_base_named_through_an_import_alias_the_change_made_is_not_re_signed(
    repo: Path,
) -> None:
    # black 9e969ddc: `from click.testing import CliRunner as _CliRunner` and `class
    # BlackRunner(_CliRunner)`: the same base; the review listed BlackRunner's 36 places as
    # "bases now _CliRunner (were CliRunner)". Another class as its base still is a re-sign.
    files = {
        "ext/__init__.py": "",
        "ext/testing.py": "class CliRunner:\n    pass\n\n\nclass Other:\n    pass\n",
        "t.py": "from ext.testing import CliRunner\n\n\nclass Runner(CliRunner):\n    pass\n",
        "u.py": "from t import Runner\n\nRunner()\n",
    }
    after = (
        "from ext.testing import CliRunner as _CliRunner\n\n\nclass Runner(_CliRunner):\n    pass\n"
    )
    setup(repo, files, {"t.py": after})
    assert [i for i in review(repo)["impact"] if i["name"] == "Runner"] == []
    index_file(Git(repo)).unlink()
    assert [i for i in review(repo)["impact"] if i["name"] == "Runner"] == []  # (git grep)
    other = after.replace("CliRunner as _CliRunner", "Other as _CliRunner")
    write(repo, "t.py", other)
    assert entry(review(repo), "Runner")["change"] == "signature"


def test_rb105_says_how_many_references_it_could_not_check(repo: Path) -> None:
    # black: `Line.is_docstring` deleted; `previous_block.original_line.is_docstring` (a
    # receiver no rule types) was counted in the JSON's `uncertain` but RB105 listed only the
    # two sure places, as if they were all.
    lib = (
        "class Line:\n    @property\n    def is_doc(self):\n        return True\n\n"
        "    def other(self):\n        return 1\n"
    )
    use = (
        "from m import Line\n\n\ndef sure():\n    return Line().is_doc\n\n\n"
        "def unsure(block):\n    return block.line.is_doc\n"
    )
    gone = lib.replace("    @property\n    def is_doc(self):\n        return True\n\n", "")
    setup(repo, {"m.py": lib, "use.py": use}, {"m.py": gone})
    doc = review(repo)
    (found,) = codes(doc, "RB105")
    assert "use.py:5" in found["message"] and "use.py:9" not in found["message"]
    assert found["message"].endswith(
        "(1 `.is_doc` reference(s) on receivers of unknown type were not checked)"
    )
    assert entry(doc, "is_doc")["uncertain"] == 1


def test_another_classs_init_is_not_counted_as_unchecked(repo: Path) -> None:
    # black 0a6396ba: a re-signed `_TopLevelStatementsVisitor.__init__` said "5 `.__init__(…)`
    # reference(s) on receivers of unknown type were not checked": `_C.__init__.__code__` in
    # test data, which cannot run it. A receiver that is an expression may: still counted.
    lib = "class Visitor:\n    def __init__(self, a):\n        self.a = a\n"
    other = (
        "def line(_C):\n    return _C.__init__.__code__.co_firstlineno\n\n\n"
        "def make(f):\n    return f().__init__(1)\n"
    )
    after = lib.replace("(self, a)", "(self, a, b)")
    setup(repo, {"m.py": lib, "other.py": other}, {"m.py": after})
    assert entry(review(repo), "__init__")["uncertain"] == 1


def test_a_reference_on_a_decorator_is_its_definitions(repo: Path) -> None:
    # tqdm e4d9742: `@envwrap("TQDM_", is_method=True, ...)` above `def __init__` was listed
    # in `class tqdm` (the index's scope around the method).
    lib = "def envwrap(prefix, types=None):\n    return lambda f: f\n"
    use = (
        "from lib import envwrap\n\n\nclass Bar:\n    @envwrap(\n        'B_',\n"
        "        types=None,\n    )\n    def __init__(self, a):\n        self.a = a\n\n\n"
        "@envwrap('C_')\ndef run():\n    return 1\n"
    )
    setup(repo, {"lib.py": lib, "use.py": use}, {"lib.py": lib.replace("types=None", "types")})
    units = {r["line"]: r["unit"] for r in entry(review(repo), "envwrap")["references"]}
    assert units[5] == "method Bar.__init__" and units[13] == "function run"


def test_a_class_gaining_a_base_is_not_re_signed(repo: Path) -> None:
    # click 77bd81f3: `class FuncParamType(ParamType)` gained a base; a Python class's header
    # lists its bases, not what its calls pass (its `__init__` says that).
    lib = (
        "class Base:\n    pass\n\n\nclass Mixin:\n    pass\n\n\n"
        "class Thing(Base):\n    def __init__(self, a):\n        self.a = a\n"
    )
    files = {"m.py": lib, "use.py": "from m import Thing\n\n\ndef use():\n    return Thing(1)\n"}
    setup(repo, files, {"m.py": lib.replace("class Thing(Base):", "class Thing(Base, Mixin):")})
    assert codes(review(repo), "RB106") == []


def test_dropping_an_import_errors_fallback_is_no_rb105(repo: Path) -> None:
    # `try: from p._fast import wrap` / `except ImportError: def wrap(x)`: the fallback dropped
    # (the import is what served the callers when the package was there).
    compat = (
        "try:\n    from p._fast import wrap\nexcept ImportError:\n\n"
        "    def wrap(x):\n        return x\n"
    )
    files = {
        "p/__init__.py": "",
        "p/_fast.py": "def wrap(x):\n    return x\n",
        "p/compat.py": compat,
        "p/use.py": "from p.compat import wrap\n\n\ndef run():\n    return wrap(1)\n",
    }
    setup(repo, files, {"p/compat.py": "from p._fast import wrap\n"})
    assert codes(review(repo), "RB105") == []


def test_a_fallback_def_replaced_by_the_import_it_stood_in_for_is_no_rb105(repo: Path) -> None:
    # tqdm 687f5e4: `try: from operator import length_hint` / `except ImportError: def
    # length_hint(...)` became a plain `from operator import length_hint` (a module outside
    # the repository): the name is still bound in its module; no RB105 with the index, in the
    # hook, nor from git grep. An import under an `if` may not run: still an RB105.
    compat = (
        '"""Doc."""\nfrom contextlib import contextmanager\n\ntry:\n'
        "    from operator import length_hint\nexcept ImportError:\n\n"
        "    def length_hint(it, default=0):\n        return default\n\n\n"
        "def run(it):\n    return length_hint(it)\n"
    )
    files = {"p/__init__.py": "", "p/conc.py": compat}
    dropped = (
        '"""Doc."""\nfrom contextlib import contextmanager\n'
        "from operator import (\n    length_hint,  # (3.4+)\n)\n\n\n"
        "def run(it):\n    return length_hint(it)\n"
    )
    setup(repo, files, {"p/conc.py": dropped})
    doc = review(repo)
    assert codes(doc, "RB105") == [] and "length_hint" not in {i["name"] for i in doc["impact"]}
    git(repo, "add", "p/conc.py")
    assert codes(review(repo, staged=True, mode=pipeline.Mode.FAST), "RB105") == []
    index_file(Git(repo)).unlink()
    assert codes(review(repo), "RB105") == []  # (git grep)
    conditional = dropped.replace(
        "from operator import (\n    length_hint,  # (3.4+)\n)\n",
        "import sys\n\nif sys.version_info > (3,):\n    from operator import length_hint\n",
    )
    write(repo, "p/conc.py", conditional)
    (found,) = codes(review(repo), "RB105")
    assert found["title"] == "length_hint is deleted but still referenced"


def test_one_of_two_conditional_definitions_dropped_is_no_rb105(repo: Path) -> None:
    # cattrs 9e0e6ee "Remove 3.9": `if sys.version_info >= (3, 10): def is_union` /
    # `else: def is_union` became one `def is_union`; a `try`/`except ImportError` pair of
    # `def get_annots` became one top-level `def get_annots` further down. The name means the
    # function left; the callers are listed, not broken. An `@overload` stub left alone
    # (its implementation deleted) still breaks them.
    compat = (
        "import sys\n\nif sys.version_info >= (3, 10):\n\n    def is_union(t):\n"
        "        return 1\n\nelse:\n\n    def is_union(t):\n        return 2\n\n\n"
        "try:\n    import fast\n\n    def annots(c):\n        return fast.a(c)\n\n"
        "except ImportError:\n\n    def annots(c):\n        return {}\n"
    )
    files = {
        "compat.py": compat,
        "use.py": "from compat import annots, is_union\n\n\ndef run():\n"
        "    return is_union(1), annots(2)\n",
    }
    left = (
        "import sys\n\n\ndef is_union(t):\n    return 1\n\n\n"
        "import fast\n\n\ndef other():\n    return 0\n\n\ndef annots(c):\n"
        "    return fast.a(c)\n"
    )
    setup(repo, files, {"compat.py": left})
    doc = review(repo)
    assert codes(doc, "RB105") == []
    removed = {i["name"] for i in doc["impact"] if i["change"] == "removed"}
    assert removed == {"is_union", "annots"}  # listed, as reaching the one left
    # The implementation deleted and an `@overload` stub left: the calls break.
    stub = (
        "from typing import overload\n\n\n@overload\ndef size(t: int) -> int: ...\n\n\n"
        "def size(t):\n    return t\n"
    )
    write(repo, "sizes.py", stub)
    write(repo, "app.py", "from sizes import size\n\n\ndef go():\n    return size(1)\n")
    commit(repo)
    build_index(repo)
    write(repo, "sizes.py", stub.replace("\n\ndef size(t):\n    return t\n", ""))
    (found,) = codes(review(repo), "RB105")
    assert "app.py:1 (import), 5" in found["message"]


def test_references_in_the_change_are_counted_over_all_not_only_the_listed_ones(
    repo: Path, cli: Any
) -> None:
    """zod 555e5f46f: `toZod` added with 27 references, all in the change; the JSON lists 20
    and the text said "referenced in 27 place(s), 20 in the change" (counted among the listed
    ones), the context pack "27+". Counted over all, in every format."""
    calls = "".join(f"    x{k} = helper({k})\n" for k in range(25))
    write(repo, "lib.py", "def helper(a):\n    return a\n")
    write(repo, "app.py", "def main():\n    return 0\n")
    write(repo, "other.py", "from lib import helper\n\n\ndef run():\n    return helper(1)\n")
    commit(repo)
    build_index(repo)
    # Re-signed; app.py's import and 25 calls in the change, other.py's two references not.
    write(repo, "lib.py", "def helper(a, b=0):\n    return a + b\n")
    write(repo, "app.py", "from lib import helper\n\n\ndef main():\n" + calls + "    return 0\n")
    doc = review(repo)
    found = entry(doc, "helper")
    assert (found["total"], found["in_change_total"]) == (28, 26)  # calls and imports
    assert len(found["references"]) == 20 and found["truncated"] and not found["incomplete"]
    rep = pipeline.review(GitChange(repo), Config())
    text = review_text(rep, Style(False), width=300)
    # (an optional parameter added, every call checked: one line, its calls still fit)
    assert (
        "(signature: added b) is referenced in 28 place(s), 26 in the change; its calls still fit"
    ) in text
    pack = cli("review", "-C", str(repo), "--format", "prompt").out
    assert "- `helper` (signature: added b, `function helper` in lib.py): 28 reference(s):" in pack
    assert "(signature: added b) is referenced in 28 place(s)" in render_markdown(rep)
    # All of them in the change: nothing reaches outside it, no format lists it.
    write(repo, "other.py", "def run():\n    return 1\n")
    rep = pipeline.review(GitChange(repo), Config())
    (only,) = [i for i in rep.impact if i.name == "helper"]
    assert (only.total, only.in_change_total, only.outside, only.shown) == (26, 26, 0, False)
    assert "helper" not in review_text(rep, Style(False), width=300).split("\n\n")[0]
    assert "helper (signature" not in render_markdown(rep)


def test_a_java_constructors_impact_is_the_calls_of_its_arity(repo: Path) -> None:
    # Re-signed, the one constructor of Circle gets its RB106 for `new Circle(4)`; removed,
    # `Shape(int a, int b)` leaves `new Shape(2, 3)` broken (RB105), while `new Shape(2)` is
    # the other constructor's and not listed.
    shape = (
        "package p;\n\npublic class Shape {\n"
        "    public Shape(int a) {\n    }\n"
        "    public Shape(int a, int b) {\n    }\n"
        "}\n"
    )
    circle = (
        "package p;\n\npublic class Circle extends Shape {\n"
        "    public Circle(int r) {\n        super(r);\n    }\n}\n"
    )
    main = (
        "package p;\n\npublic class Main {\n    public static void main(String[] args) {\n"
        "        Shape s = new Shape(2, 3);\n        Shape t = new Shape(2);\n"
        "        Circle c = new Circle(4);\n    }\n}\n"
    )
    setup(
        repo,
        {"src/p/Shape.java": shape, "src/p/Circle.java": circle, "src/p/Main.java": main},
        {
            "src/p/Circle.java": circle.replace("Circle(int r)", "Circle(int r, int s)"),
            "src/p/Shape.java": shape.replace("    public Shape(int a, int b) {\n    }\n", ""),
        },
    )
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert "src/p/Main.java:7" in stale["message"]
    (gone,) = codes(doc, "RB105")
    assert "src/p/Main.java:5" in gone["message"]
    assert "src/p/Main.java:6" not in gone["message"]
    resigned = entry(doc, "Circle")
    assert resigned["change"] == "signature"
    assert [(r["path"], r["line"]) for r in resigned["references"]] == [("src/p/Main.java", 7)]
    removed = entry(doc, "Shape")
    assert removed["change"] == "removed"
    assert [(r["path"], r["line"]) for r in removed["references"]] == [("src/p/Main.java", 5)]


def test_a_re_signed_init_lists_cls_calls_and_a_subclass_inheriting_it(repo: Path) -> None:
    # `cls(1)` in a classmethod and `Sub(3)` (Sub has no `__init__`) run `Base.__init__`.
    lib = (
        "class Base:\n    def __init__(self, a):\n        self.a = a\n\n"
        "    @classmethod\n    def make(cls):\n        return cls(1)\n\n\n"
        "class Sub(Base):\n    pass\n"
    )
    app = "from src.lib import Sub\n\n\ndef use():\n    return Sub(3)\n"
    setup(
        repo,
        {"src/__init__.py": "", "src/lib.py": lib, "src/app.py": app},
        {"src/lib.py": lib.replace("(self, a):", "(self, a, b):")},
    )
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert "src/lib.py:7" in stale["message"]
    assert "src/app.py:5" in stale["message"]
    found = entry(doc, "__init__")
    assert {(r["path"], r["line"]) for r in found["references"]} == {
        ("src/lib.py", 7),
        ("src/app.py", 5),
    }


@pytest.mark.parametrize(
    ("old", "new", "language", "said"),
    [
        ("def f(a: int, b=1):", "def f(a: str, b=2) -> int:", "python", "types or defaults only"),
        (
            "def f(a, b=1):",
            "def f(a, c, b=1, *, d=3, e):",
            "python",
            "added c (required), d, e (required)",
        ),
        (
            "def f(a, b=1, c=2):",
            "def f(b, a, *, c=2):",
            "python",
            "now required: b; now keyword-only: c; reordered",
        ),
        ("def f(a, b, c, d, e):", "def f():", "python", "removed a, b, c and 2 more"),
        ("def f(a):", "async def f(a):", "python", "now async"),
        (
            "async f(a: number): Promise<void>",
            "f(a: number): void",
            "typescript",
            "no longer async",
        ),
        ("def f(a):", "@cache def f(a):", "python", ""),  # not a parameter's change: not said
        (
            "f(a: string, b?: number): void",
            "f(a: number, b: number): void",
            "typescript",
            "now required: b",
        ),
        ("func F(a int) error", "func F(a int64) error", "go", "types or defaults only"),
        ("int f(int a, int b)", "int f(int b, int a)", "java", "reordered"),
        # a keyword-only parameter renamed in place is passed by name (packaging c411a96f)
        ("def f(self, a, *, b, c):", "def f(self, a, *, d, c):", "python", "renamed b → d"),
        ("def f(a, b, *, c):", "def f(x, b, *, c):", "python", "renamed a → x"),
        ("def f(a, b", "def f(a):", "python", ""),  # a list cut short: unknown
        # only the modifiers (javapoet: a re-sign read as a bare "(signature)")
        ("public int f(int a)", "public static final int f(int a)", "java", "now final, static"),
        ("public abstract int f(int a)", "int f(int a)", "java", "no longer abstract, public"),
        # an annotation (commons-cli: `@Deprecated` added said a bare "(signature)")
        ("public int f(int a)", "@Deprecated public int f(int a)", "java", "now @Deprecated"),
        # a Java parameter's type (read for literal arguments) is still a type
        ("int f(int a)", "int f(long a)", "java", "types or defaults only"),
        ("int f(final String a)", "int f(java.lang.String a)", "java", "types or defaults only"),
    ],
)
def test_a_re_signed_headers_change_is_said_in_a_few_words(
    old: str, new: str, language: str, said: str
) -> None:
    name = "F" if language == "go" else "f"
    assert header_change((name, old), (name, new), language, False) == said


def test_a_long_header_is_compared_whole(repo: Path) -> None:
    """starlette 2ff76532: `Starlette.__init__`'s header (over 300 characters, which the index
    cuts) lost its `typing.` prefixes: its cut texts differed where the cut fell, so it read
    as re-signed with 127 references. A review compares whole headers: a qualifier's change is
    none, and a parameter added past the cut is one (its RB106 names the caller)."""
    params = ",\n".join(
        f"    option_{k}: typing.Optional[typing.Tuple[int, int]] = None" for k in range(9)
    )
    lib = f"import typing\n\n\ndef configure(\n{params},\n) -> None:\n    pass\n"
    app = "from lib import configure\n\n\ndef main():\n    configure(None)\n"
    setup(repo, {"lib.py": lib, "app.py": app}, {"lib.py": lib.replace("typing.", "")})
    assert [i for i in review(repo)["impact"] if i["name"] == "configure"] == []
    grown = lib.replace("    option_8", "    required_one: int,\n    option_8")
    write(repo, "lib.py", grown)
    doc = review(repo)
    found = entry(doc, "configure")
    assert found["change"] == "signature" and found["detail"] == "added required_one (required)"
    (stale,) = codes(doc, "RB106")
    assert "app.py:5 (function main)" in stale["message"]


def test_ignore_in_the_configuration_leaves_a_deleted_files_rb105_out(repo: Path) -> None:
    """A deleted file's RB105 has no line a `reviewbot: ignore` comment could be on: the text
    says so and names the configuration's `ignore`, which leaves it out (by code and path
    glob; a code alone for every path); other codes and paths stay."""
    lib = "def helper(x):\n    return x + 1\n"
    app = "from pkg.old import helper\n\n\ndef main():\n    return helper(1)\n"
    setup(repo, {"pkg/__init__.py": "", "pkg/old.py": lib, "pkg/app.py": app}, {"pkg/old.py": None})
    rep = pipeline.review(GitChange(repo), Config())
    (gone,) = [f for f in rep.findings if f.code == "RB105"]
    assert gone.path == "pkg/old.py"
    text = " ".join(review_text(rep, Style(False), width=80).split())
    assert 'ignore = ["RB105:pkg/old.py"] in .reviewbot.toml' in text
    for ignore, left in (
        (["RB105:pkg/*.py"], False),
        (["rb105"], False),
        (["RB105:other/**"], True),
        (["RB106"], True),
    ):
        config = parse_config({"ignore": ignore})
        rep = pipeline.review(GitChange(repo), config)
        assert any(f.code == "RB105" for f in rep.findings) is left, ignore
        assert (rep.stats.findings_total > 0) is left, ignore


@pytest.mark.parametrize(
    ("ignore", "message"),
    [
        ("RB105", "ignore: expected a list of codes"),
        (["RB999"], "ignore: unknown code 'RB999'; known: RB101"),
        (["RB105:"], "ignore: 'RB105:' names no path glob after ':'"),
        ([3], "ignore: expected a list of codes"),
    ],
)
def test_a_wrong_ignore_is_an_error_naming_it(ignore: Any, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"ignore": ignore}, "x.toml")
    assert str(caught.value).startswith("x.toml: " + message)


def test_a_types_only_re_sign_comes_after_the_ones_that_break_calls(repo: Path) -> None:
    """starlette f0997431: `Route.__init__` (types or defaults only, 184 references) led the
    impact lines; a re-sign that changed what a call must pass comes first."""
    lib = "def alpha(a: int):\n    return a\n\n\ndef beta(b):\n    return b\n"
    app = "from lib import alpha, beta\n\n\ndef main():\n    return alpha(1) + beta(2)\n"
    setup(
        repo,
        {"lib.py": lib, "app.py": app},
        {"lib.py": lib.replace("a: int", "a: str").replace("(b)", "(b, c=0)")},
    )
    rep = pipeline.review(GitChange(repo), Config())
    assert [(i.name, i.detail) for i in rep.impact_shown] == [
        ("beta", "added c"),
        ("alpha", "types or defaults only"),
    ]
    text = review_text(rep, Style(False), width=300)
    assert text.index("function beta (signature: added c)") < text.index("function alpha")


@pytest.mark.parametrize(
    ("files", "path", "old", "new", "stale", "kept"),
    [
        (
            {
                "app/base.py": "class Base:\n    def save(self, path):\n        pass\n",
                "app/sub.py": (
                    "from app.base import Base\n\n\nclass Sub(Base):\n"
                    "    def save(self, path):\n        pass\n\n\n"
                    "class Loose(Base):\n    def save(self, *args, **kwargs):\n        pass\n\n\n"
                    "class Deeper(Sub):\n    def save(self, where):\n        pass\n"
                ),
            },
            "app/base.py",
            "def save(self, path):",
            "def save(self, path, mode):",
            ["app/sub.py:5 (Sub.save)", "app/sub.py:15 (Deeper.save)"],
            "Loose.save",
        ),
        (
            {
                "src/base.ts": "export class Base {\n  save(path: string): void {}\n}\n",
                "src/sub.ts": (
                    "import { Base } from './base';\n\n"
                    "export class Sub extends Base {\n  save(path: string): void {}\n}\n"
                    "export class Wide extends Base {\n"
                    "  save(path: string, mode: string): void {}\n}\n"
                ),
            },
            "src/base.ts",
            "save(path: string): void {}",
            "save(path: string, mode: string): void {}",
            ["src/sub.ts:4 (Sub.save)"],
            "Wide.save",
        ),
        (
            {
                "src/p/Base.java": (
                    "package p;\n\npublic class Base {\n    void save(String p) {}\n}\n"
                ),
                "src/p/Sub.java": (
                    "package p;\n\npublic class Sub extends Base {\n"
                    "    @Override\n    void save(String p) {}\n}\n"
                ),
                "src/p/Other.java": (
                    "package p;\n\npublic class Other {\n    void save(String p) {}\n}\n"
                ),
            },
            "src/p/Base.java",
            "void save(String p) {}",
            "void save(String p, int mode) {}",
            ["src/p/Sub.java:4 (Sub.save)"],  # (its annotation's line)
            "Other.save",
        ),
        (
            {
                "m/base.py": "class Base:\n    def move(self, x, y):\n        pass\n",
                "m/sub.py": (
                    "from m.base import Base\n\n\nclass Sub(Base):\n"
                    "    def move(self, x, y):\n        pass\n\n\n"
                    "class Named(Base):\n    def move(self, a, b):\n        pass\n"
                ),
            },
            "m/base.py",
            "def move(self, x, y):",
            "def move(self, y, x):",
            ["m/sub.py:5 (Sub.move)"],
            "Named.move",
        ),
        (
            # Impl keeps save(String) as an overload beside the new save(String, int)
            {
                "src/p/Api.java": (
                    "package p;\n\npublic interface Api {\n    void save(String p);\n}\n"
                ),
                "src/p/Impl.java": (
                    "package p;\n\npublic class Impl implements Api {\n"
                    "    public void save(String p) {}\n"
                    "    public void save(String p, int m) {}\n}\n"
                ),
                "src/p/Lag.java": (
                    "package p;\n\npublic class Lag implements Api {\n"
                    "    public void save(String p) {}\n}\n"
                ),
            },
            "src/p/Api.java",
            "void save(String p);",
            "void save(String p, int m);",
            ["src/p/Lag.java:4 (Lag.save)"],
            "Impl.save",
        ),
    ],
    ids=["python", "typescript", "java", "python-reordered", "java-overload-kept"],
)
def test_rb106_names_overrides_left_with_the_old_parameters(
    repo: Path,
    files: dict[str, str],
    path: str,
    old: str,
    new: str,
    stale: list[str],
    kept: str,
) -> None:
    # A method re-signed while the methods overriding it (in the classes below, however deep)
    # still take the old parameters: a call through the base the new way reaches them with
    # an argument they do not take. An override that takes anything (`*args`), one already
    # re-signed, and a namesake in an unrelated class are not named. No caller at all here.
    setup(repo, files, {path: files[path].replace(old, new)})
    doc = review(repo)
    (found,) = codes(doc, "RB106")
    assert "overridden the old way in" in found["title"], found["title"]
    assert f"in {len(stale)} place(s)" in found["title"]
    assert "overriding method(s) still take the old parameters" in found["message"]
    for place in stale:
        assert place in found["message"], found["message"]
    assert kept not in found["message"] and found["path"] == path


def test_java_rb106_for_an_overloaded_method_names_calls_no_overload_takes(repo: Path) -> None:
    """A Java method with overloads re-signed: a call that fitted it and now fits neither its
    new parameters nor another overload left beside it no longer compiles (`conv("a")` after
    `conv(String)` became `conv(String, boolean)`, `conv(int, int)` kept), and a subclass's
    override of the old one overrides nothing now (its override of `conv(int, int)`, shaped
    like the new one, says nothing: it is the kept one's). A call that fits a kept overload by its
    number of arguments may be that one's, unless a literal argument cannot be: `wrap("a")`
    beside `wrap(int)` is named, `wrap(s)` is not."""
    lib = (
        "package p;\n\npublic class Lib {\n"
        "    public int conv(String s) {\n        return s.length();\n    }\n\n"
        "    public int conv(int n, int m) {\n        return n + m;\n    }\n\n"
        "    public int wrap(String s) {\n        return 1;\n    }\n\n"
        "    public int wrap(int n) {\n        return n;\n    }\n}\n"
    )
    sub = (
        "package p;\n\npublic class Sub extends Lib {\n    @Override\n"
        "    public int conv(String s) {\n        return 0;\n    }\n\n"
        "    @Override\n    public int conv(int n, int m) {\n        return 0;\n    }\n}\n"
    )
    app = (
        "package p;\n\npublic class App {\n    int run(Lib l) {\n"
        '        int a = l.conv("a");\n        int b = l.conv(1, 2);\n'
        '        return a + b + l.wrap("a")\n            + l.wrap(String.valueOf(b));\n    }\n}\n'
    )
    resigned = lib.replace("conv(String s)", "conv(String s, boolean trim)").replace(
        "wrap(String s)", "wrap(String s, int k)"
    )
    files = {"src/p/Lib.java": lib, "src/p/Sub.java": sub, "src/p/App.java": app}
    setup(repo, files, {"src/p/Lib.java": resigned})
    doc = review(repo)
    found, wrap = codes(doc, "RB106")
    assert found["title"] == "conv() is called or overridden the old way in 2 place(s)"
    assert "src/p/App.java:5" in found["message"], found["message"]
    assert "src/p/Sub.java:4 (Sub.conv)" in found["message"], found["message"]
    assert "App.java:6" not in found["message"]
    assert wrap["title"] == "wrap() is called the old way in 1 place(s)"
    assert "src/p/App.java:7" in wrap["message"], wrap["message"]


def test_two_java_overloads_re_signed_each_name_the_calls_their_literals_fit(repo: Path) -> None:
    """Two overloads of one arity both re-signed: each is a change (only the first was), and
    each names the calls whose literal arguments it can take (`put(1)` is no `put(String)`'s);
    a call whose argument is no literal may be either's."""
    w = "package a;\n\npublic class W {\n    void put(int x) {}\n    void put(String s) {}\n}\n"
    v = (
        "package a;\n\nclass V {\n    void n(W w, String t) {\n"
        '        w.put(1);\n        w.put("a");\n        w.put(t);\n    }\n}\n'
    )
    resigned = w.replace("int x)", "int x, int y)").replace("String s)", "String s, int y)")
    setup(repo, {"src/a/W.java": w, "src/a/V.java": v}, {"src/a/W.java": resigned})
    found = {f["line"]: f["message"] for f in codes(review(repo), "RB106")}
    assert sorted(found) == [4, 5]
    assert "V.java:5" in found[4] and "V.java:6" not in found[4], found[4]
    assert "V.java:6" in found[5] and "V.java:5" not in found[5], found[5]
    assert "V.java:5, 7" in found[4] and "V.java:6-7" in found[5]


def test_rb106_names_a_recursive_call_left_with_the_old_arguments(repo: Path) -> None:
    """marshmallow's `set_value(dct, key, value)` calls itself on an unchanged line: re-signed
    to take a fourth required parameter, that call breaks like any other. It is named by
    RB106; the impact still lists no reference of a definition inside itself."""
    util = (
        "def set_value(dct, key, value):\n"
        "    if '.' in key:\n"
        "        head, rest = key.split('.', 1)\n"
        "        set_value(dct.setdefault(head, {}), rest, value)\n"
        "    else:\n"
        "        dct[key] = value\n"
    )
    use = "from util import set_value\n\n\ndef main(d):\n    set_value(d, 'a.b', 1)\n"
    resigned = util.replace("(dct, key, value):", "(dct, key, value, sep):")
    setup(repo, {"util.py": util, "use.py": use}, {"util.py": resigned})
    doc = review(repo)
    (found,) = codes(doc, "RB106")
    assert found["title"] == "set_value() is called the old way in 2 place(s)", found["title"]
    assert "use.py:5" in found["message"] and "util.py:4" in found["message"]
    listed = entry(doc, "set_value")["references"]
    assert [(r["path"], r["line"]) for r in listed] == [("use.py", 1), ("use.py", 5)]


@pytest.mark.parametrize(
    ("header", "shown"),
    [
        ("def f(self, value, *, partial=None):", "(value, *, partial=…)"),
        ("def f(self, a, b, /, c, *args, d, **kw):", "(a, b, /, c, *args, d, **kw)"),
    ],
)
def test_rb106_writes_a_parameter_list_as_python_does(header: str, shown: str) -> None:
    """marshmallow's `_validate_missing(self, value, *, partial=None)` was told as taking
    `(value, partial)`: a keyword-only parameter looked positional."""
    from reviewbot.analysis.repo_impact import _show

    params = parameters(header, "f", "python", True)
    assert params is not None and _show(params) == shown


def test_rb106_writes_a_ts_parameter_list_as_typescript_does() -> None:
    """zustand: `createJSONStorage(getStorage, options?)` was told `(getStorage, options=…)`."""
    from reviewbot.analysis.repo_impact import _show

    header = "function f(getStorage: () => S, options?: Options, ...rest: any[]): void"
    params = parameters(header, "f", "typescript", False)
    assert params is not None
    assert _show(params, language="typescript") == "(getStorage, options?, ...rest)"


def test_java_rb106_leaves_calls_with_type_arguments_and_fields_of_the_name(repo: Path) -> None:
    """An adversarial pass over the overload rule: `s.put(new HashMap<String, Integer>())`
    counted two arguments (the comma in the type arguments) and was named for the re-signed
    two-parameter `put`, though it is the kept one-parameter one's; and a field named like
    the re-signed method (`timeout` beside `timeout(String)`, jsoup's `HttpConnection.Base`)
    was taken for an unreadable overload, which silenced RB106."""
    store = (
        "package p;\n\nimport java.util.Map;\n\npublic class Store {\n"
        "    private String timeout;\n\n"
        "    public void put(Map<String, Integer> m) {\n    }\n\n"
        "    public void put(Map<String, Integer> m, int n) {\n    }\n\n"
        "    public void timeout(String t) {\n        timeout = t;\n    }\n}\n"
    )
    use = (
        "package p;\n\nimport java.util.HashMap;\n\npublic class Use {\n"
        "    void run(Store s) {\n        s.put(new HashMap<String, Integer>());\n"
        '        s.timeout("5s");\n    }\n}\n'
    )
    resigned = store.replace("int n) {", "int n, boolean strict) {").replace(
        "timeout(String t) {", "timeout(String t, int unit) {"
    )
    files = {"src/p/Store.java": store, "src/p/Use.java": use}
    setup(repo, files, {"src/p/Store.java": resigned})
    found = codes(review(repo), "RB106")
    assert [f["title"] for f in found] == ["timeout() is called the old way in 1 place(s)"], found
    assert "src/p/Use.java:8" in found[0]["message"]


def test_typescript_rb106_for_a_re_signed_overload_signature(repo: Path) -> None:
    """A TS overload signature re-signed: a call that fitted it and now fits no signature
    left (the implementation is none a call can pick) no longer compiles; a call another
    signature takes is that one's. Re-signing the implementation alone changes no call."""
    lib = (
        "export class Bus {\n"
        "  on(ev: 'tick', cb: () => void): void;\n"
        "  on(ev: string): void;\n"
        "  on(ev: any, cb?: any): void {\n    return;\n  }\n}\n"
    )
    app = (
        "import { Bus } from './lib';\n\nexport function go(b: Bus): void {\n"
        "  b.on('x');\n  b.on('tick', () => {});\n}\n"
    )
    resigned = lib.replace("  on(ev: string): void;", "  on(ev: string, strict: boolean): void;")
    setup(repo, {"src/lib.ts": lib, "src/app.ts": app}, {"src/lib.ts": resigned})
    (found,) = codes(review(repo), "RB106")
    assert found["title"] == "on() is called the old way in 1 place(s)", found["title"]
    assert "src/app.ts:4" in found["message"] and "src/app.ts:5" not in found["message"]
    # (the implementation re-signed alone: the calls still pick the same signatures)
    (repo / "src/lib.ts").write_text(lib.replace("cb?: any): void {", "cb: any): void {"))
    assert codes(review(repo), "RB106") == []


def test_rb106_says_how_many_calls_it_could_not_check(repo: Path) -> None:
    """jsoup `Node.attr(String)` re-signed: RB106 named 9 calls, while 88 `.attr(...)` calls on
    receivers no rule types (loop variables) went unchecked and unsaid. The message counts
    them."""
    lib = "class Store:\n    def put(self, key):\n        return key\n\n\nclass Other:\n    pass\n"
    use = (
        "from lib import Store\n\n\ndef run(s: Store, items):\n    s.put('a')\n"
        "    for it in items:\n        it.put('b')\n"
    )
    resigned = lib.replace("def put(self, key):", "def put(self, key, value):")
    setup(repo, {"lib.py": lib, "use.py": use}, {"lib.py": resigned})
    (found,) = codes(review(repo), "RB106")
    assert "use.py:5" in found["message"] and "use.py:7" not in found["message"]
    assert (
        "(1 `.put(…)` reference(s) on receivers of unknown type were not checked)"
        in (found["message"])
    ), found["message"]


@pytest.mark.parametrize(
    ("language", "old", "new", "detail"),
    [
        (
            "java",
            "void readEndTag(Tokeniser t, CharacterReader r)",
            "void readEndTag(Tokeniser endTagNameState, CharacterReader textState)",
            "parameters renamed (calls unaffected)",
        ),
        (
            "go",
            "func f(a int, b int)",
            "func f(x int, y int)",
            "parameters renamed (calls unaffected)",
        ),
        (
            "typescript",
            "function f({a}: O)",
            "function f({b}: O)",
            "added {b} (required); removed {a}",
        ),
        ("python", "def f(a, b)", "def f(x, y)", "renamed a → x, b → y"),
    ],
)
def test_a_header_that_only_renames_positional_parameters_says_so(
    language: str, old: str, new: str, detail: str
) -> None:
    """jsoup ccd90e9c renamed `readEndTag`'s `a, b`: "added endTagNameState (required),
    textState (required); removed a, b", six lines at 80 columns for a change no Java call
    sees. Where calls pass by position only the shape counts; Python's keywords and a TS
    parameter's destructured keys are names a call uses."""
    name = "readEndTag" if language == "java" else "f"
    assert header_change((name, old), (name, new), language, language == "java") == detail


@pytest.mark.parametrize(
    ("language", "method", "old", "new", "detail"),
    [
        (  # commons-lang 7e5906fb0 said "parameters renamed (calls unaffected)"
            "java",
            True,
            "static boolean setAccessible(final boolean forceAccessible, final Field field)",
            "public static boolean setAccessible(final boolean forceAccessible, "
            "final AccessibleObject accessibleObject)",
            "parameter types changed (Field → AccessibleObject); parameters renamed; now public",
        ),
        (  # (the names kept: it said only "now public")
            "java",
            True,
            "static boolean setAccessible(boolean force, Field field)",
            "public static boolean setAccessible(boolean force, AccessibleObject field)",
            "parameter types changed (Field → AccessibleObject); now public",
        ),
        ("go", False, "func f(a int, x string)", "func f(b int, y Other)", None),
        (  # tqdm e4d9742: "added name (required), app; removed prefix"
            "python",
            False,
            "def envwrap(prefix, types=None, is_method=False):",
            'def envwrap(name, app="", types=None, is_method=False):',
            "renamed prefix → name; added app (optional, shifts the arguments after it)",
        ),
        (  # tqdm: "...; reordered", though nothing was
            "python",
            True,
            "def set_description(self, desc=None, refresh=True):",
            "def set_description(self, desc, *, refresh=True):",
            "now required: desc; now keyword-only: refresh",
        ),
        (  # tqdm 90cb341: "added delay; removed waituntil"
            "python",
            True,
            "def __init__(self, colour=None, waituntil=0, gui=False):",
            "def __init__(self, colour=None, delay=0, gui=False):",
            "renamed waituntil → delay",
        ),
    ],
)
def test_a_re_sign_says_what_it_changed(
    language: str, method: bool, old: str, new: str, detail: str | None
) -> None:
    name = old.split("(")[0].split()[-1]
    got = header_change((name, old), (name, new), language, method)
    assert got == (detail or "parameter types changed; parameters renamed")


def test_rb105_says_when_what_is_left_of_a_name_takes_none_of_its_calls(repo: Path) -> None:
    """jsoup: deleting `StringUtil.padding(int, int)` said its 20 two-argument calls "now
    reach padding(int): check that it serves them". None of them fits `padding(int)`: they
    break, and the RB105 says so."""
    util = (
        "package p;\n\npublic class Util {\n"
        "    public static String padding(int width) {\n        return padding(width, 30);\n"
        "    }\n\n"
        "    public static String padding(int width, int most) {\n"
        '        return " ".repeat(Math.min(width, most));\n    }\n}\n'
    )
    use = (
        "package p;\n\npublic class Use {\n    String run() {\n"
        "        return Util.padding(2, 8);\n    }\n}\n"
    )
    gone = util.replace(
        "\n    public static String padding(int width, int most) {\n"
        '        return " ".repeat(Math.min(width, most));\n    }\n',
        "",
    ).replace("padding(width, 30)", '" ".repeat(width)')
    setup(repo, {"src/p/Util.java": util, "src/p/Use.java": use}, {"src/p/Util.java": gone})
    (found,) = codes(review(repo), "RB105")
    assert "src/p/Use.java:5" in found["message"], found["message"]
    assert "which takes none of their arguments.)" in found["message"], found["message"]
    assert "(All now reach" in found["message"], found["message"]


def test_the_hooks_code_never_stands_alone_on_a_line(repo: Path) -> None:
    """jsoup, through the hook: `method StringUtil.padding  padding is deleted but still
    referenced` then `[RB105]` alone on the next line. The word before goes down with it."""
    name = "pppppppppppp"  # (the length at which the wrap left `[RB105]` alone)
    lib = f"def {name}(w):\n    return ' ' * w\n\n\ndef keep():\n    return 1\n"
    deep = "pkg/internal/some/deeply/nested/folder/of/helpers"
    app = f"from {deep.replace('/', '.')}.lib import {name}\n\n\ndef run():\n    return {name}(2)\n"
    setup(
        repo,
        {f"{deep}/lib.py": lib, "app.py": app},
        {f"{deep}/lib.py": "def keep():\n    return 1\n"},
    )
    git(repo, "add", "-A")
    report = pipeline.review(GitChange(repo, staged=True), Config(), mode=pipeline.Mode.FAST)
    assert [f.code for f in report.findings] == ["RB105"]
    lines = hook_text(report, "staged change", max_findings=50, show_info=False).splitlines()
    at = next(k for k, line in enumerate(lines) if "[RB105]" in line)
    assert lines[at].strip() != "[RB105]", lines
    assert all(len(line) <= 80 for line in lines), lines
    # (the title's lines under the place start where the message's do: 6 columns, not 8)
    assert lines[at].startswith("      ") and lines[at][6] != " ", lines


STORE = """import { defineStore } from 'pinia'

export const useUserStore = defineStore('user', {
  state: () => ({ name: 'Eduardo' }),
})

export const useNasaStore = defineStore('nasa', ({ action }) => {
  function incrementDay(date: string) {
    return new Date(date).getTime() + 86400000
  }

  return { incrementDay }
})
"""
CART = """import { useUserStore } from './user'

export function purchase() {
  return useUserStore().name
}
"""


def test_a_module_variable_deleted_while_imported_is_rb105(repo: Path) -> None:
    """pinia: deleting `export const useUserStore = defineStore(...)`, imported and called in
    cart.ts, said "No findings": a module's variables were no declarations to the review."""
    setup(
        repo,
        {"src/user.ts": STORE, "src/cart.ts": CART},
        {"src/user.ts": STORE.replace(STORE[STORE.index("export const useUser") :], "")},
    )
    (gone,) = codes(review(repo), "RB105")
    assert gone["title"] == "useUserStore is deleted but still referenced"
    assert "src/cart.ts:1 (import), 4" in gone["message"]


def test_a_local_function_bound_again_by_a_wrapped_callback_is_not_deleted(repo: Path) -> None:
    """pinia a8526fc7: `function incrementDay(date) {...}` inside a store's setup became `const
    incrementDay = action((date) => {...})` in the same function, and RB105 said it was deleted
    but still referenced by the `return { incrementDay }` that now returns the new const."""
    after = STORE.replace(
        "  function incrementDay(date: string) {\n"
        "    return new Date(date).getTime() + 86400000\n  }\n",
        "  const incrementDay = action((date: string) => {\n"
        "    return new Date(date).getTime() + 86400000\n  })\n",
    )
    setup(repo, {"src/user.ts": STORE, "src/cart.ts": CART}, {"src/user.ts": after})
    doc = review(repo)
    assert codes(doc, "RB105") == []
    assert not [i for i in doc["impact"] if i["name"] == "incrementDay" and i["references"]]


def test_without_an_index_a_key_of_another_object_is_no_reference(repo: Path) -> None:
    """pinia cb5030f9 (Vue files, which the index does not read): deleting the computed
    `isVisible()` of one component raised an RB105 naming `isVisible: false,` in another
    component's data: a key of its own, not a use. A real use still is one."""
    countdown = (
        "<script>\nexport default {\n  computed: {\n    isVisible() {\n"
        "      return this.left > 0\n    },\n    left() {\n      return 3\n    },\n  },\n}\n"
        "</script>\n"
    )
    write(repo, "src/Countdown.vue", countdown)
    write(repo, "src/Banner.vue", "<script>\nexport default {\n  data() {\n    return {\n"
          "      isVisible: false,\n    }\n  },\n}\n</script>\n")  # fmt: skip
    commit(repo)
    write(repo, "src/Countdown.vue", countdown.replace(
        "    isVisible() {\n      return this.left > 0\n    },\n", ""))  # fmt: skip
    assert codes(review(repo), "RB105") == []
    write(repo, "src/show.js", "export function show(c) {\n  return isVisible(c)\n}\n")
    git(repo, "add", "src/show.js")
    git(repo, "commit", "-q", "-m", "show", "--", "src/show.js")
    (gone,) = codes(review(repo), "RB105")
    assert "src/show.js:2" in gone["message"] and "src/Banner.vue" not in gone["message"]


def test_a_java_field_moved_down_is_no_deleted_constant(repo: Path) -> None:
    # javapoet b1e1a08: `final String simpleName;` sat above a `private static final class`;
    # moved lower (and given a javadoc), it is the same field, not a deleted constant (RB105).
    name = (
        "package p;\n\npublic class Name {\n"
        "  final String simpleName;\n  String canonicalName;\n\n"
        "  private static final class Inner {\n  }\n\n"
        "  Name(String s) {\n    this.simpleName = s;\n    this.canonicalName = s;\n  }\n"
        "  public static final int LIMIT = 3;\n"
        "}\n"
    )
    moved = name.replace("  final String simpleName;\n  String canonicalName;\n\n", "").replace(
        "  Name(String s) {",
        "  /** The simple name. */\n  final String simpleName;\n\n"
        "  /** The canonical name. */\n  final String canonicalName;\n\n  Name(String s) {",
    )
    use = (
        "package p;\n\npublic class Use {\n  String f(Name n) {\n"
        "    return n.simpleName + n.canonicalName + Name.LIMIT + Mode.SLOW + Keys.HOME;\n"
        "  }\n}\n"
    )
    mode = "package p;\n\npublic enum Mode {\n  FAST,\n  SLOW;\n  int speed;\n}\n"
    keys = 'package p;\n\npublic interface Keys {\n  String HOME = "home";\n  int size();\n}\n'
    gone = moved.replace("  public static final int LIMIT = 3;\n", "")
    setup(
        repo,
        {
            "src/p/Name.java": name,
            "src/p/Use.java": use,
            "src/p/Mode.java": mode,
            "src/p/Keys.java": keys,
        },
        {
            "src/p/Name.java": gone,
            "src/p/Mode.java": mode.replace("  SLOW;\n", "").replace("FAST,", "FAST;"),
            "src/p/Keys.java": keys.replace('  String HOME = "home";\n', ""),
        },
    )
    doc = review(repo)
    # The real constants removed (static final, an enum's, an interface's) are still found;
    # the fields moved are not.
    found = sorted(f["title"].split()[0] for f in codes(doc, "RB105"))
    assert found == ["HOME", "LIMIT", "SLOW"]
    assert not [i for i in doc["impact"] if i["name"] in ("simpleName", "canonicalName")]


def test_a_re_signed_java_overload_lists_the_calls_that_fit_it(repo: Path) -> None:
    # javapoet 80ddc99: `CodeWriter(out, indent, imports)` took one more parameter; the 8
    # `new CodeWriter(out)` were the one-argument constructor's, left as it was.
    writer = (
        "package p;\n\npublic class Writer {\n"
        '  Writer(String out) {\n    this(out, "  ");\n  }\n\n'
        "  Writer(String out, String indent) {\n  }\n\n"
        "  void put(String s) {\n  }\n\n"
        "  void put(String s, int n) {\n  }\n"
        "}\n"
    )
    main = (
        "package p;\n\npublic class Main {\n  void run() {\n"
        '    Writer a = new Writer("x");\n    Writer b = new Writer("x", "  ");\n'
        '    a.put("s");\n    b.put("s", 2);\n  }\n}\n'
    )
    setup(
        repo,
        {"src/p/Writer.java": writer, "src/p/Main.java": main},
        {
            "src/p/Writer.java": writer.replace(
                "Writer(String out, String indent)", "Writer(String out, String indent, int w)"
            ).replace("put(String s, int n)", "put(String s, int n, int m)")
        },
    )
    doc = review(repo)
    calls = {
        i["unit"].split()[0]: [(r["path"], r["line"]) for r in i["references"]]
        for i in doc["impact"]
        if i["change"] == "signature"
    }
    assert calls == {
        "constructor": [("src/p/Main.java", 6)],
        "method": [("src/p/Main.java", 8)],
    }
    stale = sorted(f["title"] for f in codes(doc, "RB106"))
    assert stale == [
        "Writer() is called the old way in 2 place(s)",
        "put() is called the old way in 1 place(s)",
    ]


GO_TREE = """package tree

type endpoint struct {
	pattern string
}

type endpoints map[int]*endpoint

func (s endpoints) Value(method int) *endpoint {
	return s[method]
}

type box struct{}

func (b box) Value(k int) int {
	return k
}

type node struct {
	all []endpoints
}

func (n *node) set(m int) {
	n.all[0].Value(m).pattern = "x"
	n.all[1].Value(m + 1).pattern = "y"
}
"""


def test_a_renamed_method_whose_calls_no_rule_types_says_so(repo: Path, cli: Any) -> None:
    # chi: `endpoints.Value` renamed `Lookup`; its `n.all[0].Value(…)` calls are on a
    # receiver the index cannot type (an element of a slice): nothing sure to list, but not
    # nothing to say. (chi's own `n.endpoints.Value(…)`, a field of a written type, is typed.)
    setup(
        repo,
        {"go.mod": "module example.com/m\n\ngo 1.21\n", "tree/tree.go": GO_TREE},
        {"tree/tree.go": GO_TREE.replace(") Value(method", ") Lookup(method")},
    )
    doc = review(repo)
    found = entry(doc, "Value")
    assert (found["change"], found["total"], found["uncertain"]) == ("renamed", 0, 2)
    said = (
        "method endpoints.Value (renamed): 2 `.Value(…)` reference(s) on receivers of unknown"
        " type were not checked"
    )
    rep = pipeline.review(GitChange(repo), Config())
    assert f"  impact: {said}\n" in review_text(rep, Style(False), width=300)
    assert f"- {said}\n" in render_markdown(rep)
    pack = cli("review", "-C", str(repo), "--format", "prompt").out
    assert f"- {said}\n" in pack


def test_a_class_re_signed_by_its_modifiers_says_which(repo: Path) -> None:
    """javapoet b1e1a08: `public abstract class ClassName` made `public final class
    ClassName` read `class ClassName (signature)`, with no detail."""
    shape = (
        "package p;\n\npublic abstract class Shape {\n  public int sides() {\n    return 0;\n"
        "  }\n}\n"
    )
    use = "package p;\n\npublic class Use {\n  Shape make(Shape s) {\n    return s;\n  }\n}\n"
    setup(
        repo,
        {"src/p/Shape.java": shape, "src/p/Use.java": use},
        {"src/p/Shape.java": shape.replace("public abstract class", "public final class")},
    )
    found = entry(review(repo), "Shape")
    assert (found["change"], found["detail"]) == ("signature", "now final; no longer abstract")


def test_a_class_re_signed_past_an_annotation_or_by_its_base_says_which(repo: Path) -> None:
    """retrofit d6eac54c: `@TargetApi(24) final class OptionalConverterFactory` made public
    read `(signature)` (the annotation's `(` was taken for a parameter list); 0363ec76's
    `extends Java8` made `extends Reflection` too."""
    shape = (
        "package p;\n\n@Target(24)\nfinal class Shape extends Base<String> {\n"
        "  int sides() {\n    return 0;\n  }\n}\n"
    )
    files = {
        "src/p/Base.java": "package p;\n\nclass Base<T> {}\n",
        "src/p/Other.java": "package p;\n\nclass Other<T> {}\n",
        "src/p/Shape.java": shape,
        "src/p/Use.java": "package p;\n\npublic class Use {\n  Shape s;\n}\n",
    }
    public = shape.replace("final class", "public final class")
    setup(repo, files, {"src/p/Shape.java": public})
    assert entry(review(repo), "Shape")["detail"] == "now public"
    write(repo, "src/p/Shape.java", shape.replace("extends Base<String>", "extends Other<T>"))
    assert entry(review(repo), "Shape")["detail"] == "now extends Other (was Base)"


def test_class_change_reads_modifiers_and_heritage_not_type_arguments() -> None:
    from reviewbot.analysis.signatures import class_change

    assert (
        class_change("class A<T extends B> implements X", "class A<T extends C> implements X") == ""
    )
    assert class_change("class A extends B", "abstract class A") == (
        "now abstract; no longer extends B"
    )
    assert class_change("class A implements X", "class A implements X, Y") == (
        "now implements X, Y (was X)"
    )
    assert class_change("export class A", "export class A extends B {") == "now extends B"


def test_a_java_class_renamed_takes_its_constructor_and_subclasses_along(repo: Path) -> None:
    """commons-cli 8677d165: a class renamed (its file too). Its constructor, named as the
    class, was "deleted but still referenced" (RB105) by the subclasses' `super(out)`, which
    reach the renamed one; each subclass, whose `extends` followed, was "re-signed"."""
    writer = (
        "package a;\n\npublic abstract class Writer {\n"
        "    protected final StringBuilder out;\n\n"
        "    protected Writer(final StringBuilder out) {\n        this.out = out;\n    }\n\n"
        "    public void put(String s) {\n        out.append(s);\n    }\n}\n"
    )
    text = (
        "package a;\n\npublic class TextWriter extends Writer {\n"
        "    public TextWriter(final StringBuilder out) {\n        super(out);\n    }\n}\n"
    )
    use = (
        "package a;\n\nclass Use {\n"
        "    Object make() { return new TextWriter(new StringBuilder()); }\n}\n"
    )
    files = {"src/a/Writer.java": writer, "src/a/TextWriter.java": text, "src/a/Use.java": use}
    setup(
        repo,
        files,
        {
            "src/a/Writer.java": None,
            "src/a/BaseWriter.java": writer.replace("Writer(", "BaseWriter(").replace(
                "class Writer", "class BaseWriter"
            ),
            "src/a/TextWriter.java": text.replace("extends Writer", "extends BaseWriter"),
        },
    )
    git(repo, "add", "-A")  # (git sees the rename)
    doc = review(repo, staged=True)
    assert codes(doc, "RB105") == []
    assert [(i["name"], i["change"]) for i in doc["impact"]] == [("Writer", "renamed")]
    units = {(u["label"], u["change"]) for f in doc["files"] for u in f["units"]}
    assert ("class BaseWriter", "renamed") in units
    assert not [u for u in units if u[1] in ("added", "removed")], units


def test_a_java_parameters_type_changed_breaks_the_literal_calls_it_no_longer_takes(
    repo: Path,
) -> None:
    """`put(int x)` made `put(String x)`: `w.put(1)` no longer compiles (RB106, the types
    written: the names alone read "now takes (x) (it took (x))"); `w.put(n)` of an int
    variable is not read, and `put(long)` would take the literal."""
    w = "package a;\n\npublic class W {\n    void put(int x) {}\n}\n"
    v = (
        "package a;\n\nclass V {\n    void n(W w, int n) {\n"
        "        w.put(1);\n        w.put(n);\n    }\n}\n"
    )
    setup(
        repo,
        {"src/a/W.java": w, "src/a/V.java": v},
        {"src/a/W.java": w.replace("int x", "String x")},
    )
    (found,) = codes(review(repo), "RB106")
    assert "now takes (String x) (it took (int x))" in found["message"], found["message"]
    assert "V.java:5" in found["message"] and "V.java:6" not in found["message"]
    write(repo, "src/a/W.java", w.replace("int x", "long x"))
    assert codes(review(repo), "RB106") == []


def test_a_java_method_removed_beside_a_field_of_its_name_leaves_the_fields_uses(
    repo: Path,
) -> None:
    """jsoup ccd90e9c removed `boolean readFully() { return readFully; }` beside the field
    `readFully`: the field's bare uses were "still referenced" (the field, of the same
    qualified name, was taken for the method's other half). A call of the method is one."""
    reader = (
        "package p;\n\nclass Reader {\n    private boolean readFully;\n\n"
        "    void fill() {\n        if (readFully) {\n            return;\n        }\n"
        "        readFully = true;\n    }\n\n"
        "    boolean readFully() {\n        return readFully;\n    }\n}\n"
    )
    gone = reader.replace("\n    boolean readFully() {\n        return readFully;\n    }\n", "")
    setup(repo, {"src/p/Reader.java": reader}, {"src/p/Reader.java": gone})
    assert codes(review(repo), "RB105") == []
    called = gone.replace("readFully = true;", "readFully = !readFully();")
    write(repo, "src/p/Reader.java", called)
    (found,) = codes(review(repo), "RB105")
    assert "src/p/Reader.java:10" in found["message"], found["message"]


def test_a_ts_infer_of_a_deleted_type_s_name_is_no_use_of_it(repo: Path) -> None:
    """zustand e247220e: `setState: infer SetState` declares a type variable of its conditional
    type (its true branch's SetState is that one); a change deleting the module's `type
    SetState` and adding such a line named it as a place SetState was still referenced
    (RB105: a new line naming it, left unresolved)."""
    lib = "export type SetState<T> = (next: T) => void\n\nexport type Keep = number\n"
    immer = (
        "import type { Keep } from './lib'\n\n"
        "type StoreImmer<S> = S extends {\n"
        "  setState: infer SetState\n"
        "}\n"
        "  ? SetState extends (...args: infer A) => infer R\n"
        "    ? (...args: A) => R\n"
        "    : never\n"
        "  : never\n\n"
        "export type Made = StoreImmer<{ setState: () => Keep }>\n"
    )
    app = "import type { SetState } from './lib'\n\nexport const set: SetState<number> = () => {}\n"
    setup(
        repo,
        {"src/lib.ts": lib, "src/app.ts": app, "src/immer.ts": "export type Made = number\n"},
        {"src/lib.ts": "export type Keep = number\n", "src/immer.ts": immer},
    )
    (gone,) = codes(review(repo), "RB105")
    assert "SetState" in gone["title"] and "src/app.ts:1 (import), 3" in gone["message"]
    assert "src/immer.ts" not in gone["message"]


def test_a_local_function_deleted_while_called_at_a_lines_start_is_rb105(repo: Path) -> None:
    """immer (the impact benchmark): a nested `function normalizeSliceIndex` deleted while
    `normalizeSliceIndex(args[0] ?? 0, n) === n ||` still starts a line read as bound again
    (a call is no binding): no impact, no RB105; the benchmark's recall fell 0.904 -> 0.853."""
    calls = STORE.replace(
        "  return { incrementDay }\n",
        "  function later(d: string) {\n    return (\n      incrementDay(d) > 0 ||\n"
        "      false\n    )\n  }\n\n  return { later }\n",
    )
    gone = calls.replace(
        "  function incrementDay(date: string) {\n"
        "    return new Date(date).getTime() + 86400000\n  }\n",
        "",
    )
    assert gone != calls
    setup(repo, {"src/user.ts": calls, "src/cart.ts": CART}, {"src/user.ts": gone})
    (found,) = codes(review(repo), "RB105")
    assert found["title"] == "incrementDay is deleted but still referenced"


def test_a_review_answers_from_the_index_while_another_holds_it(repo: Path) -> None:
    # mux: eight reviews started at once; each holds the index for its change's transaction,
    # and two waited 5 s, fell back to git grep ("index busy or unreadable"): the JSON and
    # the Markdown of one change disagreed. Another process holding it all along: this
    # review answers from the index all the same (from a copy, made after 2 s).
    setup(
        repo,
        {"lib.py": "def gone():\n    return 1\n", "app.py": "from lib import gone\n\ngone()\n"},
        {"lib.py": "def kept():\n    return 1\n"},
    )
    with index_held(index_file(Git(repo))):
        doc = review(repo)
    (gone,) = [i for i in doc["impact"] if i["name"] == "gone"]
    assert gone["source"] == "index", gone
    assert len(codes(doc, "RB105")) == 1


def test_a_one_line_place_is_written_as_one_line(repo: Path) -> None:
    # cattrs: "(was src/cattrs/gen.py:68-68)", "at src/cattrs/_compat.py:292-292".
    from reviewbot.model import HunkSpan

    setup(
        repo,
        {"lib.py": "def gone(): return 1\n\n\ndef kept():\n    return 2\n", "app.py": USE_GONE},
        {"lib.py": "def kept():\n    return 2\n"},
    )
    (found,) = codes(review(repo), "RB105")
    assert "(was lib.py:1)" in found["message"], found["message"]
    assert HunkSpan("a.py", 3, 3, 3, 3).where == "a.py:3"
    assert HunkSpan("a.py", 3, 5, 2, 2, True).where == "a.py:2 (removed)"


USE_GONE = "from lib import gone\n\n\ndef run():\n    return gone()\n"


SIBLINGS = """describe('json', function () {
  it('accepts one', function (done) {
    function accept (req) {
      return true
    }
    run(accept, 1)
    done()
  })

  it('accepts two', function (done) {
    function accept (req) {
      return false
    }
    run(accept, 2)
    done()
  })

  it('accepts three', function (done) {
    function accept (req) {
      return null
    }
    run(accept, 3)
    done()
  })
})
"""


@pytest.mark.parametrize("gone", ["one", "two"])
def test_a_deleted_callbacks_local_function_is_not_its_siblings_namesake(
    repo: Path, gone: str
) -> None:
    # express 1574925c (and the hook): a test deleted with its own `function no`; the
    # siblings' own `no` were its "references" (false RB105, "was" at a sibling's lines).
    start = SIBLINGS.index(f"  it('accepts {gone}'")
    end = SIBLINGS.index("  it(", start + 1)
    setup(
        repo,
        {"test/json.test.js": SIBLINGS},
        {"test/json.test.js": SIBLINGS[:start] + SIBLINGS[end:]},
    )
    doc = review(repo)
    assert codes(doc, "RB105") == []
    gone_entries = [i for i in doc["impact"] if i["name"] == "accept" and i["change"] == "removed"]
    assert all(i["total"] == 0 for i in gone_entries), gone_entries


def test_a_python_class_whose_base_changed_says_so(repo: Path) -> None:
    # pluggy: `class PluginValidationError(Exception)` made `(RuntimeError)` read "(signature)".
    lib = "class Invalid(Exception):\n    pass\n"
    use = "from lib import Invalid\n\n\ndef check():\n    raise Invalid()\n"
    setup(
        repo, {"lib.py": lib, "use.py": use}, {"lib.py": lib.replace("Exception", "RuntimeError")}
    )
    found = entry(review(repo), "Invalid")
    assert (found["change"], found["detail"]) == (
        "signature",
        "bases now RuntimeError (were Exception)",
    )


def test_java_a_method_of_a_generic_class_deleted_breaks_its_typed_callers(repo: Path) -> None:
    """retrofit: deleting `Response<T>.isSuccessful()` raised no RB105; its callers' receivers
    are parameters and locals of a generic type (`Response<R> response`), which typed nothing,
    and the 63 guesses by name were counted twice as "not checked" (linked on the old side,
    left unlinked on the new)."""
    box = (
        "package p;\n\npublic final class Box<T> {\n"
        "    public boolean isFull() {\n        return true;\n    }\n\n"
        "    public T get() {\n        return null;\n    }\n}\n"
    )
    app = (
        "package q;\n\nimport java.util.List;\nimport p.Box;\n\npublic class App {\n"
        "    boolean run(Box<String> box, List<Box<String>> all) {\n"
        "        Box<Integer> local = new Box<>();\n"
        "        boolean a = box.isFull();\n"
        "        boolean b = local.isFull();\n"
        "        return a && b && all.get(0).isFull();\n    }\n}\n"
    )
    gone = box.replace("    public boolean isFull() {\n        return true;\n    }\n\n", "")
    setup(repo, {"src/p/Box.java": box, "src/q/App.java": app}, {"src/p/Box.java": gone})
    doc = review(repo)
    (rb105,) = codes(doc, "RB105")
    assert rb105["title"] == "isFull is deleted but still referenced"
    full = entry(doc, "isFull")
    # (`all.get(0).isFull()`: a List's element, a Box, since session 20; it was a guess,
    # counted once as uncertain)
    assert [(r["path"], r["line"]) for r in full["references"]] == [
        ("src/q/App.java", 9),
        ("src/q/App.java", 10),
        ("src/q/App.java", 11),
    ]
    assert full.get("uncertain", 0) == 0


def _units(doc: Any) -> list[tuple[str, str, str | None]]:
    return [(u["label"], u["change"], u.get("old_label")) for f in doc["files"] for u in f["units"]]


def test_a_java_getter_renamed_returning_its_field_of_the_old_name_is_renamed(
    repo: Path,
) -> None:
    """retrofit: `callbackExecutor()` renamed `executor()`, its body `return
    callbackExecutor;` (a field of the method's old name). Masking its own name in the old
    body only, the impact saw two bodies apart: "callbackExecutor is deleted", and the table
    (a body too small to pair) `executor() added`, `callbackExecutor() removed`."""
    lib = (
        "package p;\n\npublic final class Lib {\n    private final Object callbackExecutor;\n\n"
        "    Lib(Object e) {\n        this.callbackExecutor = e;\n    }\n\n"
        "    public Object callbackExecutor() {\n        return callbackExecutor;\n    }\n}\n"
    )
    app = (
        "package p;\n\npublic class App {\n    Object run(Lib lib) {\n"
        "        return lib.callbackExecutor();\n    }\n}\n"
    )
    renamed = lib.replace("Object callbackExecutor() {", "Object executor() {")
    setup(repo, {"src/p/Lib.java": lib, "src/p/App.java": app}, {"src/p/Lib.java": renamed})
    doc = review(repo)
    assert ("class Lib > executor()", "renamed", "class Lib > callbackExecutor()") in _units(doc)
    assert [(i["name"], i["change"]) for i in doc["impact"]] == [("callbackExecutor", "renamed")]
    assert [f["title"] for f in codes(doc, "RB105")] == [
        "callbackExecutor is renamed to executor but still referenced"
    ]


def test_a_go_function_grown_under_a_new_name_is_renamed_everywhere(repo: Path) -> None:
    """mux e44017d: `requestWithRoute` grown into `requestWithRouteAndVars` (a parameter and an
    `if` more). The table paired them (token sequences, 0.7), the impact did not (lines, 0.75):
    "renamed from func requestWithRoute" beside an impact "removed" plus "added" and a bundle
    that "removes requestWithRoute". All three say renamed now."""
    old = (
        'package mux\n\nimport (\n\t"context"\n\t"net/http"\n)\n\n'
        "type Route struct{}\n\ntype key int\n\nconst routeKey key = 0\n\nconst varsKey key = 1\n\n"
        "func requestWithRoute(r *http.Request, route *Route) *http.Request {\n"
        "\tctx := context.WithValue(r.Context(), routeKey, route)\n"
        "\treturn r.WithContext(ctx)\n}\n\n"
        "func Serve(r *http.Request, route *Route) *http.Request {\n"
        "\treturn requestWithRoute(r, route)\n}\n"
    )
    new = old.replace(
        "func requestWithRoute(r *http.Request, route *Route) *http.Request {\n"
        "\tctx := context.WithValue(r.Context(), routeKey, route)\n",
        "func requestWithRouteAndVars(r *http.Request, route *Route, vars map[string]string)"
        " *http.Request {\n"
        "\tctx := context.WithValue(r.Context(), routeKey, route)\n"
        "\tif len(vars) > 0 {\n\t\tctx = context.WithValue(ctx, varsKey, vars)\n\t}\n",
    ).replace("requestWithRoute(r, route)\n}", "requestWithRouteAndVars(r, route, nil)\n}")
    setup(repo, {"go.mod": "module example.com/mux\n", "mux.go": old}, {"mux.go": new})
    doc = review(repo)
    assert ("func requestWithRouteAndVars", "renamed", "func requestWithRoute") in _units(doc)
    assert [(i["name"], i["change"]) for i in doc["impact"]] == [("requestWithRoute", "renamed")]
    (bundle,) = doc["bundles"]
    assert "renames requestWithRoute to requestWithRouteAndVars" in bundle["reason"]
    assert "removes" not in bundle["reason"]


def test_a_class_nested_in_a_renamed_function_goes_with_it(repo: Path) -> None:
    """cattrs 5a1bb1a renamed a test holding a `class C`: the impact said `class
    test_tuple.C (added)` (the old C, its name bound again in the file, was no deletion,
    and so followed no rename)."""
    old = (
        "def make(x):\n    return x\n\n\n"
        "def test_roundtrip(value):\n    class C:\n        a: int\n\n"
        "    inst = C()\n    inst.a = make(value)\n    assert inst.a == value\n"
        "    assert make(inst) is inst\n    assert isinstance(inst, C)\n"
    )
    new = old.replace("def test_roundtrip(value):", "def test_roundtrip_tuple(value):")
    setup(repo, {"test_it.py": old}, {"test_it.py": new})
    doc = review(repo)
    assert _units(doc) == [("def test_roundtrip_tuple", "renamed", "def test_roundtrip")]
    assert [(i["name"], i["change"]) for i in doc["impact"]] == [("test_roundtrip", "renamed")]


def test_go_rb106_names_a_stale_call_through_a_method_chain(repo: Path) -> None:
    """mux: `Route.Name(name)` made `Name(name, strict)`: `r.NewRoute().Name(name)` in
    `Router.Name` (NewRoute declared `*Route`) is a stale call, not an unknown receiver."""
    lib = (
        "package mux\n\n"
        "type Route struct{ name string }\n\n"
        "type Router struct{}\n\n"
        "func (r *Router) NewRoute() *Route { return &Route{} }\n\n"
        "func (r *Router) Name(name string) *Route {\n\treturn r.NewRoute().Name(name)\n}\n\n"
        "func (r *Route) Name(name string) *Route {\n\tr.name = name\n\treturn r\n}\n"
    )
    new = lib.replace(
        "func (r *Route) Name(name string) *Route {",
        "func (r *Route) Name(name string, strict bool) *Route {",
    )
    setup(repo, {"go.mod": "module example.com/mux\n", "mux.go": lib}, {"mux.go": new})
    doc = review(repo)
    (rb106,) = codes(doc, "RB106")
    assert "mux.go:10" in rb106["message"], rb106["message"]
    assert "not checked" not in rb106["message"]


def test_go_rb106_reads_a_generic_function_and_its_instantiated_calls(repo: Path) -> None:
    """cli: `func arg[T any](name string, c *Command) T` reordered to `(c *Command, name
    string)`: its 30 `arg[string](name, c)` calls were no calls, and `[T any]` hid its
    parameters (no RB106; the detail a bare '(signature)')."""
    lib = (
        "package a\n\n"
        "func arg[T any](name string, n int) T {\n\tvar t T\n\treturn t\n}\n\n"
        "func pair[K comparable, V any](name string, n int) V {\n\tvar v V\n\treturn v\n}\n"
    )
    use = (
        'package a\n\nfunc use() {\n\t_ = arg[string]("a", 1)\n\t_ = pair[string, int]("b", 2)\n}\n'
    )
    new = lib.replace("(name string, n int)", "(n int, name string)")
    setup(repo, {"go.mod": "module example.com/a\n", "a.go": lib, "use.go": use}, {"a.go": new})
    doc = review(repo)
    found = {f["message"].split()[1]: f["message"] for f in codes(doc, "RB106")}
    assert sorted(found) == ["arg", "pair"], found
    assert "use.go:4" in found["arg"] and "use.go:5" in found["pair"]
    assert entry(doc, "arg")["detail"] == "reordered"


def test_a_findings_places_are_grouped_by_file_and_unit() -> None:
    """commons-lang's RB106 on `center`: `StringUtilsTest.java:310 (method
    StringUtilsTest.testCenter_StringIntChar)`, then :311, :312, :313 each with its whole path
    and unit, 8 lines of the message."""
    from reviewbot.analysis.repo_impact import _places, _Ref

    test = "src/test/java/StringUtilsTest.java"
    unit = "method StringUtilsTest.testCenter_StringIntChar"

    def ref(path: str, line: int, unit: str | None) -> _Ref:
        return _Ref(path, line, 1, "center", unit, "call", 1.0, "", False)

    refs = [ref("src/main/StringUtils.java", 596, "method StringUtils.center")]
    refs += [ref(test, n, unit) for n in (310, 311, 312, 313, 315)]
    refs += [ref(test, 400, "method StringUtilsTest.testPad"), ref("b.py", 4, None)]
    assert _places(refs) == (
        "src/main/StringUtils.java:596 (method StringUtils.center); "
        f"{test}:310-313, 315 ({unit}), 400 (method StringUtilsTest.testPad); b.py:4 (top level)"
    )
    assert _places(refs, 2) == (
        f"src/main/StringUtils.java:596 (method StringUtils.center); {test}:310-313, 315 ({unit})"
        " and 2 more"
    )


FORM = """import React from 'react'

export function useForm(init) {
  const reset = React.useCallback((next) => {
    return next
  }, [])
  const setValue = useEventCallback((field, value) => {
    return field + value
  })
  const rows = init.map((x) => {
    return x
  })
  const change = (e) => {
    setValue(e.name, e.value)
    reset(init)
  }
  return { change, rows }
}
"""


def test_a_call_wrapped_function_is_a_definition_and_re_signed(repo: Path) -> None:
    # formik's useFormik: `const setFieldValue = useEventCallback((field, value, ...) => {`
    # and `const resetForm = React.useCallback((nextState) => {...}, [...])` were units
    # (`useFormik.resetForm`) but no definitions: re-signing them said nothing. A call that is
    # no wrapper (`init.map(...)`) defines no function.
    new = FORM.replace("(field, value)", "(field, value, touch)")
    setup(repo, {"form.js": FORM}, {"form.js": new})
    conn = sqlite3.connect(index_file(Git(repo)))
    try:
        defs = set(conn.execute("SELECT kind, qualified, line FROM defs"))
    finally:
        conn.close()
    assert ("function", "useForm.reset", 4) in defs
    assert ("function", "useForm.setValue", 7) in defs
    assert not any(q == "useForm.rows" for _, q, _ in defs)
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert "form.js:14 (function useForm.change)" in stale["message"]
    assert entry(doc, "setValue")["detail"] == "added touch (required)"
    assert parameters("reset = React.useCallback((next) =>", "reset", "javascript", False) == (
        Param("next", "positional", True),
    )


def test_a_removed_class_field_method_whose_calls_reach_the_interface_is_still_referenced(
    repo: Path,
) -> None:
    """immer: `Immer.produce = (base, recipe) => {...}` implements `produce: IProduce` of the
    interface `ProducersFns`; removing it, its calls (`immer.produce(...)`) now reach the
    interface's property, and the impact dropped them all (total 0: "now means another
    declaration") where a method of the interface was listed as still reached."""
    lib = (
        "export type IProduce = (base: any, recipe: any) => any\n\n"
        "interface ProducersFns {\n  produce: IProduce\n}\n\n"
        "export class Immer implements ProducersFns {\n"
        "  produce: IProduce = (base: any, recipe: any) => {\n    return recipe(base)\n  }\n\n"
        "  other(): number {\n    return 1\n  }\n}\n"
    )
    use = (
        "import { Immer } from './immer'\n\nconst immer = new Immer()\n\n"
        "export function run(x: number) {\n  return immer.produce(x, (d: number) => d)\n}\n"
    )
    gone = lib.replace(
        "  produce: IProduce = (base: any, recipe: any) => {\n    return recipe(base)\n  }\n\n",
        "",
    )
    setup(repo, {"src/immer.ts": lib, "src/use.ts": use}, {"src/immer.ts": gone})
    doc = review(repo)
    found = entry(doc, "produce")
    assert found["change"] == "removed" and found["total"] == 1, found
    assert [(r["path"], r["line"]) for r in found["references"]] == [("src/use.ts", 6)]
    (rb105,) = codes(doc, "RB105")
    assert rb105["title"] == "produce is deleted but still referenced"


def test_a_review_whose_base_has_another_tsconfig_resolves_everything_again(repo: Path) -> None:
    """A review brings the index to the change's base in a rolled-back transaction, as an
    update does, but did not resolve every reference again when a tsconfig.json (or go.mod)
    differed, as an update does: an unchanged file's `@lib/x` import kept the index's
    meaning (lib2/x.ts, mapped since), and the deletion of lib/x.ts's `helper`, which it still
    calls at the commit, was no RB105."""
    from tests.helpers import git

    def tsconfig(folder: str) -> str:
        return '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["' + folder + '/*"]}}}\n'

    lib = "export function helper(): number { return 1; }\nexport const keep = 2;\n"
    write(repo, "tsconfig.json", tsconfig("lib"))
    write(repo, "lib/x.ts", lib)
    write(repo, "lib2/x.ts", lib)
    write(repo, "use.ts", "import { helper } from '@lib/x';\n\nexport const y = helper();\n")
    commit(repo)
    write(repo, "lib/x.ts", "export const keep = 2;\n")
    commit(repo)
    deleted = git(repo, "rev-parse", "HEAD").strip()
    write(repo, "tsconfig.json", tsconfig("lib2"))
    write(repo, "lib/x.ts", lib)  # (back: only the tsconfig differs from the base)
    commit(repo)
    build_index(repo)  # at HEAD: `@lib/x` is lib2/x.ts
    report = pipeline.review(GitChange(repo, (f"{deleted}~1..{deleted}",)), Config())
    doc = report_doc(report)
    (gone,) = codes(doc, "RB105")
    assert gone["title"] == "helper is deleted but still referenced", gone
    assert "use.ts:1 (import), 3 (variable y)" in gone["message"], gone["message"]


def test_linguist_generated_false_overrides_a_generated_header(repo: Path) -> None:
    """testify's `.gitattributes` says `assert/*.go linguist-generated=false` ("must be
    reviewed"), but the review skipped `assert/assertion_format.go` and the others as
    "generated (header says so)", and the index left them out, so their calls dropped out of
    the impact. An explicit `=false` (or `-linguist-generated`) overrides the header, as on
    GitHub; `linguist-generated` marks a file generated whatever it says."""
    header = "// Code generated with _codegen; DO NOT EDIT.\n\n"
    call = 'import "example.com/m/lib"\n\nfunc Use() int {\n\treturn lib.Helper()\n}\n'
    setup(
        repo,
        {
            ".gitattributes": (
                "assert/*.go linguist-generated=false\n"
                "kept/*.go -linguist-generated\ngen/*.go linguist-generated\n"
            ),
            "go.mod": "module example.com/m\n\ngo 1.21\n",
            "lib/lib.go": "package lib\n\nfunc Helper() int {\n\treturn 1\n}\n",
            "assert/a.go": f"{header}package assert\n\n{call}",
            "kept/c.go": f"{header}package kept\n\n{call}",
            "gen/b.go": f"package gen\n\n{call}",
            "other/d.go": f"{header}package other\n\n{call}",
            "other/e.go": "package other\n\n// T is the context\n// generated by 'go test'.\n",
        },
        {
            "lib/lib.go": "package lib\n\nfunc Helper(n int) int {\n\treturn n\n}\n",
            "assert/a.go": f"{header}package assert\n\n{call}\nfunc More() {{}}\n",
        },
    )
    git(repo, "add", "-A")
    doc = review(repo, staged=True)
    files = {f["path"]: f for f in doc["files"]}
    assert files["assert/a.go"]["status"] == "modified"
    paths = {r["path"] for r in entry(doc, "Helper")["references"]}
    assert paths == {"assert/a.go", "kept/c.go"}
    conn = sqlite3.connect(build_index(repo))
    skipped = dict(conn.execute("SELECT path, skipped FROM files WHERE path LIKE '%/%.go'"))
    conn.close()
    assert skipped == {
        "assert/a.go": None,
        "kept/c.go": None,
        "gen/b.go": "generated (linguist-generated attribute)",
        "other/d.go": "generated (header says so)",
        "other/e.go": None,  # (a Go file's marker stands before its package clause)
        "lib/lib.go": None,
    }


def test_a_parameter_removed_before_others_shifts_the_calls_that_still_fit(repo: Path) -> None:
    # rq's Job.heartbeat(self, timestamp, ttl, pipeline=None, xx=False) lost `ttl`:
    # `job.heartbeat(now(), heartbeat_ttl)` still fits by count but passes the TTL as `pipeline`.
    lib = "class Job:\n    def beat(self, stamp, ttl, pipe=None, xx=False):\n        return stamp\n"
    app = (
        "from m.lib import Job\n\n\ndef run(job: Job):\n    job.beat(1, 2)\n"
        "    job.beat(1, pipe=3)\n"
    )
    new = lib.replace("stamp, ttl, pipe", "stamp, pipe")
    setup(repo, {"m/__init__.py": "", "m/lib.py": lib, "m/app.py": app}, {"m/lib.py": new})
    (stale,) = codes(review(repo), "RB106")
    assert "in 1 place(s)" in stale["title"] and "m/app.py:5 (function run)" in stale["message"]
    # A parameter renamed in place takes what it took: no shift.
    write(repo, "m/lib.py", lib.replace("stamp, ttl, pipe", "stamp, ttl2, pipe"))
    assert codes(review(repo), "RB106") == []


def test_a_ts_optional_parameter_inserted_shifts_the_calls_after_it(repo: Path) -> None:
    lib = "export function load(path: string, mode?: string): string {\n  return path;\n}\n"
    app = 'import { load } from "./lib";\n\nexport function main() {\n  load("a", "r");\n}\n'
    new = lib.replace("path: string,", "path: string, enc?: string,")
    setup(repo, {"src/lib.ts": lib, "src/app.ts": app}, {"src/lib.ts": new})
    (stale,) = codes(review(repo), "RB106")
    assert "src/app.ts:4 (function main)" in stale["message"]


def test_shifted_positional_arguments() -> None:
    def ps(header: str, language: str = "python") -> tuple[Param, ...]:
        found = parameters(header, "f", language, False)
        assert found is not None
        return found

    old, new = ps("def f(a, b, c=None)"), ps("def f(a, c=None)")
    assert reordered(old, new, Call(2, (), False))  # b's argument now goes to c
    assert not reordered(old, new, Call(1, ("c",), False))
    assert not reordered(ps("def f(a, b)"), ps("def f(a, x)"), Call(2, (), False))  # renamed
    go_old = ps("func f(a string, rest ...int)", "go")
    go_new = ps("func f(a string, n int, rest ...int)", "go")
    assert reordered(go_old, go_new, Call(3, (), False))
    assert not reordered(go_old, go_new, Call(1, (), False))


def test_go_a_slice_spread_into_the_variadic_parameter_counts_the_others(repo: Path) -> None:
    # testify's `c.Parent.On(methodName, arguments...)` after On gained `times int`.
    lib = "package lib\n\nfunc On(name string, args ...interface{}) int {\n\treturn len(args)\n}\n"
    main = (
        'package main\n\nimport "example.com/m/lib"\n\nfunc main() {\n'
        '\tvar xs []interface{}\n\tlib.On("a", xs...)\n}\n'
    )
    new = lib.replace("name string, args", "name string, times int, args")
    setup(
        repo,
        {"go.mod": "module example.com/m\n\ngo 1.21\n", "lib/lib.go": lib, "main.go": main},
        {"lib/lib.go": new},
    )
    (stale,) = codes(review(repo), "RB106")
    assert "main.go:7 (function main)" in stale["message"]
    assert "now takes (name, times, args ...interface{})" in stale["message"]
    assert "(it took (name, args ...interface{}))" in stale["message"]
    call = call_at('On("a", 1, xs...)', 2, "go")
    params = parameters("func On(name string, times int, args ...int)", "On", "go", False)
    assert call is not None and params is not None and fits(call, params, "go") is True


def test_a_call_through_an_import_that_now_binds_another_name_is_no_reference(
    repo: Path,
) -> None:
    # jotai 543f064c: `import { INTERNAL_buildStoreRev1 as INTERNAL_buildStore }` became
    # `import { INTERNAL_buildStoreRev2 as INTERNAL_buildStore }` as Rev1 was deleted.
    lib = "export function buildV1(): number {\n  return 1;\n}\n"
    new_lib = "export function buildV2(): number {\n  return 2;\n}\n"
    app = (
        'import { buildV1 as build } from "./lib";\n\n'
        "export function main() {\n  return build();\n}\n"
    )
    other = 'import { buildV1 } from "./lib";\n\nexport function run() {\n  return buildV1();\n}\n'
    plain = 'import { buildV1 } from "./lib";\n\nexport function go() {\n  return buildV1();\n}\n'
    setup(
        repo,
        {"src/lib.ts": lib, "src/app.ts": app, "src/other.ts": other, "src/plain.ts": plain},
        {
            "src/lib.ts": new_lib,
            "src/app.ts": app.replace("buildV1 as", "buildV2 as"),
            "src/other.ts": other.replace("{ buildV1 }", "{ buildV2 as buildV1 }"),
        },
    )
    (gone,) = codes(review(repo), "RB105")  # src/plain.ts still imports the deleted one
    assert "src/plain.ts:1 (import), 4 (function go)" in gone["message"]
    assert "src/app.ts" not in gone["message"] and "src/other.ts" not in gone["message"]


def test_a_python_call_through_an_import_that_now_binds_another_name_is_no_reference(
    repo: Path,
) -> None:
    lib = "def load_v1():\n    return 1\n"
    app = "from m.lib import load_v1 as load\n\n\ndef main():\n    return load()\n"
    setup(
        repo,
        {"m/__init__.py": "", "m/lib.py": lib, "m/app.py": app},
        {
            "m/lib.py": lib.replace("v1", "v2") + "\n\ndef other():\n    return 3\n",
            "m/app.py": app.replace("load_v1 as", "load_v2 as"),
        },
    )
    assert codes(review(repo), "RB105") == []


@pytest.mark.parametrize("indexed", [True, False])
def test_a_subclass_following_its_base_s_rename_is_no_re_sign_nor_its_own_reference(
    repo: Path, indexed: bool
) -> None:
    """commons-io adcb56a89 (reviewed without an index): `AndFileFilterTest extends
    ConditionalFileFilterAbstractTest` followed the base's rename and was "re-signed", its one
    reference its own `AndFileFilterTest.class.getName()`."""
    base = (
        "package a;\n\npublic abstract class OldBase {\n"
        "    int size() {\n        return 1;\n    }\n}\n"
    )
    sub = (
        "package a;\n\npublic class Sub extends OldBase {\n"
        "    String name() {\n        return Sub.class.getName();\n    }\n}\n"
    )
    other = "package a;\n\nclass Other {}\n"
    files = {"src/a/OldBase.java": base, "src/a/Sub.java": sub, "src/a/Other.java": other}
    for name, text in files.items():
        write(repo, name, text)
    commit(repo)
    if indexed:
        build_index(repo)
    (repo / "src/a/OldBase.java").unlink()
    write(repo, "src/a/NewBase.java", base.replace("OldBase", "NewBase"))
    write(repo, "src/a/Sub.java", sub.replace("OldBase", "NewBase"))
    git(repo, "add", "-A")
    doc = review(repo, staged=True)
    assert [(i["name"], i["change"]) for i in doc["impact"] if i["name"] == "Sub"] == []
    # A re-sign of its own: its reference inside itself is not listed.
    write(repo, "src/a/Sub.java", sub.replace("extends OldBase", "extends Other"))
    git(repo, "add", "-A")
    found = entry(review(repo, staged=True), "Sub")
    assert found["change"] == "signature" and found["references"] == [], found


def test_go_parameters_grouped_by_type_are_no_re_sign(repo: Path) -> None:
    # testify 9fc264e: `expectedType interface{}, object interface{}` written
    # `expectedType, object interface{}` read "signature: types or defaults only".
    lib = (
        "package lib\n\nfunc IsType(t int, a interface{}, b interface{}, more ...int) bool {\n"
        "\treturn a == b\n}\n"
    )
    main = 'package main\n\nimport "example.com/m/lib"\n\nfunc main() {\n\tlib.IsType(1, 2, 3)\n}\n'
    setup(
        repo,
        {"go.mod": "module example.com/m\n\ngo 1.21\n", "lib/lib.go": lib, "main.go": main},
        {"lib/lib.go": lib.replace("a interface{}, b", "a, b")},
    )
    assert [i["name"] for i in review(repo)["impact"]] == []
    write(repo, "lib/lib.go", lib.replace("a interface{}, b", "a, b").replace("(t int,", "(t,"))
    (changed,) = review(repo)["impact"]  # (`t, a, b interface{}`: t's type changed)
    assert changed["change"] == "signature"


def test_a_bundle_re_signs_what_the_impact_re_signs(repo: Path) -> None:
    """rq: `= None` dropped from `job_class` on one line of `Queue.all`'s multi-line header
    (an RB106 with 8 callers) read "one hunk, linked to no other"; jotai baaa7020: a one-line
    arrow whose expression body became a block (no re-sign in the impact) read "re-signs"."""
    lib = (
        "class Queue:\n    @classmethod\n    def all(\n        cls,\n        conn,\n"
        "        job_class=None,\n        serializer=None,\n    ):\n        return []\n"
    )
    app = "from m.lib import Queue\n\n\ndef run():\n    return Queue.all(1)\n"
    arrow = "export const onInit = (a: number): number => a + 1;\n"
    block = "export const onInit = (a: number): number => {\n  return a + 2;\n};\n"
    use = 'import { onInit } from "./lib";\n\nexport const x = onInit(1);\n'
    setup(
        repo,
        {"m/__init__.py": "", "m/lib.py": lib, "m/app.py": app, "src/lib.ts": arrow,
         "src/use.ts": use},
        {"m/lib.py": lib.replace("job_class=None", "job_class"), "src/lib.ts": block},
    )  # fmt: skip
    doc = review(repo)
    assert [f["path"] for f in codes(doc, "RB106")] == ["m/lib.py"]
    reasons = {b["title"]: b["reason"] for b in doc["bundles"]}
    assert "re-signs all" in reasons["def Queue.all (m/lib.py)"], reasons
    assert not [r for r in reasons.values() if "onInit" in r], reasons


def test_a_declaration_an_export_list_still_exports_under_its_name_is_not_removed(
    repo: Path,
) -> None:
    # jotai 543f064c replaced 21 `export type INTERNAL_AtomState<V = AnyValue> =
    # AtomState<V>` by one `export type { AtomState as INTERNAL_AtomState, ... }`: 21 rows
    # "type INTERNAL_AtomState removed", as many impact entries, and a bundle "removes
    # INTERNAL_AtomOnInit, ... and 16 more", while importers get the same type. A function
    # whose body is gone, its name now another's alias, is still removed.
    lib = (
        "type AtomState<V> = { v: V; n: number }\n"
        "type Mounted = { l: Set<() => void> }\n\n"
        "export function make(): AtomState<number> {\n  return { v: 1, n: 0 }\n}\n\n"
        "export function old(x: number): number {\n"
        "  if (x > 1) {\n    return x * 2\n  }\n  return x + 1\n}\n\n"
        "export type INTERNAL_AtomState<V = unknown> = AtomState<V>\n"
        "export type INTERNAL_Mounted = Mounted\n"
        "export const INTERNAL_make: typeof make = make\n"
    )
    now = (
        "type AtomState<V> = { v: V; n: number }\n"
        "type Mounted = { l: Set<() => void> }\n\n"
        "export function make(): AtomState<number> {\n  return { v: 1, n: 0 }\n}\n\n"
        "export type {\n  AtomState as INTERNAL_AtomState,\n  Mounted as INTERNAL_Mounted,\n}\n"
        "export { make as INTERNAL_make, make as old }\n"
    )
    use = (
        "import { INTERNAL_make, old } from './lib'\n"
        "import type { INTERNAL_AtomState, INTERNAL_Mounted } from './lib'\n\n"
        "export function run(m: INTERNAL_Mounted): INTERNAL_AtomState<number> {\n"
        "  m.l.clear()\n  return { v: old(INTERNAL_make().v), n: 1 }\n}\n"
    )
    setup(repo, {"src/lib.ts": lib, "src/use.ts": use}, {"src/lib.ts": now})
    for indexed in (True, False):
        if not indexed:
            index_file(Git(repo)).unlink()
        doc = review(repo)
        (lib_file,) = [f for f in doc["files"] if f["path"] == "src/lib.ts"]
        rows = [(u["change"], u["label"]) for u in lib_file["units"]]
        assert rows == [("removed", "function old")], rows
        removed = {i["name"] for i in doc["impact"] if i["change"] == "removed"}
        assert not removed & {"INTERNAL_AtomState", "INTERNAL_Mounted", "INTERNAL_make"}, removed
        reasons = "; ".join(b["reason"] for b in doc["bundles"])
        assert "INTERNAL_" not in reasons, reasons


def test_a_go_receiver_made_a_pointer_is_no_types_only_re_sign(repo: Path) -> None:
    """`func (s Store) Get(k string)` -> `func (s *Store) Get(k string)` was "types or
    defaults only", a change whose calls all fit: the method set of Store changed (a Store
    value no longer satisfies an interface needing Get; `Store{}.Get(k)` no longer compiles).
    The review says the receiver changed, lists the calls, and names none as broken."""
    store = "package kv\n\ntype Store struct{ m map[string]int }\n\n"
    use = 'package kv\n\nfunc Use() int {\n\tvar s Store\n\treturn s.Get("a")\n}\n'
    setup(
        repo,
        {
            "go.mod": "module example.com/kv\n\ngo 1.21\n",
            "kv/store.go": store + "func (s Store) Get(k string) int { return s.m[k] }\n",
            "kv/use.go": use,
        },
        {"kv/store.go": store + "func (s *Store) Get(k string) int { return s.m[k] }\n"},
    )
    doc = review(repo)
    found = entry(doc, "Get")
    assert found["detail"] == (
        "receiver now a pointer (*Store): no longer in the method set of Store values"
    )
    assert not codes(doc, "RB106")
    back = header_change(
        ("Get", "func (s *Store) Get(k string) int"),
        ("Get", "func (s Store) Get(k string) int"),
        "go",
        True,
    )
    assert back == "receiver now a value (Store): works on a copy"


MODULE_STATE = """import { it, vi } from 'vitest'

let subscriber: ((message: any) => void) | undefined

const hub = {
  subscribe: vi.fn((fn: typeof subscriber) => {
    subscriber = fn
  }),
}

it('sends', () => {
  hub.subscribe(undefined)
  ;(subscriber as (message: any) => void)({ type: 'ACTION' })
})
"""


def test_a_module_variable_moved_into_a_describe_callback_is_not_deleted(repo: Path) -> None:
    # valtio 7537417: `let extensionSubscriber` and `const extension` moved from the module into
    # `describe('devtools', () => {`; the lines using them that the change left alone mean the
    # callback's locals, which the index defines nothing for: two false RB105s.
    body = MODULE_STATE.split("\n", 2)[2]
    moved = "import { describe, it, vi } from 'vitest'\n\ndescribe('hub', () => {\n" + body + "})\n"
    setup(repo, {"tests/hub.test.ts": MODULE_STATE}, {"tests/hub.test.ts": moved})
    doc = review(repo)
    assert codes(doc, "RB105") == []
    gone = [i for i in doc["impact"] if i["name"] in ("subscriber", "hub")]
    assert all(i["total"] == 0 for i in gone if i["change"] == "removed"), gone


def test_a_deleted_module_variable_still_named_in_a_callback_is_an_rb105(repo: Path) -> None:
    # (the other side: no declaration around the line, the deleted module variable is meant)
    gone = MODULE_STATE.replace("let subscriber: ((message: any) => void) | undefined\n", "")
    gone = gone.replace("it('sends', () => {", "it('sends', () => {\n  const other = 1")
    setup(repo, {"tests/hub.test.ts": MODULE_STATE}, {"tests/hub.test.ts": gone})
    (finding,) = codes(review(repo), "RB105")
    assert "subscriber" in finding["message"]


BUILDER = """class Range:
    @classmethod
    def build(cls, low, *, pre):
        return cls()

    def widen(self):
        return Range.build(
            1,
            pre=True,
        )

    def narrow(self):
        return Range.build(
            2,
            pre=False,
        )
"""


def test_a_call_whose_argument_line_the_change_rewrote_is_in_the_change(repo: Path) -> None:
    # packaging c411a96f: `_build(..., *, prereleases)` -> `pre_region`; 6 calls had their
    # `prereleases=resolved` line rewritten below the call's first line, and read as calls
    # outside the change ("12 place(s), 1 in the change").
    new = BUILDER.replace("*, pre)", "*, region)").replace("pre=True", "region=True")
    setup(repo, {"lib.py": BUILDER}, {"lib.py": new})
    doc = review(repo)
    found = entry(doc, "build")
    assert (found["total"], found["in_change_total"]) == (2, 1)
    assert [r["line"] for r in found["references"] if r["in_change"]] == [7]
    assert codes(doc, "RB106") != []  # (narrow's call still passes `pre`)


def test_a_header_only_respelt_is_no_re_sign(repo: Path) -> None:
    # valtio a806f91: `export const deepClone = <T>(…): T => {` made `export function
    # deepClone<T>(…): T {` (and a multi-line return type): "impact: function deepClone
    # (signature)", a bundle "re-signs deepClone"; dedb906 (prettier): `"md:hidden"` made
    # `'md:hidden'` in a default: "(signature: types or defaults only)".
    lib = (
        "export const clone = <T>(obj: T, seen: () => Set<object> = fresh): T => {\n"
        "  return obj\n}\n\n"
        "export const states = (): {\n  a: number\n  b: string\n} => ({\n  a: 1,\n  b: '',\n})\n\n"
        'export function Nav({ display = "md:hidden", name = "" }) {\n'
        "  return display + name\n}\n\n"
        "export function fresh(): Set<object> {\n  return new Set()\n}\n"
    )
    now = (
        "export function clone<T>(obj: T, seen: () => Set<object> = fresh): T {\n"
        "  return obj\n}\n\n"
        "export function states(): {\n  a: number\n  b: string\n} {\n"
        "  return { a: 1, b: '' }\n}\n\n"
        "export function Nav({ display = 'md:hidden', name = '' }) {\n"
        "  return display + name\n}\n\n"
        "export function fresh(): Set<object> {\n  return new Set()\n}\n"
    )
    use = (
        "import { clone, states, Nav } from './lib'\n\n"
        "export const x = clone(states())\nexport const y = Nav({})\n"
    )
    setup(repo, {"src/lib.ts": lib, "src/use.ts": use}, {"src/lib.ts": now})
    doc = review(repo)
    assert [(i["name"], i["change"]) for i in doc["impact"]] == []
    assert not [b["reason"] for b in doc["bundles"] if "re-signs" in b["reason"]], doc["bundles"]
    # (a header whose parameters did change is still one)
    write(repo, "src/lib.ts", now.replace("name = '' }", "name = '', size = 1 }"))
    (changed,) = review(repo)["impact"]
    assert (changed["name"], changed["change"]) == ("Nav", "signature")


def test_a_java_parameter_named_after_a_renamed_type_follows_it(repo: Path) -> None:
    # commons-cli 8677d165: `HelpWriter` renamed `HelpAppendable`; `HelpFormatter(final
    # HelpWriter helpWriter)` now `(final HelpAppendable helpAppendable)`: "constructor
    # HelpFormatter.HelpFormatter (signature: parameter types changed (HelpWriter ->
    # HelpAppendable); parameters renamed) is referenced in 7 place(s)".
    writer = "package a;\n\npublic interface HelpWriter {\n    void put(String s);\n}\n"
    fmt = (
        "package a;\n\npublic class Fmt {\n    private final HelpWriter out;\n\n"
        "    public Fmt(final HelpWriter helpWriter) {\n        this.out = helpWriter;\n    }\n}\n"
    )
    use = "package a;\n\nclass Use {\n    Object make(HelpWriter w) { return new Fmt(w); }\n}\n"
    files = {"src/a/HelpWriter.java": writer, "src/a/Fmt.java": fmt, "src/a/Use.java": use}
    renamed = {
        name: text.replace("HelpWriter", "HelpAppendable").replace("helpWriter", "helpAppendable")
        for name, text in files.items()
    }
    setup(
        repo,
        files,
        {
            "src/a/HelpWriter.java": None,
            "src/a/HelpAppendable.java": renamed["src/a/HelpWriter.java"],
            "src/a/Fmt.java": renamed["src/a/Fmt.java"],
            "src/a/Use.java": renamed["src/a/Use.java"],
        },
    )
    git(repo, "add", "-A")
    doc = review(repo, staged=True)
    assert [(i["name"], i["change"]) for i in doc["impact"]] == [("HelpWriter", "renamed")]
    # (a parameter renamed otherwise is still told)
    write(repo, "src/a/Fmt.java", renamed["src/a/Fmt.java"].replace("helpAppendable", "sink"))
    git(repo, "add", "-A")
    changes = {i["name"]: i["change"] for i in review(repo, staged=True)["impact"]}
    assert changes == {"HelpWriter": "renamed", "Fmt": "signature"}, changes


def test_java_overloads_whose_return_type_alone_changed_are_one_entry(repo: Path) -> None:
    # commons-cli 62d1ba73 narrowed three `append` overloads' `Appendable` to
    # `FilterHelpAppendable`: three entries "method FilterHelpAppendable.append (signature)"
    # a reader could not tell apart, their places and uncertain counts listed.
    w = (
        "package a;\n\npublic class W implements Appendable {\n"
        "    @Override\n    public Appendable append(final char ch) {\n"
        "        return this;\n    }\n\n"
        "    @Override\n    public Appendable append(final CharSequence text) {\n"
        "        return this;\n    }\n\n"
        "    @Override\n"
        "    public Appendable append(final CharSequence t, final int a, final int b) {\n"
        "        return this;\n    }\n\n"
        "    public int size(final int a) {\n        return a;\n    }\n\n"
        "    public int size(final String a) {\n        return 1;\n    }\n}\n"
    )
    use = (
        "package a;\n\nclass Use {\n    void run(W w) {\n        w.append('c');\n"
        '        w.append("s");\n        w.size(1);\n        w.size("x");\n    }\n}\n'
    )
    new = w.replace("public Appendable", "public W").replace("int size(final", "long size(final")
    new = new.replace("size(final String a)", "size(final String a, final int b)")
    setup(repo, {"src/a/W.java": w, "src/a/Use.java": use}, {"src/a/W.java": new})
    doc = review(repo)
    told = {i["unit"]: i["detail"] for i in doc["impact"]}
    assert told == {
        "method W.append(char), append(CharSequence), append(CharSequence, int, int)": (
            "return type only"
        ),
        "method W.size(int)": "return type only",
        "method W.size(String, int)": "added b (required)",
    }, told
    text = review_text(pipeline.review(GitChange(repo), Config()), Style(False), width=100)
    text = " ".join(text.split())
    assert "(signature: return type only) is referenced in 2 place(s); its calls still fit" in text


DATACLASS = """import dataclasses


@dataclasses.dataclass(
    frozen=True,
    init=False,
)
class Wheel:
    name: str
    size: int

    def __init__(self, *, name: str, size: int) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "size", size)
"""


@pytest.mark.parametrize(
    "decorator", ["dataclasses.dataclass(\\n    frozen=True,\\n    kw_only=True,\\n)", "dataclass"]
)
def test_a_dataclass_init_replaced_by_the_generated_one_is_not_removed(
    repo: Path, decorator: str
) -> None:
    # packaging 3c6e2aab: `@dataclasses.dataclass(frozen=True, init=False, slots=True)` with an
    # explicit keyword-only `__init__` made `kw_only=True` without it: 10 entries "method
    # PackageWheel.__init__ (removed) is still referenced in 18 place(s)".
    use = "from lib import Wheel\n\n\ndef make():\n    return Wheel(name='a', size=1)\n"
    new = DATACLASS.split("\n\n    def __init__")[0] + "\n"
    new = new.replace("dataclasses.dataclass(\n    frozen=True,\n    init=False,\n)", decorator)
    if decorator == "dataclass":
        new = new.replace("import dataclasses", "from dataclasses import dataclass")
    setup(repo, {"lib.py": DATACLASS, "use.py": use}, {"lib.py": new})
    doc = review(repo)
    assert [(i["unit"], i["change"]) for i in doc["impact"]] == []
    assert codes(doc, "RB105") == []
    # (with `init=False` kept, the class has no `__init__` taking those keywords any more)
    write(repo, "lib.py", DATACLASS.split("\n\n    def __init__")[0] + "\n")
    removed = [(i["unit"], i["change"]) for i in review(repo)["impact"]]
    assert removed == [("method Wheel.__init__", "removed")], removed


def test_places_in_no_unit_say_so_in_line_order(repo: Path) -> None:
    # valtio a806f91: `deepClone.ts:9 (function getDefaultRefSet), 1; proxyMap.ts:1, 3`: the
    # import on line 1, listed after the units, read as inside the function before it.
    lib = "export function make(a: number): number {\n  return a\n}\n\nexport const k = 1\n"
    use = (
        "import { make } from './lib'\n\nmake(1)\n\n"
        "export function later(): number {\n  return make(2)\n}\n"
    )
    setup(repo, {"src/lib.ts": lib, "src/use.ts": use}, {"src/lib.ts": "export const k = 1\n"})
    rep = pipeline.review(GitChange(repo), Config())
    text = " ".join(review_text(rep, Style(False), width=100).split())
    assert "src/use.ts:1 (import), 3 (top level), 6 (function later)" in text, text
    (gone,) = [f for f in rep.findings if f.code == "RB105"]
    assert "src/use.ts:1 (import), 3 (top level), 6 (function later)" in gone.message, gone.message
