"""`reviewbot mcp`: the Model Context Protocol door, over stdio, with the official SDK.

Tools with the names agents know from WaveScope (query_wavelet_context,
get_important_positions, get_entropy_bands, get_complexity_heatmap, diff_wavelet_context) plus
review_change. Lines are 1-based. Paths must stay inside the served root (symlinks resolved);
revisions are validated (no option injection); big results are cut with a note; an error is
an MCP tool error with a one-line reason and the server keeps serving.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from reviewbot.app import inspect
from reviewbot.app.config import Config, load_config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.errors import InputError, ReviewbotError
from reviewbot.render import jsonfmt
from reviewbot.render.report_json import report_doc

__all__ = ["MAX_RESULT_CHARS", "build_server", "main"]

MAX_RESULT_CHARS = 60_000  # about 15,000 tokens


def _inside(root: Path, path: str) -> Path:
    if not path or "\0" in path:
        raise ReviewbotError("path: a non-empty file or folder path is required")
    full = (root / path).resolve()
    try:
        full.relative_to(root)
    except ValueError:
        raise ReviewbotError(f"{path}: outside the served folder {root}") from None
    if not full.exists():
        raise ReviewbotError(f"{path}: no such file or folder")
    return full


def _rel(root: Path, full: Path) -> str:
    return full.relative_to(root).as_posix() or "."


def _fit(doc: dict[str, Any], lists: tuple[str, ...]) -> dict[str, Any]:
    """Cut the named lists until the JSON fits, and say so."""
    text = json.dumps(doc)
    if len(text) <= MAX_RESULT_CHARS:
        return doc
    cut = dict(doc)
    for key in lists:
        items = list(cut.get(key) or [])
        while items and len(json.dumps(cut)) > MAX_RESULT_CHARS:
            items = items[: max(0, len(items) * 2 // 3)]
            cut[key] = items
    cut["truncated"] = (
        f"the result was cut to about {MAX_RESULT_CHARS} characters; ask for "
        "less (a smaller limit, radius, budget or one file)"
    )
    return cut


def build_server(root: Path, config: Config | None = None) -> Any:
    """An MCPServer with the tools, serving files under ``root``."""
    root = root.resolve()
    environ = dict(os.environ)
    cfg = config or load_config(None, root)
    server = MCPServer(
        "reviewbot",
        instructions=(
            "Structural context for code, from wavelets over a per-line structure signal: the "
            "important positions (declarations) of files, three zoom levels around a line, "
            "per-line irregularity, and reviews of changes. Lines are 1-based; paths are "
            f"relative to {root}."
        ),
    )

    def guard(fn: Any) -> Any:
        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except ReviewbotError as exc:
                raise ToolError(str(exc)) from None
            except Exception as exc:  # the door's guard: a tool error, and the server goes on
                raise ToolError(f"internal error: {type(exc).__name__}: {exc}") from None

        return wrapped

    @server.tool(name="query_wavelet_context")
    @guard
    def query_wavelet_context(path: str, line: int = 1, radius: int = 300) -> dict[str, Any]:
        """Three zoom levels of context around one line of a file: `fine` (the raw lines
        within max(10, radius/5)), `medium` (the boundaries within radius/2) and `coarse`
        (the declarations within radius), plus the enclosing unit and the strongest positions
        nearby. `line` is 1-based; a line beyond the end is clamped and said so."""
        full = _inside(root, path)
        result = inspect.context_of(f"{full}:{line}", cfg, radius=radius)
        doc = jsonfmt.context_doc(result)
        doc["path"] = _rel(root, full)
        return _fit(doc, ("peaks",))

    @server.tool(name="get_important_positions")
    @guard
    def get_important_positions(
        path: str, limit: int = 20, min_coefficient: float = 0.3
    ) -> dict[str, Any]:
        """The most important structural positions (declarations first, then the strongest
        other boundaries) of a file, or of every file in a folder (ignored, binary and huge
        files are skipped with a reason). Each position has a 1-based line, a wavelet scale,
        a coefficient and a label."""
        full = _inside(root, path)
        result = inspect.positions_of(
            [str(full)], cfg, limit=limit, min_coefficient=min_coefficient
        )
        doc = jsonfmt.positions_doc(result)
        for entry in doc["files"] + doc["top"] + doc["skipped"]:
            entry["path"] = _rel(root, Path(entry["path"]).resolve())
        return _fit(doc, ("files", "skipped", "top"))

    @server.tool(name="get_entropy_bands")
    @guard
    def get_entropy_bands(path: str) -> dict[str, Any]:
        """How much information each wavelet scale carries in a file: per scale the bit cost
        of the coefficients' dynamic range, the Rice parameter and predictor chosen, and the
        total and mean."""
        full = _inside(root, path)
        doc = jsonfmt.entropy_doc(inspect.file_result(str(full), cfg))
        doc["path"] = _rel(root, full)
        return doc

    @server.tool(name="get_complexity_heatmap")
    @guard
    def get_complexity_heatmap(
        path: str, top: int = 20, include_per_line: bool = False
    ) -> dict[str, Any]:
        """Per-line irregularity of a file (a Haar transform of its structure signal): the
        levels with their bit costs, the `top` most irregular lines (1-based, with their text)
        and, when asked, the value of every line."""
        full = _inside(root, path)
        result = inspect.file_result(str(full), cfg)
        doc = jsonfmt.heatmap_doc(result)
        values = doc["per_line"]
        order = sorted(range(len(values)), key=lambda i: -values[i])[: max(0, top)]
        doc["top_lines"] = [
            {"line": i + 1, "irregularity": values[i], "text": result.index.lines[i].strip()[:200]}
            for i in order
        ]
        if not include_per_line:
            doc.pop("per_line")
        doc["path"] = _rel(root, full)
        return _fit(doc, ("per_line", "top_lines"))

    @server.tool(name="diff_wavelet_context")
    @guard
    def diff_wavelet_context(
        path: str, base: str = "HEAD", head: str | None = None
    ) -> dict[str, Any]:
        """How a file's structure moved between two revisions (`head` omitted = the working
        tree): its important positions on both sides, matched through the diff's own line
        mapping (an insertion above a function shifts it; it does not remove and re-add it),
        as added, removed, shifted, changed in magnitude or unchanged; and the units the change
        touched with their before/after measures."""
        full = _inside(root, path)
        spec = f"{base}..{head}" if head else base
        result = inspect.diff_of(GitChange(root, (spec,), environ=environ), _rel(root, full), cfg)
        return _fit(
            jsonfmt.diff_doc(result),
            ("added", "removed", "shifted", "magnitude_changed", "unchanged"),
        )

    @server.tool(name="review_change")
    @guard
    def review_change(
        range: str | None = None, staged: bool = False, budget: int = 4000, max_findings: int = 20
    ) -> dict[str, Any]:
        """The structural review of a change, like `git diff`: no range = working tree and
        index against HEAD; `staged` = the index against HEAD; `range` = `REV` (against the
        working tree), `A..B` or `A...B`. Findings (complexity spikes, dense new units, deeper
        nesting), the changed units with before/after measures, and per-hunk context within
        `budget` tokens (about 4 characters a token)."""
        local = cfg.with_overrides(budget=max(0, budget), max_findings=max(0, max_findings))
        report = review(GitChange(root, (range,), staged, environ=environ), local)
        return _fit(report_doc(report), ("context", "files", "findings"))

    return server


def main(root: Path) -> int:
    if not root.is_dir():
        raise InputError(f"--root {root}: no such directory")
    build_server(root).run("stdio")
    return 0
