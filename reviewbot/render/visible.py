"""Repository text made harmless for a terminal: control characters and bidirectional
overrides shown as escapes. Its own module, importing nothing of reviewbot's, so the index's
queries can use it without loading the report model (a few milliseconds of each query)."""

from __future__ import annotations

__all__ = ["one_line", "visible"]

# C0 and C1 controls (but newline), DEL, and the bidirectional overrides ("Trojan source")
# are printed as escapes. Renderers expand the tabs of code lines before this.
_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)] if c != 10}
_CONTROL[9] = "\\t"
_CONTROL.update({c: f"\\u{c:04x}" for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]})


def one_line(text: str) -> str:
    """Repository text shown inside a line (a file name): a newline it holds is shown as
    ``\\n``, so it cannot start a line of its own, and its other control characters as their
    escapes now (finish() would too, but after the columns were lined up on the raw text)."""
    return visible(text.replace("\n", "\\n"))


def visible(text: str) -> str:
    """Control characters shown as escapes (``\\x1b``), so printing the text is harmless."""
    return text.translate(_CONTROL)
