"""Markdown through Jinja2 (the one module that imports jinja2). Templates live in the
repository's templates/ folder and ship inside the wheel as ``reviewbot.templates``."""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any
from urllib.parse import quote

import jinja2

from reviewbot import __version__
from reviewbot.codes import CODES, describe
from reviewbot.model import (
    Bundle,
    Finding,
    HunkContext,
    ImpactRef,
    MetricsChange,
    Report,
    Severity,
    UnitChange,
    innermost,
    qualified_label,
)
from reviewbot.render.style import (
    BUNDLE_PLACES,
    MAX_UNIT_ROWS,
    NO_UNIT,
    bundle_says,
    diff_gutter,
    fmt_metric,
    group_refs,
    place_groups,
    quiet_tests_text,
    same_edit_text,
    sparkline,
    unit_origin,
    unit_table,
    units_text,
    unlisted_text,
)

__all__ = [
    "MAX_BODY",
    "SUMMARY_MARKER",
    "cell_code",
    "change_cell",
    "code_block",
    "environment",
    "fingerprint_marker",
    "html_text",
    "inline_body",
    "inline_code",
    "md_escape",
    "ref_places",
    "render_markdown",
    "summary_body",
    "url",
]

SUMMARY_MARKER = "<!-- reviewbot:summary -->"
MAX_BODY = 65_536  # GitHub's limit for a comment body
SPARK_WIDTH = 24

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~$])")  # inline markup and math; newlines are flat
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
# What GitHub links by itself in prose: `www.x`/`https://x` (a link chosen by a pull request's
# author, in the bot's voice), `#12`/`GH-12`/`owner/repo#12` (a "mentioned this" entry on
# someone's issue each time the comment is written); a zero-width space defuses each.
_AUTOLINK = re.compile(r"(?i)\b(www(?=\.)|https?(?=:)|ftp(?=:)|gh(?=-\d))")
_REFERENCE = re.compile(r"#(?=\d)")
_MARKER = re.compile(r"<!--|-->")  # inside code: defused so no hidden marker can form
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_BLOCK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # keeps \t \n
# A name's bytes that are not UTF-8 reach us as lone surrogates (surrogateescape): no Markdown
# or HTML can hold them (GitHub's renderer and API refuse them), so they show as U+FFFD.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# Bidirectional overrides and isolates reorder what a reader sees ("Trojan source"; a file
# named `gnp.\u202ecod.py` reads "gnp.yp.doc"): shown as their escapes, as the terminal does.
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def md_escape(value: object) -> str:
    """Text safe inside Markdown prose or a table cell: no markup or math, no HTML, no
    @-mentions, no links or issue references GitHub would make of it."""
    text = _flat(value)
    # HTML first (so `<!--` can never open a comment or fake our hidden markers), then
    # Markdown punctuation, then @-mentions, autolinks and references.
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    text = _AUTOLINK.sub("\\1\u200b", text)
    text = _REFERENCE.sub("#\u200b", text)
    return _MENTION.sub("@\u200b", text)


def _flat(value: object) -> str:
    """One line, no control characters (a name may hold a tab, a newline or an escape)."""
    return _CONTROL.sub(" ", _text(value))


def _text(value: object) -> str:
    """The value as text that can be encoded: bytes that were not UTF-8 become U+FFFD."""
    text = _SURROGATE.sub("\ufffd", str(value))
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def inline_code(value: object) -> str:
    """An inline code span its content cannot close; nothing inside it is markup, and no
    hidden marker can form in it. For prose: inside a table use :func:`cell_code`."""
    text = _defuse(_flat(value))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def md_spans(value: object) -> str:
    """Prose whose backtick spans (a command in our own notes: "run `reviewbot index`") become
    code spans; everything else escaped as :func:`md_escape` does. Each part is escaped on its
    own, so input cannot smuggle markup through a span either."""
    parts = _flat(value).split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: no spans, all text
        return md_escape(value)
    return "".join(md_escape(p) if i % 2 == 0 else inline_code(p) for i, p in enumerate(parts))


def cell_code(value: object) -> str:
    """An inline code span inside a table cell: GFM splits cells on a pipe even inside code,
    unless it is escaped (and then shows it unescaped)."""
    return inline_code(value).replace("|", "\\|")


def html_text(value: object) -> str:
    """Text inside raw HTML (a ``<summary>``): GitHub does not read Markdown there, so only
    HTML is escaped (a Markdown escape would show); @-mentions, autolinks and references
    are defused (GitHub makes them in raw HTML's text too)."""
    text = html.escape(_flat(value), quote=True)
    text = _AUTOLINK.sub("\\1\u200b", text)
    text = _REFERENCE.sub("#\u200b", text)
    return _MENTION.sub("@\u200b", text)


def url(base: str, path: str, line: int, end: int) -> str:
    """A link to lines of a file: the path percent-encoded, so no name can end the link,
    open HTML or mention anyone."""
    anchor = f"#L{line}" + (f"-L{end}" if end > line else "")
    return f"{base}/{quote(_path_bytes(path), safe='/')}{anchor}"


def _path_bytes(path: str) -> bytes:
    """A path's own bytes (a name that is not UTF-8 keeps them, so its link still works)."""
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no byte stands for
        return _text(path).encode("utf-8")


def _defuse(text: str) -> str:
    return _MARKER.sub(lambda m: m.group(0).replace("-", "\u2010"), text)


def code_block(value: object, lang: str = "") -> str:
    """A fenced block that its content cannot close (the fence outruns any backtick run)."""
    text = _CONTROL_BLOCK.sub(" ", _text(value))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    text = _defuse(text)
    return f"{fence}{lang}\n{text}\n{fence}"


def _template_source(name: str) -> str | None:
    """Templates from the ``reviewbot.templates`` package (the repository's templates/)."""
    item = resources.files("reviewbot.templates").joinpath(name)
    return item.read_text(encoding="utf-8") if item.is_file() else None


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template_source),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown, not HTML: escaping is explicit through the filters below
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["code"] = code_block
    env.filters["ic"] = inline_code
    env.filters["md_spans"] = md_spans
    env.filters["cell_code"] = cell_code
    env.filters["h"] = html_text
    env.filters["metric"] = fmt_metric
    env.filters["spark"] = lambda values: sparkline(values, width=SPARK_WIDTH)
    env.filters["changes"] = _changes
    env.filters["qualified"] = qualified_label
    env.filters["change"] = change_cell
    env.filters["gutter"] = gutter
    env.filters["places"] = bundle_places
    env.globals["units_text"] = units_text
    env.globals["ref_places"] = ref_places
    env.globals["bundle_says"] = bundle_says
    return env


def ref_places(
    refs: Sequence[ImpactRef], link: Callable[[str, int, int], str] | None = None
) -> str:
    """An impact's references by file, each path once, then by unit (as the text lists them):
    `` `a/B.java:50`, 51 in method B.set; `c.py:4` (in the change)``; with ``link``, each line a
    link to itself (`[a/B.java:50](…), [51](…)`)."""
    files = []
    for path, units in group_refs(refs):
        items: list[str] = []
        for unit, rs in units:
            lines: list[str] = []
            for r in rs:
                text = f"{path}:{r.line}" if not items and not lines else str(r.line)
                if link is not None:
                    shown = f"[{md_escape(text)}]({link(r.path, r.line, r.line)})"
                else:
                    shown = inline_code(text) if text != str(r.line) else text
                lines.append(shown + (" (in the change)" if r.in_change else ""))
            where = f" ({unit})" if unit in NO_UNIT else f" in {md_escape(unit)}"
            items.append(", ".join(lines) + (where if unit else ""))
        files.append(", ".join(items))
    return "; ".join(files)


def render_markdown(
    report: Report, template: str = "review.md.j2", *, limit: int = MAX_BODY, **extra: Any
) -> str:
    """The report as Markdown, within ``limit`` characters (GitHub's comment limit): the hunk
    context goes first, then units, then a cut with a note."""
    env = environment()
    quiet = sum(1 for fs in report.files for u in fs.units if not u.noteworthy)

    def attempt(context: bool, units_max: int) -> Callable[[bool], str]:
        units, units_left = unit_rows(report, units_max)

        def render(truncated: bool) -> str:
            return str(
                env.get_template(template).render(
                    report=report,
                    codes=describe(),
                    contexts=list(report.context) if context else [],
                    units=units,
                    units_left=units_left,
                    units_left_text=unlisted_text(units_left, report.base, report.head),
                    quiet_units=quiet,
                    truncated=truncated,
                    **extra,
                )
            )

        return render

    return _fit(
        [attempt(True, MAX_UNIT_ROWS), attempt(False, MAX_UNIT_ROWS), attempt(False, 40)], limit
    )


def unit_rows(
    report: Report, limit: int = MAX_UNIT_ROWS
) -> tuple[list[tuple[str, UnitChange | None, str]], int]:
    """The unit tables' rows, capped as the text's (``unit_table``): (path, unit, its label)
    for a unit listed, (path, None, what) for a test file's units counted instead
    (``quiet_tests``); and how many units the cap left out."""
    table = unit_table(report.files, report.findings, limit)
    rows: list[tuple[str, UnitChange | None, str]] = []
    for fs, shown, counted, alike in table.files:
        # (two rows of one label, Java overloads, `@overload` stubs: which one, as in text)
        twice = Counter(u.label for u in shown)
        rows.extend(  # (`def Box.size`, as the text and the impact name it)
            (
                fs.path,
                u,
                qualified_label(u.label) + (f" :{side.start}" if twice[u.label] > 1 else ""),
            )
            for u in shown
            if (side := u.new or u.old) is not None
        )
        if counted:
            rows.append((fs.path, None, quiet_tests_text(counted)))
        rows.extend((fs.path, None, same_edit_text(n, edit)) for n, edit in alike)
    return rows, table.unlisted


_NAMES = {"branches": "decisions"}


def change_cell(u: UnitChange) -> str:
    """A unit's change for a table cell: `modified`, or `renamed from` / `moved from` with the
    old name or file in code."""
    found = unit_origin(u)
    if found is None:
        return md_escape(u.kind)
    words, where, aside = found
    if not where:
        return md_escape(words)
    return f"{words} {cell_code(where)}" + (f" (was {cell_code(aside)})" if aside else "")


def _changes(metrics: MetricsChange) -> str:
    parts = []
    for m in metrics.measures():
        name = _NAMES.get(m.name, m.name)
        if m.after is None:
            continue
        if m.before is None:
            parts.append(f"{name} {_n(m.after)}")
        elif m.before != m.after:
            parts.append(f"{name} {_n(m.before)} → {_n(m.after)}")
    return ", ".join(parts) or "no change in its measures"


def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def bundle_places(bundle: Bundle) -> str:
    """A bundle's places as the text lists them: grouped by file, in code, the first
    ``BUNDLE_PLACES`` hunks and the others counted (`a/b.py:12-20, 31-40`; `c.py:3 (removed)`
    (+2 more)); commons-lang ae85262f0 repeated `src/main/java/…/StringUtils.java` for each of
    four hunks and cut the rest to `…`."""
    shown = bundle.hunks[:BUNDLE_PLACES]
    groups = place_groups([(h.path, h.where) for h in shown])
    text = "; ".join(
        inline_code(path + (":" + ", ".join(rests) if rests[0] else "")) for path, rests in groups
    )
    more = len(bundle.hunks) - len(shown)
    return text + (f" (+{more} more)" if more else "")


def gutter(context: HunkContext) -> str:
    """The fine band as a diff-style block: line numbers, `+` added, `-` removed."""
    return "\n".join(line for _, line in diff_gutter(context))


def fingerprint_marker(fingerprint: str, version: str) -> str:
    return f"<!-- reviewbot:fp={fingerprint};v={version} -->"


def inline_body(f: Finding) -> str:
    """The inline comment: no line numbers in it, so a rebase that only moves lines changes
    nothing. Its version hash covers the visible text."""
    entry = CODES.get(f.code)
    text: str = (
        environment()
        .get_template("inline.md.j2")
        .render(f=f, hint=entry.hint if entry else None, marker="")
    )
    version = hashlib.sha256(text.encode()).hexdigest()[:12]
    return text.rstrip("\n") + "\n" + fingerprint_marker(f.fingerprint, version) + "\n"


def _order(report: Report, limit: int) -> list[Bundle]:
    """The review order: the bundles, or, without them, the files with findings first."""
    if report.bundles:
        return list(report.bundles[:limit])
    weight: dict[str, int] = {}
    for f in report.findings:
        weight[f.path] = weight.get(f.path, 0) + 3 ** (f.severity.rank + 1)
    changed = [fs for fs in report.files if fs.units]
    changed.sort(key=lambda fs: (-weight.get(fs.path, 0), fs.path))
    return [
        Bundle(
            f"B{k}",
            fs.path,
            ", ".join(innermost(u.label) for u in fs.units[:5])
            + (" …" if len(fs.units) > 5 else ""),
            (),
        )
        for k, fs in enumerate(changed[:limit], 1)
    ]


def _ordinal(n: int) -> str:
    """`2nd`, `3rd`, `11th`, `21st`."""
    last = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{last}"


def _start(report: Report, order: Sequence[Bundle]) -> str:
    """Where the summary says to start: the first bundle holding a finding to look at, and
    its place when bundles it builds on come before it (`def Command.get_params (3rd in the
    review order, after what it uses)`; no `#3`, which GitHub links to an issue). click
    2c8cd3ac~35 said "start with class _SourceVarsDict", a bundle with no finding, defining
    what the first RB101's uses."""
    if not order:
        return ""
    serious = [f for f in report.findings if f.severity.rank >= Severity.WARNING.rank]
    for k, b in enumerate(report.bundles, 1):
        if any(
            f.path == h.path and h.new_start <= f.line <= max(h.new_end, h.new_start)
            for f in serious
            for h in b.hunks
        ):
            return b.title + (
                f" ({_ordinal(k)} in the review order, after what it uses)" if k > 1 else ""
            )
    return order[0].title


def _fit(attempts: Sequence[Callable[[bool], str]], limit: int) -> str:
    """The first rendering that fits ``limit`` characters; the last one cut at a line with a
    note. Every Markdown output goes through this: GitHub takes at most 65,536."""
    text = ""
    for index, attempt in enumerate(attempts):
        text = attempt(index > 0)
        if len(text) <= limit:
            return text
    note = "\n\n_Cut to fit GitHub's size limit: `--format json` has the whole report._\n"
    cut = text[: max(0, limit - len(note) - 1)]
    cut = cut[: cut.rfind("\n")] if "\n" in cut else cut
    # A cut inside a fenced block or a <details> would swallow the note: close them.
    if cut.count("```") % 2:
        cut += "\n```"
    if cut.count("<details>") > cut.count("</details>"):
        cut += "\n\n</details>"
    return cut + note


def summary_body(
    report: Report,
    *,
    blob_base: str,
    notes: Sequence[str] = (),
    limit: int = MAX_BODY,
) -> str:
    """The pull request's summary comment: a verdict, the findings, the review order and the
    impact on the first screen; units and skipped files folded. Shortened step by step until
    it fits ``limit`` characters. ``blob_base`` is the URL of the head commit's files."""

    def link(path: str, line: int, end: int) -> str:
        return url(blob_base, path, line, end)

    quiet = sum(1 for fs in report.files for u in fs.units if not u.noteworthy)
    skipped = [fs for fs in report.files if fs.language is None]
    template = environment().get_template("summary.md.j2")

    def attempt(units_max: int, order_max: int) -> Callable[[bool], str]:
        units, units_left = unit_rows(report, units_max) if units_max else ([], 0)

        def render(truncated: bool) -> str:
            order = _order(report, order_max)
            return str(
                template.render(
                    marker=SUMMARY_MARKER,
                    report=report,
                    notes=list(notes),
                    order=order,
                    start=_start(report, order),
                    order_left=max(0, len(report.bundles) - order_max),
                    units=units,
                    units_left=units_left,
                    units_left_text=unlisted_text(units_left, report.base, report.head),
                    shown_units=sum(1 for fs in report.files for u in fs.units if u.noteworthy),
                    quiet_units=quiet,
                    skipped=skipped[:50],
                    truncated=truncated,
                    link=link,
                    version=__version__,
                )
            )

        return render

    return _fit([attempt(MAX_UNIT_ROWS, 15), attempt(30, 10), attempt(10, 5), attempt(0, 3)], limit)
