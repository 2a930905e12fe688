"""The review report for a terminal: fits the width it is given (the door reads the terminal's
or COLUMNS, 100 otherwise), long names cut in the middle, units whose numbers did not move
counted instead of listed."""

from __future__ import annotations

from collections import Counter

from reviewbot.model import (
    TYPES_ONLY,
    Finding,
    HunkContext,
    Measure,
    Report,
    Severity,
    Status,
    UnitChange,
    qualified_label,
)
from reviewbot.render.style import (
    BUNDLE_PLACES,
    DIFF_LEGEND,
    Style,
    bundle_says,
    cut_labels,
    cut_path,
    cut_paths,
    diff_gutter,
    ellipsize,
    fit_paths,
    fmt_metric,
    moved_from,
    one_line,
    origin_text,
    places_text,
    quiet_tests_text,
    refs_text,
    same_edit_text,
    sparkline,
    unit_table,
    units_text,
    unlisted_text,
    wrap,
)

__all__ = ["review_text"]

SPARK_WIDTH = 16
_MARK_STYLE = {"+": "green", "-": "red", "…": "dim"}


def _arrow(m: Measure, style: Style) -> str:
    return fmt_metric(m).replace(" → ", style.arrow)


_SEVERITY_STYLE = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


_TYPED_FOLD = 3  # re-signs of types or defaults only told in one line from this many


def _wrap(text: str, width: int, indent: str, hang: str = "") -> list[str]:
    return wrap(text, max(40, width), indent, hang)


_HEADS = ("decisions", "nesting", "irregularity")
_SHORT_HEADS = ("dec", "nest", "irreg")  # where whole headings would cut a label


def _unit_rows(units: list[UnitChange], style: Style, width: int) -> list[str]:
    """A small table: `unit  change  decisions  nesting  irregularity  shape`, the numbers
    `1→9` under their heading. When the width runs out, the shape goes first, then the
    headings shrink to their numbers (`dec`, `nest`, `irreg`), then labels are cut
    (``cut_labels``)."""
    cells = []
    places: dict[str, int] = {}  # (where each starts: what tells apart labels cut alike)
    names = Counter(one_line(qualified_label(u.label)) for u in units)
    for u in units:
        m = {x.name: x for x in u.metrics.measures()}
        numbers = [_arrow(m[k], style) for k in ("branches", "nesting", "irregularity")]
        shape = sparkline(u.shape, width=SPARK_WIDTH)
        label = one_line(qualified_label(u.label))
        side = u.new or u.old
        if names[label] > 1 and side is not None:  # `@overload` stubs, redefinitions: which one
            label = f"{label} :{side.start}"
        if side is not None:
            places[label] = side.start
        cells.append((label, u.kind, numbers, shape, origin_text(u)))
    longest = max(4, max(len(c[0]) for c in cells))

    def room_for(heads: tuple[str, ...]) -> tuple[list[int], int]:
        widths = [max(len(h), *(len(c[2][k]) for c in cells)) for k, h in enumerate(heads)]
        return widths, width - 4 - 2 - 8 - sum(widths) - 2 * len(widths)

    heads = _HEADS
    widths, room = room_for(heads)
    # the sparkline only where it fits beside whole labels (or beside 24 columns of them)
    spark = room - SPARK_WIDTH - 2 >= max(24, longest)
    if not spark and longest > room:
        heads = _SHORT_HEADS
        widths, room = room_for(heads)
    label_w = max(10, min(longest, room - (SPARK_WIDTH + 2 if spark else 0)))
    cuts = cut_labels((c[0] for c in cells), label_w, places)
    top = "  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True))
    rows = [style(f"    {'unit'.ljust(label_w)}  {'change':<8}  {top}".rstrip(), "dim")]
    for label, kind, numbers, shape, origin in cells:
        parts = "  ".join(v.ljust(w) for v, w in zip(numbers, widths, strict=True))
        row = f"    {cuts[label].ljust(label_w)}  {kind:<8}  {parts}"
        if spark:
            row += f"  {style(shape, 'cyan')}"
        rows.append(row.rstrip())
        if origin:  # renamed or moved: where it came from, under its row, whole
            rows.extend(style(line, "dim") for line in _wrap(one_line(origin), width, "      "))
    return rows


def _silence_hint(f: Finding, status: Status | None) -> str:
    """Where a `reviewbot: ignore` comment silences ``f``: the unit's first line or the
    flagged one; an RB105 reads its own line only (analysis/repo_impact.py, impact.py): where
    the deleted lines were, or a moved declaration's header (its unit spans its lines)."""
    comment = f"add `reviewbot: ignore[{f.code}]` in a comment on"
    if f.code != "RB105":
        lines = f"line {f.unit.start}" + (f" or {f.line}" if f.line != f.unit.start else "")
        return f"silence: {comment} {lines}"
    if status is Status.DELETED:
        return (
            "silence: no comment can (its file is deleted): update the references, or "
            f'ignore = ["{f.code}:{f.path}"] in .reviewbot.toml'
        )
    if f.unit.start < f.unit.end:  # on a declaration moved to another file: its header
        return (
            f"silence: {comment} line {f.line}, the moved declaration's header (no other is read)"
        )
    if status is None:  # anchored on a reference outside the change (its file is deleted)
        return f"silence: {comment} line {f.line}, the reference it names (no other is read)"
    # The deleted lines have no line on the new side: the finding sits on the line now in
    # their place, and that line alone is read for the comment.
    return f"silence: {comment} line {f.line}, where the old declaration was (no other is read)"


def review_text(report: Report, style: Style, *, context: bool = False, width: int = 100) -> str:
    s = report.stats
    title = style("reviewbot review", "bold") + "  "
    span = f"{report.base} .. {report.head}"
    if len(span) <= max(20, width - 18):
        out = [title + span]
    else:  # (a full SHA's `..` and head were cut off: the head goes on a line of its own)
        out = [
            title + ellipsize(report.base, max(20, width - 18)),
            "  .. " + ellipsize(report.head, max(20, width - 5)),
        ]
    facts = [
        f"{s.files} file(s)",
        f"+{s.lines_added} -{s.lines_removed}",
        *units_text(s.units_changed, s.units_measures_changed).split(", "),
        f"{report.profile} profile",
    ]
    # Wrapped between the facts, never inside one (`…, review` / `profile` read as two).
    kept = ", ".join(f.replace(" ", "\xa0") for f in facts)
    out.extend(style(line.replace("\xa0", " "), "dim") for line in _wrap(kept, width, "", "  "))
    if not report.files:
        out.append("no changes")
        return style.finish("\n".join(out) + "\n")
    out.append("")
    if report.findings:
        out.append(style(f"Findings ({len(report.findings)})", "bold"))
        statuses = {fs.path: fs.status for fs in report.files}
        for f in report.findings:
            where = f"{one_line(f.path)}:{f.line}" + (
                f"-{f.end_line}" if f.end_line > f.line else ""
            )
            head = (
                f"  {style(f.severity.value.ljust(7), _SEVERITY_STYLE[f.severity])} "
                f"{f.code}  {style(where, 'cyan')}"
            )
            title = one_line(f.title)
            # Nothing cut: a title that does not fit goes under the place, whole; a place that
            # does not fit after the code goes on its own line (a Java path), whole too.
            if 2 + 8 + 7 + len(where) + 2 + len(title) <= width:
                out.append(f"{head}  {title}")
            elif 2 + 8 + 7 + len(where) <= width:
                out.append(head)
                out.extend(_wrap(title, width, "    "))
            else:  # (its folders cut to fit, never its file's name or lines: whole if need be)
                severity = style(f.severity.value, _SEVERITY_STYLE[f.severity])
                out.append(f"  {severity} {f.code}")
                path, lines = one_line(f.path), where[len(one_line(f.path)) :]
                room = max(40, width) - 4 - len(lines)
                if len(path.rpartition("/")[2]) + 2 <= room:
                    path = cut_path(path, room)
                out.append(f"    {style(path + lines, 'cyan')}")
                out.extend(_wrap(title, width, "    "))
            message = style.arrows(f.message)
            out.extend(_wrap(fit_paths(message, max(40, width) - 5), width, "    "))
            silence = _silence_hint(f, statuses.get(f.path))
            out.extend(style(line, "dim") for line in _wrap(silence, width, "    "))
        if report.truncated_findings:
            out.append(style(f"  ... and {report.truncated_findings} more (--max-findings)", "dim"))
    else:
        text = "No findings: nothing in this change spikes the structure it touches."
        out.extend(style(line, "green") for line in _wrap(text, width, ""))
    impacts = report.impact_shown
    typed = [i for i in impacts if i.detail == TYPES_ONLY]
    if len(typed) >= _TYPED_FOLD:  # (one re-typed overload in 9 schema classes: one line)
        impacts = tuple(i for i in impacts if i.detail != TYPES_ONLY)
    else:
        typed = []
    for item in impacts:
        if item.calls_fit:  # (no call breaks: its count, not its places)
            inside = f", {item.in_change_total} in the change" if item.in_change_total else ""
            text = (
                f"impact: {qualified_label(item.unit)} ({item.change_text}) is {item.how} in "
                f"{item.total} "
                f"place(s){inside}; its calls still fit"
            )
            out.extend(_wrap(text, width, "  ", "    "))
            continue
        outside = [r for r in item.references if not r.in_change]
        first = (outside or list(item.references))[:4]
        where = refs_text(first, max(40, width) - 6)
        more = f", … {item.total - len(first)} more" if item.total > len(first) else ""
        touched = item.total - item.outside
        inside = f", {touched} in the change" if touched else ""
        doubt = f"; {item.uncertain} uncertain, not listed" if item.uncertain else ""
        how = item.how
        if item.change in ("removed", "renamed") and item.retargeted < item.total:
            how = "still " + how
        reach = f" ({item.reached})" if item.reached else ""
        text = (
            f"impact: {qualified_label(item.unit)} ({item.change_text}) is {how} in "
            f"{item.total} place(s){inside}{reach}: {where}{more}{doubt}"
        )
        out.extend(_wrap(text, width, "  ", "    "))
    if report.impact_unchecked:  # (nothing sure to list, but references nobody could check)
        out.extend(_wrap(f"impact: {report.impact_unchecked}", width, "  ", "    "))
    if report.index_unused:  # (git grep instead, said once)
        out.extend(style(t, "dim") for t in _wrap(report.index_unused, width, "  ", "    "))
    if typed:
        typed.sort(key=lambda i: -i.total)
        listed = ", ".join(f"{one_line(qualified_label(i.unit))} ({i.total})" for i in typed[:4])
        more = f", … {len(typed) - 4} more" if len(typed) > 4 else ""
        text = (
            f"impact: {len(typed)} declarations changed only types or defaults (places "
            f"each; --format json lists them): {listed}{more}"
        )
        out.extend(_wrap(text, width, "  ", "    "))
    hot = report.stats.hotspots_touched or ()
    if len(hot) == 1:
        text = (
            f"hotspot: {fit_paths(one_line(hot[0].path), max(40, width) - 6)} is "
            f"#{hot[0].rank} of the repository's "
            f"hotspots ({hot[0].changes} recent changes)"
        )
        out.extend(style(line, "yellow") for line in _wrap(text, width, "  ", "    "))
    elif hot:  # one line for them all: they are context, not findings
        listed = ", ".join(
            f"{fit_paths(one_line(h.path), max(40, width) - 6)} #{h.rank} ({h.changes})"
            for h in hot
        )
        text = f"hotspots touched (rank, recent changes): {listed}"
        out.extend(style(line, "yellow") for line in _wrap(text, width, "  ", "    "))
    out.append("")
    table = unit_table(report.files, report.findings)
    analysed = [fs for fs, _, _, _ in table.files]
    if analysed:
        longest = max(len(one_line(fs.path)) for fs in analysed)
        path_w = min(longest, max(20, width - 24))
        # (room for the longest file name and a `x…/`, where the status still fits beside it)
        names = max(len(one_line(fs.path).rpartition("/")[2]) for fs in analysed)
        path_w = max(path_w, min(names + 3, longest, width - 18))
        cuts = cut_paths((one_line(fs.path) for fs in analysed), path_w)
        for fs, shown, counted, alike in table.files:
            path = one_line(fs.path)
            status = f"{fs.status.value:<8} +{fs.added} -{fs.removed}"
            if cuts[path].endswith(path.rpartition("/")[2]):
                out.append(f"{style(cuts[path].ljust(path_w), 'bold')}  {status}")
            else:  # a file's name is never cut: the whole path, over lines
                out.extend(style(line, "bold") for line in _wrap(path, width, "", "    "))
                out.append(f"    {status}")
            if fs.old_path is not None and fs.old_path != fs.path:
                old = one_line(fs.old_path)
                whole = f"from {old}"
                # (a long one: what changed, `from …/test/retrofit2/… (now …/test/java/…)`)
                text = whole if len(whole) <= width - 4 else moved_from(old, path)
                out.extend(style(line, "dim") for line in _wrap(text, width, "    "))
            for w in fs.warnings:
                out.extend(style(line, "yellow") for line in _wrap(f"note: {w}", width, "    "))
            if shown:
                out.extend(_unit_rows(shown, style, width))
            if counted:  # (a test file's new tests: their count, not 50 rows)
                text = f"({quiet_tests_text(counted)}: --format json lists them)"
                out.extend(style(line, "dim") for line in _wrap(text, width, "    "))
            for count, edit in alike:  # (48 tests that each gained `t.Parallel()`: one line)
                text = f"({one_line(same_edit_text(count, edit))})"
                out.extend(style(line, "dim") for line in _wrap(text, width, "    "))
        if table.quiet:  # (with no row above, no "more", no "members above": tqdm d774884)
            said = (
                f"({table.quiet} more unit(s) touched: unchanged, or only in members above)"
                if any(shown or alike for _, shown, _, alike in table.files)
                else f"({table.quiet} unit(s) touched, none with changed measures)"
            )
            out.append(style(said, "dim"))
        if table.unlisted:
            said = f"({unlisted_text(table.unlisted).replace('`', '')})"
            out.extend(style(line, "dim") for line in _wrap(said, width, ""))
    # (one bundle too when it says something: `re-signs truncatingFormat`)
    if len(report.bundles) > 1 or (report.bundles and bundle_says(report.bundles[0])):
        out.append(style("Suggested review order", "bold"))
        for b in report.bundles:
            spans_of = b.hunks[:BUNDLE_PLACES]
            more = (
                f" (+{len(b.hunks) - len(spans_of)} more)" if len(b.hunks) > len(spans_of) else ""
            )
            spans = places_text([(h.path, h.where) for h in spans_of], max(40, width) - 6)
            title = _fit_names(fit_paths(one_line(b.title), max(40, width) - 8), width - 6)
            out.extend(_wrap(f"{b.id}  {title}  — {b.reason}", width, "  ", "    "))
            out.extend(style(line, "dim") for line in _wrap(f"{spans}{more}", width, "      "))
    skipped = [fs for fs in report.files if fs.language is None]
    if skipped:
        out.append(style(f"skipped {len(skipped)} file(s), not analysed:", "dim"))
        by_reason: dict[str, list[str]] = {}
        for fs in skipped:
            by_reason.setdefault(fs.reason or fs.status.value, []).append(one_line(fs.path))
        for reason, paths in by_reason.items():
            listed = ", ".join(paths[:10])
            more = (
                f", … {len(paths) - 10} more (--format json lists all)" if len(paths) > 10 else ""
            )
            text = f"{one_line(reason)}: {listed}{more}"
            out.extend(style(line, "dim") for line in _wrap(text, width, "  ", "    "))
    if context and report.context:
        out.append("")
        out.append(style("Context", "bold"))
        out.extend(
            style(line, "dim")
            for line in _wrap(f"(sections, boundaries, then the lines: {DIFF_LEGEND})", width, "  ")
        )
        for c in report.context:
            out.append(style(_context_heading(c, width), "bold"))
            for band in (c.coarse, c.medium):
                if band:
                    out.extend(
                        ellipsize("    " + line.expandtabs(4), width, end=True)
                        for line in band.split("\n")
                    )
                    out.append("")
            if c.rows:
                for mark, line in diff_gutter(c):
                    text = ellipsize("    " + line, width, end=True)
                    out.append(style(text, _MARK_STYLE[mark]) if mark != " " else text)
                out.append("")
    return style.finish("\n".join(out).rstrip("\n") + "\n")


def _context_heading(c: HunkContext, width: int) -> str:
    """`── path:12-20  def f (lines 10-30)` in ``width`` columns: the folders cut first, then
    the unit's label (its own name kept, and its lines); the file's name and the hunk's lines
    never (commons-lang 1d6ef29ce: `── src/main/java/org/apache/commons/lang…ava:269-286`)."""
    path = one_line(c.path)
    rest = one_line(c.where)[len(c.path) :] if c.where.startswith(c.path) else ""
    side = "old lines" if c.removal else "lines"
    label = one_line(c.unit.label) if c.unit else "top level"
    lines = f" ({side} {c.unit.start}-{c.unit.end})" if c.unit else ""
    head = f"── {path}{rest}  {label}{lines}"
    if len(head) <= width:
        return head
    name = path.rpartition("/")[2]
    least = f"…/{name}" if "/" in path else path
    room = width - len(f"── {rest}  {label}{lines}")
    if room >= len(least):
        short = cut_path(path, room) if room > len(least) else least
        return f"── {short}{rest}  {label}{lines}"
    room = width - len(f"── {least}{rest}  {lines}")
    if room >= 12:
        cut = cut_labels([label], room)[label]
        return f"── {least}{rest}  {cut}{lines}"
    return f"── {least}{rest}"


def _fit_names(title: str, room: int) -> str:
    """A bundle's title with a qualified name too long for a line of ``room`` columns cut to
    its last parts (packaging 0bfc3cea: `TestOperatorEvaluation.test_arbitrary_equality_on_
    non_version_key_is_undefined` stood alone on an 84-column line): `…Class.method` or, when
    even that is too long, `…method` (a word is never broken by the wrap)."""
    words = title.split(" ")
    for k, word in enumerate(words):
        if len(word) <= room or "." not in word:
            continue
        parts = word.split(".")
        while len(parts) > 1 and len("…" + ".".join(parts)) > room:
            parts.pop(0)
        words[k] = "…" + ".".join(parts)
    return " ".join(words)
