"""Markdown through Jinja2 (the one module that imports jinja2). Templates live in the
repository's templates/ folder and ship inside the wheel as ``reviewbot.templates``."""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any
from urllib.parse import quote

import jinja2

from reviewbot import __version__
from reviewbot.codes import CODES, describe
from reviewbot.model import Finding, MetricsChange, Report, Status, innermost
from reviewbot.render.style import fmt_metric, sparkline

__all__ = [
    "MAX_BODY",
    "SUMMARY_MARKER",
    "cell_code",
    "code_block",
    "environment",
    "fingerprint_marker",
    "html_text",
    "inline_body",
    "inline_code",
    "md_escape",
    "render_markdown",
    "summary_body",
    "url",
]

SUMMARY_MARKER = "<!-- reviewbot:summary -->"
MAX_BODY = 65_536  # GitHub's limit for a comment body
SPARK_WIDTH = 24

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~])")  # inline markup; newlines are flattened anyway
_MENTION = re.compile(r"@(?=[A-Za-z0-9_-])")
_MARKER = re.compile(r"<!--|-->")  # inside code: defused so no hidden marker can form
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_BLOCK = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # keeps \t \n
# A name's bytes that are not UTF-8 reach us as lone surrogates (surrogateescape): no Markdown
# or HTML can hold them (GitHub's renderer and API refuse them), so they show as U+FFFD.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def md_escape(value: object) -> str:
    """Text safe inside Markdown prose or a table cell: no markup, no HTML, no @-mentions."""
    text = _flat(value)
    # HTML first (so `<!--` can never open a comment or fake our hidden markers), then
    # Markdown punctuation, then @-mentions.
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return _MENTION.sub("@\u200b", text)


def _flat(value: object) -> str:
    """One line, no control characters (a name may hold a tab, a newline or an escape)."""
    return _CONTROL.sub(" ", _text(value))


def _text(value: object) -> str:
    """The value as text that can be encoded: bytes that were not UTF-8 become U+FFFD."""
    return _SURROGATE.sub("\ufffd", str(value))


def inline_code(value: object) -> str:
    """An inline code span its content cannot close; nothing inside it is markup, and no
    hidden marker can form in it. For prose: inside a table use :func:`cell_code`."""
    text = _defuse(_flat(value))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def cell_code(value: object) -> str:
    """An inline code span inside a table cell: GFM splits cells on a pipe even inside code,
    unless it is escaped (and then shows it unescaped)."""
    return inline_code(value).replace("|", "\\|")


def html_text(value: object) -> str:
    """Text inside raw HTML (a ``<summary>``): GitHub does not read Markdown there, so only
    HTML is escaped (a Markdown escape would show), and @-mentions are defused."""
    text = html.escape(_flat(value), quote=True)
    return _MENTION.sub("@\u200b", text)


def url(base: str, path: str, line: int, end: int) -> str:
    """A link to lines of a file: the path percent-encoded, so no name can end the link,
    open HTML or mention anyone."""
    anchor = f"#L{line}" + (f"-L{end}" if end > line else "")
    return f"{base}/{quote(_path_bytes(path), safe='/')}{anchor}"


def _path_bytes(path: str) -> bytes:
    """A path's own bytes (a name that is not UTF-8 keeps them, so its link still works)."""
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no byte stands for
        return _text(path).encode("utf-8")


def _defuse(text: str) -> str:
    return _MARKER.sub(lambda m: m.group(0).replace("-", "\u2010"), text)


def code_block(value: object, lang: str = "") -> str:
    """A fenced block that its content cannot close (the fence outruns any backtick run)."""
    text = _CONTROL_BLOCK.sub(" ", _text(value))
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    text = _defuse(text)
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
    env.filters["cell_code"] = cell_code
    env.filters["h"] = html_text
    env.filters["metric"] = fmt_metric
    env.filters["spark"] = lambda values: sparkline(values, width=SPARK_WIDTH)
    env.filters["changes"] = _changes
    return env


def render_markdown(report: Report, template: str = "review.md.j2", **extra: Any) -> str:
    return environment().get_template(template).render(report=report, codes=describe(), **extra)


_NAMES = {"branches": "decisions"}


def _changes(metrics: MetricsChange) -> str:
    parts = []
    for m in metrics.measures():
        name = _NAMES.get(m.name, m.name)
        if m.after is None:
            continue
        if m.before is None:
            parts.append(f"{name} {_n(m.after)}")
        elif m.before != m.after:
            parts.append(f"{name} {_n(m.before)} → {_n(m.after)}")
    return ", ".join(parts) or "no change in its measures"


def _n(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def fingerprint_marker(fingerprint: str, version: str) -> str:
    return f"<!-- reviewbot:fp={fingerprint};v={version} -->"


def inline_body(f: Finding) -> str:
    """The inline comment: no line numbers in it, so a rebase that only moves lines changes
    nothing. Its version hash covers the visible text."""
    entry = CODES.get(f.code)
    text: str = (
        environment()
        .get_template("inline.md.j2")
        .render(f=f, hint=entry.hint if entry else None, marker="")
    )
    version = hashlib.sha256(text.encode()).hexdigest()[:12]
    return text.rstrip("\n") + "\n" + fingerprint_marker(f.fingerprint, version) + "\n"


def _footprint(report: Report) -> str:
    values = []
    for fs in report.files:
        for u in fs.units:
            after = u.metrics.after
            if after is not None:
                values.append(after.irregularity)
    return sparkline(sorted(values, reverse=True)[:40])


def _order(report: Report) -> list[str]:
    if report.bundles:
        return [f"{b.title}: {b.reason}" for b in report.bundles]
    weight: dict[str, int] = {}
    for f in report.findings:
        weight[f.path] = weight.get(f.path, 0) + 3 ** (f.severity.rank + 1)
    changed = [fs for fs in report.files if fs.units]
    changed.sort(key=lambda fs: (-weight.get(fs.path, 0), fs.path))
    return [
        f"{fs.path}: "
        + ", ".join(innermost(u.label) for u in fs.units[:5])
        + (" …" if len(fs.units) > 5 else "")
        for fs in changed[:15]
    ]


def summary_body(
    report: Report,
    *,
    blob_base: str,
    notes: Sequence[str] = (),
    limit: int = MAX_BODY,
) -> str:
    """The pull request's summary comment, shortened step by step until it fits ``limit``
    characters. ``blob_base`` is the URL of the head commit's files (`…/blob/<sha>`)."""

    def link(path: str, line: int, end: int) -> str:
        return url(blob_base, path, line, end)

    units = [(fs.path, u) for fs in report.files for u in fs.units]
    skipped = [fs for fs in report.files if fs.status in (Status.SKIPPED, Status.BINARY)]
    attempts = [
        (list(report.context), units, None),
        ([], units, None),
        ([], units[:60], len(units) - 60),
        ([], units[:15], len(units) - 15),
    ]
    template = environment().get_template("summary.md.j2")
    text = ""
    for index, (contexts, shown, left) in enumerate(attempts):
        text = str(
            template.render(
                marker=SUMMARY_MARKER,
                report=report,
                notes=list(notes),
                footprint=_footprint(report),
                order=_order(report),
                units=shown,
                units_left=max(0, left or 0),
                skipped=skipped[:50],
                contexts=contexts,
                truncated=index > 0,
                link=link,
                version=__version__,
            )
        )
        if len(text) <= limit:
            return text
    cut = text[: limit - 200]
    return cut[: cut.rfind("\n")] + "\n\n_Truncated to fit GitHub's size limit._\n"
