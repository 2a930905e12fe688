"""Signal over noise in what a review says: renamed containers carry their members, overloads
pair by header, string keys are no declarations, impact lines only for what reaches outside
the change, findings said once and in the order that matters, nothing cut at 80 columns."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from reviewbot.analysis import repo_impact
from reviewbot.analysis.context import hunk_contexts
from reviewbot.analysis.impact import deleted_anchor
from reviewbot.analysis.repo_impact import declaration_changes
from reviewbot.analysis.review import ReviewOptions, review_file
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, Mode, review
from reviewbot.engine import get_profile, open_index
from reviewbot.engine.languages import default_registry
from reviewbot.model import (
    ChangedFile,
    Finding,
    HotspotTouch,
    Hunk,
    MetricsChange,
    Severity,
    Status,
)
from reviewbot.model import UnitRef as UnitRefModel
from reviewbot.render.hook_text import hook_text
from reviewbot.render.markdown import inline_body, render_markdown
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style, diff_gutter
from reviewbot.repo.paths import secondary
from tests.analysis.test_repo_impact import build_index, entry
from tests.analysis.test_repo_impact import review as review_doc
from tests.analysis.test_units_and_findings import line_map
from tests.helpers import commit, git, write


def changed(
    path: str, before: str | None, after: str | None, old: str | None = None
) -> ChangedFile:
    status = (
        Status.ADDED if before is None else Status.DELETED if after is None else Status.MODIFIED
    )
    hunks = line_map(before or "", after or "").hunks
    return ChangedFile(path, old or path, status, hunks, before, after)


LAZY = """class LazyFile:
    def __init__(self, name):
        self.name = name
        self._f = None

    def open(self):
        if self._f is None:
            self._f = open(self.name)
        return self._f

    def close(self):
        if self._f is not None:
            self._f.close()
"""


def test_members_of_a_renamed_class_follow_it() -> None:
    """`LazyFile` -> `_LazyFile` with the bodies kept: one rename, its methods neither removed
    nor added; a method whose own header changed is re-signed under the new name."""
    after = LAZY.replace("class LazyFile", "class _LazyFile")
    changes = declaration_changes([changed("u.py", LAZY, after)], default_registry())
    assert [(c.change, c.old and c.old.qualified, c.new and c.new.qualified) for c in changes] == [
        ("renamed", "LazyFile", "_LazyFile")
    ]
    resigned = after.replace("def close(self):", "def close(self, force):")
    changes = declaration_changes([changed("u.py", LAZY, resigned)], default_registry())
    assert sorted((c.change, c.new and c.new.qualified) for c in changes) == [
        ("renamed", "_LazyFile"),
        ("signature", "_LazyFile.close"),
    ]


def test_a_class_moved_to_another_file_under_a_new_name_is_one_rename() -> None:
    moved = LAZY.replace("class LazyFile", "class LazyStream")
    changes = declaration_changes(
        [changed("a.py", LAZY, ""), changed("b.py", None, moved)], default_registry()
    )
    assert [(c.change, c.old and c.old.path, c.new and c.new.qualified) for c in changes] == [
        ("renamed", "a.py", "LazyStream")
    ]


JAVA = """class Builder {
    boolean onStack(Element el) {
        return stack.contains(el);
    }

    private static boolean onStack(ArrayList<Element> queue, Element element) {
        return queue.contains(element);
    }
}
"""


def test_removing_one_overload_removes_it_and_leaves_the_other_alone() -> None:
    after = JAVA.replace(
        "\n    private static boolean onStack(ArrayList<Element> queue, Element element) {\n"
        "        return queue.contains(element);\n    }\n",
        "",
    ).replace("return stack.contains(el);", "return stack.lastIndexOf(el) >= 0;")
    changes = declaration_changes([changed("B.java", JAVA, after)], default_registry())
    assert [(c.change, c.old and c.old.signature) for c in changes] == [
        ("removed", "private static boolean onStack(ArrayList<Element> queue, Element element)")
    ]


def test_string_keys_are_no_declarations_and_product_code_is_looked_up_first() -> None:
    bench = 'export const cases = {\n  "validate + return": () => run(1),\n};\n'
    product = "export function compile(schema) {\n  return schema;\n}\n"
    changes = declaration_changes(
        [changed("bench/a.ts", None, bench), changed("src/z.ts", None, product)],
        default_registry(),
    )
    names = [c.new.name for c in changes if c.new is not None]
    assert "validate + return" not in names
    assert names[0] == "compile"  # src/ before bench/, though bench/ sorts first by path


def test_secondary_paths() -> None:
    assert [
        secondary(p)
        for p in (
            "tests/test_a.py",
            "packages/bench/x.ts",
            "a/b.test.ts",
            "mw/client_ip_test.go",
            "conftest.py",
            "src/click/core.py",
            "src/attest.py",
            "src/Testament.java",
        )
    ] == [True, True, True, True, True, False, False, False]


FLAT = """class Box:
    def size(self):
        if self.a:
            return 1
        if self.b:
            return 2
        if self.c:
            return 3
        return 0
"""
NESTED = """class Box:
    def size(self):
        if self.a:
            if self.b:
                if self.c:
                    return 3
            return 1
        return 0
"""


def test_nesting_is_told_once_and_not_on_the_class() -> None:
    """A method nesting two levels deeper with no more decisions: RB103 on the method, never
    on the class around it (before, the class got an RB103 of its own)."""
    cf = changed("box.py", FLAT, NESTED)
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    assert [(f.code, f.unit.label) for f in done.findings] == [("RB103", "def size")]


def test_a_new_files_dense_unit_is_compared_with_the_bar_not_a_made_up_profile() -> None:
    body = "".join(f"    if x == {k}:\n        return {k}\n" for k in range(9))
    cf = changed("new.py", None, f"def pick(x):\n{body}    return -1\n")
    done = review_file(cf, ReviewOptions(get_profile("review"), default_registry()))
    (found,) = done.findings
    assert found.code == "RB102"
    assert "(a new file)" in found.message and "at most 0" not in found.message


def test_findings_by_severity_then_product_code_first(repo: Path) -> None:
    write(repo, "tests/test_box.py", FLAT)
    write(repo, "src/box.py", FLAT)
    write(repo, "src/flat.py", FLAT)
    commit(repo)
    write(repo, "tests/test_box.py", NESTED)
    write(repo, "src/box.py", NESTED)
    spike = "class Box:\n    def size(self):\n" + "".join(
        f"        if self.k == {k}:\n            return {k}\n" for k in range(8)
    )
    write(repo, "src/flat.py", spike + "        return 1\n")
    rep = review(GitChange(repo), Config())
    assert [(f.path, f.code) for f in rep.findings] == [
        ("src/flat.py", "RB101"),  # an error first, whatever its path
        ("src/box.py", "RB103"),
        ("tests/test_box.py", "RB103"),  # a test after the product's code
    ]


def test_text_findings_come_first_and_nothing_is_cut_at_80_columns(repo: Path) -> None:
    long = "packages/benchmarks_and_more/compile-object-passthrough-" + "x" * 30 + ".py"
    write(repo, long, FLAT)
    commit(repo)
    write(repo, long, NESTED)
    text = review_text(review(GitChange(repo), Config()), Style(color=False), width=80)
    lines = text.splitlines()
    assert lines[3] == "Findings (1)"
    table = next(i for i, x in enumerate(lines) if "modified" in x)
    assert lines.index("Findings (1)") < table
    assert lines[4].split() == ["info", "RB103"]
    # on its own line, its file's name whole, its folders cut to fit (the name alone fits)
    assert lines[5].strip() == f"packages/…/{long.rpartition('/')[2]}:4-6"
    assert lines[6].strip() == "Deeper nesting in def Box.size"  # the title whole, under it
    assert all(len(x) <= 80 for x in lines[:7])  # (the finding: its place too)
    assert "…" not in "\n".join(lines[6:table])  # the title and the message: nothing cut


def test_impact_lines_only_for_what_reaches_outside_the_change(repo: Path) -> None:
    """A re-signed function whose every caller the change updates is in the JSON, not in the
    text; one with a caller left outside is in both."""
    lib = (
        "def load(path):\n    return path\n\n\ndef keep(path):\n    return path\n\n\n"
        "def use():\n    return load('x')\n"
    )
    write(repo, "lib.py", lib)
    write(repo, "b.py", "from lib import keep\n\nkeep('z')\n")
    commit(repo)
    build_index(repo)
    # A parameter with a default: callers outside need no change (no RB106 to tell it).
    write(repo, "lib.py", lib.replace("(path)", "(path, mode=None)").replace("('x')", "('x', 'r')"))
    doc = review_doc(repo)
    load, keep = entry(doc, "load"), entry(doc, "keep")
    assert [r["in_change"] for r in load["references"]] == [True]
    assert [r["in_change"] for r in keep["references"]] == [False, False]
    text = review_text(review(GitChange(repo), Config()), Style(color=False), width=80)
    impact = [x for x in text.splitlines() if x.strip().startswith("impact:")]
    assert len(impact) == 1 and "function keep (signature: added mode)" in impact[0], impact


def test_a_deleted_method_is_not_referenced_by_a_builtin_or_another_modules_name(
    repo: Path,
) -> None:
    """New lines calling the builtin `open(...)` or `os.write(...)` do not keep a deleted
    method `open` or `write` alive; a new line calling a deleted function by name does."""
    stream = (
        "class Stream:\n    def open(self):\n        return 1\n\n"
        "    def write(self, data):\n        return data\n\n\n"
        "def helper():\n    return 2\n"
    )
    write(repo, "s.py", stream)
    write(repo, "t.py", "import os\n\n\ndef run():\n    return 0\n")
    commit(repo)
    build_index(repo)
    write(repo, "s.py", "class Stream:\n    pass\n")
    write(
        repo,
        "t.py",
        "import os\n\n\ndef run():\n    os.write(1, b'x')\n"
        "    with open('f') as f:\n        f.read()\n    return helper()\n",
    )
    doc = review_doc(repo)
    gone = {f["message"].split(" (was")[0] for f in doc["findings"] if f["code"] == "RB105"}
    assert gone == {"This change deletes function helper"}
    assert doc["stats"]["findings_total"] == len(doc["findings"])  # RB105 counted too


def test_a_typescript_member_with_a_function_typed_constraint_is_named_by_itself() -> None:
    """`refine<Ch extends (arg: T) => unknown>(check: Ch)`: the member is `refine`, not the
    keyword `extends` (whose removal was then "still referenced" by every `class X extends`)."""
    text = (
        "interface Mini<T> {\n"
        "  check(x: T): boolean;\n"
        "  refine<Ch extends (arg: Out<this>) => unknown | Promise<unknown>>(check: Ch): this;\n"
        "}\n"
        "class Runner {\n"
        "  run<X extends (a: number) => void>(f: X) {\n"
        "    if (f) { f(1); }\n"
        "  }\n"
        "  plain<T>(x: T) {\n"
        "    return x;\n"
        "  }\n"
        "}\n"
    )
    names = [u.name for u in open_index("d.ts", text).structure.units]
    assert names == ["Mini", "check", "refine", "Runner", "run", "plain"]


def test_a_respelled_header_or_a_constant_is_not_re_signed() -> None:
    before = (
        "import typing\n\nT = typing.TypeVar('T')\n\n\n"
        "def run(x: typing.Any, n: int = 1) -> typing.Optional[T]:\n    return x\n\n\n"
        "def go(x: int) -> int:\n    return x\n"
    )
    after = (
        before.replace("typing.", "")
        .replace("import typing", "from typing import Any, Optional, TypeVar")
        .replace("def go(x: int)", "def go(x: str)")
    )
    changes = declaration_changes([changed("m.py", before, after)], default_registry())
    assert [(c.change, c.new and c.new.name) for c in changes] == [("signature", "go")]


def test_a_rename_without_an_index_is_one_renamed_entry(repo: Path) -> None:
    body = "".join(f"    if path == {k}:\n        return {k}\n" for k in range(4))
    write(repo, "lib.py", f"def load(path):\n{body}    return path\n")
    write(repo, "app.py", "from lib import load\n\nload('x')\n")
    commit(repo)
    write(repo, "lib.py", f"def read(path):\n{body}    return path\n")
    doc = review_doc(repo)
    assert [(i["name"], i["change"], i["total"]) for i in doc["impact"]] == [("load", "renamed", 2)]
    (found,) = [f for f in doc["findings"] if f["code"] == "RB105"]
    assert found["title"] == "load is renamed to read but still referenced"


def test_the_grep_impact_leaves_style_sheets_and_prose_out(repo: Path) -> None:
    write(repo, "src/schema.ts", "export function apply(fn: number): number {\n  return fn;\n}\n")
    write(repo, "src/use.ts", "import { apply } from './schema';\napply(1);\n")
    write(repo, "app/global.css", ".a {\n  @apply font-normal;\n}\n")
    write(repo, "docs/guide.mdx", "Call apply(x) to run it.\n")
    commit(repo)
    write(
        repo,
        "src/schema.ts",
        "export function apply(fn: number, n: number): number {\n  return fn;\n}\n",
    )
    (found,) = review_doc(repo)["impact"]
    assert found["change"] == "signature"
    assert {r["path"] for r in found["references"]} == {"src/use.ts"}


def test_bundles_without_findings_read_the_weightiest_product_code_first(repo: Path) -> None:
    """No finding anywhere: a version bump (one line, first by path) is read after the
    refactor, and the tests after the product's code though they changed more lines."""
    core = "".join(f"def f{k}(x):\n    return x + {k}\n\n\n" for k in range(6))
    tests = "".join(f"def test_{k}():\n    assert {k}\n\n\n" for k in range(12))
    write(repo, "a/__init__.py", '__version__ = "1.0"\n')
    write(repo, "a/core.py", core)
    write(repo, "tests/test_misc.py", tests)
    commit(repo)
    write(repo, "a/__init__.py", '__version__ = "1.1"\n')
    write(repo, "a/core.py", core.replace("return x +", "return x * 2 +"))
    write(repo, "tests/test_misc.py", tests.replace("assert", "assert not not"))
    rep = review(GitChange(repo), Config())
    assert not rep.findings
    firsts = [b.hunks[0].path for b in rep.bundles]
    assert firsts.index("a/core.py") < firsts.index("a/__init__.py")
    assert firsts.index("a/core.py") < firsts.index("tests/test_misc.py")


def test_prose_joins_code_only_through_names_written_as_code(repo: Path) -> None:
    code = "def bundle(x):\n    return x\n"
    write(repo, "src/pack.py", "def other():\n    return 1\n")
    write(repo, "docs/a.md", "# A\n")
    write(repo, "docs/b.md", "# B\n")
    commit(repo)
    write(repo, "src/pack.py", "def other():\n    return 1\n\n\n" + code)
    write(repo, "docs/a.md", "# A\n\nEach bundle is read in order.\n")  # an English word
    write(repo, "docs/b.md", "# B\n\nCall `bundle()` to group them.\n")  # the function
    rep = review(GitChange(repo), Config())
    with_code = next(b for b in rep.bundles if any(h.path == "src/pack.py" for h in b.hunks))
    assert {h.path for h in with_code.hunks} == {"src/pack.py", "docs/b.md"}


def test_a_finding_and_its_impact_line_are_not_both_told(repo: Path) -> None:
    """RB105 lists the places a deleted function is still called: the impact line saying the
    same is left out of the text and the Markdown (the JSON keeps it); Markdown says "still"."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone(x):\n    return x\n")
    write(repo, "app.py", "from lib import gone\n\ngone(1)\n")
    commit(repo)
    write(repo, "lib.py", "def keep():\n    return 1\n")
    rep = review(GitChange(repo), Config())
    assert [f.code for f in rep.findings] == ["RB105"]
    assert [i.name for i in rep.impact if i.shown] == ["gone"]
    text = review_text(rep, Style(color=False), width=80)
    assert "impact: def gone" not in text and "RB105" in text
    rep = rep._replace(findings=())  # the same entry, no finding telling it
    body = render_markdown(rep)
    assert "def gone (removed) is still named (git grep, no index) in 2 place(s)" in body


def test_a_bundle_is_titled_by_its_weightiest_unit_not_its_commonest_label(repo: Path) -> None:
    """Two test files each with a `def test_it`, and the function they test, changed
    together: the title is the product's function, not the label two tests share."""
    api = "def parse(text):\n" + "".join(f"    text = text.replace('{k}', '')\n" for k in range(6))
    api += "    return text\n"
    test = "from api import parse\n\n\ndef test_it():\n    assert parse('x') == 'x'\n"
    write(repo, "api.py", api)
    write(repo, "tests/test_api.py", test)
    write(repo, "tests/test_api_more.py", test)
    commit(repo)
    write(repo, "api.py", api.replace("replace(", "strip().replace("))
    write(repo, "tests/test_api.py", test.replace("== 'x'", "!= 'y'"))
    write(repo, "tests/test_api_more.py", test.replace("== 'x'", "!= 'z'"))
    rep = review(GitChange(repo), Config())
    (bundle,) = [b for b in rep.bundles if any(h.path == "api.py" for h in b.hunks)]
    assert {h.path for h in bundle.hunks} >= {"api.py", "tests/test_api.py"}
    assert bundle.title.startswith("def parse ("), rep.bundles


def test_the_hooks_lines_fit_80_columns(repo: Path) -> None:
    """pre-commit shows the hook's output as it is: a finding's line keeps to 80 columns,
    the unit's shape left out first, then what moved put under the place."""
    for name in ("a.py", "src/package/sub/module_with_a_long_name.py"):
        write(repo, name, "def apply_the_discount_to_order(order, rate):\n    return order\n")
    commit(repo)
    spiky = "def apply_the_discount_to_order(order, rate):\n" + "".join(
        f"    if order.k == {k}:\n        if rate:\n            order.r = {k}\n" for k in range(4)
    )
    for name in ("a.py", "src/package/sub/module_with_a_long_name.py"):
        write(repo, name, spiky + "    return order\n")
    rep = review(GitChange(repo), Config(), mode=Mode.FAST)
    text = hook_text(rep, "staged change", max_findings=10, show_info=True)
    lines = text.splitlines()
    assert sum("[RB101]" in x for x in lines) == 2
    assert all(len(x) <= 80 for x in lines), [x for x in lines if len(x) > 80]
    # The long place on a line of its own, what moved under it, whole.
    long = [k for k, x in enumerate(lines) if "module_with_a_long_name.py:2" in x]
    assert len(long) == 1 and "[RB101]" in lines[long[0] + 1]


def test_a_hunks_context_shows_its_changed_lines_before_the_code_above(repo: Path) -> None:
    """A long hunk in the second function: the lines shown start at its changed lines (cut to
    a small share) and reach its last one (the fix itself) with room, never the end of the
    function above."""
    first = "def clear():\n" + "".join(
        f"    echo({k})  # clear the screen, step {k}\n" for k in range(20)
    )
    second = "def colour(c):\n" + "".join(
        f"    if c == {k}:\n        return {k}\n" for k in range(20)
    )
    before = first + "\n\n" + second + "    return None\n"
    after = before.replace(
        "        return 19\n", "        return 19\n    if c is None:\n        raise ValueError(c)\n"
    )
    after = after.replace("        return ", "        return -")  # every branch: one long hunk
    cf = changed("t.py", before, after)
    assert len(cf.hunks) == 1
    index = {"t.py": open_index("t.py", after)}
    (small,) = hunk_contexts([cf], index, [], 150, 60)
    assert small.truncated and "clear the screen" not in small.fine
    # the unit's header line, then the changed lines (a short line between them is shown
    # rather than a note that it was left out)
    assert small.fine.startswith("def colour(c):\n    if c == 0:\n        return -0")
    (roomy,) = hunk_contexts([cf], index, [], 1500, 60)
    assert "raise ValueError(c)" in roomy.fine and "clear the screen" not in roomy.fine


def test_javascript_functions_assigned_or_passed_to_a_bound_call_are_units() -> None:
    """Express's `res.send = function send(body) {`, prototypes, `module.exports = ...`,
    React's `const M = memo((props) => {` and zod's `export const $ZodURL = $constructor("…",
    (inst, def) => {`: where JavaScript keeps its logic, so they are measured as units."""
    text = (
        'export const $ZodURL = core.$constructor("$ZodURL", (inst, def) => {\n'
        "  inst.check = (payload) => {\n    if (payload) {\n      return 1;\n    }\n  };\n});\n"
        "const M = React.memo((props) => {\n  if (props.a) { return 1; }\n  return 2;\n});\n"
        "res.send = function send(body) {\n  if (body) { return 1; }\n  return 2;\n};\n"
        "app.prototype.listen = function () {\n  return 1;\n};\n"
        "module.exports = function createApp(opts) {\n  return opts;\n};\n"
        "const total = items.length;\n"
        "const doubled = items.map((x) => x * 2);\n"
        "export const $ZodType: core.$constructor<$ZodType> = /*@__PURE__*/ core.$constructor(\n"
        "  '$ZodType', (inst, def) => {\n  return 1;\n});\n"
        "export const $ZodUnion: core.$constructor<$ZodUnion> = /*@__PURE__*/ "
        'core.$constructor("$ZodUnion", (inst, def) => {\n  return 2;\n});\n'
    )
    units = [(u.name, u.start + 1) for u in open_index("a.js", text).structure.units]
    # (zod today: a type written for the name and a bundler's `/*@__PURE__*/` before the call,
    # which read as `core.$constructor(…)`; a call wrapped over lines is not followed.)
    assert units == [
        ("$ZodURL", 1),
        ("check", 2),
        ("M", 8),
        ("send", 12),
        ("listen", 16),
        ("createApp", 19),
        ("$ZodUnion", 28),
    ]


class _Clock:
    """time.monotonic for one module: each call is `step` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step = time.monotonic(), step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def test_the_hooks_time_budget_bounds_reading_the_change_into_the_index(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook's index work stops when its time budget is spent while the change's files
    are read (the index untouched, the note says why); with time left it finds the RB105."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone(x):\n    return x\n")
    write(repo, "app.py", "from lib import gone\n\ngone(1)\n")
    for k in range(3):
        write(repo, f"m{k}.py", f"def f{k}():\n    return {k}\n")
    commit(repo)
    database = build_index(repo)
    before = database.read_bytes()
    write(repo, "lib.py", "def keep():\n    return 1\n")
    for k in range(3):
        write(repo, f"m{k}.py", f"def f{k}():\n    return {k + 1}\n")
    deadline = time.monotonic() + 60
    rep = review(GitChange(repo), Config(), mode=Mode.FAST, deadline=deadline)
    assert [f.code for f in rep.findings] == ["RB105"] and rep.index_note == ""
    monkeypatch.setattr(repo_impact, "time", _Clock(step=100.0))  # every file takes 100 s
    rep = review(GitChange(repo), Config(), mode=Mode.FAST, deadline=deadline)
    assert rep.findings == () and rep.index_note == "the time budget was spent first"
    assert database.read_bytes() == before


def test_a_guess_beside_a_sure_reference_on_one_line_does_not_hide_it(repo: Path) -> None:
    """`other.identity == self.identity`: one reference per line is listed, and the sure
    `self.identity` must be the one (the guess on `other` is left out as uncertain)."""
    cls = (
        "class Expr:\n    def identity(self):\n        return (1,)\n\n"
        "    def __eq__(self, other):\n        return other.identity() == self.identity()\n"
    )
    write(repo, "e.py", cls)
    commit(repo)
    build_index(repo)
    write(repo, "e.py", cls.replace("    def identity(self):\n        return (1,)\n\n", ""))
    (found,) = [i for i in review_doc(repo)["impact"] if i["name"] == "identity"]
    assert found["total"] == 1 and found["references"][0]["confidence"] == 1.0


def test_rb105_sits_on_a_line_of_code_not_a_blank_one() -> None:
    """A diff that removes the blank line before a method with it (git may align it so): the
    line now in their place is blank; RB105 sits on the nearest line of code in the hunk."""
    old = (
        "class A:\n    def a(self):\n        return 1\n\n    def gone(self):\n"
        "        return 2\n\n    def b(self):\n        return 3\n"
    )
    new = "class A:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 3\n"
    hunk = Hunk(2, 8, 2, 5, (), (4, 5, 6))  # old lines 4-6: the blank, `def gone`, its body
    cf = ChangedFile("m.py", "m.py", Status.MODIFIED, (hunk,), old, new)
    line = deleted_anchor(cf, 5, 6)
    assert new.split("\n")[line - 1] == "        return 1"


def test_hotspots_touched_are_one_line_of_context(repo: Path) -> None:
    write(repo, "a.py", FLAT)
    commit(repo)
    write(repo, "a.py", NESTED)
    rep = review(GitChange(repo), Config())
    hot = (HotspotTouch("src/core.py", 1, 64), HotspotTouch("src/types.py", 4, 16))
    text = review_text(
        rep._replace(stats=rep.stats._replace(hotspots_touched=hot)), Style(color=False), width=80
    )
    lines = [x for x in text.splitlines() if "hotspot" in x]
    assert lines == [
        "  hotspots touched (rank, recent changes): src/core.py #1 (64), src/types.py #4"
    ]
    one = review_text(
        rep._replace(stats=rep.stats._replace(hotspots_touched=hot[:1])),
        Style(color=False),
        width=80,
    )
    assert "hotspot: src/core.py is #1 of the repository's hotspots (64 recent changes)" in one


def test_without_an_index_a_members_removal_is_impact_not_a_finding(repo: Path) -> None:
    """Without an index `send` matches every namesake (ASGI's `send` in 162 places of a
    real repository): a removed method is listed in the impact, and RB105 is left to the
    index; a removed function still named elsewhere is one."""
    lib = (
        "class Responder:\n    def send(self, data):\n        return data\n\n\n"
        "def helper(x):\n    return x\n"
    )
    write(repo, "lib.py", lib)
    write(
        repo,
        "app.py",
        "from lib import helper\n\n\nasync def run(send):\n    await send(helper(1))\n",
    )
    commit(repo)
    write(repo, "lib.py", "class Responder:\n    pass\n")
    doc = review_doc(repo)
    assert {i["name"]: i["change"] for i in doc["impact"]} == {
        "send": "removed",
        "helper": "removed",
    }
    assert [f["title"] for f in doc["findings"]] == ["helper is deleted but still referenced"]


CALLBACKS = """describe("parses input", () => {
  it("handles `x` > y", async () => {
    run();
  });
  beforeEach(function () {
    setup();
  });
});
app.get("/users/:id", function (req, res) {
  return res.send(req.user);
});
router.use((req, res, next) => {
  next();
});
if (items.some((x) => {
  return x;
})) {}
new Promise((resolve) => {
  resolve();
});
const view = <div onClick={() => {
  go();
}} />;
"""


def test_javascript_callbacks_passed_to_calls_are_units_named_by_the_call() -> None:
    """Routes, tests and middleware: the function literal opening a block as an argument is a
    unit named by its call and its leading string (not by a keyword of a control statement,
    not a constructor's executor, not a JSX attribute)."""
    units = open_index("a.jsx", CALLBACKS).structure.units
    assert [(u.label, u.start + 1, u.end + 1, u.depth) for u in units] == [
        ('describe("parses input")', 1, 8, 0),
        ('it("handles `x` › y")', 2, 4, 1),  # ` > ` joins labels: the string keeps a look-alike
        ("beforeEach(…)", 5, 7, 1),
        ('app.get("/users/:id")', 9, 11, 0),
        ("router.use(…)", 12, 14, 0),
    ]
    assert open_index("a.py", "describe('x', lambda: 1)\n").structure.units == ()


def test_a_route_callback_is_measured_and_a_test_block_is_no_finding_of_its_own() -> None:
    """A route handler gaining nested decisions gets RB101 under its route; a `describe`
    block whose new `it` cases make it longer is a container: no RB104 of its own, and the
    grep impact never searches a callback's call (`it`, `describe`) as a removed name."""
    route = "app.get('/x', function (req, res) {\n  return res.send(1);\n});\n"
    deep = route.replace(
        "  return res.send(1);\n",
        "".join(f"{'  ' * (k + 1)}if (req.q{k} && req.r{k}) {{\n" for k in range(5))
        + "            return res.send(1);\n"
        + "".join(f"{'  ' * (k + 1)}}}\n" for k in reversed(range(5))),
    )
    done = review_file(
        changed("routes.js", route, deep), ReviewOptions(get_profile("review"), default_registry())
    )
    assert [(f.code, f.unit.label) for f in done.findings] == [("RB101", "app.get('/x')")]
    cases = "".join(
        f'  it("case {k}", () => {{\n    expect(f({k})).toBe({k});\n  }});\n' for k in range(12)
    )
    before = 'describe("f", () => {\n' + cases[: cases.index('  it("case 2"')] + "});\n"
    after = 'describe("f", () => {\n' + cases + "});\n"
    done = review_file(
        changed("f.test.js", before, after),
        ReviewOptions(get_profile("review"), default_registry()),
    )
    assert done.findings == []
    labels = [u.label for u in done.summary.units if u.noteworthy]
    assert 'describe("f")' not in labels and 'describe("f") > it("case 11")' in labels


def test_a_removed_test_callback_is_no_impact_of_the_grep(repo: Path) -> None:
    write(repo, "a.test.js", 'describe("a", () => {\n  it("x", () => {\n    go();\n  });\n});\n')
    write(repo, "b.js", "describe('b');\nit('y');\n")
    commit(repo)
    write(repo, "a.test.js", 'describe("a", () => {\n});\n')
    doc = review_doc(repo)
    assert doc["impact"] == [] and not [f for f in doc["findings"] if f["code"] == "RB105"]
    units = [(u["label"], u["change"]) for f in doc["files"] for u in f["units"]]
    assert ('describe("a") > it("x")', "removed") in units


def test_findings_on_units_of_one_label_and_header_get_distinct_stable_fingerprints(
    repo: Path,
) -> None:
    """zod writes `inst._zod.check = (payload) => {` 23 times in one file: two of them gaining
    decisions were two findings with one fingerprint (the Action edited one comment back and
    forth on every run). They differ, and lines inserted above them keep both."""
    one = "  inst.check = (payload) => {\n    return payload;\n  };\n"
    deep = (
        "  inst.check = (payload) => {\n"
        + "".join(f"    if (payload.a{k} && payload.b{k}) {{ return {k}; }}\n" for k in range(6))
        + "    return payload;\n  };\n"
    )
    wrap = "export const {0} = make((inst) => {{\n{1}}});\n"
    write(repo, "checks.ts", wrap.format("A", one) + wrap.format("B", one))
    commit(repo)
    write(repo, "checks.ts", wrap.format("A", deep) + wrap.format("B", deep))
    first = review(GitChange(repo), Config(), mode=Mode.FAST)
    prints = [(f.code, f.line, f.fingerprint) for f in first.findings]
    assert [p[0] for p in prints] == ["RB101", "RB101"] and prints[0][2] != prints[1][2]
    write(repo, "checks.ts", "// moved down\n\n" + wrap.format("A", deep) + wrap.format("B", deep))
    again = review(GitChange(repo), Config(), mode=Mode.FAST)
    assert [f.fingerprint for f in again.findings] == [p[2] for p in prints]


def test_a_change_inside_a_closure_is_flagged_on_the_closure_not_also_on_its_function() -> None:
    """Before, `outer` got an RB101 of its own for the decisions its nested `check` gained:
    one change, two warnings. Its members carry the finding when none of its own lines changed."""
    one = "def outer():\n    def check(p):\n        return p\n    return check\n"
    deep = one.replace(
        "        return p\n",
        "".join(f"        if p.a{k} and p.b{k}:\n            return {k}\n" for k in range(6))
        + "        return p\n",
    )
    opts = ReviewOptions(get_profile("review"), default_registry())
    done = review_file(changed("a.py", one, deep), opts)
    assert [(f.code, f.unit.label) for f in done.findings] == [("RB101", "def check")]
    own = deep.replace("    return check\n", "    if deep:\n        return check\n")
    done = review_file(changed("a.py", one, own), opts)  # one decision of its own: no spike
    assert [(f.code, f.unit.label) for f in done.findings] == [("RB101", "def check")]
    own = deep.replace("    return check\n", "    if deep and a or b:\n        return check\n")
    done = review_file(changed("a.py", one, own), opts)  # three of its own: its own finding
    assert {f.unit.label for f in done.findings} == {"def outer", "def check"}
    (found,) = [f for f in done.findings if f.unit.label == "def outer"]
    assert "decision points 0 → 3" in found.message  # (not check's 12 besides)


def test_names_that_start_with_a_letter_outside_ascii_are_units() -> None:
    """`def émettre`, `class Über`, `func Größe`, `function 処理する`: identifiers of Python,
    Go and JavaScript may start with any letter; such units were invisible (no row, no
    finding) because a name had to start with an ASCII letter."""
    cases = {
        "e.py": ("def émettre(x):\n    return x\n\n\nclass Über:\n    pass\n", ["émettre", "Über"]),
        "e.go": ("package p\n\nfunc Größe() int {\n\treturn 1\n}\n", ["Größe"]),
        "e.js": ("function 処理する(x) {\n  return x;\n}\n", ["処理する"]),
    }
    for path, (text, names) in cases.items():
        assert [u.name for u in open_index(path, text).structure.units] == names, path
    body = "".join(f"    if x == {k}:\n        return {k}\n" for k in range(9))
    done = review_file(
        changed("n.py", None, f"def 処理する(x):\n{body}    return -1\n"),
        ReviewOptions(get_profile("review"), default_registry()),
    )
    assert [(f.code, f.unit.label) for f in done.findings] == [("RB102", "def 処理する")]


def test_an_index_some_commits_old_answers_for_the_files_as_the_change_finds_them(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index was built two commits ago; since then one caller stopped calling `gone`
    and a file calling it was deleted, and a new file calls it. Deleting `gone` (staged, as
    the hook sees it) names the new caller only: before, it named the two places of the old
    index and missed the new one. Too far from the change's base, the index says so."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone(x):\n    return x\n")
    write(repo, "app.py", "from lib import gone\n\ngone(1)\n")
    write(repo, "old.py", "from lib import gone\n\ngone(2)\n")
    commit(repo)
    database = build_index(repo)
    write(repo, "app.py", "from lib import keep\n\nkeep()\n")
    (repo / "old.py").unlink()
    write(repo, "new.py", "from lib import gone\n\n\ndef later():\n    return gone(3)\n")
    commit(repo)
    before = database.read_bytes()
    write(repo, "lib.py", "def keep():\n    return 1\n")
    git(repo, "add", "lib.py")
    doc = review_doc(repo, staged=True, mode=Mode.FAST)
    (found,) = [f for f in doc["findings"] if f["code"] == "RB105"]
    (entry_,) = doc["impact"]
    assert [(r["path"], r["line"]) for r in entry_["references"]] == [("new.py", 1), ("new.py", 5)]
    assert (
        "new.py:1 (import), 5 (function later)" in found["message"]
        and "app.py" not in found["message"]
    )
    assert database.read_bytes() == before  # read in a transaction rolled back
    monkeypatch.setattr(repo_impact, "_BEHIND", 2)
    rep = review(GitChange(repo, staged=True), Config(), mode=Mode.FAST)
    assert rep.findings == () and "3 files away from the change's base" in rep.index_note


def test_the_grep_impact_counts_code_only_and_a_namesake_declaration_makes_no_rb105(
    repo: Path,
) -> None:
    """Without an index (the Action's case), a deleted function's RB105 cited a comment, a
    string, a method of another object (`self.helper()`) and another module's own declaration
    of the name. Only code uses count; a second declaration of the name elsewhere leaves the
    lines ambiguous: listed, no warning."""
    write(repo, "pkg/tools.py", "def keep():\n    return 1\n\n\ndef helper(x):\n    return x\n")
    write(
        repo,
        "pkg/app.py",
        '"""Calls helper() a lot."""\nfrom pkg import tools\n\n# helper is old\n'
        "NAME = 'helper'\n\n\nclass A:\n    def run(self):\n        return self.helper()\n\n\n"
        "def go():\n    return tools.helper(1)\n",
    )
    commit(repo)
    write(repo, "pkg/tools.py", "def keep():\n    return 1\n")
    doc = review_doc(repo)
    (entry_,) = doc["impact"]
    assert [(r["path"], r["line"]) for r in entry_["references"]] == [("pkg/app.py", 14)]
    (found,) = [f for f in doc["findings"] if f["code"] == "RB105"]
    assert "in 1 place(s): pkg/app.py:14" in found["message"]
    git(repo, "checkout", "-q", "--", "pkg/tools.py")
    write(repo, "other/helpers.py", "def helper(x):\n    return -x\n")  # a namesake elsewhere
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "namesake")
    write(repo, "pkg/tools.py", "def keep():\n    return 1\n")
    doc = review_doc(repo)
    assert [i["name"] for i in doc["impact"]] == ["helper"]
    assert not [f for f in doc["findings"] if f["code"] == "RB105"]


def test_an_inline_comment_for_rb105_names_the_places_not_measures() -> None:
    ref = UnitRefModel("function gone", 3, 3)
    f = Finding(
        "RB105",
        Severity.WARNING,
        "lib.py",
        3,
        3,
        "gone is deleted but still referenced",
        "This change deletes function gone (lib.py), but gone is still referenced in 1 "
        "place(s): app.py:3.",
        MetricsChange(None, None),
        ref,
        "fp",
    )
    body = inline_body(f)
    assert "app.py:3" in body and "no change in its measures" not in body


def test_removing_an_override_or_a_nested_function_whose_name_now_means_another(
    repo: Path,
) -> None:
    """click b64ea071 removed the override `Option.get_default`: `self.get_default(ctx)` in
    Option's methods now calls `Parameter.get_default`, yet RB105 said it was deleted but
    still referenced there. A deleted nested `cmd` whose old call line now sits in a function
    with a `cmd` of its own is no remaining reference either. A real remaining caller is."""
    base = (
        "class Parameter:\n    def get_default(self, ctx):\n        return None\n\n\n"
        "class Option(Parameter):\n    def get_default(self, ctx):\n        return 1\n\n"
        "    def help(self, ctx):\n        return self.get_default(ctx)\n"
    )
    write(repo, "core.py", base)
    write(repo, "t.py", "def test_a():\n    def cmd():\n        return 1\n    return cmd()\n")
    write(repo, "use.py", "def gone():\n    return 1\n")
    write(repo, "call.py", "from use import gone\n\ngone()\n")
    commit(repo)
    build_index(repo)
    write(
        repo, "core.py", base.replace("    def get_default(self, ctx):\n        return 1\n\n", "")
    )
    write(repo, "t.py", "def test_b():\n    def cmd():\n        return 2\n    return cmd()\n")
    write(repo, "use.py", "X = 1\n")
    doc = review_doc(repo)
    gone = [f["title"] for f in doc["findings"] if f["code"] == "RB105"]
    assert gone == ["gone is deleted but still referenced"]
    # The override's callers now run the base's method: its impact all the same (jedi counts
    # them as its references); the nested `cmd`'s old call is no reference of it any more.
    (override,) = [i for i in doc["impact"] if i["name"] == "get_default"]
    assert [(r["path"], r["line"]) for r in override["references"]] == [("core.py", 8)]
    reached = "method Parameter.get_default at core.py:2"
    assert (override["retargeted"], override["now"]) == (1, reached)
    assert override["references"][0]["now"] == reached
    report = review(GitChange(repo), Config())
    text = " ".join(review_text(report, Style(color=False), width=200).split())
    assert f"(all now reaching {reached})" in text
    assert "(all now reaching method Parameter.get\\_default at core.py:2)" in render_markdown(
        report
    )
    assert "Option.get_default (removed) is still" not in text
    # (the nested `cmd` is bound again in the new text: no deletion to list, no reference)
    assert not [i for i in doc["impact"] if i["unit"] == "function test_a.cmd" and i["references"]]


def test_the_hooks_budget_stops_a_pass_that_cannot_end_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 153-file commit ran 2-3 times past the hook's budget: the deadline was looked at
    only as it passed. A pass whose first files say the rest cannot end in time stops then."""
    clock = _Clock(step=1.0)  # every look at the time: one second later
    monkeypatch.setattr(repo_impact, "time", clock)
    check = repo_impact._clock(clock.now + 20)
    check(1, 100)
    check(2, 100)
    with pytest.raises(repo_impact.IndexNotUsed):
        check(3, 100)  # about 1 s a file: 97 more files do not fit in the 17 s left
    check = repo_impact._clock(clock.now + 20)
    for done in range(1, 6):
        check(done, 5)  # 5 files at 1 s each fit


def test_a_module_moved_while_code_still_imports_it_from_its_old_place(repo: Path) -> None:
    """`git mv formatting.py formatter.py` with core.py still importing from `.formatting`:
    every import broke and the review said nothing. One RB105 names what is left behind;
    a caller that follows the move is fine."""
    write(repo, "pkg/__init__.py", "")
    write(
        repo,
        "pkg/formatting.py",
        "class HelpFormatter:\n    def write(self, s):\n        return s\n\n\n"
        "def wrap_text(s):\n    return s\n",
    )
    write(repo, "pkg/core.py", "from .formatting import HelpFormatter\n\nHelpFormatter()\n")
    write(repo, "pkg/term.py", "from .formatting import wrap_text\n\nwrap_text('a')\n")
    commit(repo)
    build_index(repo)
    git(repo, "mv", "pkg/formatting.py", "pkg/formatter.py")
    write(repo, "pkg/term.py", "from .formatter import wrap_text\n\nwrap_text('a')\n")
    git(repo, "add", "-A")
    doc = review_doc(repo, staged=True)
    (found,) = [f for f in doc["findings"] if f["code"] == "RB105"]
    assert found["title"] == "formatting.py is moved but still reached there"
    assert "moves HelpFormatter from pkg/formatting.py to pkg/formatter.py" in found["message"]
    assert "pkg/core.py:1" in found["message"] and "pkg/term.py" not in found["message"]


def test_overload_stubs_added_above_a_method_leave_the_method_its_old_self() -> None:
    """click 0103c957 added two `@overload` stubs above `main` and annotated it: the old body
    paired with the first stub (`13 -> 0` decisions) and the real method came out "new", with
    an RB102."""
    body = "".join(f"        if x == {k}:\n            return {k}\n" for k in range(9))
    before = f"class Command:\n    def main(self, x):\n{body}        return -1\n"
    stubs = "".join(
        f"    @overload\n    def main(self, x: {t}) -> {t}: ...\n\n" for t in ("int", "str")
    )
    after = (
        "from typing import overload\n\n\nclass Command:\n"
        + stubs
        + f"    def main(self, x: object) -> object:\n{body}        return -1\n"
    )
    opts = ReviewOptions(get_profile("review"), default_registry())
    done = review_file(changed("c.py", before, after), opts)
    assert not [f for f in done.findings if f.code == "RB102"]
    line = after.splitlines().index("    def main(self, x: object) -> object:") + 1
    (method,) = [u for u in done.summary.units if u.new is not None and u.new.start == line]
    assert method.kind == "modified"


def test_a_blank_line_between_members_is_no_change_of_their_container() -> None:
    """express: removing `it(...)` cases and the blank lines after them listed their
    `describe` as modified (the blank lines were the describe's own)."""
    case = '  it("case {0}", () => {{\n    run({0});\n    if (x{0}) {{ go(); }}\n  }});\n\n'
    head = 'describe("res", () => {\n  const a = b ? 1 : 2;\n\n'
    before = head + "".join(case.format(k) for k in range(6)) + "});\n"
    after = head + "".join(case.format(k) for k in (0, 1, 5)) + "});\n"
    done = review_file(
        changed("r.test.js", before, after),
        ReviewOptions(get_profile("review"), default_registry()),
    )
    shown = [(u.label, u.kind) for u in done.summary.units if u.noteworthy]
    assert shown == [(f'describe("res") > it("case {k}")', "removed") for k in (2, 3, 4)]


def test_a_callback_defines_no_name_in_a_bundles_reason(repo: Path) -> None:
    """express: a bundle of route callbacks read "defines get("/"), it(...)" (a callback's
    call is no name another hunk can use)."""
    routes = "".join(
        f'app.get("/r{k}", function (req, res) {{\n  res.send({k});\n}});\n\n' for k in range(4)
    )
    write(repo, "app.js", routes)
    commit(repo)
    write(repo, "app.js", routes.replace('"/r0"', '"/s0"').replace('"/r3"', '"/s3"'))
    rep = review(GitChange(repo), Config())
    assert rep.bundles and not [b for b in rep.bundles if 'get("' in b.reason], rep.bundles


def test_the_hook_says_where_an_rb105_is_silenced(repo: Path) -> None:
    """An RB105 sits where the deleted lines were (a unit's first line no longer exists):
    the hook's hint says so when one is shown, and only then."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone(x):\n    return x\n")
    write(repo, "app.py", "from lib import gone\n\ngone(1)\n")
    commit(repo)
    build_index(repo)
    write(repo, "lib.py", "def keep():\n    return 1\n")
    rep = review(GitChange(repo), Config(), mode=Mode.FAST)
    text = hook_text(rep, "staged change", max_findings=10, show_info=False)
    assert "[RB105]" in text and "(RB105, RB106: on the line the finding names)" in text
    write(
        repo,
        "lib.py",
        "def keep():\n"
        + "".join(f"    if a{k}:\n        return {k}\n" for k in range(8))
        + "    return 1\n\n\ndef gone(x):\n    return x\n",
    )
    rep = review(GitChange(repo), Config(), mode=Mode.FAST)
    text = hook_text(rep, "staged change", max_findings=10, show_info=False)
    assert "[RB101]" in text and "RB105, RB106" not in text


def test_a_linked_worktree_without_an_index_reads_its_main_worktrees(
    repo: Path, tmp_path: Path
) -> None:
    """The index lives in each worktree's git directory: a `git worktree add` made after
    `reviewbot index` had none, and its reviews silently lost RB105/RB106. It reads the main
    worktree's (its files read again at the change's base; nothing written)."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone(x):\n    return x\n")
    write(repo, "app.py", "from lib import gone\n\ngone(1)\n")
    commit(repo)
    database = build_index(repo)
    before = database.read_bytes()
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    write(linked, "lib.py", "def keep():\n    return 1\n")
    git(linked, "add", "lib.py")
    rep = review(GitChange(linked, staged=True), Config(), mode=Mode.FAST)
    assert [f.code for f in rep.findings] == ["RB105"] and rep.index_note == ""
    assert database.read_bytes() == before
    assert not (repo / ".git" / "worktrees" / "linked" / "reviewbot").exists()


def test_a_cut_hunk_context_keeps_the_units_header_and_changed_code_before_its_doc_comment() -> (
    None
):
    """echo's `RealIP`: a long doc comment rewritten above a body whose code changed too. A
    small share keeps the unit's header line and the changed code first, the doc comment after
    them; the lines it leaves out are said (`… N line(s) cut to fit the budget`)."""
    body = (
        "def real_ip(request):\n"
        "    if request.extractor:\n"
        "        return request.extractor(request)\n"
        '    forwarded = request.headers.get("x-forwarded-for")\n'
        "    if forwarded:\n"
        '        return forwarded.split(",")[0]\n'
        "    return request.remote\n"
    )
    before = "def other():\n    return 0\n\n\n# Returns the client address.\n" + body
    doc = "".join(
        f"# Step {k}: the client address, from the configured extractor or the peer.\n"
        for k in range(16)
    )
    after = (
        "def other():\n    return 0\n\n\n"
        + doc
        + body.replace(
            '    forwarded = request.headers.get("x-forwarded-for")\n'
            "    if forwarded:\n"
            '        return forwarded.split(",")[0]\n',
            "",
        )
    )
    cf = changed("ip.py", before, after)
    assert len(cf.hunks) == 1
    (ctx,) = hunk_contexts([cf], {"ip.py": open_index("ip.py", after)}, [], 120, 60)
    assert ctx.unit is not None and ctx.unit.label == "def real_ip"
    texts = [(r.mark, r.text) for r in ctx.rows]
    assert (" ", "def real_ip(request):") in texts
    assert ("-", '    forwarded = request.headers.get("x-forwarded-for")') in texts
    assert ("-", '        return forwarded.split(",")[0]') in texts
    assert ctx.truncated and ctx.gaps  # the doc comment, cut to fit
    assert sum(t.startswith("# Step") for _, t in texts) < 16
    gutter = [line for mark, line in diff_gutter(ctx) if mark == "…"]
    assert gutter and all(
        re.fullmatch(r" +… \d+ line\(s\) cut to fit the budget", g) for g in gutter
    )


def test_a_cut_hunk_contexts_sections_and_boundaries_are_kept_around_the_hunk() -> None:
    """echo's ip.go: the sections and boundaries cut to a small share are those around the
    hunk, not the file's first ones."""
    before = "".join(
        f"def f{k}(x):\n    if x > {k}:\n        return x - {k}\n    return {k}\n\n\n"
        for k in range(40)
    )
    after = before.replace("        return x - 35\n", "        return x + 35\n")
    cf = changed("m.py", before, after)
    (ctx,) = hunk_contexts([cf], {"m.py": open_index("m.py", after)}, [], 120, 200)
    assert ctx.truncated
    assert "def f35" in ctx.coarse and "def f35" in ctx.medium
    assert "def f0" not in ctx.coarse
