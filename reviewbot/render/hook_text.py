"""What the hook prints: one line per finding, a compact shape of the unit, one total, how to
silence; nothing at all when there is nothing to say."""

from __future__ import annotations

from reviewbot.model import Finding, Report, Severity
from reviewbot.render.style import (
    Style,
    cut_label,
    fit_paths,
    fmt_metric,
    one_line,
    sparkline,
    wrap,
)

__all__ = ["hook_text"]

DETAIL_WIDTH = 80  # pre-commit captures the output: no terminal width to ask
_ALIGN = 32  # places lined up to at most this width
_MARK = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
_DEEP = 4  # nesting levels from which a new unit's line says how deep it goes


def _no_lone_code(lines: list[str], code: str) -> list[str]:
    """Wrapped lines whose last is not the finding's `[RB105]` alone: the word before it goes
    down with it (`…still referenced` / `[RB105]` read as two things)."""
    if len(lines) < 2 or lines[-1].strip() != f"[{code}]":
        return lines
    head, _, word = lines[-2].rstrip().rpartition(" ")
    if not head.strip():
        return lines
    indent = lines[-1][: len(lines[-1]) - len(lines[-1].lstrip())]
    return [*lines[:-2], head.rstrip(), f"{indent}{word}  [{code}]"]


def _what(f: Finding) -> str:
    m = {x.name: x for x in f.metrics.measures()}
    if "branches" not in m:  # RB105, RB106: what the repository says, not measures
        return f.title
    if f.code == "RB102":  # dense, or deep: the nesting says which when it is deep
        deep = (m["nesting"].after or 0) >= _DEEP
        nesting = f", nesting {fmt_metric(m['nesting'])}" if deep else ""
        return (
            f"new, {fmt_metric(m['branches'])} decisions{nesting} "
            f"over {fmt_metric(m['lines'])} lines"
        )
    if f.code == "RB104":
        return f"lines {fmt_metric(m['lines'])}"
    parts = [f"decisions {fmt_metric(m['branches'])}"]
    if (m["nesting"].delta or 0) != 0:
        parts.append(f"nesting {fmt_metric(m['nesting'])}")
    return ", ".join(parts)


def hook_text(
    report: Report,
    what: str,
    *,
    max_findings: int,
    show_info: bool,
    left_out: int = 0,
    color: bool = False,
    rerun: str = "reviewbot review --staged",
) -> str:
    style = Style(color)
    shown = [f for f in report.findings if show_info or f.severity != Severity.INFO]
    lines: list[str] = []
    if shown:
        sparks = {
            (u.path, u.new.start): sparkline(u.shape, width=24)
            for fs in report.files
            for u in fs.units
            if u.new is not None
        }
        # Places are lined up to the longest one up to _ALIGN characters; a longer one does
        # not push the others' columns out.
        width = min(_ALIGN, max(len(f"{one_line(f.path)}:{f.line}") for f in shown[:max_findings]))
        label_w = min(40, max(len(f.unit.label) for f in shown[:max_findings]))
        for f in shown[:max_findings]:
            where = f"{one_line(f.path)}:{f.line}".ljust(width)
            measured = f.metrics.before is not None or f.metrics.after is not None
            spark = sparks.get((f.path, f.unit.start), "")[:16] if measured else ""
            mark = f"  {style(f.severity.value[0].upper(), _MARK[f.severity])} "
            label = cut_label(f.unit.label, label_w).ljust(label_w)
            tail = f"{_what(f)}  [{f.code}]"
            plain = 4 + len(where) + 2 + label_w + 2  # the line's width before `tail`, no colour
            if plain + len(tail) + len(spark) + 2 <= DETAIL_WIDTH and spark:
                tail = f"{_what(f)}  {spark}  [{f.code}]"  # the unit's shape where it fits
            if plain + len(tail) <= DETAIL_WIDTH:
                lines.append(f"{mark}{style(where, 'cyan')}  {label}  {tail}")
            else:  # the place (and the unit) on its line, what moved under it: nothing cut
                place = where.rstrip()  # whole, however long: it says which file to open
                rest = f"{f.unit.label}  {tail}"
                if 4 + len(place) + 2 + len(f.unit.label) <= DETAIL_WIDTH:
                    lines.append(f"{mark}{style(place, 'cyan')}  {f.unit.label}")
                    rest = tail
                else:
                    lines.append(f"{mark}{style(place, 'cyan')}")
                # (under the place, at the message's indent: a hanging one read as a third)
                lines.extend(_no_lone_code(wrap(rest, DETAIL_WIDTH, "      "), f.code))
            if not measured:  # RB105, RB106: the title alone does not say where to look
                lines.extend(
                    style(line, "dim")
                    for line in wrap(
                        fit_paths(one_line(f.message), DETAIL_WIDTH - 7), DETAIL_WIDTH, "      "
                    )
                )
        if len(shown) > max_findings:
            lines.append(f"  ... and {len(shown) - max_findings} more (`{rerun}` shows all)")
        files = len({f.path for f in shown})
        head = (
            f"reviewbot: {len(shown)} finding(s) in {files} file(s) of the {what} "
            f"({report.stats.units_changed} unit(s) touched)"
        )
        lines.insert(0, style(head, "bold"))
        lines.append(
            style(
                "  silence one with a comment `reviewbot: ignore[CODE]` on the unit's first line",
                "dim",
            )
        )
        if any(not (f.metrics.before or f.metrics.after) for f in shown[:max_findings]):
            # RB105/RB106 sit where the deleted lines were: the comment goes on that line.
            lines.append(style("  (RB105, RB106: on the line the finding names)", "dim"))
    large = [fs for fs in report.files if fs.reason and fs.reason.startswith("larger than")]
    if large:  # not reviewed for its size: said (binary and generated files go unsaid)
        lines += wrap(
            f"reviewbot: {len(large)} file(s) too large to review: "
            + ", ".join(one_line(fs.path) for fs in large[:3])
            + (" …" if len(large) > 3 else "")
            + " (max_file_bytes)",
            80,
            hang="    ",
        )
    if report.index_note:  # an index exists but did not answer: say what was not checked
        lines += wrap(f"reviewbot: RB105/RB106 not checked: {report.index_note}", 80, hang="    ")
    if left_out:
        lines.append(
            f"reviewbot: time budget reached: {left_out} file(s) not reviewed "
            f"(`{rerun}` reviews them all)"
        )
    return style.finish("\n".join(lines) + "\n") if lines else ""
