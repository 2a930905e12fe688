"""Review bundles: every hunk once, definitions before uses, deterministic, bounded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reviewbot.analysis.bundles import _assigned
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, explain_bundles, review
from reviewbot.render.report_json import report_doc
from tests.helpers import commit, git, write


def bundles(repo: Path) -> list[dict[str, Any]]:
    doc = report_doc(review(GitChange(repo), Config()))
    return list(doc["bundles"])


def all_hunks(found: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(h["path"], h["new_start"]) for b in found for h in b["hunks"]]


def test_definition_comes_before_its_uses(repo: Path) -> None:
    write(repo, "lib.py", "def old_helper(x):\n    return x\n")
    write(repo, "app.py", "from lib import old_helper\n\n\ndef main():\n    return old_helper(1)\n")
    write(repo, "docs.txt", "nothing to see\n")
    commit(repo)
    write(
        repo,
        "lib.py",
        "def old_helper(x):\n    return x\n\n\ndef parse_amount(text):\n"
        "    if not text:\n        return 0\n    return int(text)\n",
    )
    write(
        repo,
        "app.py",
        "from lib import old_helper, parse_amount\n\n\ndef main():\n"
        "    return old_helper(1) + parse_amount('2')\n",
    )
    write(repo, "docs.txt", "something to see\n")
    found = bundles(repo)
    ids = [b["id"] for b in found]
    assert ids == [f"B{i}" for i in range(1, len(found) + 1)]
    with_lib = next(b for b in found if any(h["path"] == "lib.py" for h in b["hunks"]))
    assert {h["path"] for h in with_lib["hunks"]} == {"lib.py", "app.py"}
    assert "parse_amount" in with_lib["reason"]
    docs = next(b for b in found if any(h["path"] == "docs.txt" for h in b["hunks"]))
    assert docs is found[-1] and docs["reason"] == "prose, data or configuration (not code)"
    assert all("docs.txt" not in b["title"] for b in found[:-1])


def test_hotspots_are_read_first(repo: Path) -> None:
    from tests.helpers import AFTER, BEFORE

    write(repo, "a_quiet.py", "def calm():\n    return 1\n")
    write(repo, "z_shop.py", BEFORE)
    commit(repo)
    write(repo, "a_quiet.py", "def calm():\n    return 2\n")
    write(repo, "z_shop.py", AFTER)
    found = bundles(repo)
    assert [h["path"] for h in found[0]["hunks"]] == ["z_shop.py"]  # the spike, despite its name


def test_every_hunk_once_and_deterministic(repo: Path) -> None:
    files = {
        f"m{i}.py": "".join(f"def f{i}_{k}(x):\n    return x\n\n\n" for k in range(8))
        for i in range(6)
    }
    for name, text in files.items():
        write(repo, name, text)
    commit(repo)
    for name, text in files.items():
        write(repo, name, text.replace("return x\n", "if x:\n        return -x\n    return x\n"))
    first, second = bundles(repo), bundles(repo)
    assert first == second
    doc = report_doc(review(GitChange(repo), Config()))
    hunks = [(c["path"], c["new_start"]) for c in doc["context"]]
    assert sorted(all_hunks(first)) == sorted(hunks)
    assert len(all_hunks(first)) == len(set(all_hunks(first)))


def test_one_hunk(repo: Path) -> None:
    write(repo, "a.py", "x = 1\n")
    commit(repo)
    write(repo, "a.py", "x = 2\n")
    found = bundles(repo)
    assert len(found) == 1 and len(found[0]["hunks"]) == 1


def test_a_thousand_hunks(repo: Path) -> None:
    filler = "".join(f"    a{j} = x\n" for j in range(4))
    body = "".join(
        f"def f{k}(x):\n{filler}    z = x\n{filler}    return z\n\n\n" for k in range(1000)
    )
    write(repo, "huge.py", body)
    commit(repo)
    write(repo, "huge.py", body.replace("    z = x\n", "    z = x + 1\n"))
    found = bundles(repo)
    hunks = all_hunks(found)
    assert len(hunks) == len(set(hunks)) == 1000
    assert json.dumps(found)  # serialisable
    assert max(len(b["hunks"]) for b in found) <= 1000


def test_titles_name_the_class_and_put_their_file_first(repo: Path) -> None:
    """starlette 2ff76532: four bundles titled `def __init__`, and `class Jinja2Templates`
    over a file list without templating.py: a title names the unit with its class, its file
    comes first, and no two titles of one review are the same."""
    alpha = "class Alpha:\n    def __init__(self, size):\n        self.size = size\n"
    beta = "class Beta:\n    def __init__(self, colour):\n        self.colour = colour\n"
    write(repo, "zeta/alpha.py", alpha)
    write(repo, "omega/beta.py", beta)
    write(repo, "aaa/first.py", "def untouched():\n    return 1\n")
    commit(repo)
    write(
        repo,
        "zeta/alpha.py",
        alpha + "        if size < 0:\n            raise ValueError(size)\n",
    )
    write(
        repo,
        "omega/beta.py",
        beta + "        for shade in colour:\n            print(shade)\n",
    )
    write(repo, "aaa/first.py", "def untouched():\n    return 2\n")
    found = bundles(repo)
    titles = [b["title"] for b in found]
    assert len(set(titles)) == len(titles), titles
    alpha_b = next(b for b in found if b["title"].startswith("def Alpha.__init__ ("))
    beta_b = next(b for b in found if b["title"].startswith("def Beta.__init__ ("))
    assert alpha_b["title"].startswith("def Alpha.__init__ (zeta/alpha.py"), titles
    assert beta_b["title"].startswith("def Beta.__init__ (omega/beta.py"), titles


def test_a_bundle_is_titled_by_the_unit_its_findings_are_in(repo: Path) -> None:
    """typer 42196d47: `B1 def _print_options_panel (typer/rich_utils.py, …)` held both RB101
    hunks, in typer/core.py, which the title did not even show. A bundle's title names the
    unit its weightiest findings are in before the one with the most changed lines."""
    from tests.helpers import AFTER, BEFORE

    plain = "".join(f"    line_{k} = order.total({k})\n" for k in range(30))
    report = "\n\ndef report(order):\n    rate = apply(order, 0.1)\n" + "    return rate\n"
    write(repo, "shop.py", BEFORE + report)
    commit(repo)
    write(repo, "shop.py", AFTER + report.replace("    return rate\n", plain + "    return rate\n"))
    doc = report_doc(review(GitChange(repo), Config()))
    assert [f["code"] for f in doc["findings"]][:1] == ["RB101"], doc["findings"]
    (found,) = doc["bundles"]
    assert found["title"].startswith("def apply (shop.py"), found["title"]


def test_titles_shared_by_two_bundles_say_where() -> None:
    from reviewbot.analysis.bundles import _distinct

    titles = [("def run (a.py)", "a.py", 3), ("def run (a.py)", "a.py", 40), ("x (b.py)", "", 0)]
    assert _distinct(titles) == [
        "def run (a.py) at a.py:3",
        "def run (a.py) at a.py:40",
        "x (b.py)",
    ]


def test_an_rb105_weighs_in_the_review_order(repo: Path) -> None:
    """marshmallow, without an index: renaming `utils.pluck` (an RB105: still imported
    elsewhere) and widening `Field._validate_missing` (no finding): the review order put the
    bundle with no finding first. RB105 and RB106 come from the impact, found after the
    bundles were ordered; they weigh as every finding does."""
    write(repo, "utils.py", "def pluck(d, k):\n    return [x[k] for x in d]\n")
    write(repo, "b.py", 'from utils import pluck\n\n\ndef use(d):\n    return pluck(d, "a")\n')
    fields = "class Field:\n    def validate(self, value, partial=None):\n        return value\n"
    write(repo, "fields.py", fields)
    commit(repo)
    write(repo, "utils.py", "def pluck_values(d, k):\n    return [x[k] for x in d]\n")
    body = "".join(f"        step_{k} = {k}\n" for k in range(6))
    write(repo, "fields.py", fields.replace("partial=None):\n", "*, partial=None):\n" + body))
    doc = report_doc(review(GitChange(repo), Config()))
    assert [f["code"] for f in doc["findings"]] == ["RB105"], doc["findings"]
    assert [h["path"] for h in doc["bundles"][0]["hunks"]] == ["utils.py"], doc["bundles"]
    # (rich 3c8d89cf: "defines get_cell_size, …" for a deleted file's functions)
    # (a rename, as the unit table says: no "removes pluck"; nor "defines pluck_values",
    # which the rename says: packaging 668da866)
    assert doc["bundles"][0]["reason"] == "renames pluck to pluck_values"
    explained = explain_bundles(GitChange(repo), Config())  # (the report's own order)
    assert [b.title for b in explained.bundles] == [b["title"] for b in doc["bundles"]]
    # An RB105 the configuration ignores weighs nothing (as it counts nowhere).
    quiet = Config(ignore=(("RB105", ""),))
    doc = report_doc(review(GitChange(repo), quiet))
    assert [h["path"] for h in doc["bundles"][0]["hunks"]] == ["fields.py"], doc["bundles"]
    explained = explain_bundles(GitChange(repo), quiet)
    assert [b.title for b in explained.bundles] == [b["title"] for b in doc["bundles"]]


def test_a_new_files_bundle_is_titled_by_the_unit_its_finding_is_in(repo: Path) -> None:
    """The adversarial pass: a new file holding `small` and then the dense `dense` (an RB102)
    is one hunk, whose unit is its first: the bundle read `def small (svc.py)`. A measured
    finding's own unit titles the bundle it falls in."""
    branches = "".join(
        f"    {'if' if k == 0 else 'elif'} x == {k} and y > {k}:\n        total += {k}\n"
        for k in range(12)
    )
    dense = f"def dense(x, y):\n    total = 0\n{branches}    return total\n"
    write(repo, "README.md", "x\n")
    commit(repo)
    write(repo, "svc.py", "def small():\n    return 1\n\n\n" + dense + "\n")
    git(repo, "add", "-N", "svc.py")
    doc = report_doc(review(GitChange(repo), Config()))
    assert "RB102" in [f["code"] for f in doc["findings"]], doc["findings"]
    (found,) = doc["bundles"]
    assert found["title"] == "def dense (svc.py)", found["title"]


def test_the_weightiest_findings_come_first_after_their_own_prerequisites_only() -> None:
    """click 2c8cd3ac~35..: the two bundles with RB101s came 14th and 15th. Each waited for
    a bundle defining what it uses, and meanwhile every bundle with no prerequisite (docs,
    tests) went first. Now a bundle's prerequisites are placed right before it."""
    from reviewbot.analysis.bundles import reading_order

    # ranked best first: 0 and 1 hold findings; 0 uses what 4 defines, 4 what 5 defines
    before = {0: {4}, 4: {5}}
    assert reading_order([0, 1, 2, 3, 4, 5], before) == [5, 4, 0, 1, 2, 3]
    # groups that need each other come in their rank's order (javapoet 4272265: the bundle
    # without a finding came before the RB101's, each defining a name the other uses), each
    # after what it needs outside them; every group is placed once
    assert reading_order([0, 1, 2], {0: {1}, 1: {0}}) == [0, 1, 2]
    assert reading_order([0, 1, 2, 3], {0: {1}, 1: {0, 3}}) == [0, 3, 1, 2]
    assert reading_order([2, 0, 1, 3], {0: {1}, 1: {2}, 2: {0}, 3: {0}}) == [2, 0, 1, 3]
    assert reading_order([2, 0, 1], {}) == [2, 0, 1]


def test_a_bundle_says_first_what_the_product_defines(repo: Path) -> None:
    """echo b1d65e40: "defines BenchmarkBind_JSON, BenchmarkBind_Query, … and 20 more" (the
    tests' names first, alphabetically) hid the product's `stringToBytes`."""
    write(repo, "conv.py", "def other():\n    return 0\n")
    write(repo, "tests/test_conv.py", "import conv\n")
    commit(repo)
    write(
        repo,
        "conv.py",
        "def other():\n    return 0\n\n\ndef to_bytes(s):\n    return s.encode()\n",
    )
    tests = "".join(
        f"\n\ndef test_a{k}():\n    assert conv.to_bytes('{k}') == b'{k}'\n" for k in range(6)
    )
    write(repo, "tests/test_conv.py", "import conv\n" + tests)
    (bundle,) = [b for b in review(GitChange(repo), Config()).bundles if "defines" in b.reason]
    defined = bundle.reason.split("defines ", 1)[1]
    assert defined.startswith("to_bytes, test_a0"), bundle.reason  # (not test_a0 first)


def test_a_bundle_reads_the_products_flagged_hunk_then_its_others_then_tests(repo: Path) -> None:
    """retrofit d4121394: B1 listed RetrofitTest.java:21-27 and :1717-1805 (their folder
    sorts first) before Retrofit.java:212-264, where the RB101 is; the prompt's snippets "in
    reading order" came out as ranks 4, 2, 3, then 1."""
    from tests.helpers import AFTER, BEFORE

    head = "def helper(order):\n    return order\n\n\n" + "LIMIT = 1\n" * 12 + "\n\n"
    write(repo, "zshop/shop.py", head + BEFORE)
    write(repo, "tests/test_shop.py", "from zshop.shop import apply\n")
    commit(repo)
    write(repo, "zshop/shop.py", head.replace("return order", "return order or 0") + AFTER)
    cases = "".join(f"\n\ndef test_{k}():\n    assert apply(None, {k})\n" for k in range(3))
    write(repo, "tests/test_shop.py", "from zshop.shop import apply\n" + cases)
    doc = report_doc(review(GitChange(repo), Config()))
    assert [f["code"] for f in doc["findings"]] == ["RB101"], doc["findings"]
    (found,) = [b for b in doc["bundles"] if any(h["path"] == "zshop/shop.py" for h in b["hunks"])]
    hunks = [(h["path"], h["new_start"], h["new_end"]) for h in found["hunks"]]
    line = doc["findings"][0]["line"]
    assert hunks[0][0] == "zshop/shop.py" and hunks[0][1] <= line <= hunks[0][2], hunks
    assert hunks[1][:2] == ("zshop/shop.py", 1), hunks
    assert found["hunks"][-1]["path"] == "tests/test_shop.py", found["hunks"]


def test_a_bundle_says_moves_and_re_signs_not_defines(repo: Path) -> None:
    """cli f9f0d037 moved FullName, Path and Walk near Lineage: "defines FullName, Path,
    Walk"; a re-signed `Command.Count` read "defines Count" too."""
    middle = "".join(
        f"\n\ndef filler{k}(x):\n    y = x + {k}\n    return y * 2\n" for k in range(8)
    )
    moved = "\n\ndef full_name(cmd):\n    parts = [cmd]\n    return ' '.join(parts)\n"
    write(repo, "cmd.py", "import os\n" + moved + middle + "\n\ndef count(name):\n    return 1\n")
    commit(repo)
    write(repo, "cmd.py", "import os\n" + middle + moved)
    reasons = "; ".join(b.reason for b in review(GitChange(repo), Config()).bundles)
    assert "moves full_name" in reasons and "defines full_name" not in reasons, reasons
    write(
        repo,
        "cmd.py",
        "import os\n" + moved + middle + "\n\ndef count(name, flag):\n    return 1\n",
    )
    reasons = "; ".join(b.reason for b in review(GitChange(repo), Config()).bundles)
    assert "re-signs count" in reasons and "defines" not in reasons, reasons


def test_a_unit_only_re_indented_does_not_title_a_bundle(repo: Path) -> None:
    """formik 41720c2f: B1 was titled `interface FieldConfig`, whose union lines were only
    re-indented (no row of the unit table), over `function Field`'s edits."""
    members = "".join(f"    | Kind{k}\n" for k in range(8))
    fields = "".join(f"  field{k}: number;\n" for k in range(8))
    old = (
        f"export interface Config {{\n  component?:\n{members}  ;\n{fields}}}\n\n"
        "export function field(config: Config, name: string) {\n"
        "  const props = { config };\n  return props;\n}\n"
    )
    write(repo, "field.ts", old)
    commit(repo)
    new = old.replace("    | Kind", "  | Kind").replace(
        "  const props = { config };\n", "  const props = { config, name };\n  log(name);\n"
    )
    write(repo, "field.ts", new)
    found = bundles(repo)
    assert found[0]["title"].startswith("function field (field.ts"), [b["title"] for b in found]


def test_the_product_uses_no_tests_definition_nor_a_member_assignment(repo: Path) -> None:
    # commons-io 25114c8c5: main code "uses what src/test/java/.../IORandomAccessFileTest.java
    # defines" (a test's namesake); jotai baaa7020: "uses what src/vanilla/atom.ts,
    # tests/vanilla/store.test.tsx define", the test's `a.INTERNAL_onInit = (store) => {` an
    # assignment to an object's member, no declaration others use (nor a definition to list;
    # `src/vanilla/utils/loadable.ts`'s `refreshAtom.INTERNAL_onInit = (store) => {` alike).
    write(repo, "pkg/calc.py", "from pkg.util import normalize\n\n\ndef total(xs):\n    return 0\n")
    # (the fixture repository's own test, never run here)
    write(
        repo,
        "pkg/test_calc.py",
        "from pkg.calc import total\n\n\ndef test_total():\n    assert total([]) == 0\n",
    )
    write(repo, "src/atom.ts", "export interface Atom {\n  read: () => number\n}\n")
    write(repo, "src/use.ts", "export function run(a: any) {\n  return a.read()\n}\n")
    write(repo, "src/loadable.ts", "export function loadable(a: any) {\n  return a\n}\n")
    commit(repo)
    write(
        repo,
        "pkg/calc.py",
        "from pkg.util import normalize\n\n\ndef total(xs):\n"
        "    return sum(normalize(x) for x in xs)\n",
    )
    write(
        repo,
        "pkg/test_calc.py",
        "def normalize(value):\n    return value or 0\n\n\n"
        "def test_total():\n    assert normalize(None) == 0\n",
    )
    write(
        repo,
        "src/atom.ts",
        "export interface Atom {\n  read: () => number\n  onReady?: (s: object) => void\n}\n",
    )
    write(
        repo,
        "src/use.ts",
        "export function run(a: any, s: object) {\n  a.onReady?.(s)\n  return a.read()\n}\n",
    )
    write(
        repo,
        "src/loadable.ts",
        "export function loadable(a: any) {\n  a.onReady = (s: object) => {\n"
        "    console.log(s)\n  }\n  return a\n}\n",
    )
    explained = explain_bundles(GitChange(repo), Config())
    paths = [r.path for r in explained.refs]
    used = {(paths[d], paths[u]) for d, u in explained.uses}
    assert ("src/atom.ts", "src/use.ts") in used, used
    assert ("pkg/test_calc.py", "pkg/calc.py") not in used, used
    assert ("src/loadable.ts", "src/use.ts") not in used, used
    reasons = [b.reason for b in explained.bundles]
    assert sum("defines onReady" in r for r in reasons) == 1, reasons  # (the interface's)
    # A module's, a prototype's or a named method still declares what other code calls.
    assert _assigned("a.onReady = (s) => {", "onReady")
    for header, name in (
        ("res.send = function send(body) {", "send"),
        ("Router.prototype.handle = function (req) {", "handle"),
        ("module.exports.parse = (text) => {", "parse"),
        ("exports.parse = function (text) {", "parse"),
    ):
        assert not _assigned(header, name), header
