"""Renamed and moved units: a unit whose body survives under another name, or in another file
of the change, is compared with its old self instead of being shown as removed + added.

Real git repositories in temporary folders; Python and Go (a brace language)."""

from __future__ import annotations

import bisect
import io
import json
import os
from pathlib import Path
from typing import Any

import jsonschema

from reviewbot.analysis import renames
from reviewbot.analysis.renames import MIN_TOKENS, Body, match_bodies
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, Mode, review
from reviewbot.doors import hook
from reviewbot.model import Report, UnitChange
from reviewbot.render.markdown import render_markdown
from reviewbot.render.report_json import load_schema, report_doc
from reviewbot.render.review_text import review_text
from reviewbot.render.style import Style
from tests.doors.test_mcp import call, structured
from tests.helpers import commit, git, write

# A dense unit: as a new unit it is RB102's (9+ decision points over 8+ lines).
DENSE = '''def classify(order, rules):
    """Score an order against the rules."""
    score = 0
    for rule in rules:
        if rule.kind == "total" and order.total > rule.limit:
            score += 2
        elif rule.kind == "items":
            if len(order.items) > rule.limit:
                score += 1
        elif rule.kind == "country" or rule.kind == "region":
            if order.country in rule.values:
                score -= 1
        while score > 10:
            score -= 3
    if score < 0 and order.vip:
        return "review"
    return "ok" if score < 5 else "hold"
'''

LOAD = '''def load_config(path, defaults=None):
    """Read the key = value lines of the configuration file at path."""
    result = dict(defaults or {})
    with open(path) as handle:
        for line in handle:
            key, _, value = line.partition("=")
            if key.strip():
                result[key.strip()] = value.strip()
    return result
'''

# Two functions of about LOAD's size that do something else.
SEND = '''def send_report(client, rows):
    """Post the rows to the reporting endpoint in batches of fifty."""
    sent = 0
    while rows:
        batch, rows = rows[:50], rows[50:]
        reply = client.post("/reports", json=batch)
        reply.raise_for_status()
        sent += len(batch)
    return sent
'''
MERGE = '''def merge_counts(first, second):
    """Add the counts of second into a copy of first."""
    merged = {}
    merged.update(first)
    for name, count in second.items():
        merged[name] = merged.get(name, 0) + count
    keys = sorted(merged)
    return {k: merged[k] for k in keys}
'''

TAIL = """def helper(x):
    return x * 2
"""

GO_SUM = """func sumPositive(values []int) int {
	total := 0
	for _, v := range values {
		if v > 0 {
			total += v
		}
	}
	return total
}
"""
GO_OTHER = """func joinNames(names []string, sep string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += sep
		}
		out += strings.ToUpper(n)
	}
	return out
}
"""


def _review(repo: Path, mode: Mode = Mode.FAST) -> Report:
    return review(GitChange(repo, ("HEAD~1..HEAD",)), Config(), mode=mode)


def _units(report: Report) -> list[UnitChange]:
    return [u for fs in report.files for u in fs.units]


def _by_kind(report: Report) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for fs in report.files:
        for u in fs.units:
            out.setdefault(u.kind, []).append(f"{fs.path}:{u.label}")
    return out


def _two_commits(repo: Path, before: dict[str, str], after: dict[str, str]) -> None:
    for name, text in before.items():
        write(repo, name, text)
    commit(repo, "before")
    for name in before:
        if name not in after:
            (repo / name).unlink()
    for name, text in after.items():
        write(repo, name, text)
    commit(repo, "after")


def test_a_rename_in_the_same_file_is_one_renamed_unit(repo: Path) -> None:
    _two_commits(
        repo,
        {"conf.py": LOAD + "\n\n" + TAIL},
        {"conf.py": LOAD.replace("def load_config", "def read_settings") + "\n\n" + TAIL},
    )
    report = _review(repo)
    (unit,) = _units(report)
    assert (unit.kind, unit.label, unit.old_label) == (
        "renamed",
        "def read_settings",
        "def load_config",
    )
    assert unit.old is not None and unit.new is not None and unit.old.label == "def load_config"
    assert unit.metrics.before == unit.metrics.after  # compared with its old self
    assert unit.noteworthy and unit.old_path is None
    doc = report_doc(report)
    jsonschema.validate(doc, load_schema())
    (row,) = doc["files"][0]["units"]
    assert (row["change"], row["old_label"]) == ("renamed", "def load_config")
    text = review_text(report, Style(False), width=80)
    assert "renamed from def load_config" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "renamed from `def load_config`" in render_markdown(report)


def test_a_renamed_dense_unit_is_no_new_unit(repo: Path) -> None:
    """RB102 compares a new unit with the rest of its file: a renamed one is not new."""
    plain = "".join(f"def f{k}(x):\n    return x + {k}\n\n\n" for k in range(10))
    _two_commits(
        repo,
        {"rules.py": plain + DENSE},
        {"rules.py": plain + DENSE.replace("def classify", "def score_order")},
    )
    report = _review(repo)
    assert _by_kind(report) == {"renamed": ["rules.py:def score_order"]}
    assert report.findings == ()
    # The same unit added next to the old one is new, and RB102 says so: the rule is live.
    _two_commits(
        repo,
        {"rules2.py": plain + DENSE},
        {"rules2.py": plain + DENSE + "\n\n" + DENSE.replace("def classify", "def score_order")},
    )
    again = _review(repo)
    assert _by_kind(again) == {"added": ["rules2.py:def score_order"]}
    assert [f.code for f in again.findings] == ["RB102"]


def test_rename_with_an_edit_compares_with_the_old_self(repo: Path) -> None:
    edited = DENSE.replace("def classify", "def score_order").replace(
        '    if score < 0 and order.vip:\n        return "review"\n',
        '    if score < 0 and order.vip:\n        return "review"\n'
        '    if order.flagged or order.late:\n        return "hold"\n'
        "    if order.total > 1000 and not order.vip:\n"
        '        return "review"\n',
    )
    _two_commits(repo, {"rules.py": DENSE + "\n\n" + TAIL}, {"rules.py": edited + "\n\n" + TAIL})
    report = _review(repo)
    (unit,) = _units(report)
    assert (unit.kind, unit.old_label) == ("renamed", "def classify")
    before, after = unit.metrics.before, unit.metrics.after
    assert before is not None and after is not None
    assert after.decisions - before.decisions == 4  # two `if`, an `or` and an `and`
    # A spike against its old self (RB101), not a dense new unit (RB102).
    assert [f.code for f in report.findings] == ["RB101"]
    assert "def score_order (renamed from def classify; lines" in report.findings[0].message
    # The same edit on a unit moved to another file: RB101 against its old self there too.
    moved = edited.replace("def score_order", "def classify")
    _two_commits(repo, {"x.py": TAIL + "\n\n" + DENSE}, {"x.py": TAIL, "y.py": moved})
    again = _review(repo)
    assert _by_kind(again) == {"moved": ["y.py:def classify"]}
    (finding,) = again.findings
    assert finding.code == "RB101" and finding.path == "y.py"
    assert "def classify (moved from x.py; lines" in finding.message


def test_a_move_to_another_file_is_one_moved_unit(repo: Path) -> None:
    _two_commits(
        repo,
        {"a.py": TAIL + "\n\n" + LOAD, "b.py": MERGE},
        {"a.py": TAIL, "b.py": MERGE + "\n\n" + LOAD},
    )
    report = _review(repo)
    assert _by_kind(report) == {"moved": ["b.py:def load_config"]}  # nothing removed from a.py
    (unit,) = _units(report)
    assert (unit.old_path, unit.old_label) == ("a.py", "def load_config")
    assert unit.old is not None and unit.old.start == 5  # its lines in a.py
    assert unit.metrics.before == unit.metrics.after
    doc = report_doc(report)
    jsonschema.validate(doc, load_schema())
    text = review_text(report, Style(False), width=80)
    assert "moved from a.py" in text and "(was" not in text


def test_moved_and_renamed_and_edited_into_a_new_file(repo: Path) -> None:
    renamed = LOAD.replace("def load_config", "def read_settings").replace(
        "            if key.strip():\n",
        "            if key.strip() and not key.startswith('#'):\n",
    )
    _two_commits(repo, {"a.py": TAIL + "\n\n" + LOAD}, {"a.py": TAIL, "settings.py": renamed})
    # git calls settings.py a copy of a.py (which changed too): analysed as added, so that
    # the unit that came from a.py is recognised as moved, not paired with a.py's old text.
    status = git(repo, "diff", "-M", "-C", "--name-status", "HEAD~1", "HEAD")
    assert "C" in status.split("settings.py")[0].split()[-2]
    report = _review(repo)
    assert _by_kind(report) == {"moved": ["settings.py:def read_settings"]}
    (unit,) = _units(report)
    assert (unit.old_path, unit.old_label) == ("a.py", "def load_config")
    assert unit.metrics.before is not None and unit.metrics.after is not None
    assert unit.metrics.after.decisions == unit.metrics.before.decisions + 1  # the `and`
    text = review_text(report, Style(False), width=80)
    assert "moved from a.py (was def load_config)" in text
    assert "moved from `a.py` (was `def load_config`)" in render_markdown(report)


def test_different_functions_of_similar_size_stay_removed_and_added(repo: Path) -> None:
    _two_commits(
        repo,
        {"a.py": LOAD + "\n\n" + TAIL, "b.py": TAIL.replace("helper", "other")},
        {"a.py": SEND + "\n\n" + TAIL, "b.py": TAIL.replace("helper", "other") + "\n\n" + MERGE},
    )
    assert _by_kind(_review(repo)) == {
        "added": ["a.py:def send_report", "b.py:def merge_counts"],
        "removed": ["a.py:def load_config"],
    }


def test_go_rename_move_and_negative(repo: Path) -> None:
    head = 'package calc\n\nimport "strings"\n\n'
    _two_commits(
        repo,
        {"calc.go": head + GO_SUM + "\n" + GO_OTHER, "util.go": "package calc\n"},
        {
            # sumPositive renamed in place (and edited); joinNames moved to util.go.
            "calc.go": head
            + GO_SUM.replace("sumPositive", "addPositives").replace("v > 0", "v > 0 && v < 1000"),
            "util.go": 'package calc\n\nimport "strings"\n\n' + GO_OTHER,
        },
    )
    report = _review(repo)
    assert _by_kind(report) == {
        "renamed": ["calc.go:func addPositives"],
        "moved": ["util.go:func joinNames"],
    }
    renamed = next(u for u in _units(report) if u.kind == "renamed")
    assert renamed.old_label == "func sumPositive"
    assert renamed.metrics.before is not None and renamed.metrics.after is not None
    assert renamed.metrics.after.decisions == renamed.metrics.before.decisions + 1
    # An unrelated function in its place is no rename.
    _two_commits(
        repo,
        {"x.go": head + GO_SUM},
        {"x.go": head + GO_OTHER},
    )
    assert _by_kind(_review(repo)) == {
        "added": ["x.go:func joinNames"],
        "removed": ["x.go:func sumPositive"],
    }


def test_a_class_moved_with_its_methods_shows_the_class(repo: Path) -> None:
    cls = "class Loader:\n" + "".join(
        "    " + line + "\n" if line else "\n" for line in (LOAD + "\n" + MERGE).splitlines()
    )
    _two_commits(repo, {"a.py": TAIL + "\n\n" + cls}, {"a.py": TAIL, "loaders.py": cls})
    report = _review(repo)
    units = _units(report)
    assert {u.kind for u in units} == {"moved"} and len(units) == 3
    shown = [u.label for u in units if u.noteworthy]
    assert shown == ["class Loader"]  # its members moved with it, numbers unchanged


def test_members_of_a_renamed_class_pair_by_their_own_name(repo: Path) -> None:
    """`def __enter__(self) -> Box` is too short to pair by body and its header changes with
    the class's name: it pairs as a member of the renamed class."""
    cls = "class Box:\n    def __enter__(self) -> Box:\n        return self\n\n" + "".join(
        "    " + line + "\n" if line else "\n" for line in LOAD.splitlines()
    )
    _two_commits(
        repo,
        {"box.py": TAIL + "\n\n" + cls},
        {"box.py": TAIL + "\n\n" + cls.replace("Box", "_Box")},
    )
    report = _review(repo)
    kinds = {u.label: u.kind for u in _units(report)}
    assert kinds == {"class _Box": "renamed", "class _Box > def __enter__": "modified"}
    assert [u.label for u in _units(report) if u.noteworthy] == ["class _Box"]


def test_matching_is_bounded_and_ignores_tiny_bodies() -> None:
    def body(tokens: list[str]) -> Body:
        return Body(tuple(tokens), hash(tuple(tokens)), False)

    tiny = body(["return", "x"] * ((MIN_TOKENS - 1) // 2))
    assert match_bodies([tiny], [tiny]) == []  # too generic to tell apart
    words = [f"w{k}" for k in range(40)]
    olds = [body([*words, str(k)]) for k in range(30)]
    news = [body([*words, str(k), "x"]) for k in range(30)]
    assert len(match_bodies(olds, news)) == 30
    # With a budget of 5 full comparisons, at most 5 similar pairs are found.
    assert len(match_bodies(olds, news, budget=5)) <= 5
    # Equal bodies pair by their hash, whatever the budget.
    assert len(match_bodies(olds, olds, budget=0)) == 30
    # Each new body looks at no more than CANDIDATES old ones, the nearest in size first.
    rest = [(size, k) for k, size in enumerate(range(100, 300))]
    sizes = [size for size, _ in rest]
    picked = renames._nearest(rest, bisect.bisect_left(sizes, 200), 0, len(rest), 200)
    assert len(picked) == renames.CANDIDATES
    assert sorted(abs(rest[k][0] - 200) for k in picked) == sorted(
        sorted(abs(size - 200) for size in sizes)[: renames.CANDIDATES]
    )


def test_every_door_agrees_on_renames_and_moves(repo: Path, cli: Any) -> None:
    _two_commits(
        repo,
        {"a.py": TAIL + "\n\n" + LOAD + "\n\n" + DENSE},
        {
            "a.py": TAIL + "\n\n" + LOAD.replace("load_config", "read_settings"),
            "b.py": DENSE.replace("score = 0", "score = 0\n    if not rules:\n        return 'ok'"),
        },
    )
    base, head = git(repo, "rev-parse", "HEAD~1", "HEAD").split()

    def essentials(doc: dict[str, Any]) -> Any:
        units = sorted(
            (
                f["path"],
                u["label"],
                u["change"],
                u.get("old_label"),
                u.get("old_path"),
                json.dumps(u["metrics"], sort_keys=True),
            )
            for f in doc["files"]
            for u in f["units"]
        )
        return units, [(f["code"], f["fingerprint"]) for f in doc["findings"]]

    run = cli("review", "-C", str(repo), f"{base}..{head}", "--format", "json")
    assert run.code == 0, run.err
    command = essentials(json.loads(run.out))
    assert {u[2] for u in command[0]} == {"renamed", "moved"}
    (_, results) = call(repo, [("review_change", {"range": f"{base}..{head}"})])
    assert essentials(structured(results[0])) == command
    git(repo, "checkout", "-q", "--detach", base)
    git(repo, "read-tree", "-u", "--reset", head)
    result = hook.run_hook(
        hook._parser().parse_args([]), repo, dict(os.environ), io.StringIO(), False
    )
    assert result.report is not None
    assert essentials(report_doc(result.report)) == command


def test_full_review_of_a_rename_flags_the_old_name_still_called(repo: Path) -> None:
    """Context, bundles and impact run on the new kinds; the old name of a renamed unit is
    gone, so a caller left behind is RB105's."""
    caller = "from conf import load_config\n\n\ndef main():\n    return load_config('x.cfg')\n"
    _two_commits(
        repo,
        {"conf.py": LOAD + "\n\n" + TAIL, "main.py": caller},
        {
            "conf.py": LOAD.replace("def load_config", "def read_settings") + "\n\n" + TAIL,
            "main.py": caller,
        },
    )
    report = _review(repo, Mode.FULL)
    assert _by_kind(report) == {"renamed": ["conf.py:def read_settings"]}
    (finding,) = [f for f in report.findings if f.code == "RB105"]
    # On the renamed header, in the diff (the Action posts it inline), naming the caller.
    assert (finding.path, finding.line, finding.in_diff) == ("conf.py", 1, True)
    assert "load_config" in finding.title and "main.py:5" in finding.message
    assert {i.name: i.change for i in report.impact}[
        "load_config"
    ] == "renamed"  # one entry, the old name
    jsonschema.validate(report_doc(report), load_schema())


def test_a_unit_past_the_ceiling_moved_unchanged_has_no_finding(repo: Path) -> None:
    """Moved to another file as it was, a function already past the decision ceiling did not
    "become more tangled": no RB101 (its decisions were counted as a new unit's, none before,
    so the ceiling read as crossed). Made denser on the way, it still is one."""
    big = "def big(x):\n" + "".join(f"    if x == {k}:\n        x += {k}\n" for k in range(18))
    big += "    return x\n"
    keep = "def keep():\n    return 1\n"
    _two_commits(
        repo,
        {"a.py": keep + "\n\n" + big, "b.py": keep},
        {"a.py": keep, "b.py": keep + "\n\n" + big},
    )
    report = _review(repo)
    assert _by_kind(report) == {"moved": ["b.py:def big"]}
    assert report.findings == ()
    denser = big.replace(
        "    return x\n",
        "".join(f"    if x > {k}:\n        x -= 1\n" for k in range(6)) + "    return x\n",
    )
    _two_commits(
        repo,
        {"c.py": keep + "\n\n" + big, "d.py": keep},
        {"c.py": keep, "d.py": keep + "\n\n" + denser},
    )
    assert [f.code for f in _review(repo).findings] == ["RB101"]


def test_a_function_rewritten_into_a_new_file_that_replaces_its_old_one_is_moved(
    repo: Path,
) -> None:
    """yup 41b9c58 deleted `isodate.js` and added `parseIsoDate.ts`, the same exported
    function rewritten in TypeScript: RB102 called it a dense new unit (14 decisions down to
    9). A top-level unit of a deleted file and one of an added file whose name holds the old
    one's, of one kind and name and each the only one of that name, is that unit moved,
    compared with its old self; a second namesake elsewhere, or files whose names say nothing
    of each other (one package's `New` and another's), leave them added and removed."""
    rewritten = SEND.replace("def send_report", "def load_config")
    _two_commits(repo, {"conf/loader.py": LOAD}, {"settings/config_loader.py": rewritten})
    report = _review(repo)
    assert _by_kind(report) == {"moved": ["settings/config_loader.py:def load_config"]}
    (unit,) = _units(report)
    assert unit.old_path == "conf/loader.py" and unit.metrics.before is not None
    assert not [f for f in report.findings if f.code == "RB102"]
    # (two new files with one: which one it became is not known)
    _two_commits(
        repo,
        {"conf/second.py": LOAD},
        {"new/a.py": rewritten, "new/b.py": rewritten.replace("rows", "lines")},
    )
    kinds = _by_kind(_review(repo))
    assert "moved" not in kinds and kinds["removed"] == ["conf/second.py:def load_config"]
    # (nor a name many modules define for their own: one script's `main` for another's)
    main = LOAD.replace("def load_config", "def main")
    _two_commits(
        repo, {"tools/old.py": main}, {"tools/fresh.py": rewritten.replace("load_config", "main")}
    )
    assert "moved" not in _by_kind(_review(repo))
    unrelated = LOAD.replace("load_config", "parse_orders")
    _two_commits(
        repo,
        {"legacy/email.py": unrelated},
        {"api/orders.py": rewritten.replace("load_config", "parse_orders")},
    )
    assert "moved" not in _by_kind(_review(repo))


def test_a_moved_units_small_members_move_with_it(repo: Path) -> None:
    """click a391797d moved `test_echo` to a new file: its nested `def cli` (too small to pair
    by body) read removed and added, and the old file's bundle said it "removes cli,
    test_echo". A member of a moved unit with the only namesake of its kind under the unit it
    moved to moved with it; a name another hunk declares is not "removed"."""
    test = (
        "def test_echo(runner):\n    def cli():\n        return 1\n\n"
        "    result = runner.invoke(cli, ['--name', 'x'])\n"
        "    assert result.exit_code == 0\n    assert result.output == 'x\\n'\n"
        "    assert not result.exception\n"
    )
    _two_commits(
        repo,
        {"tests/test_utils.py": TAIL + "\n\n" + test},
        {"tests/test_utils.py": TAIL, "tests/utils/test_echo.py": test},
    )
    report = _review(repo)
    kinds = _by_kind(report)
    assert "removed" not in kinds and "added" not in kinds, kinds
    assert "tests/utils/test_echo.py:def test_echo > def cli" in kinds["moved"], kinds
    reasons = [b.reason for b in report.bundles]
    assert not any("removes" in r for r in reasons), reasons


def test_a_unit_renamed_over_the_namesake_it_replaces_is_that_one_renamed(repo: Path) -> None:
    """zustand e247220e: `newImpl` renamed `persistImpl` while the small old `persistImpl`
    (which chose between the two) was deleted. The name paired the new `persistImpl` with
    the old dispatcher (a spike, an error); its body is `newImpl`'s."""
    small = "def classify(order, rules):\n    return old(order, rules) if rules else 0\n"
    before = DENSE.replace("def classify", "def new_classify") + "\n\n" + small
    _two_commits(repo, {"rules.py": before}, {"rules.py": DENSE})
    report = _review(repo)
    assert report.findings == ()
    assert _by_kind(report) == {
        "renamed": ["rules.py:def classify"],
        "removed": ["rules.py:def classify"],  # the small one
    }
    (unit,) = [u for u in _units(report) if u.kind == "renamed"]
    assert unit.old_label == "def new_classify"
    assert unit.metrics.before == unit.metrics.after
    # Its namesake edited, with no other body like it, is still that namesake modified.
    edited = DENSE.replace("score -= 3", "score -= 4")
    _two_commits(repo, {"r2.py": DENSE + "\n\n" + LOAD}, {"r2.py": edited + "\n\n" + LOAD})
    assert _by_kind(_review(repo)) == {"modified": ["r2.py:def classify"]}


def test_java_overloads_reordered_are_compared_with_themselves(repo: Path) -> None:
    """commons-cli c113423a: overloads of one name swapped places, their headers joined onto
    one line (so no header line maps to an old one); paired in order, each was compared with
    the other (an RB101 error) and "re-signed"."""
    big = (
        "    public int put(final String s,\n            final int base) {\n"
        + "".join(
            f'        if (s.equals("{k}")) {{\n            return {k};\n        }}\n'
            for k in range(9)
        )
        + "        return -1;\n    }\n"
    )
    small = (
        "    public int put(final int n,\n            final int base) {\n        return n;\n    }\n"
    )
    head = "package p;\n\npublic class Lib {\n"
    joined = {"src/p/Lib.java": head + big + "\n" + small + "}\n"}
    joined = {k: v.replace(",\n            final", ", final") for k, v in joined.items()}
    _two_commits(repo, {"src/p/Lib.java": head + small + "\n" + big + "}\n"}, joined)
    report = _review(repo, Mode.FULL)
    assert report.findings == ()
    assert report.impact == ()  # (the headers are read whole: joined, they are the same)
    for u in _units(report):
        before, after = u.metrics.before, u.metrics.after
        assert before is not None and after is not None
        assert (before.decisions, before.nesting) == (after.decisions, after.nesting), u.label


def test_a_type_alias_is_never_renamed_into_a_function(repo: Path) -> None:
    """zustand 8ced2719: `type Combine = <T, ...>(...) => StateCreator<...>` inlined into
    `export function combine<T, ...>(...): StateCreator<...> {...}` read "function combine
    renamed from type Combine"; a type and a function are not one unit."""
    params = (
        "  T extends object,\n  U extends object,\n"
        "  Mps extends [StoreMutatorIdentifier, unknown][] = [],\n"
        "  Mcs extends [StoreMutatorIdentifier, unknown][] = [],\n"
        ">(\n  initialState: T,\n  create: StateCreator<T, Mps, Mcs, U>,\n"
    )
    old = f"type Combine = <\n{params}) => StateCreator<Write<T, U>, Mps, Mcs>\n"
    new = (
        f"export function combine<\n{params}): StateCreator<Write<T, U>, Mps, Mcs> {{\n"
        "  return (...a) => Object.assign({}, initialState, create(...a))\n}\n"
    )
    _two_commits(repo, {"combine.ts": old}, {"combine.ts": new})
    kinds = _by_kind(_review(repo))
    assert kinds.get("renamed") is None, kinds
    assert kinds == {
        "added": ["combine.ts:function combine"],
        "removed": ["combine.ts:type Combine"],
    }


def test_a_unit_moved_out_of_a_file_the_change_renames_says_the_file_it_was_in(
    repo: Path,
) -> None:
    # cattrs bc1a458: gen.py became gen/__init__.py and _generate_mapping moved to
    # gen/_generics.py: "moved from src/cattrs/gen/__init__.py", a path that did not exist.
    _two_commits(
        repo,
        {"pkg/gen.py": DENSE + "\n\n" + MERGE + "\n\n" + LOAD},
        {"pkg/gen/__init__.py": DENSE + "\n\n" + MERGE, "pkg/gen/_load.py": LOAD},
    )
    report = _review(repo, Mode.FULL)
    (unit,) = [u for u in _units(report) if u.kind == "moved"]
    assert unit.old_path == "pkg/gen.py"
    text = review_text(report, Style(False), width=80)
    assert "moved from pkg/gen.py" in text and "moved from pkg/gen/__init__" not in text
    # Its header did not change: no re-sign in the impact.
    assert not [i for i in report.impact if i.change == "signature"]


FACADE = """class Facade:
    def __init__(self, dist, name, version, extra):
        self._dist = dist
        self._name = name
        self._version = version
        self._extra = extra

    @property
    def project_name(self):
        name = self.metadata["name"]
        return name

    def __dir__(self):
        names = sorted(dir(self._dist) + ["_dist", "project_name"])
        return [n for n in names if not n.startswith("__")]
"""


def test_a_class_moved_with_its_body_edited_is_moved_when_its_members_moved(
    repo: Path,
) -> None:
    # pluggy 53eeddf: `DistFacade` moved to `_compat.py` gaining docstrings and `__slots__`:
    # its `__init__` and `__dir__` read moved, the class and `project_name` removed + added.
    edited = FACADE.replace(
        "class Facade:\n",
        'class Facade:\n    """A facade over a distribution, as the old API had it.\n\n'
        "    It wraps the new one and adds the project name, which the old one had and\n"
        "    the new one does not: code written for the old API reads it.\n\n"
        '    Every other attribute is one of the wrapped distribution.\n    """\n\n'
        '    __slots__ = ("_dist", "_name", "_version", "_extra")\n\n'
        "    def __getattr__(self, attr):\n        return getattr(self._dist, attr)\n\n"
        "    def __repr__(self):\n        return f'Facade({self._name!r}, {self._version!r})'\n\n",
    ).replace(
        '        name = self.metadata["name"]\n',
        '        """The project name, as the old API had it."""\n'
        '        name = self.metadata["name"]\n',
    )
    _two_commits(
        repo,
        {"pkg/manager.py": MERGE + "\n\n" + FACADE, "pkg/compat.py": "X = 1\n"},
        {"pkg/manager.py": MERGE, "pkg/compat.py": "X = 1\n\n\n" + edited},
    )
    kinds = _by_kind(_review(repo))
    assert "removed" not in kinds, kinds
    assert "pkg/compat.py:class Facade" in kinds["moved"], kinds
    assert "pkg/compat.py:class Facade > def project_name" in kinds["moved"], kinds
    assert sorted(kinds["added"]) == [  # (new methods: added to the moved class)
        "pkg/compat.py:class Facade > def __getattr__",
        "pkg/compat.py:class Facade > def __repr__",
    ]


def test_a_body_renamed_while_a_stub_takes_its_old_name_is_renamed(repo: Path) -> None:
    """rq ff886a1f renamed `Queue.enqueue_dependents` `move_dependents_to_ready` (its body
    kept in place, edited: 0.62 alike) and added a thin `enqueue_dependents` calling it: the
    name paired the stub with the old body ("modified 19 -> 0") and the body was a dense new
    unit (an RB102 on code that existed), the bundle "moves enqueue_dependents". The body is
    the old unit renamed, the stub is added; the bundle says it renames. Lightly edited, the
    bodies pair; edited more, half of the old lines kept in place pair them."""
    plain = "".join(f"    def f{k}(self, x):\n        return x + {k}\n\n" for k in range(6))
    method = "".join(f"    {line}\n" if line else "\n" for line in DENSE.splitlines())
    method = method.replace("def classify(order, rules)", "def classify(self, order, rules)")
    light = (
        method.replace("def classify(", "def triage(")
        .replace(
            '"""Score an order against the rules."""',
            '"""Triage an order: weigh each rule that applies to it, then cap\n'
            '        the score so that a single rule never decides the outcome alone."""',
        )
        .replace("score += 2", "score += self.weights.get(rule.kind, default_weight(rule))")
        .replace("score += 1", "score += self.weights.get(rule.kind, default_weight(rule)) // 2")
        .replace("score -= 1", "score -= self.weights.get(rule.kind, default_weight(rule)) * 3")
        .replace("score -= 3", "score = self.cap(score, limit=self.ceiling, floor=self.floor)")
    )
    heavy = light.replace(
        "        score = 0\n",
        "        score = 0\n"
        "        self.log.debug('triage %s against %d rules', order.id, len(rules))\n",
    )
    stub = (
        "\n    def classify(self, order, rules):\n"
        '        """Triage the order, then log it."""\n'
        "        result = self.triage(order, rules)\n"
        "        self.log(order, result)\n"
        "        return result\n"
    )
    for k, edited in enumerate((light, heavy)):
        name = f"queue{k}.py"
        _two_commits(
            repo,
            {name: "class Queue:\n" + plain + method},
            {name: "class Queue:\n" + plain + edited + stub},
        )
        report = _review(repo, Mode.FULL)
        assert _by_kind(report) == {
            "modified": [f"{name}:class Queue"],
            "renamed": [f"{name}:class Queue > def triage"],
            "added": [f"{name}:class Queue > def classify"],
        }
        (unit,) = [u for u in _units(report) if u.kind == "renamed"]
        assert unit.old_label == "class Queue > def classify"
        assert report.findings == ()
        reasons = "; ".join(b.reason for b in report.bundles)
        assert "renames classify to triage" in reasons and "moves" not in reasons, reasons


def test_a_unit_renamed_keeps_its_own_old_self_over_a_stubs_namesake(repo: Path) -> None:
    """jotai 543f064c: `buildStore`'s `set()` became a stub while a nested `setAtom` much
    like it moved: `setAtom` was "renamed from set()" (the stub's old body), its own old
    self removed. A unit's own old self comes first; the stub is its namesake modified."""
    helper = DENSE.replace("def classify", "def classify_all")
    run = DENSE.replace('"""Score an order against the rules."""', '"""Run it."""')
    stub = "def classify(order, rules, strict=False):\n    return classify_all(order, rules)\n"
    renamed = helper.replace("def classify_all", "def classify_every")
    _two_commits(
        repo,
        {"rules.py": run + "\n\n" + helper + "\n\n" + TAIL},
        {"rules.py": stub + "\n\n" + renamed + "\n\n" + TAIL},
    )
    assert _by_kind(_review(repo)) == {
        "modified": ["rules.py:def classify"],
        "renamed": ["rules.py:def classify_every"],
    }
