"""The report's output formats by name: one registry for every door."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from reviewbot.errors import UsageError
from reviewbot.model import Report
from reviewbot.render.markdown import render_markdown
from reviewbot.render.report_json import report_json
from reviewbot.render.review_text import review_text
from reviewbot.render.sarif import sarif_json
from reviewbot.render.style import Style

__all__ = ["FORMATS", "RenderOptions", "render_report"]


class RenderOptions(NamedTuple):
    color: bool = False
    context: bool = False  # text: show each hunk's context
    width: int = 100  # text: the terminal's width


Renderer = Callable[[Report, RenderOptions], str]

FORMATS: dict[str, Renderer] = {
    "json": lambda report, _: report_json(report),
    "markdown": lambda report, _: render_markdown(report),
    "sarif": lambda report, _: sarif_json(report),
    "text": lambda report, o: review_text(report, Style(o.color), context=o.context, width=o.width),
}


def render_report(report: Report, fmt: str, options: RenderOptions | None = None) -> str:
    try:
        renderer = FORMATS[fmt]
    except KeyError:
        raise UsageError(
            f"unknown format {fmt!r}; valid formats: {', '.join(sorted(FORMATS))}"
        ) from None
    return renderer(report, options or RenderOptions())
