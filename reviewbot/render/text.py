"""Text output for people: aligned columns, optional colour, sparklines where they help."""

from __future__ import annotations

from collections import Counter

from reviewbot.analysis.hotspots import Hotspots
from reviewbot.analysis.inspection import (
    ContextResult,
    FileResult,
    PositionsResult,
    irregular_lines,
)
from reviewbot.engine import FileIndex
from reviewbot.engine.context import one_based_markers
from reviewbot.engine.signal import js_strip
from reviewbot.model import qualified_label
from reviewbot.render.style import Style, bar, cut_labels, cut_paths, one_line, sparkline

__all__ = ["context_text", "entropy_text", "heatmap_text", "hotspots_text", "positions_text"]

MAX_CODE = 100


def _clip(text: str, width: int = MAX_CODE) -> str:
    text = text.rstrip("\r").expandtabs(4)
    return text if len(text) <= width else text[: width - 1] + "…"


def _warnings(warnings: tuple[str, ...] | list[str], style: Style, path: str = "") -> list[str]:
    prefix = f"{path}: " if path else ""
    return [style(f"note: {prefix}{w}", "yellow") for w in warnings]


def positions_text(result: PositionsResult, style: Style) -> str:
    out: list[str] = []
    many = len(result.files) > 1
    if many:
        out.append(
            style(
                f"Most important positions across {len(result.files)} files "
                f"({result.profile} profile)",
                "bold",
            )
        )
        width = max((len(f"{path}:{p.line + 1}") for path, p in result.top), default=10)
        out.append(style(f"  {'location'.ljust(width)}  scale    coef  label", "dim"))
        for path, p in result.top:
            loc = f"{path}:{p.line + 1}"
            out.append(
                f"  {style(loc.ljust(width), 'cyan')}  {p.scale:>5}  {p.coefficient:>6.3f}"
                f"  {_clip(p.label, 70)}"
            )
    for f in result.files:
        if many:
            continue
        out.append(
            style(f"{f.path}", "bold")
            + style(f"  ({f.language}, {f.lines} lines, {result.profile} profile)", "dim")
        )
        out.extend(_warnings(f.warnings, style))
        if not f.positions:
            out.append("  no important positions" + (" (empty file)" if not f.lines else ""))
            continue
        lw = max(4, len(str(max(p.line + 1 for p in f.positions))))
        out.append(style(f"  {'line'.rjust(lw)}  scale    coef  label", "dim"))
        for p in f.positions:
            out.append(
                f"  {style(str(p.line + 1).rjust(lw), 'cyan')}  {p.scale:>5}  "
                f"{p.coefficient:>6.3f}  {_clip(p.label, 80)}"
            )
    if many:
        for f in result.files:
            out.extend(_warnings(f.warnings, style, f.path))
    if result.skipped:
        reasons = Counter(s.reason.split(" (")[0] for s in result.skipped)
        summary = ", ".join(f"{n} {r}" for r, n in sorted(reasons.items()))
        out.append(style(f"skipped {len(result.skipped)}: {summary}", "dim"))
        for s in result.skipped[:20]:
            out.append(style(f"  {s.path}: {s.reason}", "dim"))
        if len(result.skipped) > 20:
            out.append(
                style(f"  ... and {len(result.skipped) - 20} more (--format json lists all)", "dim")
            )
    if not result.files and not result.skipped:
        out.append("no files to analyse")
    return style.finish("\n".join(out) + "\n")


def context_text(result: ContextResult, style: Style) -> str:
    c = result.context
    index = result.index
    out = _file_header(
        f"{result.path}:{c.center + 1}", index, result.profile, result.warnings, style
    )
    if index.line_count == 0:
        return style.finish("\n".join(out) + "\n")
    if c.unit is not None:
        out.append(
            f"unit    {style(c.unit.label, 'cyan')}  lines {c.unit.start + 1}-{c.unit.end + 1}"
        )
    else:
        out.append("unit    (top level)")
    for name, band in (("coarse", c.coarse), ("medium", c.medium)):
        out.append(style(f"── {name}  lines {band.start + 1}-{band.end + 1}", "bold"))
        for line in band.content.split("\n"):
            out.append("  " + _one_based(line))
    out.append(style(f"── fine  lines {c.fine.start + 1}-{c.fine.end + 1}", "bold"))
    width = len(str(max([c.fine.end + 1, *(p.line + 1 for p in c.peaks)])))
    for offset, line in enumerate(c.fine.content.split("\n")):
        n = c.fine.start + offset
        mark = "▶" if n == c.center else "│"
        num = str(n + 1).rjust(width)
        text = f"  {num} {mark} {_clip(line)}"
        out.append(style(text, "bold") if n == c.center else text)
    if c.peaks:
        out.append(style("── strongest positions nearby", "bold"))
        for p in c.peaks:
            out.append(
                f"  {str(p.line + 1).rjust(width)}  scale {p.scale:>3}  "
                f"{p.coefficient:>6.3f}  {_clip(p.label, 70)}"
            )
    return style.finish("\n".join(out) + "\n")


def _one_based(line: str) -> str:
    return _clip(one_based_markers(line), 96)


def hotspots_text(found: Hotspots, style: Style, width: int = 100) -> str:
    """The ranked files, each with its top units, within ``width`` columns (the door gives the
    terminal's, as for `review`): paths keep their file names and labels their own names
    (``cut_paths``, ``cut_labels``); the bar goes first when the width runs out."""
    if not found.files:
        return "no history to rank (no commits touch these paths)\n"
    out = [
        style(f"Hotspots: change frequency x irregularity, last {found.commits} commit(s)", "bold")
    ]
    numbers = 2 + 7 + 2 + 12 + 2 + 6  # changes, irregularity and score with their gaps
    longest = max(len(one_line(f.path)) for f in found.files)
    bar_w = 14 if 6 + longest + numbers + 14 <= width else 0  # the bar only where it fits
    path_w = max(10, min(longest, width - 6 - numbers - bar_w))
    top = max(f.score for f in found.files) or 1.0
    out.append(style(f"  #   {'file'.ljust(path_w)}  changes  irregularity   score", "dim"))
    cuts = cut_paths((one_line(f.path) for f in found.files), path_w)
    for rank, f in enumerate(found.files, 1):
        row = (
            f"  {rank:<3} {style(cuts[one_line(f.path)].ljust(path_w), 'cyan')}  "
            f"{f.changes:>7}  {f.irregularity:>12.0f}  {f.score:>6.0f}"
        )
        if bar_w:
            row += f"  {style(bar(f.score, top, 12), 'yellow')}"
        out.append(row)
        units = f.units[:5]
        facts = [
            f"lines {u.start}-{u.end}: {u.commits} commit(s) x {u.irregularity:.0f} bits"
            for u in units
        ]
        labels = [one_line(qualified_label(u.label)) for u in units]
        if not units:
            continue
        longest = max(map(len, labels))
        room = width - 8 - 2 - max(map(len, facts))
        label_w = min(longest, room)
        under = room < min(24, longest)  # too narrow to share a line: the facts go under it
        named = cut_labels(labels, max(10, width - 8) if under else label_w)
        for label, fact in zip(labels, facts, strict=True):
            if under:
                out.append(style(f"        {named[label]}", "dim"))
                out.append(style(f"          {fact}", "dim"))
            else:
                out.append(style(f"        {named[label].ljust(label_w)}  {fact}", "dim"))
    return style.finish("\n".join(out) + "\n")


def _file_header(
    path: str, index: FileIndex, profile: str, warnings: tuple[str, ...], style: Style
) -> list[str]:
    facts = f"  ({index.language.name}, {index.line_count} lines, {profile} profile)"
    return [style(path, "bold") + style(facts, "dim"), *_warnings(warnings, style)]


def entropy_text(result: FileResult, style: Style) -> str:
    e = result.index.entropy
    index = result.index
    out = _file_header(result.path, index, result.profile, result.warnings, style)
    if not e.bands or index.line_count == 0:
        out.append("empty file: no entropy bands")
        return style.finish("\n".join(out) + "\n")
    top = max(b.cost.bits for b in e.bands)
    out.append(style("  scale  bit cost   k  predictor  sparse  groups", "dim"))
    for b in e.bands:
        out.append(
            f"  {b.scale:>5}  {b.cost.bits:>8}  {b.cost.rice_k:>2}  {b.cost.predictor:<9}  "
            f"{'yes' if b.cost.sparse else 'no':<6}  {b.cost.groups:>6}  "
            f"{style(bar(b.cost.bits, top, 20), 'cyan')}"
        )
    out.append(f"  total {e.total} bits, mean {e.mean:.1f} per scale")
    return style.finish("\n".join(out) + "\n")


def heatmap_text(result: FileResult, style: Style, top_n: int = 10, full: bool = True) -> str:
    h = result.index.heatmap
    index = result.index
    out = _file_header(result.path, index, result.profile, result.warnings, style)
    if index.line_count == 0:
        out.append("empty file: no heatmap")
        return style.finish("\n".join(out) + "\n")
    values = h.per_line
    peak = float(values.max()) if values.size else 0.0
    width = len(str(index.line_count))
    out.append(
        f"irregularity  {sparkline(values.tolist(), width=60)}  "
        f"(total {h.total} bits over {len(h.levels)} Haar levels)"
    )
    if full:
        for i, line in enumerate(index.lines):
            v = float(values[i])
            frac = v / peak if peak > 0 else 0.0
            gutter = style.heat(bar(v, peak, 8), frac)
            out.append(f"{str(i + 1).rjust(width)} {gutter} {v:6.3f} │ {_clip(line)}")
    order = irregular_lines(index, top_n)
    out.append(style(f"── most irregular lines of code (top {len(order)})", "bold"))
    for i in order:
        text = js_strip(index.lines[int(i)])
        out.append(f"  {str(int(i) + 1).rjust(width)}  {float(values[i]):6.3f}  {_clip(text, 80)}")
    return style.finish("\n".join(out) + "\n")
