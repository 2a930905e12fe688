"""Terminal styling and sparklines. Colour is decided at the door and passed in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from reviewbot.model import Measure

__all__ = ["BLOCKS", "Style", "bar", "fmt_metric", "sparkline", "use_color"]

BLOCKS = " ▁▂▃▄▅▆▇█"
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


@dataclass(frozen=True)
class Style:
    color: bool = False

    def __call__(self, text: str, *names: str) -> str:
        if not self.color or not names or not text:
            return text
        codes = ";".join(_CODES[n] for n in names)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def heat(self, text: str, fraction: float) -> str:
        """Colour by intensity: low is dim, middle yellow, high red."""
        if fraction >= 0.66:
            return self(text, "red")
        if fraction >= 0.33:
            return self(text, "yellow")
        return self(text, "dim")


def sparkline(values: Sequence[float], width: int | None = None, top: float | None = None) -> str:
    """One block character per value (or per bucket of values when ``width`` is smaller)."""
    vals = [max(0.0, float(v)) for v in values]
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
    return "".join(
        BLOCKS[min(8, max(1, round(v / peak * 8)))] if v > 0 else BLOCKS[1] for v in vals
    )


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


def fmt_metric(m: Measure) -> str:
    def num(x: float | None) -> str:
        if x is None:
            return "-"
        return str(int(x)) if float(x).is_integer() else f"{x:.1f}"

    if m.before is None:
        return num(m.after)
    if m.after is None:
        return f"{num(m.before)} -> -"
    return f"{num(m.before)} -> {num(m.after)}"
