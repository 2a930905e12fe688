"""Markdown through Jinja2 (the one module that imports jinja2). Templates live in the
repository's templates/ folder and ship inside the wheel as ``reviewbot.templates``."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import jinja2

from reviewbot.analysis.findings import CODES
from reviewbot.model import Report
from reviewbot.render.review_text import fmt_metric

__all__ = ["code_block", "environment", "inline_code", "md_escape", "render_markdown"]

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


def inline_code(value: object) -> str:
    """An inline code span its content cannot close; nothing inside it is markup."""
    text = str(value).replace("\r", "").replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def code_block(value: object, lang: str = "") -> str:
    """A fenced block that its content cannot close (the fence outruns any backtick run)."""
    text = str(value).replace("\r", "")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    text = _MARKER.sub(lambda m: m.group(0).replace("-", "\u2010"), text)
    return f"{fence}{lang}\n{text}\n{fence}"


def _template_source(name: str) -> str | None:
    """Templates from the ``reviewbot.templates`` package (the repository's templates/)."""
    item = resources.files("reviewbot.templates").joinpath(name)
    return item.read_text(encoding="utf-8") if item.is_file() else None


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_template_source),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown, not HTML: escaping is explicit through the filters below
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md_escape
    env.filters["code"] = code_block
    env.filters["ic"] = inline_code
    env.filters["metric"] = fmt_metric
    return env


def render_markdown(report: Report, template: str = "review.md.j2", **extra: Any) -> str:
    return environment().get_template(template).render(report=report, codes=CODES, **extra)
