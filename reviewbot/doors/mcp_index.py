"""The index's MCP tools: find_definitions, find_references, get_callers, get_callees,
search_code, get_repo_map, and the repository bundles: list_bundles and get_bundle.

The same confinement as the other tools: a path argument must resolve inside the served root,
and answers only name files under it (paths relative to it). The index is brought up to date
first (only changed blobs are re-read). Every result obeys the server's size cap.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from pydantic import Field

from reviewbot.doors import index_cli
from reviewbot.errors import InputError
from reviewbot.index import query as index_query
from reviewbot.repo.git import Git

__all__ = ["register"]

Line = Annotated[int, Field(strict=True, ge=1, le=100_000_000)]
Limit = Annotated[int, Field(strict=True, ge=1, le=1000)]
Budget = Annotated[int, Field(strict=True, ge=1, le=100_000)]
Target = Annotated[int, Field(strict=True, ge=1000, le=1_000_000)]

Tool = Callable[..., dict[str, Any]]
MAX_CODE = 50_000  # characters of a bundle's code in one answer (the server caps at 60,000)


def register(
    server: MCPServer,
    root: Path,
    *,
    environ: dict[str, str],
    guard: Callable[[Tool], Tool],
    fit: Callable[[dict[str, Any], tuple[str, ...]], dict[str, Any]],
    inside: Callable[[Path, str], Path],
) -> None:
    """Add the index tools to ``server`` (the door's guard, size cap and path check)."""

    def repository() -> tuple[Git, str]:
        git = Git(root, environ=environ)
        top = git.root.resolve()
        scope = root.relative_to(top).as_posix() if root != top else ""
        return git, scope

    def shown(path: str, scope: str) -> str | None:
        """A repository path as the client sees it (relative to the root), None outside."""
        if not scope:
            return path
        if path.startswith(scope + "/"):
            return path[len(scope) + 1 :]
        return None

    def connection() -> tuple[sqlite3.Connection, Git, str]:
        git, scope = repository()
        conn, _stale = index_cli.open_index(git, environ, update=True)
        return conn, git, scope

    def symbol(doc_symbol: index_query.Symbol, scope: str) -> dict[str, Any] | None:
        where = shown(doc_symbol.path, scope)
        if where is None:
            return None
        return {**index_cli.symbol_doc(doc_symbol), "path": where}

    def at(path: str, line: int, git: Git, conn: sqlite3.Connection) -> index_query.Symbol:
        full = inside(root, path)
        rel = full.relative_to(git.root.resolve()).as_posix()
        found = index_query.symbol_at(conn, rel, line, index_cli.file_lines(git, rel))
        if found is None:
            raise InputError(f"{path}:{line}: no definition at or around this line")
        return found

    @server.tool(name="find_definitions")
    @guard
    def find_definitions(name: str, limit: Limit = 50) -> dict[str, Any]:
        """Where a name is defined: functions, methods, classes, types, interfaces,
        constants and module-level variables named `name` (or `Class.method`), each with its
        kind, qualified name, signature and 1-based line range."""
        conn, _git, scope = connection()
        try:
            found = index_query.definitions(conn, name, limit, within=scope)
        finally:
            conn.close()
        docs = [d for d in (symbol(s, scope) for s in found) if d is not None]
        return fit({"name": name, "definitions": docs}, ("definitions",))

    @server.tool(name="find_references")
    @guard
    def find_references(path: str, line: Line, limit: Limit = 100) -> dict[str, Any]:
        """The references to the definition at or enclosing `path:line`, resolved by the
        language's scoping and import rules: each with its place, kind (call, attribute,
        type, import, other), confidence (1 = certain; 1/n when `obj.m` could be any of n
        methods) and enclosing unit."""
        conn, git, scope = connection()
        try:
            target = at(path, line, git, conn)
            hits, truncated = index_query.references(conn, target, limit)
        finally:
            conn.close()
        refs = []
        for h in hits:
            where = shown(h.path, scope)
            if where is None:
                continue
            unit = (
                None
                if h.unit is None
                else {"label": h.unit.label, "start": h.unit.start, "end": h.unit.end}
            )
            refs.append(
                {
                    "path": where,
                    "line": h.line,
                    "kind": h.kind,
                    "confidence": h.confidence,
                    "unit": unit,
                    **({"by_name": True} if h.via == "name" else {}),
                }
            )
        doc = {
            "symbol": symbol(target, scope),
            "references": refs,
            "truncated": truncated,
            # `obj.name` calls on receivers of unknown type, linked to nothing (any may be one)
            "unlinked": index_query.unlinked(conn, target),
        }
        return fit(doc, ("references",))

    def related(path: str, line: int, limit: int, which: str) -> dict[str, Any]:
        conn, git, scope = connection()
        try:
            target = at(path, line, git, conn)
            fn = index_query.callers if which == "callers" else index_query.callees
            found = fn(conn, target, limit + 1)
        finally:
            conn.close()
        items = []
        for r in found[:limit]:
            where = shown(r.path, scope)
            if where is None:
                continue
            unit = (
                None
                if r.symbol is None
                else {"label": r.symbol.label, "start": r.symbol.line, "end": r.symbol.end_line}
            )
            items.append(
                {"path": where, "unit": unit, "lines": list(r.lines), "confidence": r.confidence}
            )
        doc: dict[str, Any] = {
            "symbol": symbol(target, scope),
            which: items,
            "truncated": len(found) > limit,
        }
        if which == "callers":
            doc["unlinked"] = index_query.unlinked(conn, target)
        return fit(doc, (which,))

    @server.tool(name="get_callers")
    @guard
    def get_callers(path: str, line: Line, limit: Limit = 50) -> dict[str, Any]:
        """The units (functions, methods, classes) whose code calls the definition at or
        enclosing `path:line`, with the 1-based lines of the calls."""
        return related(path, line, limit, "callers")

    @server.tool(name="get_callees")
    @guard
    def get_callees(path: str, line: Line, limit: Limit = 50) -> dict[str, Any]:
        """The definitions that the body of the definition at or enclosing `path:line`
        calls, with the 1-based lines of the calls."""
        return related(path, line, limit, "callees")

    @server.tool(name="search_code")
    @guard
    def search_code(query: str, limit: Limit = 10) -> dict[str, Any]:
        """Definitions ranked by BM25 over their identifiers (camelCase and snake_case
        split), signatures and docstrings; the one whose name is the query's words first
        ("reset form" finds resetForm), how much the code references them breaking ties."""
        conn, _git, scope = connection()
        try:
            found = index_query.search(conn, query, limit, within=scope)
        finally:
            conn.close()
        results: list[dict[str, Any]] = []
        for s, score in found:
            d = symbol(s, scope)
            if d is not None and len(results) < limit:
                results.append({"symbol": d, "score": score})
        return fit({"query": query, "results": results}, ("results",))

    @server.tool(name="get_repo_map")
    @guard
    def get_repo_map(path: str | None = None, budget: Budget = 1024) -> dict[str, Any]:
        """A map of the repository for orientation: its most central definitions (PageRank
        over who references whom, personalised to `path` when given) with their signatures,
        grouped by file, within `budget` tokens (about 4 characters a token)."""
        conn, git, scope = connection()
        try:
            focus = None
            if path:
                focus = inside(root, path).relative_to(git.root.resolve()).as_posix()
            elif scope:
                focus = scope
            files, tokens, cut = index_query.repo_map(conn, focus, budget)
        finally:
            conn.close()
        out = []
        for f in files:
            where = shown(f.path, scope)
            if where is None:
                continue
            defs = [d for d in (symbol(s, scope) for s in f.symbols) if d is not None]
            out.append({"path": where, "rank": f.rank, "definitions": defs})
        doc = {"budget": budget, "tokens": tokens, "truncated": cut, "files": out}
        return fit(doc, ("files",))

    def bundling(target: int) -> tuple[dict[str, Any], Git, str]:
        conn, git, scope = connection()
        try:
            doc, _text = index_cli.bundles_answer(
                conn, git, index_cli.database_path(git, environ), target, scope
            )
        finally:
            conn.close()
        return doc, git, scope

    @server.tool(name="list_bundles")
    @guard
    def list_bundles(target_chars: Target = 25_000) -> dict[str, Any]:
        """The served folder cut into bundles of related code of about `target_chars`
        characters each (functions never cut in half; code that calls each other kept
        together), to read one at a time with get_bundle: each bundle's id, title (its most
        central definitions), files, size and cohesion (the share of its references that stay
        inside it)."""
        doc, _git, scope = bundling(target_chars)
        items = []
        for b in doc["bundles"]:
            files = [f for f in (shown(p, scope) for p in b["files"]) if f is not None]
            inside, outside = b["links_inside"], b["links_outside"]
            items.append(
                {
                    "id": b["id"],
                    "title": b["title"],
                    "files": files,
                    "chars": b["chars"],
                    "cards": len(b["cards"]),
                    "cohesion": round(inside / (inside + outside), 3) if inside + outside else None,
                }
            )
        out = {
            "target_chars": target_chars,
            "method": doc["method"],
            "update": doc["update"],
            "stats": doc["stats"],
            "bundles": items,
        }
        return fit(out, ("bundles",))

    @server.tool(name="get_bundle")
    @guard
    def get_bundle(bundle: str, target_chars: Target = 25_000) -> dict[str, Any]:
        """The code of one bundle of list_bundles (its id, with the same `target_chars`):
        each card (a function, a class's header, top-level code) under a header line
        `--- path:start-end  label ---`, in file and line order."""
        doc, git, scope = bundling(target_chars)
        found = next((b for b in doc["bundles"] if b["id"] == bundle), None)
        if found is None:
            known = ", ".join(b["id"] for b in doc["bundles"][:5])
            raise InputError(f"{bundle}: no such bundle (ids look like {known or 'b1'})")
        texts: dict[str, list[str]] = {}
        parts: list[str] = []
        for card in found["cards"]:
            path = card["path"]
            if path not in texts:
                data = git.worktree_bytes(path)
                texts[path] = (
                    data.decode("utf-8", "replace").split("\n") if isinstance(data, bytes) else []
                )
            body = "\n".join(texts[path][card["start"] - 1 : card["end"]])
            where = shown(path, scope) or path
            parts.append(f"--- {where}:{card['start']}-{card['end']}  {card['label']} ---\n{body}")
        code = "\n\n".join(parts) + "\n"
        cut = False
        limit = MAX_CODE
        if len(code) > limit:
            code = code[:limit].rsplit("\n", 1)[0] + "\n"
            cut = True
        out = {
            "id": found["id"],
            "title": found["title"],
            "files": [f for f in (shown(p, scope) for p in found["files"]) if f is not None],
            "chars": found["chars"],
            "code": code,
            "code_truncated": cut,
        }
        return fit(out, ())
