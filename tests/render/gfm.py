"""Rendering Markdown the way GitHub does (cmark-gfm through cmarkgfm, raw HTML kept so that
any that slips through is seen) and checking its structure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

from reviewbot.render.markdown import SUMMARY_MARKER

MAX_COMMENT = 65_536
# The elements reviewbot's own Markdown produces; anything else came from the input.
OURS = frozenset(
    "p h2 h3 h4 table thead tbody tr th td code pre a strong em ul ol li details summary sub "
    "blockquote br hr del span".split()
)
_MENTION = re.compile(r"(?<![\w.`/])@[A-Za-z0-9](?:[A-Za-z0-9-]*)")
_FP = re.compile(r"reviewbot:fp=[0-9a-f]+;v=[0-9a-f]+")
_POSTED = re.compile(r"reviewbot:posted=[0-9a-f]+(?:,[0-9a-f]+)*")  # the summary's memory
_ESCAPE = re.compile(r"\\[\\`*_{}\[\]()#+\-.!|<>~]")


def render(markdown: str) -> str:
    html: str = cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE
    )
    return html


class _Walk(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text_outside_code: list[str] = []
        self.summaries: list[str] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag not in ("br", "hr", "img", "input"):
            self.stack.append(tag)
        if tag == "summary":
            self.summaries.append("")

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop() == tag:
                break

    def handle_data(self, data: str) -> None:
        if "code" not in self.stack and "pre" not in self.stack:
            self.text_outside_code.append(data)
        if "summary" in self.stack and self.summaries:
            self.summaries[-1] += data

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def table_rows(markdown: str) -> list[list[int]]:
    """Cell counts of every table's rows, counted as GFM splits them (unescaped pipes)."""
    tables: list[list[int]] = []
    current: list[int] | None = None
    fence = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if fence or not line.startswith("|"):
            current = None
            continue
        cells = len(re.split(r"(?<!\\)\|", line.strip().strip("|")))
        if current is None:
            current = []
            tables.append(current)
        current.append(cells)
    return tables


def check_markdown(
    markdown: str, *, markers: int, limit: int = MAX_COMMENT, verbatim: Sequence[str] = ()
) -> str:
    """Assert what GitHub would show is safe and well-formed; returns the HTML. ``verbatim``:
    texts of the input (a file name) that a ``<summary>`` shows as they are, whatever
    backslashes they hold."""
    assert len(markdown) <= limit, f"{len(markdown)} characters, over {limit}"
    assert markdown.count(SUMMARY_MARKER) == markers
    for rows in table_rows(markdown):
        assert len(set(rows)) == 1, f"a table row has a different number of cells: {rows}"
    html = render(markdown)
    walk = _Walk()
    walk.feed(html)
    foreign = sorted(set(walk.tags) - OURS)
    assert foreign == [], f"raw HTML from the input survived: {foreign}"
    text = "".join(walk.text_outside_code)
    assert not _MENTION.search(text), f"an @-mention survived: {_MENTION.search(text)}"
    summary_markers = [c for c in walk.comments if c.strip() == "reviewbot:summary"]
    assert len(summary_markers) == markers, walk.comments
    others = [c for c in walk.comments if c.strip() != "reviewbot:summary"]
    assert all(_FP.fullmatch(c.strip()) or _POSTED.fullmatch(c.strip()) for c in others), (
        f"a planted comment: {others}"
    )
    assert sum(1 for c in others if _POSTED.fullmatch(c.strip())) <= max(markers, 0)
    for summary in walk.summaries:
        for text in verbatim:
            summary = summary.replace(text, "")
        assert not _ESCAPE.search(summary), f"a Markdown escape shows in <summary>: {summary!r}"
    return html
