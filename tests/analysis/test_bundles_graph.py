"""The hunk graph of the bundles: one file split between two concerns, files joined by what
links them, the merging rule and the names tests are paired by."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewbot.analysis import bundles
from reviewbot.analysis.bundles import JOIN, _average_linkage, _tested
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, explain_bundles, review
from reviewbot.render.report_json import report_doc
from tests.helpers import commit, write

FILLER = "".join(f"\n\ndef helper_{k}(x):\n    y = x + {k}\n    return y\n" for k in range(12))

PRICING = (
    "def compute_discount(order):\n    return order.subtotal * 0.1\n"
    + FILLER
    + "\n\ndef format_receipt(receipt):\n    return str(receipt.amount)\n"
)
# Two concerns that share no words: a loyalty bonus, and a currency symbol on receipts.
PRICING_AFTER = (
    "def compute_discount(order, loyalty_points):\n"
    "    bonus = loyalty_points / 1000\n    return order.subtotal * (0.1 + bonus)\n"
    + FILLER
    + "\n\ndef format_receipt(receipt, currency_symbol):\n"
    "    return currency_symbol + format(receipt.amount, '.2f')\n"
)
CHECKOUT = "from shop.pricing import compute_discount\n\n\ndef pay(order):\n    {}\n"
TEST_CHECKOUT = "from shop.checkout import pay\n\n\ndef test_pay():\n    {}\n"
TEST_PRINTER = "from shop.printer import show\n\n\ndef test_show():\n    {}\n"
PRINTER = "from shop.pricing import format_receipt\n\n\ndef show(receipt):\n    {}\n"


def where(explained_bundles: list[list[str]], path: str, needle: str, texts: dict[str, str]) -> int:
    """The bundle holding the hunk of ``path`` whose lines contain ``needle``."""
    for b, hunks in enumerate(explained_bundles):
        if any(h.startswith(path + ":") and needle in texts[h] for h in hunks):
            return b
    raise AssertionError(f"no hunk of {path} with {needle!r}")


def test_one_file_splits_between_two_concerns(repo: Path) -> None:
    write(repo, "shop/pricing.py", PRICING)
    write(repo, "shop/checkout.py", CHECKOUT.format("return compute_discount(order)"))
    write(repo, "shop/printer.py", PRINTER.format("print(format_receipt(receipt))"))
    write(repo, "tests/test_checkout.py", TEST_CHECKOUT.format("assert pay(Order())"))
    write(repo, "tests/test_printer.py", TEST_PRINTER.format("assert show(Receipt())"))
    commit(repo)
    write(repo, "shop/pricing.py", PRICING_AFTER)
    write(
        repo,
        "shop/checkout.py",
        CHECKOUT.format("return compute_discount(order, loyalty_points=order.loyalty_points)"),
    )
    write(
        repo,
        "shop/printer.py",
        PRINTER.format("print(format_receipt(receipt, currency_symbol='$'))"),
    )
    write(
        repo,
        "tests/test_checkout.py",
        TEST_CHECKOUT.format("assert pay(Order(loyalty_points=2000))"),
    )
    write(
        repo,
        "tests/test_printer.py",
        TEST_PRINTER.format("assert show(Receipt(currency_symbol='$'))"),
    )
    explained = explain_bundles(GitChange(repo), Config())
    texts: dict[str, str] = {}
    found: list[list[str]] = []
    for bundle in explained.bundles:
        found.append([])
        for h in bundle.hunks:
            key = f"{h.path}:{h.new_start}"
            new = (repo / h.path).read_text().split("\n")[h.new_start - 1 : h.new_end]
            texts[key] = "\n".join(new)
            found[-1].append(key)
    assert sorted(k for b in found for k in b) == sorted(texts)  # every hunk once
    loyalty = where(found, "shop/pricing.py", "loyalty_points", texts)
    currency = where(found, "shop/pricing.py", "currency_symbol", texts)
    # Two concerns in one file: each half goes with the call site it changed, not with the
    # other half of its file.
    assert loyalty != currency
    assert where(found, "shop/checkout.py", "loyalty_points", texts) == loyalty
    assert where(found, "shop/printer.py", "currency_symbol", texts) == currency
    assert where(found, "tests/test_checkout.py", "loyalty_points", texts) == loyalty
    assert where(found, "tests/test_printer.py", "currency_symbol", texts) == currency
    reasons = {explained.bundles[loyalty].reason, explained.bundles[currency].reason}
    assert any("compute_discount" in r for r in reasons) and any(
        "format_receipt" in r for r in reasons
    )


def test_the_hunks_of_one_file_with_nothing_between_them_stay_together(repo: Path) -> None:
    write(repo, "shop/pricing.py", PRICING)
    commit(repo)
    write(repo, "shop/pricing.py", PRICING_AFTER)
    explained = explain_bundles(GitChange(repo), Config())
    assert len(explained.refs) == 2  # the two far-apart functions: two hunks
    assert [len(b.hunks) for b in explained.bundles] == [2]
    assert "one file" in explained.bundles[0].reason  # what joins them, always said


CHECKS = ("alpha", "ascii", "base64", "currency", "decimal", "email")
# Each file's own code: words no other file has, so only the repeated edit can join them.
CHECK = (
    "{import_line}\n\n"
    "export function is{name}(value: unknown, {name}Options?: object): boolean {{\n"
    "  const {name}Text = String(value);\n"
    "  return ValidatorJS.is{name}({name}Text, {name}Options);\n"
    "}}\n"
)


def test_one_edit_repeated_in_many_files_is_one_bundle(repo: Path) -> None:
    """class-validator 0042559: `import ValidatorJS from 'validator'` (in two files `import
    type ValidatorJS ...`) became `import * as ValidatorJS from 'validator'` in 19 files, and 18
    bundles came of it: the edit's words are in every hunk, so text similarity weighs them
    nothing."""
    for name in CHECKS:
        import_line = f"import {'type ' if name == 'email' else ''}ValidatorJS from 'validator';"
        write(repo, f"src/string/Is{name}.ts", CHECK.format(import_line=import_line, name=name))
    write(repo, "src/other.ts", "export const version = '1.0.0';\n")
    commit(repo)
    for name in CHECKS:
        import_line = "import * as ValidatorJS from 'validator';"
        write(repo, f"src/string/Is{name}.ts", CHECK.format(import_line=import_line, name=name))
    explained = explain_bundles(GitChange(repo), Config())
    assert len(explained.refs) == len(CHECKS)
    assert [len(b.hunks) for b in explained.bundles] == [len(CHECKS)]
    assert explained.bundles[0].reason.startswith(f"the same edit in {len(CHECKS)} files")


def test_a_bundle_with_one_edit_in_some_of_its_files_says_which(repo: Path) -> None:
    # cattrs 6bc4708: "the same edit in 2 files; 4 files, mean link 0.65" named neither.
    pad = "".join(f"const pad{k} = {k};\n" for k in range(12))
    module = (
        "{imp}\n" + pad + "export function is{n}(value: unknown): boolean {{\n"
        "  return ValidatorJS.check(String(value){more});\n}}\n"
    )
    use = (
        "import {{ isalpha }} from './alpha';\n\n"
        "export function run(): boolean {{\n  return isalpha({v});\n}}\n"
    )
    old_imp, new_imp = (
        "import ValidatorJS from 'validator';",
        "import * as ValidatorJS from 'validator';",
    )
    for n in ("alpha", "beta"):
        write(repo, f"src/{n}.ts", module.format(imp=old_imp, n=n, more=""))
    write(repo, "src/use.ts", use.format(v=1))
    commit(repo)
    write(repo, "src/alpha.ts", module.format(imp=new_imp, n="alpha", more=".trim()"))
    write(repo, "src/beta.ts", module.format(imp=new_imp, n="beta", more=""))
    write(repo, "src/use.ts", use.format(v=2))
    explained = explain_bundles(GitChange(repo), Config())
    reasons = [b.reason for b in explained.bundles]
    (joined,) = [r for r in reasons if "the same edit" in r]
    assert joined.startswith("the same edit in 2 files (alpha.ts, beta.ts); in all, 3 files"), (
        reasons
    )


def test_the_same_edit_naming_its_own_file_is_one_edit(repo: Path) -> None:
    # jotai 7fe16287 added one deprecation warning to three sibling files, each naming its own
    # ("jotai/babel/preset is deprecated"): three bundles "one hunk, linked to no other".
    # An edit that differs in more than its file's name stays apart.
    body = (
        "export default function {fn}(options?: object): object {{\n"
        "  return {{ name: '{fn}', options }}\n}}\n"
    )
    warn = (
        "/** @deprecated Use `jotai-babel/{name}` instead. */\n"
        "export default function {fn}(options?: object): object {{\n"
        "  console.warn(\n"
        "    '[DEPRECATED] jotai/babel/{name} is deprecated and will be removed in v3.',\n"
        "  )\n"
        "  return {{ name: '{fn}', options }}\n}}\n"
    )
    files = {"plugin-debug-label": "debugLabel", "preset": "jotaiPreset", "other": "otherPlugin"}
    for name, fn in files.items():
        write(repo, f"src/babel/{name}.ts", body.format(fn=fn))
    commit(repo)
    for name, fn in files.items():
        text = warn.format(name=name, fn=fn)
        if name == "other":
            text = text.replace("will be removed in v3", "is kept until v4")
        write(repo, f"src/babel/{name}.ts", text)
    explained = explain_bundles(GitChange(repo), Config())
    reasons = [b.reason for b in explained.bundles]
    (joined,) = [r for r in reasons if "the same edit" in r]
    assert joined.startswith("the same edit in 2 files (plugin-debug-label.ts, preset.ts)"), reasons


def test_a_slight_line_repeated_is_no_edit_of_its_own() -> None:
    assert bundles._edit(["    }", "", "  return None"]) == ""  # too slight to be a concern
    assert bundles._edit(["  import * as V from 'validator';", "  "]) == (
        "import * as V from 'validator';"
    )


def test_average_linkage_merges_while_the_mean_link_is_above_the_bar() -> None:
    weight = np.full((4, 4), 0.1)
    weight[0, 1] = weight[1, 0] = 0.9
    weight[2, 3] = weight[3, 2] = 0.8
    weight[1, 2] = weight[2, 1] = 0.6  # one strong pair between the two groups is not enough
    np.fill_diagonal(weight, 0.0)
    singles = [[0], [1], [2], [3]]
    assert _average_linkage(singles, weight, JOIN) == [[0, 1], [2, 3]]
    # the mean between {0, 1} and {2, 3} is (0.1 + 0.1 + 0.6 + 0.1) / 4 = 0.225
    assert _average_linkage(singles, weight, 0.2) == [[0, 1, 2, 3]]
    assert _average_linkage(singles, weight, 0.95) == singles
    # hard-linked groups enter whole and are never split
    # {1}-{2} (0.6) merge first; then {0, 3}-{1, 2} has mean (0.9 + 0.1 + 0.1 + 0.8) / 4 = 0.475
    assert _average_linkage([[0, 3], [1], [2]], weight, 0.5) == [[0, 3], [1, 2]]


def test_tests_are_paired_by_the_name_they_are_named_after() -> None:
    assert _tested("tests/test_core.py") == "core"
    assert _tested("pkg/core_test.go") == "core"
    assert _tested("src/__tests__/core.test.ts") == "core"
    assert _tested("src/test/java/org/CoreTest.java") == "core"
    assert _tested("spec/core.spec.js") == "core"


def test_a_changelog_entry_naming_new_code_joins_its_bundle(repo: Path) -> None:
    write(repo, "shop/pricing.py", PRICING)
    write(repo, "CHANGES.md", "# Changes\n\n## 1.0\n\n- First release.\n")
    write(repo, "docs/index.md", "# Shop\n\nA shop.\n")
    commit(repo)
    write(repo, "shop/pricing.py", PRICING_AFTER)
    write(
        repo,
        "CHANGES.md",
        "# Changes\n\n## 1.1\n\n- `compute_discount` takes loyalty points.\n\n"
        "## 1.0\n\n- First release.\n",
    )
    write(repo, "docs/index.md", "# Shop\n\nA small shop.\n")  # names nothing the code defines
    doc = report_doc(review(GitChange(repo), Config()))
    found = doc["bundles"]
    with_code = next(b for b in found if any(h["path"] == "shop/pricing.py" for h in b["hunks"]))
    assert "CHANGES.md" in {h["path"] for h in with_code["hunks"]}
    assert "CHANGES.md names compute_discount" in with_code["reason"]
    last = found[-1]
    assert [h["path"] for h in last["hunks"]] == ["docs/index.md"]
    assert last["reason"] == "prose, data or configuration (not code)"
    every = [(h["path"], h["new_start"]) for b in found for h in b["hunks"]]
    assert len(every) == len(set(every)) == 4  # two code hunks, the changelog, the docs


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet="ab_-.é1 \n", max_size=40),
    st.text(alphabet="ab_-é1", min_size=1, max_size=4),
)
def test_a_file_names_a_module_as_the_word_pattern_finds_it(text: str, stem: str) -> None:
    # The word-set look-up that replaced one regular expression per pair of files agrees
    # with the expression on every text and stem (hyphenated stems fall back to it).
    expected = re.search(rf"\b{re.escape(stem)}\b", text) is not None
    assert bundles._names(text, stem) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aB_1 .(:-\x00é", max_size=20), max_size=6))
def test_one_scan_of_a_hunks_lines_finds_what_scanning_each_line_finds(lines: list[str]) -> None:
    lines = [line.replace("\x00", "") for line in lines]
    each = {w for text in lines for w in bundles._IDENT.findall(text)}
    assert bundles._idents(lines) == {w for w in each if w.lower() not in bundles._COMMON}
    parts = [w for text in lines for w in bundles._TERM.findall(text)]
    assert bundles._TERM.findall("\n".join(lines)) == parts


def test_a_finding_and_its_bundle_name_the_units_class(repo: Path) -> None:
    """attrs 862696af: `Complexity spike in def evolve` and bundle `def evolve (src/attr/_make.py
    …)` for `Attribute.evolve`, in a file that also has a top-level `def evolve`: the title and
    the bundle said the other one. Both name the unit as the tables do, with its class."""
    top = "def evolve(inst, **changes):\n    return inst\n\n\n"
    flat = top + "class Attribute:\n    def evolve(self, **changes):\n        return self\n"
    spike = (
        top
        + "class Attribute:\n    def evolve(self, **changes):\n"
        + "".join(f"        if changes.get('k{k}'):\n            return {k}\n" for k in range(8))
    )
    write(repo, "src/attr/_make.py", flat)
    write(repo, "src/other.py", "def unrelated(a):\n    return a\n")
    commit(repo)
    write(repo, "src/attr/_make.py", spike + "        return self\n")
    write(repo, "src/other.py", "def unrelated(a):\n    return [a, a]\n")
    report = review(GitChange(repo), Config())
    (spiked,) = [f for f in report.findings if f.code == "RB101"]
    assert spiked.title == "Complexity spike in def Attribute.evolve"
    assert report.bundles[0].title.startswith("def Attribute.evolve (src/attr/_make.py")


# Four Go test files, each its own words: only a repeated edit can join their hunks.
SUBJECTS = ("invoice", "ledger", "payroll", "shipment")
GO_TESTS = (
    'package {s}\n\nimport "testing"\n\n'
    "func Test{S}Total(t *testing.T) {{\n{top}"
    "\t{s}Count := Count{S}({n})\n"
    '\tif {s}Count != {n} {{\n\t\tt.Fatalf("{s}: %d", {s}Count)\n\t}}\n}}\n'
    "func Test{S}Empty(t *testing.T) {{\n{again}"
    '\tif Count{S}(0) != 0 {{\n\t\tt.Fatal("{s} empty")\n\t}}\n}}\n'
)


def test_a_short_edit_repeated_in_many_files_is_one_bundle(repo: Path) -> None:
    """testify 603c2a0 added `t.Parallel()` atop 196 tests in 7 files: 7 bundles, one per
    file, for one concern (the line is 12 characters: shorter than an edit made twice only).
    A hunk over two adjacent tests adds the line twice: the same edit."""
    for n, s in enumerate(SUBJECTS, 2):
        text = GO_TESTS.format(s=s, S=s.title(), n=n, top="", again="")
        write(repo, f"{s}/{s}_test.go", text)
    commit(repo)
    for n, s in enumerate(SUBJECTS, 2):
        top = "\tt.Parallel()\n\n"
        again = top if s == SUBJECTS[0] else ""  # (one hunk over both tests there)
        text = GO_TESTS.format(s=s, S=s.title(), n=n, top=top, again=again)
        write(repo, f"{s}/{s}_test.go", text)
    explained = explain_bundles(GitChange(repo), Config())
    assert {r.path for r in explained.refs} == {f"{s}/{s}_test.go" for s in SUBJECTS}
    assert [len({h.path for h in b.hunks}) for b in explained.bundles] == [len(SUBJECTS)]
    assert explained.bundles[0].reason.startswith(f"the same edit in {len(SUBJECTS)} files")


def test_a_trivial_line_repeated_joins_nothing(repo: Path) -> None:
    """`return nil` and `return err`, lines any code shares, though each is all a hunk adds
    in four files, are no edit of their own: nothing hard-links the files' hunks."""
    code = (
        "package {s}\n\nfunc Load{S}(path string) error {{\n"
        "\t{s}Data, err := read{S}(path)\n\tif err != nil {{\n\t\tlog{S}(err)\n{ret}\t}}\n"
        "\t{s}Rows := parse{S}({s}Data)\n\tcheck{S}({s}Rows)\n\tsort{S}({s}Rows)\n"
        "\tindex{S}({s}Rows)\n\tcache{S}({s}Rows)\n\tstore{S}({s}Rows)\n{end}}}\n"
    )
    for s in SUBJECTS:
        write(repo, f"{s}/{s}.go", code.format(s=s, S=s.title(), ret="", end=""))
    commit(repo)
    for s in SUBJECTS:
        text = code.format(s=s, S=s.title(), ret="\t\treturn err\n", end="\treturn nil\n")
        write(repo, f"{s}/{s}.go", text)
    explained = explain_bundles(GitChange(repo), Config())
    assert len(explained.refs) == 2 * len(SUBJECTS)  # `return err` and `return nil` apart
    assert {r.edit for r in explained.refs} == {("", "")}
    # (no hard link across files; text similarity may still pair them, as any shared words)
    paths = [r.path for r in explained.refs]
    assert not any(
        explained.strong[i, j] for i, a in enumerate(paths) for j, b in enumerate(paths) if a != b
    )
    assert all("the same edit" not in b.reason for b in explained.bundles)


def test_the_same_edit_naming_a_file_by_chance_is_still_one_edit(repo: Path) -> None:
    """gin 12508320 made `"encoding/json"` `json "github.com/json-iterator/go"` in four files,
    two of them named json.go: the edit names their own file, so as marked with each file's
    name it joined those two only, and errors.go was a bundle of its own."""
    go = (
        "package {p}\n\nimport (\n\t{imp}\n)\n\n"
        "func Encode{P}({p}Value any) ([]byte, error) {{\n"
        "\treturn json.Marshal({p}Value)\n}}\n"
    )
    places = {"binding/json.go": "binding", "render/json.go": "render", "errors.go": "gin"}
    for path, p in places.items():
        write(repo, path, go.format(p=p, P=p.title(), imp='"encoding/json"'))
    commit(repo)
    for path, p in places.items():
        write(repo, path, go.format(p=p, P=p.title(), imp='json "github.com/json-iterator/go"'))
    explained = explain_bundles(GitChange(repo), Config())
    assert len(explained.refs) == len(places)
    assert [len(b.hunks) for b in explained.bundles] == [len(places)]
    assert explained.bundles[0].reason.startswith(f"the same edit in {len(places)} files")


def test_one_files_repeated_edit_says_so(repo: Path) -> None:
    """testify 603c2a0's four `// FIXME t.Parallel()` hunks in one file were a bundle that
    said "one hunk, linked to no other"."""
    tests = "".join(
        f"\n\ndef test_{k}(t):\n{{top}}    t.check_{k}({k})\n" + FILLER.replace("helper_", f"h{k}_")
        for k in range(4)
    )
    write(repo, "test_a.py", tests.format(top=""))
    write(repo, "other.py", "def sizes(rows):\n    return [len(r) for r in rows]\n")
    commit(repo)
    write(repo, "test_a.py", tests.format(top="    # FIXME t.parallel()\n"))
    write(repo, "other.py", "def sizes(rows):\n    return sorted(len(r) for r in rows)\n")
    explained = explain_bundles(GitChange(repo), Config())
    (edit,) = [b for b in explained.bundles if len(b.hunks) > 1]
    assert [h.path for h in edit.hunks] == ["test_a.py"] * 4
    assert edit.reason == "the same edit in 4 hunks of one file"
