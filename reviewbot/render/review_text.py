"""The review report for a terminal."""

from __future__ import annotations

from collections import Counter

from reviewbot.model import Report, Severity, innermost
from reviewbot.render.style import Style, fmt_metric, one_line, sparkline

__all__ = ["review_text"]

SPARK_WIDTH = 24

_SEVERITY_STYLE = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def review_text(report: Report, style: Style, *, context: bool = False) -> str:
    s = report.stats
    out = [
        style("reviewbot review", "bold") + f"  {report.base} .. {report.head}",
        style(
            f"{s.files} file(s), +{s.lines_added} -{s.lines_removed}, "
            f"{s.units_changed} unit(s) changed, {report.profile} profile",
            "dim",
        ),
    ]
    if not report.files:
        out.append("no changes")
        return style.finish("\n".join(out) + "\n")
    analysed = [fs for fs in report.files if fs.language is not None]
    if analysed:
        out.append("")
        width = max(len(one_line(fs.path)) for fs in analysed)
        for fs in analysed:
            out.append(
                f"{style(one_line(fs.path).ljust(width), 'bold')}  {fs.status.value:<8} "
                f"+{fs.added} -{fs.removed}"
            )
            for w in fs.warnings:
                out.append(style(f"    note: {w}", "yellow"))
            if not fs.units:
                continue
            lw = min(48, max(len(innermost(u.label)) for u in fs.units))
            for u in fs.units:
                m = {x.name: x for x in u.metrics.measures()}
                label = innermost(u.label)[:lw].ljust(lw)
                out.append(
                    f"    {label}  {u.kind:<8}  decisions {fmt_metric(m['branches']):<8} "
                    f"nesting {fmt_metric(m['nesting']):<7} "
                    f"irregularity {fmt_metric(m['irregularity']):<10} "
                    f"{style(sparkline(u.shape, width=SPARK_WIDTH), 'cyan')}"
                )
    out.append("")
    if report.findings:
        out.append(style(f"Findings ({len(report.findings)})", "bold"))
        for f in report.findings:
            span = f"-{f.end_line}" if f.end_line > f.line else ""
            where = f"{one_line(f.path)}:{f.line}{span}"
            out.append(
                f"  {style(f.severity.value.ljust(7), _SEVERITY_STYLE[f.severity])} "
                f"{f.code}  {style(where, 'cyan')}  {f.title}"
            )
            out.append(f"    {f.message}")
            lines = f"line {f.unit.start}" + (f" or {f.line}" if f.line != f.unit.start else "")
            out.append(
                style(
                    f"    silence: add `reviewbot: ignore[{f.code}]` in a comment on {lines}", "dim"
                )
            )
        if report.truncated_findings:
            out.append(style(f"  ... and {report.truncated_findings} more (--max-findings)", "dim"))
    else:
        out.append(
            style("No findings: nothing in this change spikes the structure it touches.", "green")
        )
    for item in report.impact:
        if not item.total:
            continue
        where = ", ".join(
            f"{one_line(r.path)}:{r.line}" + (f" ({r.unit})" if r.unit else "")
            for r in item.references[:4]
        )
        more = f", … {item.total - 4} more" if item.total > 4 else ""
        out.append(
            f"  impact: {item.unit} ({item.change}) is referenced in "
            f"{item.total} place(s): {where}{more}"
        )
    for hot in report.stats.hotspots_touched or ():
        out.append(
            style(
                f"  hotspot: {one_line(hot.path)} is #{hot.rank} of the repository's "
                f"hotspots ({hot.changes} recent changes)",
                "yellow",
            )
        )
    if len(report.bundles) > 1:
        out.append(style("Suggested review order", "bold"))
        for b in report.bundles:
            spans = ", ".join(one_line(h.where) for h in b.hunks[:4])
            more = f" (+{len(b.hunks) - 4} more)" if len(b.hunks) > 4 else ""
            out.append(f"  {b.id}  {b.title}  — {b.reason}")
            out.append(style(f"      {spans}{more}", "dim"))
    skipped = [fs for fs in report.files if fs.language is None]
    if skipped:
        reasons = Counter((fs.reason or fs.status.value).split(" (")[0] for fs in skipped)
        out.append(
            style(
                f"skipped {len(skipped)}: "
                + ", ".join(f"{n} {r}" for r, n in sorted(reasons.items())),
                "dim",
            )
        )
        for fs in skipped[:10]:
            out.append(style(f"  {one_line(fs.path)}: {fs.reason or fs.status.value}", "dim"))
        if len(skipped) > 10:
            out.append(
                style(f"  ... and {len(skipped) - 10} more (--format json lists all)", "dim")
            )
    if context and report.context:
        out.append("")
        out.append(style("Context", "bold"))
        for c in report.context:
            unit = f"{c.unit.label} (lines {c.unit.start}-{c.unit.end})" if c.unit else "top level"
            spark = sparkline(c.shape, width=SPARK_WIDTH)
            where = f"{one_line(c.path)}:{c.new_start}-{c.new_end}"
            out.append(style(f"── {where}  {unit}  {spark}", "bold"))
            for band in (c.coarse, c.medium, c.fine):
                if band:
                    out.extend("    " + line.expandtabs(4) for line in band.split("\n"))
                    out.append("")
    return style.finish("\n".join(out).rstrip("\n") + "\n")
