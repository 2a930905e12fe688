"""The report's output formats by name: one registry for every door."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from reviewbot.errors import UsageError
from reviewbot.model import ContextPack, Report
from reviewbot.render.prompt import prompt_text
from reviewbot.render.report_json import report_json
from reviewbot.render.review_text import review_text
from reviewbot.render.sarif import sarif_json
from reviewbot.render.style import Style

__all__ = ["FORMATS", "PACK_FORMATS", "RenderOptions", "render_pack", "render_report"]


class RenderOptions(NamedTuple):
    color: bool = False
    context: bool = False  # text: show each hunk's context
    width: int = 100  # text: the terminal's width
    ascii_arrows: bool = False  # text: the stream cannot encode `→`, so `->` (`encodes`)


Renderer = Callable[[Report, RenderOptions], str]


def _markdown(report: Report) -> str:
    # Lazy: the Markdown renderer's templates need jinja2 (~60 ms to import with the module),
    # which the other formats do without.
    from reviewbot.render.markdown import render_markdown

    return render_markdown(report)


FORMATS: dict[str, Renderer] = {
    "json": lambda report, _: report_json(report),
    "markdown": lambda report, _: _markdown(report),
    "sarif": lambda report, _: sarif_json(report),
    "text": lambda report, o: review_text(
        report, Style(o.color, "->" if o.ascii_arrows else "→"), context=o.context, width=o.width
    ),
}


# Formats of the context pack (app/context_pack.py), the review's view for a model.
PACK_FORMATS: dict[str, Callable[[ContextPack], str]] = {"prompt": prompt_text}


def _unknown(fmt: str) -> UsageError:
    valid = ", ".join(sorted([*FORMATS, *PACK_FORMATS]))
    return UsageError(f"unknown format {fmt!r}; valid formats: {valid}")


def render_pack(pack: ContextPack, fmt: str = "prompt") -> str:
    try:
        renderer = PACK_FORMATS[fmt]
    except KeyError:
        raise _unknown(fmt) from None
    return renderer(pack)


def render_report(report: Report, fmt: str, options: RenderOptions | None = None) -> str:
    try:
        renderer = FORMATS[fmt]
    except KeyError:
        if fmt in PACK_FORMATS:
            raise UsageError(f"format {fmt!r} renders a context pack, not a report") from None
        raise _unknown(fmt) from None
    return renderer(report, options or RenderOptions())
