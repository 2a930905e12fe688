"""Terminal styling and sparklines. Colour is decided at the door and passed in."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, TextIO

from reviewbot.model import (
    Bundle,
    FileSummary,
    Finding,
    HunkContext,
    ImpactRef,
    Measure,
    UnitChange,
    innermost,
)
from reviewbot.render.visible import one_line, visible
from reviewbot.repo.paths import secondary

__all__ = [
    "BLOCKS",
    "BUNDLE_PLACES",
    "DIFF_LEGEND",
    "MAX_UNIT_ROWS",
    "NO_UNIT",
    "Style",
    "UnitTable",
    "bar",
    "bundle_says",
    "cut_label",
    "cut_labels",
    "cut_path",
    "cut_paths",
    "diff_gutter",
    "ellipsize",
    "encodes",
    "fit_paths",
    "fmt_metric",
    "group_refs",
    "local_range",
    "moved_from",
    "one_line",
    "origin_text",
    "place_groups",
    "places_text",
    "product_first",
    "quiet_tests",
    "quiet_tests_text",
    "refs_text",
    "same_edit_text",
    "same_edits",
    "sparkline",
    "terminal_width",
    "unit_origin",
    "unit_table",
    "units_text",
    "unlisted_text",
    "use_color",
    "visible",
    "wrap",
]

BLOCKS = " ▁▂▃▄▅▆▇█"

# How ``diff_gutter`` marks a line (the Markdown report and `review --context` say it).
DIFF_LEGEND = "`+` added, `-` removed (its old line number), ` ` unchanged"


def diff_gutter(context: HunkContext) -> list[tuple[str, str]]:
    """The fine band as a diff, each line with its mark: the line number, then `+` on the
    lines the change added, `-` on those it removed (numbered on the old side), a space on the
    others; where the budget left lines out, a line that says how many (mark `…`)."""
    if not context.rows:
        return []
    width = max(len(str(r.number)) for r in context.rows)
    gaps = dict(context.gaps)
    out: list[tuple[str, str]] = []
    for k, r in enumerate([*context.rows, None]):
        if k in gaps:
            out.append(("…", f"{'':>{width}} … {gaps[k]} line(s) cut to fit the budget"))
        if r is not None:
            out.append((r.mark, f"{r.number:>{width}} {r.mark} {r.text.expandtabs(4)}".rstrip()))
    return out


_CODES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
}


# Styled text is marked with these private-use characters while a renderer builds it; finish()
# first shows every control character from the repository as text, then turns the marks into
# escape sequences (only ours: the codes above). So a file name or a line of code can never
# move the cursor, retitle the terminal or clear the screen. Each mark carries a random token
# of this process: a name holding the same private-use characters is not taken for a mark
# (it would lose them, or style what follows).
_TOKEN = os.urandom(8).hex()
_OPEN, _SEP, _CLOSE = f"\ue000{_TOKEN}", f"\ue001{_TOKEN}", f"\ue002{_TOKEN}"
_MARK = re.compile(f"{_OPEN}([0-9;]{{1,12}}){_SEP}")
_ALLOWED = frozenset(_CODES.values())


class Style(NamedTuple):
    color: bool = False
    arrow: str = "→"  # before → after; `->` where the stream cannot encode it

    def arrows(self, text: str) -> str:
        """``text`` (a finding's message: `decision points 1 → 9`) with this style's arrow."""
        return text if self.arrow == "→" else text.replace("→", self.arrow)

    def __call__(self, text: str, *names: str) -> str:
        if not self.color or not names or not text:
            return text
        codes = ";".join(_CODES[n] for n in names)
        return f"{_OPEN}{codes}{_SEP}{text}{_CLOSE}"

    def finish(self, text: str) -> str:
        """The text for the terminal: control characters visible, our marks as colour."""
        shown = visible(text)
        if not self.color:
            return shown.replace(_CLOSE, "") if _OPEN not in shown else _MARK.sub("", shown)

        def sgr(m: re.Match[str]) -> str:
            codes = m.group(1)
            return f"\x1b[{codes}m" if set(codes.split(";")) <= _ALLOWED else ""

        return _MARK.sub(sgr, shown).replace(_CLOSE, "\x1b[0m")

    def heat(self, text: str, fraction: float) -> str:
        """Colour by intensity: low is dim, middle yellow, high red."""
        if fraction >= 0.66:
            return self(text, "red")
        if fraction >= 0.33:
            return self(text, "yellow")
        return self(text, "dim")


def ellipsize(text: str, width: int, *, end: bool = False) -> str:
    """``text`` cut to ``width`` characters: in the middle (`test_different_…_for_tls`), so
    that names which differ at the end stay apart, or at the end with ``end``."""
    if width <= 0 or len(text) <= width:
        return text
    if width == 1:
        return "…"
    if end:
        return text[: width - 1] + "…"
    head = (width - 1 + 1) // 2
    tail = width - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


# A qualified label's last name, with a Java method's `()` and the ` :line` told-apart units
# carry: what a cut keeps.
_OWN_NAME = re.compile(r"\.([A-Za-z_$][\w$]*(?:\(\))?(?: :\d+)?)$")
# A callback's label, `test("the words")` (and ` :line`): its callee, words and close.
_CALLBACK = re.compile(r"([A-Za-z_$][\w$.]*\((?P<q>[\"'`]))(.*)((?P=q)\)(?: :\d+)?)")


def cut_label(label: str, width: int) -> str:
    """``label`` in ``width`` characters, the part that tells units apart kept:

    - a unit's own name whole, its containers cut (`def test_h….async_handler`,
      `HtmlParserTest.D….deepBodyResetWithinMaxDepth()`): inner units of one function, or
      methods of one class, differ at the start of their own names, which a cut in the
      middle took away;
    - a callback's callee and the end of its words (`test("…regression is fixed")`): the
      tests of one file often start alike (`ladder: the …`, `should …`) and differ in what
      they say last;
    - anything else (or an own name that does not fit alone) cut in the middle."""
    if len(label) <= width:
        return label
    call = _CALLBACK.fullmatch(label)
    if call is not None:
        head, _, words, close = call.groups()
        keep = width - len(head) - len(close) - 1
        if keep >= 4:
            tail = words[-keep:]
            space = tail.find(" ", 0, keep // 2)  # whole words where one ends near the cut
            return f"{head}…{tail[space + 1 :] if space >= 0 else tail}{close}"
        return ellipsize(label, width)
    own = _OWN_NAME.search(label)
    if own is None:
        return ellipsize(label, width)
    before = label[: own.start()]
    kind = before.find(" ") + 1 if " " in before else 0  # `def `, `class `; none in Java
    tail = own.group(0)
    # (the kind, a character of the containers and the ellipsis before the name)
    if len(tail) + kind + 2 <= width:
        return label[: width - len(tail) - 1] + "…" + tail
    # The containers go first, whole (`def …register_structure_hook_factory`), then the own
    # name's middle (`….contentTypeAnn…WithNoBodyGet()`): never its start, where the methods
    # of one class usually differ, while the containers' start is left.
    room = width - kind - 1
    if room >= len(own.group(1)):
        return f"{label[:kind]}…{own.group(1)}"
    if room < 8:
        return ellipsize(label, width)
    return f"{label[:kind]}…{ellipsize(own.group(1), room)}"


def cut_labels(
    labels: Iterable[str], width: int, places: Mapping[str, int] | None = None
) -> dict[str, str]:
    """Each label ``cut_label`` cut, told apart: labels whose cuts would read the same (`def
    T….test_noncallable_validators` in two test classes) keep the end of their containers
    instead, where they often differ (`def …ping.test_noncallable_validators`), or, when the
    own names were cut too, the start of their containers (`def TestDeepMapping.te…`); those
    that still clash (`ClassNa….prefixWithAtMostOneAnnotatedClass()` in `ClassName`, and in its
    nested `TopLevelClassName` and `NestedClassName`) say where they start, from ``places``
    (`prefixWi…AnnotatedClass() :98`)."""
    out = {label: cut_label(label, width) for label in dict.fromkeys(labels)}
    for attempt in ("tail", "middle", "place"):
        seen = Counter(out.values())
        for label, cut in out.items():
            if seen[cut] == 1 or cut == label:
                continue
            if attempt == "tail":
                own = _OWN_NAME.search(label)
                before = label[: own.start()] if own is not None else ""
                kind = before[: before.find(" ") + 1] if " " in before else ""  # `def `
                if len(kind) + 2 < width:
                    out[label] = f"{kind}…{label[len(label) - (width - len(kind) - 1) :]}"
            elif attempt == "middle":  # own names alike at both ends: their containers differ
                out[label] = ellipsize(label, width)
            elif places is not None and label in places:
                suffix = f" :{places[label]}"
                if len(suffix) + 4 <= width:
                    out[label] = ellipsize(label, width - len(suffix)) + suffix
    return out


def cut_path(path: str, width: int) -> str:
    """``path`` in ``width`` characters: the file's name whole and its folders cut, at a `/`
    where one falls in the room (`src/test/java/org/…/NamespaceBindingsTest.java`); a name
    too long for the room is cut in the middle."""
    if len(path) <= width:
        return path
    folder, slash, name = path.rpartition("/")
    room = width - len(name) - 2  # the `…/` before the name
    if not slash or room < 1:
        return ellipsize(path, width)
    head = folder[:room]
    cut = head.rfind("/")
    if cut > 0:  # whole folders where at least one fits
        head = head[: cut + 1]
    return f"{head}…/{name}"


BUNDLE_PLACES = 6  # a bundle's hunks listed (text and Markdown), then counted: `(+4 more)`


def place_groups(places: Sequence[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """Places (`path`, `path:12-20` or `path:3 (removed)`) grouped by file, in the order of
    each file's first: (`a/b.py`, [`12-20`, `31-40`]), (`c.py`, [`3 (removed)`])."""
    groups: dict[str, list[str]] = {}
    for path, where in places:
        rest = where[len(path) :].lstrip(":") if where.startswith(path) else where
        groups.setdefault(path, []).append(one_line(rest))
    return list(groups.items())


def places_text(places: Sequence[tuple[str, str]], width: int) -> str:
    """Places grouped by file (``place_groups``): `a/b.py:12-20, 31-40; c.py:3 (removed)`; a
    path too long for ``width`` with its first place loses folders (``cut_path``), so that no
    `path:line` wraps inside (commons-lang c0159a852 repeated a 60-character path for each of
    four hunks, wrapped)."""
    out = []
    for path, rests in place_groups(places):
        first = f":{rests[0]}," if rests[0] else ","
        shown = one_line(path)
        if len(shown) + len(first) > width:
            shown = cut_path(shown, max(1, width - len(first)))
        out.append(shown + (":" + ", ".join(rests) if rests[0] else ""))
    return "; ".join(out)


# A bundle's reason parts that only say how its hunks hold together (`4 files, mean link 0.86`)
_LINK_ONLY = re.compile(
    r"(in all, )?(one file|\d+ files)(, hunks of one unit)?, mean link [\d.]+"
    r"|one hunk, linked to no other|the same edit in \d+ hunks of one file"
)


def bundle_says(bundle: Bundle) -> bool:
    """Whether ``bundle``'s reason says more than how its hunks are linked: what it defines,
    re-signs, moves, removes, renames or uses, an edit it repeats, a note that names it. A
    review of one such bundle shows it (testify 1eb5fc0: its one bundle re-signed
    truncatingFormat, and nothing said so)."""
    return any(_LINK_ONLY.fullmatch(part) is None for part in bundle.reason.split("; "))


# A path among a title's words (`class T (src/test/java/org/…/T.java, …)`): what has a `/`.
_PATH_WORD = re.compile(r"[^\s(),;]*/[^\s(),;]+")


def fit_paths(text: str, room: int) -> str:
    """``text`` with each path longer than ``room`` (a wrapped line's room, its `(` and `,`
    with it) cut at its folders (``cut_path``), its file's name whole: a word is never broken
    over lines, and a 90-column path stood out of an 80-column terminal (commons-io adcb56a89's
    review order; the hook's RB105 listed an 82-column one)."""

    def fit(m: re.Match[str]) -> str:
        path = m.group(0)
        if len(path) <= room or len(path.rpartition("/")[2]) + 2 > room:
            return path
        return cut_path(path, room)

    return _PATH_WORD.sub(fit, text)


def moved_from(old: str, new: str) -> str:
    """Where a renamed file came from, short: the folders or name that changed with a folder
    of what they share on either side, and where that now stands (retrofit e597b94f: `from
    …/test/retrofit2/… (now …/test/java/retrofit2/…)`); the old path whole when the two share
    no folder and no name."""
    a, b = old.split("/"), new.split("/")
    lead = 0
    while lead < min(len(a), len(b)) - 1 and a[lead] == b[lead]:
        lead += 1
    trail = 0
    while trail < min(len(a), len(b)) - lead and a[-1 - trail] == b[-1 - trail]:
        trail += 1
    if not lead and not trail:
        return f"from {old}"

    def middle(parts: list[str]) -> str:
        shown = parts[max(0, lead - 1) : len(parts) - max(0, trail - 1)]
        return ("…/" if lead > 1 else "") + "/".join(shown) + ("/…" if trail > 1 else "")

    return f"from {middle(a)} (now {middle(b)})"


def product_first(files: Iterable[FileSummary]) -> list[FileSummary]:
    """The files with the product's code first, then tests, benchmarks and examples (as the
    findings are ordered), each part in its order: a table's first rows are what ships."""
    return sorted(files, key=lambda fs: secondary(fs.path))


QUIET_TESTS = 4  # a test file's added (or removed) units, none flagged, counted from this many
SAME_EDITS = (
    3  # a file's units changed by one same small edit, none flagged, counted from this many
)


def quiet_tests(
    fs: FileSummary, units: Sequence[UnitChange], findings: Iterable[Finding]
) -> tuple[list[UnitChange], dict[str, int]]:
    """``units`` (of ``fs``) as the unit tables list them: in a test, benchmark or example
    file, ``QUIET_TESTS`` or more units added (or removed) that no finding is about are
    counted, not listed (a new test file's 50 `test(...)` rows say no more than their count).
    The units listed, and how many of each kind are counted instead."""
    if not secondary(fs.path):
        return list(units), {}
    flagged = {(f.path, f.unit.start) for f in findings}
    quiet: dict[str, list[UnitChange]] = {"added": [], "removed": []}
    for u in units:
        side = u.new or u.old
        if u.kind in quiet and side is not None and (fs.path, side.start) not in flagged:
            quiet[u.kind].append(u)
    folded = {kind: us for kind, us in quiet.items() if len(us) >= QUIET_TESTS}
    hidden = {id(u) for us in folded.values() for u in us}
    return [u for u in units if id(u) not in hidden], {k: len(us) for k, us in folded.items()}


def same_edits(
    units: Sequence[UnitChange], findings: Iterable[Finding]
) -> tuple[list[UnitChange], list[tuple[int, str]]]:
    """``units`` as the unit tables list them: ``SAME_EDITS`` or more modified only by the
    same small edit (``UnitChange.edit``: testify's `t.Parallel()` added to 196 tests, 48 of
    them in one file) and no finding is about are counted, not listed. The units listed, and
    (how many, the edit's lines) for each edit counted instead."""
    flagged = {(f.path, f.unit.start) for f in findings}
    alike: dict[str, list[UnitChange]] = {}
    for u in units:
        if u.edit and u.new is not None and (u.path, u.new.start) not in flagged:
            alike.setdefault(u.edit, []).append(u)
    folded = [(edit, us) for edit, us in alike.items() if len(us) >= SAME_EDITS]
    hidden = {id(u) for _, us in folded for u in us}
    return [u for u in units if id(u) not in hidden], [(len(us), edit) for edit, us in folded]


def same_edit_text(count: int, edit: str) -> str:
    """`48 units changed alike, only by: + t.Parallel()` (the lines as one, `/` between)."""
    lines = " / ".join(f"{line[0]} {line[1:]}" for line in edit.split("\n"))
    return f"{count} units changed alike, only by: {lines}"


def quiet_tests_text(counts: Mapping[str, int]) -> str:
    """`52 units added, none flagged` (and `, 3 removed`), for the row that stands for them."""
    parts = [f"{n} {'units ' * (k == 0)}{kind}" for k, (kind, n) in enumerate(counts.items())]
    return ", ".join(parts) + ", none flagged"


MAX_UNIT_ROWS = 60  # unit rows the text and Markdown tables list in all; the others counted


class UnitTable(NamedTuple):
    """The unit tables as text and Markdown list them: per analysed file (the product's
    first), the units listed and the test units counted instead (``quiet_tests``); at most
    ``MAX_UNIT_ROWS`` listed in all, the rest counted in ``unlisted`` (the JSON lists them)."""

    # (a file, the units listed, the test units counted by kind, the units changed alike
    # counted by edit: ``same_edits``)
    files: list[tuple[FileSummary, list[UnitChange], dict[str, int], list[tuple[int, str]]]]
    unlisted: int  # units with changed measures left out by the cap
    quiet: int  # units touched whose own measures did not move (never rows)


def unit_table(
    files: Iterable[FileSummary], findings: Sequence[Finding], limit: int = MAX_UNIT_ROWS
) -> UnitTable:
    """The rows of every unit table, capped alike (commons-lang 56e830a23 deletes 223 units:
    the text listed 60 and counted 65, the Markdown listed all 125 removed rows)."""
    out: list[tuple[FileSummary, list[UnitChange], dict[str, int], list[tuple[int, str]]]] = []
    left = limit
    unlisted = quiet = 0
    for fs in product_first(f for f in files if f.language is not None):
        shown = [u for u in fs.units if u.noteworthy]
        quiet += len(fs.units) - len(shown)
        shown, counted = quiet_tests(fs, shown, findings)
        shown, alike = same_edits(shown, findings)
        if len(shown) > left:  # a big change: the first units, the rest counted
            unlisted += len(shown) - left
            shown = shown[:left]
        left -= len(shown)
        out.append((fs, shown, counted, alike))
    return UnitTable(out, unlisted, quiet)


def unlisted_text(n: int, base: str = "", head: str = "") -> str:
    """What the tables say of the units the cap left out. The text's reader can add
    `--format json`; a pull request's (Markdown, given the report's ``base`` and ``head``) is
    told the local command that reviews the same commits, when they are known."""
    where = local_range(base, head) if base and head else None
    return f"{n} more changed unit(s) not listed: " + (
        f"`reviewbot review {where}` lists them all" if where else "`--format json` lists all"
    )


_SIDE = re.compile(r"\((?:merge base )?([0-9a-f]{12,40})\)$")
_SHA = re.compile(r"[0-9a-f]{12,40}")


def local_range(base: str, head: str) -> str | None:
    """The range a local `reviewbot review` takes for the commits a report's ``base`` and
    ``head`` name (`main...(merge base 1a2b3c4d5e6f)`, `HEAD (7a8b9c0d1e2f)`: their ids,
    `1a2b3c4d5e6f..7a8b9c0d1e2f`; an Action's change read from the API, bare ids of a pull
    request's base and head: `A...B`, from their merge base as GitHub diffs it); None when
    a side is not a commit (the working tree, the index, a patch)."""
    if _SHA.fullmatch(base) and _SHA.fullmatch(head):
        return f"{base}...{head}"
    old, new = _SIDE.search(base), _SIDE.search(head)
    if old is None or new is None:
        return None
    return f"{old.group(1)}..{new.group(1)}"


# Words between ASCII white space (a no-break space holds two words together, as for textwrap).
_WORDS = re.compile(r"([ \t\n\r\x0b\x0c]*)([^ \t\n\r\x0b\x0c]+)")


def wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces (``indent`` before the
    first line, ``indent + hang`` before the others). A word is never broken: one longer than
    a line (a long path with its `:12-40,`, a test's long name) stands alone on its line, whole
    (a path broken after a `/`, `src/test/` / `java/org/…`, read as two; rq 936e15bb broke
    `…_exit_code_and_` / `result_ttl_0`)."""
    lines: list[str] = []
    line, fresh = indent, True  # (fresh: nothing written on this line yet)
    for space, word in _WORDS.findall(text):  # (the spaces between words kept)
        glue = "" if fresh else " " * len(space)
        if not fresh and len(line) + len(glue) + len(word) > width:
            lines.append(line)
            line, glue = indent + hang, ""
        line += glue + word
        fresh = False
    lines.append(line)
    return lines


def refs_text(refs: Iterable[ImpactRef], width: int) -> str:
    """References by file, each path once, then by unit: `a/B.java:50, 51 (method B.set);
    c.py:4 (import)`, in the order of each file's first (``group_refs``). A path too long for
    ``width`` with its first line loses folders (``cut_path``), so that none wraps inside
    (commons-io 5161cc471 listed `BufferedFileChannelInputStreamTest.java:50` and `:51`, each
    with its 68-character path, over five lines)."""
    out = []
    for path, units in group_refs(refs):
        items = [
            ", ".join(str(r.line) for r in rs) + (f" ({one_line(unit)})" if unit else "")
            for unit, rs in units
        ]
        shown = one_line(path)
        first = f":{units[0][1][0].line},"
        if len(shown) + len(first) > width:
            shown = cut_path(shown, max(1, width - len(first)))
        out.append(f"{shown}:{', '.join(items)}")
    return "; ".join(out)


IMPORT, TOP_LEVEL = "import", "top level"  # (``group_refs``' names of references in no unit)
NO_UNIT = frozenset({IMPORT, TOP_LEVEL})


def group_refs(
    refs: Iterable[ImpactRef],
) -> list[tuple[str, list[tuple[str | None, list[ImpactRef]]]]]:
    """``refs`` by file (in the order of each file's first), then by unit in the order of its
    first line, each unit's lines in order; the references in no unit are told as such, an
    `import` or the `top level`, in their place (valtio a806f91 listed `deepClone.ts:9
    (function getDefaultRefSet), 1`: the import on line 1 read as inside the function)."""
    files: dict[str, dict[str | None, list[ImpactRef]]] = {}
    for r in refs:
        unit = r.unit or (IMPORT if r.kind == "import" else TOP_LEVEL)
        files.setdefault(r.path, {}).setdefault(unit, []).append(r)
    return [
        (
            path,
            sorted(
                ((unit, sorted(rs, key=lambda r: r.line)) for unit, rs in units.items()),
                key=lambda kv: kv[1][0].line,
            ),
        )
        for path, units in files.items()
    ]


def cut_paths(paths: Iterable[str], width: int) -> dict[str, str]:
    """Each path ``cut_path`` cut, told apart: paths whose cuts would read the same (a
    folder's `test_tutorial001.py` under the same first folders) keep their last folders
    instead (`tests/…/test_default/test_tutorial001.py`), and when even those clash, the
    folder where they differ (`tests/…/test_options/…/test_tutorial001.py`)."""
    out = {p: cut_path(p, width) for p in dict.fromkeys(paths)}
    seen = Counter(out.values())
    out = {p: c if seen[c] == 1 else _cut_near_name(p, width) for p, c in out.items()}
    clashing: dict[str, list[str]] = {}
    for p, c in out.items():
        clashing.setdefault(c, []).append(p)
    for group in clashing.values():
        if len(group) > 1:
            out.update((p, _cut_apart(p, group, width)) for p in group)
    return out


def _cut_apart(path: str, group: list[str], width: int) -> str:
    """``path`` in ``width`` characters keeping its name and the first folder where it differs
    from the other paths of ``group`` (`tests/…/test_options/…/test_tutorial001.py`)."""
    parts = path.split("/")
    others = [q.split("/") for q in group if q != path]
    at = next(
        (i for i in range(len(parts) - 1) if any(len(o) <= i or o[i] != parts[i] for o in others)),
        len(parts) - 1,
    )
    if at < len(parts) - 1:
        between = "/…/" if at < len(parts) - 2 else "/"
        tail = parts[at] + between + parts[-1]
        head = parts[0] + ("/…/" if at > 1 else "/") if at else ""
        for cut in (head + tail, "…/" + tail):
            if len(cut) <= width:
                return cut
        room = width - 2 - len(between) - len(parts[-1])  # (that folder cut, the name whole)
        if room >= 5:
            return "…/" + ellipsize(parts[at], room) + between + parts[-1]
    return ellipsize(path, width)


def _cut_near_name(path: str, width: int) -> str:
    """``path`` in ``width`` characters keeping its first folder and the folders nearest its
    name (`tests/…/test_default/test_tutorial001.py`; `…/test_default/test_tutorial001.py`
    when the first leaves no room for one)."""
    if len(path) <= width:
        return path
    parts = path.split("/")
    if len(parts) < 3:
        return ellipsize(path, width)
    for head in (parts[0] + "/…/", "…/"):  # (the first folder goes when it leaves none room)
        tail = parts[-1]
        for folder in reversed(parts[1:-1]):
            if len(head) + len(folder) + 1 + len(tail) > width:
                break
            tail = f"{folder}/{tail}"
        if tail != parts[-1] and len(head) + len(tail) <= width:
            return head + tail
    return ellipsize(path, width)


def sparkline(values: Sequence[float], width: int | None = None, top: float | None = None) -> str:
    """One block character per value (or per bucket of values when ``width`` is smaller)."""
    vals = [v if v > 0.0 else 0.0 for v in map(float, values)]  # max(0.0, v), NaN as 0.0
    if not vals:
        return ""
    if width is not None and 0 < width < len(vals):
        buckets = []
        for b in range(width):
            lo = b * len(vals) // width
            hi = max(lo + 1, (b + 1) * len(vals) // width)
            buckets.append(max(vals[lo:hi]))
        vals = buckets
    peak = top if top is not None else max(vals)
    if peak <= 0:
        return BLOCKS[1] * len(vals)
    # Each distinct value's block once (a review draws thousands of units of a few levels).
    blocks = {
        v: BLOCKS[min(8, max(1, round(v / peak * 8)))] if v > 0 else BLOCKS[1] for v in set(vals)
    }
    return "".join(map(blocks.__getitem__, vals))


def bar(value: float, top: float, width: int) -> str:
    """A horizontal bar in eighths of a cell."""
    if top <= 0 or value <= 0:
        return " " * width
    eighths = min(width * 8, round(value / top * width * 8))
    full, rest = divmod(eighths, 8)
    partial = "▏▎▍▌▋▊▉"[rest - 1] if rest else ""
    return ("█" * full + partial).ljust(width)


def use_color(stream: TextIO, choice: str, environ: dict[str, str] | Mapping[str, str]) -> bool:
    if choice == "always":
        return True
    if choice == "never" or ("NO_COLOR" in environ and environ["NO_COLOR"] != ""):
        return False
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def encodes(stream: object, text: str) -> bool:
    """Whether ``stream``'s encoding can write ``text`` (a Windows pipe's ANSI code page has
    no `→`; a stream without an encoding is taken to be UTF-8)."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def fmt_metric(m: Measure) -> str:
    def num(x: float | None) -> str:
        if x is None:
            return "-"
        return str(int(x)) if float(x).is_integer() else f"{x:.1f}"

    if m.before is None:
        return num(m.after)
    if m.after is None:
        return f"{num(m.before)} → -"
    return f"{num(m.before)} → {num(m.after)}"


def units_text(touched: int, moved: int) -> str:
    """How many units a change touches, and how many of them changed in their own measures
    (the unit tables' rows; the others are counted under them): `315 unit(s) touched, 1 with
    changed measures`, or `3 unit(s) changed` when they are all rows."""
    if touched == moved:
        return f"{touched} unit(s) changed"
    return f"{touched} unit(s) touched, {moved} with changed measures"


def terminal_width(stream: TextIO, environ: Mapping[str, str], default: int = 100) -> int:
    """The width to render for: COLUMNS when set, else the terminal's, else ``default``."""
    raw = environ.get("COLUMNS", "").strip()
    if raw.isdigit() and int(raw) >= 20:
        return int(raw)
    fileno = getattr(stream, "fileno", None)
    isatty = getattr(stream, "isatty", None)
    if fileno is not None and isatty is not None and isatty():
        try:
            return max(20, os.get_terminal_size(fileno()).columns)
        except (OSError, ValueError):
            return default
    return default


def unit_origin(u: UnitChange) -> tuple[str, str, str] | None:
    """Where a renamed or moved unit came from, as (words, name or path, aside): ("renamed
    from", "def load", ""), ("moved from", "a.py", ""), ("moved from", "a.py", "def load") when
    it changed its name too, ("moved within the file (from line 12)", "", ""); None for any
    other unit. The old name is its own label unless the
    unit moved to another enclosing unit (then the qualified one)."""
    if u.old_label is None or u.kind not in ("renamed", "moved"):
        return None
    if u.kind == "moved" and u.old_path == u.path:  # (its lines the same: only its place)
        return (f"moved within the file (from line {u.old.start})" if u.old else "moved", "", "")
    own_old, own_new = innermost(u.old_label), innermost(u.label)
    parents_same = u.old_label[: -len(own_old)] == u.label[: -len(own_new)]
    name = own_old if parents_same else u.old_label
    if u.kind == "renamed":
        return ("renamed from", name, "")
    return ("moved from", u.old_path or "", name if u.old_label != u.label else "")


def origin_text(u: UnitChange) -> str:
    """``unit_origin`` in plain words: `renamed from def load`, `moved from a.py (was def
    load)`; '' for any other unit."""
    found = unit_origin(u)
    if found is None:
        return ""
    words, where, aside = found
    return f"{words} {where}".rstrip() + (f" (was {aside})" if aside else "")
