"""Markdown through Jinja2 (the one module that imports jinja2). Templates live in the
repository's templates/ folder and ship inside the wheel as ``reviewbot.templates``."""

from __future__ import annotations

import re
from typing import Any

import jinja2

from reviewbot.analysis.findings import CODES
from reviewbot.model import Report
from reviewbot.render.review_text import fmt_metric

__all__ = ["render_markdown", "md_escape", "code_block", "environment"]

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")  # inline markup; newlines are flattened anyway
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_MARKER = re.compile(r"<!--|-->")  # inside code blocks: defused so no hidden marker can form


def md_escape(value: object) -> str:
    """Text safe inside Markdown prose or a table cell: no markup, no HTML, no @-mentions."""
    text = str(value).replace("\r", "").replace("\n", " ")
    # HTML first (so `<!--` can never open a comment or fake our hidden markers), then
    # Markdown punctuation, then @-mentions.
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return _MENTION.sub("@\u200b", text)


def code_block(value: object, lang: str = "") -> str:
    """A fenced block that its content cannot close (the fence outruns any backtick run)."""
    text = str(value).replace("\r", "")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    text = _MARKER.sub(lambda m: m.group(0).replace("-", "\u2010"), text)
    return f"{fence}{lang}\n{text}\n{fence}"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("reviewbot", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown, not HTML: escaping is explicit through the filters below
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["code"] = code_block
    env.filters["metric"] = fmt_metric
    return env


def render_markdown(report: Report, template: str = "review.md.j2", **extra: Any) -> str:
    return environment().get_template(template).render(report=report, codes=CODES, **extra)
