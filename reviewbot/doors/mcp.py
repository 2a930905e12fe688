"""`reviewbot mcp`: the Model Context Protocol door, over stdio, with the official SDK.

Tools with the names agents know from WaveScope (query_wavelet_context,
get_important_positions, get_entropy_bands, get_complexity_heatmap, diff_wavelet_context) plus
review_change. Lines are 1-based. The served root confines everything: paths resolve against
it (symlinks resolved), and when it is a folder inside a repository, git's answers (reviews,
diffs, impact) are filtered to it. Arguments are validated strictly (no "NaN" or `true` for a
number); revisions are validated (no option injection); every result obeys one size cap; an
error is an MCP tool error with a one-line reason and the server keeps serving.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field, ValidationError

from reviewbot.analysis.inspection import irregular_lines
from reviewbot.app import inspect
from reviewbot.app.config import Config, load_config
from reviewbot.app.context_pack import MIN_BUDGET, context_pack
from reviewbot.app.pipeline import GitChange, review
from reviewbot.doors import mcp_index
from reviewbot.errors import InputError, ReviewbotError
from reviewbot.render import jsonfmt
from reviewbot.render.prompt import prompt
from reviewbot.render.report_json import report_doc
from reviewbot.render.style import visible
from reviewbot.repo.git import Git

__all__ = ["MAX_RESULT_CHARS", "build_server", "main"]

MAX_RESULT_CHARS = 60_000  # about 15,000 tokens
_STRING_CUT = 2_000  # a string cut to fit keeps this much

F = TypeVar("F", bound=Callable[..., dict[str, Any]])

# Strict numbers: a string ("5", "NaN") or a boolean is an error, not a number.
Line = Annotated[int, Field(strict=True, ge=1, le=100_000_000)]
Radius = Annotated[int, Field(strict=True, ge=0, le=10_000_000)]
Count = Annotated[int, Field(strict=True, ge=0, le=1_000_000)]
Coefficient = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]
Budget = Annotated[int, Field(strict=True, ge=0, le=1_000_000)]
# The context pack's text must fit the result cap (4 characters a token, and JSON's escapes).
PackBudget = Annotated[int, Field(strict=True, ge=MIN_BUDGET, le=12_000)]


def _inside(root: Path, path: str) -> Path:
    if not path or "\0" in path:
        raise InputError("path: a non-empty file or folder path is required")
    full = (root / path).resolve()
    try:
        full.relative_to(root)
    except ValueError:
        raise InputError(f"{path}: outside the served folder {root}") from None
    if not full.exists():
        # The review tools name files from the repository's root (`src/click/utils.py`), the
        # others from the served folder (`utils.py`): either is taken.
        top = next((p for p in (root, *root.parents) if (p / ".git").exists()), None)
        whole = (top / path).resolve() if top is not None else full
        if whole != full and whole.exists() and whole.is_relative_to(root):
            return whole
        raise InputError(f"{path}: no such file or folder")
    return full


_CLI_ADVICE = " (use --patch for a diff file)"  # the command line's option: no tool has it


def _rel(root: Path, full: Path) -> str:
    return full.relative_to(root).as_posix() or "."


def _listed(root: Path, name: str) -> str:
    """A path a folder's walk listed, relative to the root, as listed: a symbolic link is not
    followed (one pointing out of the root is listed as skipped, not an internal error)."""
    plain = Path(os.path.abspath(name))
    try:
        return _rel(root, plain)
    except ValueError:
        return _rel(root, plain.resolve())  # the root itself reached through a link


def _size(doc: Any) -> int:
    return len(json.dumps(doc, indent=2, ensure_ascii=False))  # as the client receives it


def _shorten(value: Any) -> Any:
    """Long strings cut (bands of context, code), everything else as it is."""
    if isinstance(value, str) and len(value) > _STRING_CUT:
        return value[:_STRING_CUT] + "\n… (cut)"
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value


def _fit(doc: dict[str, Any], lists: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every answer obeys the cap: cut the named lists, then long strings, then everything
    but a note. Says so when it cut."""
    if _size(doc) <= MAX_RESULT_CHARS:
        return doc
    note = (
        f"the result was cut to about {MAX_RESULT_CHARS} characters; ask for less (a smaller "
        "limit, radius, top, budget or one file)"
    )
    cut = {**doc, "truncated": note}
    kept: list[str] = []
    for key in lists:  # in the order given: the least valuable first
        items = list(cut.get(key) or [])
        total = len(items)
        while items and _size(cut) > MAX_RESULT_CHARS:
            items = items[: len(items) * 2 // 3]
            cut[key] = items
        if len(items) < total:
            kept.append(f"{key} {len(items)} of {total}")
    if _size(cut) > MAX_RESULT_CHARS:
        cut = _shorten(cut)
    for key in list(cut):
        if _size(cut) <= MAX_RESULT_CHARS:
            break
        value = cut[key]
        if key in ("path", "truncated", "tool") or key in lists:
            continue
        if isinstance(value, (list, dict)) or (isinstance(value, str) and len(value) > 200):
            cut[key] = [] if isinstance(value, list) else {} if isinstance(value, dict) else ""
            kept.append(f"{key} left out")
    if kept:
        cut["truncated"] = f"{note}; kept: {', '.join(kept)}"
    return cut


def _one_line(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "arguments"
    got = visible(repr(first.get("input")))[:60]
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"invalid argument {where}: {first.get('msg', 'invalid')}, got {got}{more}"


class _Server(MCPServer):
    """The SDK's server, with argument errors reported in one line."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: {_one_line(exc.__cause__)}") from None
            raise


def _scope(root: Path, environ: dict[str, str]) -> tuple[Path, str]:
    """The repository holding the root, and the root's folder inside it ("" = the top)."""
    try:
        git = Git(root, environ=environ)
    except ReviewbotError:
        return root, ""
    top = git.root.resolve()
    inner = root.relative_to(top).as_posix() if root != top else ""
    return top, inner


def build_server(root: Path, config: Config | None = None) -> Any:
    """An MCPServer with the tools, serving files under ``root``."""
    root = root.resolve()
    environ = dict(os.environ)
    cfg = config or load_config(None, root)
    top, scope = _scope(root, environ)
    server = _Server(
        "reviewbot",
        instructions=(
            "Structural context for code, from wavelets over a per-line structure signal: the "
            "important positions (declarations) of files, three zoom levels around a line, "
            "per-line irregularity, and reviews of changes. Lines are 1-based; paths are "
            f"relative to {root}."
        ),
    )

    def guard(fn: F) -> F:
        """The door's guard: a tool error with one line, and the server keeps serving."""

        @functools.wraps(fn)
        def wrapped(*args: Any, **kwargs: Any) -> dict[str, Any]:
            try:
                return fn(*args, **kwargs)
            except ReviewbotError as exc:
                said = visible(str(exc)).splitlines()[0]
                raise ToolError(said.replace(_CLI_ADVICE, "")) from None
            except Exception as exc:  # a bug of ours: one line, never a traceback
                message = visible(f"internal error: {type(exc).__name__}: {exc}")
                raise ToolError(message.splitlines()[0]) from None

        return wrapped  # type: ignore[return-value]

    def git_change(specs: tuple[str | None, ...], staged: bool = False) -> GitChange:
        return GitChange(top, specs, staged, environ=environ, scope=scope)

    @server.tool(name="query_wavelet_context")
    @guard
    def query_wavelet_context(path: str, line: Line = 1, radius: Radius = 300) -> dict[str, Any]:
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
        path: str, limit: Count = 20, min_coefficient: Coefficient = 0.3
    ) -> dict[str, Any]:
        """The most important structural positions (declarations first, then the strongest
        other boundaries) of a file, or of every file in a folder (ignored, binary and huge
        files are skipped with a reason). Each position has a 1-based line, a wavelet scale,
        a coefficient and a label."""
        full = _inside(root, path)
        result = inspect.positions_of(
            [str(full)], cfg, limit=max(1, limit), min_coefficient=min_coefficient
        )
        doc = jsonfmt.positions_doc(result)
        for entry in doc["files"] + doc["top"] + doc["skipped"]:
            entry["path"] = _listed(root, entry["path"])
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
        return _fit(doc)

    @server.tool(name="get_complexity_heatmap")
    @guard
    def get_complexity_heatmap(
        path: str, top: Count = 20, include_per_line: bool = False
    ) -> dict[str, Any]:
        """Per-line irregularity of a file (a Haar transform of its structure signal): the
        levels with their bit costs, the `top` most irregular lines (1-based, with their text)
        and, when asked, the value of every line."""
        full = _inside(root, path)
        result = inspect.file_result(str(full), cfg)
        doc = jsonfmt.heatmap_doc(result)
        values = doc["per_line"]
        order = irregular_lines(result.index, top)
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
        repo_path = full.relative_to(top).as_posix() if full.is_relative_to(top) else path
        spec = f"{base}..{head}" if head else base
        result = inspect.diff_of(git_change((spec,)), repo_path, cfg)
        return _fit(
            jsonfmt.diff_doc(result),
            ("added", "removed", "shifted", "magnitude_changed", "unchanged"),
        )

    @server.tool(name="review_change")
    @guard
    def review_change(
        range: str | None = None,
        staged: bool = False,
        budget: Budget = 4000,
        max_findings: Count = 20,
    ) -> dict[str, Any]:
        """The structural review of a change, like `git diff`: no range = working tree and
        index against HEAD; `staged` = the index against HEAD; `range` = `REV` (against the
        working tree), `A..B` or `A...B`. Findings (complexity spikes, dense new units, deeper
        nesting), the changed units with before/after measures, and per-hunk context within
        `budget` tokens (about 4 characters a token). Only files under the served folder."""
        local = cfg.with_overrides(budget=budget, max_findings=max_findings)
        report = review(git_change((range,), staged), local)
        # Cut in order of value: the hunks' context, the bundles, the impact, the files' unit
        # tables, and the findings last (an agent reads `findings: []` as a clean change).
        return _fit(report_doc(report), ("context", "bundles", "impact", "files", "findings"))

    @server.tool(name="get_review_context")
    @guard
    def get_review_context(
        range: str | None = None,
        staged: bool = False,
        budget: PackBudget = 6000,
        max_findings: Count = 20,
    ) -> dict[str, Any]:
        """A context pack for reviewing a change with the repository's context, without
        reading the repository: Markdown (`text`) with the change, the findings, the impact
        and the 8-10 most relevant snippets in reading order, each with a unique id, its path,
        enclosing class or module, signature, callers and callees (from the repository index
        when one exists) and its code with changed lines marked (`+`/`-`). The text stays
        within `budget` tokens (about 4 characters a token). `range`/`staged` as in
        review_change. Only files under the served folder."""
        local = cfg.with_overrides(max_findings=max_findings)
        index_file = Path(environ["REVIEWBOT_INDEX"]) if environ.get("REVIEWBOT_INDEX") else None
        pack = context_pack(
            git_change((range,), staged), local, budget=budget, index_file=index_file
        )
        shown = prompt(pack)
        doc = {
            "budget": budget,
            "tokens": shown.tokens,
            "index": pack.index_note,
            "snippets": [
                {
                    "id": s.id,
                    "path": s.path,
                    "unit": s.unit,
                    "start": s.start,
                    "end": s.end,
                    "rank": s.rank,
                    "shown": s.id in shown.shown,
                }
                for s in pack.snippets
            ],
            "text": shown.text,
        }
        return _fit(doc, ("snippets",))

    mcp_index.register(server, root, environ=environ, guard=guard, fit=_fit, inside=_inside)
    return server


def main(root: Path) -> int:
    if not root.is_dir():
        raise InputError(f"--root {root}: no such directory")
    build_server(root).run("stdio")
    return 0
