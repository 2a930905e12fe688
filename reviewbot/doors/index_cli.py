"""The index commands of `reviewbot`: index, defs, refs, callers, callees, search, map, bundles.

Kept apart from the main CLI so that a query starts fast: this module imports neither numpy,
scipy, jinja2 nor PyGithub (the configuration, which pulls in the engine, is read only when the
index must be updated). ``add_parsers`` registers the commands on the main parser; ``run``
executes one; ``main`` is the fast entry the launcher uses for these commands.

A query first brings a stale index up to date (only the changed blobs are re-read) unless
``--no-update``, which answers from the index as it is and says on stderr (and in JSON, as
``stale``) how many files changed since it was built. ``REVIEWBOT_INDEX`` overrides where the
index lives (default ``.git/reviewbot/index.sqlite``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from reviewbot.analysis.bundle_state import state_name
from reviewbot.doors.guard import CLI, EXIT_OK, EXIT_USAGE, guard
from reviewbot.errors import InputError, UsageError
from reviewbot.index import query
from reviewbot.index.fresh import (
    Place,
    index_path,
    looks_current,
    same_repository,
    stale_files,
)
from reviewbot.index.store import IndexUnavailable, connect_reader, storable
from reviewbot.render.style import cut_label, cut_path, ellipsize, terminal_width, wrap
from reviewbot.render.visible import one_line, visible
from reviewbot.repo.locate import Located, locate

__all__ = [
    "COMMANDS",
    "add_parsers",
    "bundles_answer",
    "database_path",
    "main",
    "open_index",
    "run",
    "symbol_doc",
]

COMMANDS = ("index", "defs", "refs", "callers", "callees", "search", "map", "bundles")
MAX_LINE = 2**31 - 1  # SQLite's integers are 64-bit; no file has more lines than this
MAX_LIMIT = 1_000_000


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _common(p: argparse.ArgumentParser, update: bool = True, limit: bool = True) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.add_argument(
        "-C",
        dest="directory",
        metavar="DIR",
        default=None,
        help="the repository (default: the one holding the path, else '.')",
    )
    p.add_argument("--config", metavar="FILE", help="configuration file (default: found)")
    if update:
        p.add_argument(
            "--no-update",
            action="store_true",
            help="answer from the index as it is, even when stale (said so)",
        )
        p.add_argument(
            "--limit",
            type=int,
            default=50,
            help="results to show (default 50)" if limit else argparse.SUPPRESS,
        )
    p.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    for hidden in ("--profile", "--color"):
        p.add_argument(hidden, default=None, help=argparse.SUPPRESS)


def add_parsers(sub: Any) -> None:
    """Register the index commands on the main parser's subparsers."""
    p = sub.add_parser(
        "index",
        help="build or update the repository index (definitions, "
        "imports, resolved references; SQLite under .git/reviewbot)",
    )
    p.add_argument(
        "path",
        nargs="?",
        default=None,
        metavar="PATH",
        help="a path inside the repository (default: '.')",
    )
    _common(p, update=False)
    p = sub.add_parser("defs", help="definitions of a name (or Class.method)")
    p.add_argument("name", metavar="NAME")
    _common(p)
    for name, what in (
        ("refs", "the references to"),
        ("callers", "the units that call"),
        ("callees", "the definitions called by"),
    ):
        p = sub.add_parser(name, help=f"{what} the definition at or enclosing FILE:LINE")
        p.add_argument("location", metavar="FILE:LINE")
        _common(p)
    p = sub.add_parser(
        "search",
        help="definitions ranked by BM25 over identifiers, signatures and docstrings, "
        "the one the query's words name first, centrality breaking ties",
    )
    p.add_argument("text", metavar="QUERY")
    _common(p)
    p = sub.add_parser(
        "map",
        help="a repository map: the most central definitions with their "
        "signatures, grouped by file, within a token budget",
    )
    p.add_argument(
        "path", nargs="?", default=None, metavar="PATH", help="personalise to this file or folder"
    )
    p.add_argument("--budget", type=int, default=1024, help="tokens (default 1024)")
    _common(p)
    p = sub.add_parser(
        "bundles",
        help="the repository (or a folder) cut into bundles of related code of about N "
        "characters each, for a model to read one at a time",
    )
    p.add_argument("path", nargs="?", default=None, metavar="PATH", help="only this folder")
    p.add_argument(
        "--target-chars",
        type=int,
        default=25_000,
        metavar="N",
        help="characters a bundle aims at (default 25000)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    _common(p, limit=False)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="reviewbot")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    add_parsers(sub)
    return parser


# -- opening the index ----------------------------------------------------------------------------


def _update(
    place: Place,
    database: Path,
    config_file: str | None,
    stderr: TextIO | None,
    listing: Any = None,
) -> dict[str, Any]:
    """Update the index; its statistics as a document."""
    # Lazy: the configuration and the builder import the engine, numpy and the parsers
    # (about 0.6 s); a query on a current index needs none of them.
    from reviewbot.app.config import load_config
    from reviewbot.index.build import IndexSettings, update_index

    git = _git(place)
    config = load_config(config_file, git.root)
    settings = IndexSettings(config.max_file_bytes, tuple(config.exclude), config.registry)
    progress = _progress(stderr) if stderr is not None else None
    stats = update_index(git, database, settings, progress=progress, listing=listing)
    if progress is not None and stderr is not None:
        stderr.write("\r\x1b[K")
    return {
        "index": stats.database,
        "files": stats.files,
        "listed": stats.files + stats.skipped,  # = read + reused + skipped
        "skipped": stats.skipped,
        "lines": stats.lines,
        "definitions": stats.definitions,
        "references": stats.references,
        "edges": stats.edges,
        "read": stats.read,
        "reused": stats.reused,
        "removed": stats.removed,
        "seconds": round(stats.seconds, 3),
        "created": stats.created,
    }


def _progress(stream: TextIO) -> Callable[[int, int], None] | None:
    if not getattr(stream, "isatty", lambda: False)():
        return None

    def show(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            stream.write(f"\r\x1b[Kindexing {done}/{total} files...")
            stream.flush()

    return show


def _git(place: Place) -> Any:
    """The full git wrapper for a place (a ``Located`` becomes a ``Git``)."""
    # Lazy: the git wrapper imports the diff parser and the records (about 40 ms of CPU, a
    # third of a query); a query on a current index only needs where the repository is.
    from reviewbot.repo.git import Git

    return place if isinstance(place, Git) else Git(place.root, environ=place.environ)


def database_path(git: Place, environ: dict[str, str]) -> Path:
    """Where the repository's index is (``REVIEWBOT_INDEX`` overrides the default)."""
    return _database(git, environ)


def _database(git: Place, environ: dict[str, str]) -> Path:
    override = environ.get("REVIEWBOT_INDEX")
    path = Path(override) if override else index_path(git)
    if path.is_dir():  # SQLite would fail later, less clearly (a file is rebuilt when damaged)
        raise InputError(
            f"{path}: is a folder, not an index file; remove it or set REVIEWBOT_INDEX"
        )
    return path


def open_index(
    git: Place,
    environ: dict[str, str],
    *,
    update: bool,
    config_file: str | None = None,
    stderr: TextIO | None = None,
) -> tuple[sqlite3.Connection, int]:
    """A reader on the repository's index, updated first when stale and ``update``; and how
    many files it is behind (0 when current)."""
    database = _database(git, environ)
    try:
        conn: sqlite3.Connection | None = connect_reader(database)
    except IndexUnavailable:
        if not update:
            raise
        conn = None
    if conn is not None and not same_repository(conn, git, database=database):  # a shared one
        conn.close()
        if not update:
            raise InputError(
                f"{database}: the index describes another repository; run `reviewbot index`"
            )
        conn = None
    if conn is not None and looks_current(conn, git):
        return conn, 0
    # Lazy: the listing needs the full git wrapper (see _git).
    from reviewbot.repo.listing import list_files

    listing = list_files(_git(git))
    stale = stale_files(conn, listing) if conn is not None else len(listing) or 1
    if stale and update:
        if conn is not None:
            conn.close()
        _update(git, database, config_file, stderr, listing)
        return connect_reader(database), 0
    assert conn is not None
    return conn, stale


# -- documents ------------------------------------------------------------------------------------


def symbol_doc(s: query.Symbol) -> dict[str, Any]:
    return {
        "name": s.name,
        "qualified": s.qualified,
        "kind": s.kind,
        "path": s.path,
        "line": s.line,
        "end_line": s.end_line,
        "signature": s.signature,
    }


def _unit_doc(u: query.Unit | None) -> dict[str, Any] | None:
    return None if u is None else {"label": u.label, "start": u.start, "end": u.end}


def _related_doc(r: query.Related) -> dict[str, Any]:
    unit = (
        None if r.symbol is None else query.Unit(r.symbol.label, r.symbol.line, r.symbol.end_line)
    )
    return {
        "path": r.path,
        "unit": _unit_doc(unit),
        "lines": list(r.lines),
        "confidence": r.confidence,
    }


def _location(text: str, git: Place) -> tuple[str, int]:
    path, sep, line = text.rpartition(":")
    if not sep or not line.isdigit() or not 1 <= int(line) <= MAX_LINE:
        raise UsageError(
            f"{_t(text)}: expected FILE:LINE with a 1-based line "
            "(`reviewbot defs NAME` says where a name is defined)"
        )
    return _relative(path, git), int(line)


def _relative(path: str, git: Place) -> str:
    full = Path(path).resolve()
    try:
        return full.relative_to(git.root.resolve()).as_posix()
    except ValueError:
        raise InputError(f"{path}: outside the repository {git.root}") from None


def file_lines(git: Place, path: str) -> list[str] | None:
    """The lines of the work tree's ``path`` (what the index reads), None when unreadable: a
    doc comment's line is the definition's below it (``query.symbol_at``)."""
    try:
        return (git.root / path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None


def _symbol_for(conn: sqlite3.Connection, location: str, git: Place) -> query.Symbol:
    path, line = _location(location, git)
    found = query.symbol_at(conn, path, line, file_lines(git, path))
    if found is None:
        if not storable(path):
            raise InputError(f"{_t(path)}: not indexed: its name is not UTF-8")
        known = conn.execute("SELECT skipped FROM files WHERE path = ?", (path,)).fetchone()
        if known is None:
            raise InputError(f"{path}: not in the index (not tracked by git?)")
        if known[0]:
            raise InputError(f"{path}: not indexed: {known[0]}")
        raise InputError(f"{path}:{line}: no definition at or around this line")
    return found


# -- the commands ---------------------------------------------------------------------------------


def _repository(args: argparse.Namespace, environ: dict[str, str]) -> Located:
    start = args.directory
    if start is None:
        given = getattr(args, "path", None) or (
            getattr(args, "location", "").rpartition(":")[0] or None
        )
        start = (
            given
            if given and Path(given).is_dir()
            else (str(Path(given).parent) if given and Path(given).parent.is_dir() else ".")
        )
    return locate(start, environ)


def run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    environ = dict(os.environ)
    limit = getattr(args, "limit", 50)
    if limit < 1:
        raise UsageError(f"--limit must be at least 1, got {limit}")
    if limit > MAX_LIMIT:
        raise UsageError(f"--limit must be at most {MAX_LIMIT:,}, got {limit}")
    git = _repository(args, environ)
    as_json = args.format == "json"
    if args.command == "bundles":
        return _bundles_command(args, git, environ, stdout, stderr)
    if args.command == "index":
        d = _update(git, _database(git, environ), args.config, stderr)
        if as_json:
            stdout.write(json.dumps(d, indent=2) + "\n")
        else:
            stdout.write(
                f"indexed {d['files']} files ({d['lines']} lines): {d['definitions']} "
                f"definitions, {d['references']} references, {d['edges']} resolved links; "
                f"of {d['listed']} files listed, {d['read']} read, "
                f"{d['reused']} reused, {d['skipped']} skipped; {d['removed']} removed, "
                f"in {d['seconds']:.2f} s\n  {d['index']}\n"
            )
        return EXIT_OK
    doc, text = _from_index(
        git,
        environ,
        args,
        stderr,
        lambda conn: _answer(args, conn, git, limit, terminal_width(stdout, environ)),
    )
    stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n" if as_json else text)
    return EXIT_OK


def _from_index(
    git: Place,
    environ: dict[str, str],
    args: argparse.Namespace,
    stderr: TextIO,
    answer: Callable[[sqlite3.Connection], tuple[dict[str, Any], str]],
) -> tuple[dict[str, Any], str]:
    """``answer`` from the index (brought up to date first unless --no-update), as a document
    and as text; a damaged index is a one-line error, a stale one a warning (and `stale`)."""
    conn, stale = open_index(
        git, environ, update=not args.no_update, config_file=args.config, stderr=stderr
    )
    try:
        doc, text = answer(conn)
    except sqlite3.DatabaseError as exc:
        raise InputError(
            f"the index is damaged ({exc}); run `reviewbot index` to build it again"
        ) from None
    finally:
        conn.close()
    if stale:
        stderr.write(
            f"reviewbot: warning: the index is stale ({stale} file(s) changed since "
            "it was built; --no-update)\n"
        )
        doc["stale"] = stale
    return doc, text


def _t(text: str) -> str:
    """Repository text (a path, a name, a signature) for the terminal: control characters and
    bidirectional overrides shown as escapes, a newline as ``\\n``: it cannot retitle or clear
    the terminal, or start a line of its own."""
    return visible(one_line(text))


def _unlinked_note(symbol: query.Symbol, count: int, width: int) -> list[str]:
    """A member's `obj.name` references linked to nothing: said, not silently left out."""
    if not count:
        return []
    said = f"({count} `.{_t(symbol.name)}` reference(s) on receivers of unknown type: not linked)"
    return wrap(said, width, "  ", "   ")


def _found_line(s: query.Symbol, width: int) -> str:
    """A search result in the terminal's width: `path:line: label  signature`, or with the
    signature on a line of its own below, cut at the end, when that does not fit."""
    head, signature = f"{_t(s.path)}:{s.line}: {_t(s.label)}", _t(s.signature)
    if len(head) + 2 + len(signature) <= width:
        return f"{head}  {signature}\n"
    head = _place_line(_t(s.path), f":{s.line}", _t(s.label), "", width, indent="")
    return f"{head}\n    {ellipsize(signature, width - 4, end=True)}\n"


def _place_line(path: str, at: str, label: str, tail: str, width: int, indent: str = "  ") -> str:
    """`  path:line: label  tail` in the terminal's width; when it does not fit, the tail on a
    line of its own below, and the label cut (its own name kept), then the path's folders: the
    place's file name and line never."""
    line = f"{indent}{path}{at}: {label}{tail}"
    if len(line) <= width:
        return line
    head = f"{indent}{path}{at}: "
    if width - len(head) < 16:
        path = cut_path(path, max(width - len(indent) - len(at) - 2 - 16, 12))
        head = f"{indent}{path}{at}: "
    below = ellipsize(tail.strip(), width - len(indent) - 4, end=True) if tail.strip() else ""
    room = width - len(indent) - 4
    if len(head) + len(label) > width and max(map(len, label.split())) <= room:
        # (a label too long beside the place: whole on the lines below, broken at its spaces,
        # not cut inside its name, `method …testSk…tream`, nor its class left out)
        lines = [head.rstrip(), *wrap(label, width, f"{indent}    ")]
        return "\n".join(lines + ([f"{indent}    {below}"] if below else []))
    label = cut_label(label, max(width - len(head), 16))
    return f"{head}{label}" + (f"\n{indent}    {below}" if below else "")


def _ref_line(path: str, at: str, kind: str, unit: str, width: int) -> str:
    """A reference in the terminal's width: `  path:line: kind in unit`; when that does not
    fit, the place and the kind first (the path's folders cut if need be, never its file's
    name), the unit whole on indented lines of its own below (broken at its spaces only), as
    `search` puts a signature (a cut garbled them: `other in met….close`, `attribute in
    m….test_enqueue_with_success_callback`)."""
    line = f"  {path}{at}: {kind}" + (f" in {unit}" if unit else "")
    if len(line) <= width:
        return line
    room = width - 2 - len(at) - 2 - len(kind)
    if len(path) > room and len(path.rpartition("/")[2]) + 2 <= room:
        path = cut_path(path, room)
    head = f"  {path}{at}: {kind}"
    return "\n".join([head, *wrap(f"in {unit}", width, "      ")]) if unit else head


def _confidence(value: float) -> str:
    return f" (confidence {value:.2g})" if value < 1 else ""


def _answer(
    args: argparse.Namespace, conn: sqlite3.Connection, git: Place, limit: int, width: int = 100
) -> tuple[dict[str, Any], str]:
    command = args.command
    if command == "defs":
        found = query.definitions(conn, args.name, limit)
        doc: dict[str, Any] = {"name": args.name, "definitions": [symbol_doc(s) for s in found]}
        text = "".join(_found_line(s, width) for s in found)
        return doc, text or f"no definition of {_t(args.name)}\n"
    if command == "refs":
        symbol = _symbol_for(conn, args.location, git)
        hits, truncated = query.references(conn, symbol, limit)
        doc = {
            "symbol": symbol_doc(symbol),
            "references": [
                {
                    "path": h.path,
                    "line": h.line,
                    "kind": h.kind,
                    "confidence": h.confidence,
                    "unit": _unit_doc(h.unit),
                    # (a language without a parser: a name-level link, said so)
                    **({"by_name": True} if h.via == "name" else {}),
                }
                for h in hits
            ],
            "truncated": truncated,
            "unlinked": query.unlinked(conn, symbol),
        }
        lines = [
            f"{_t(symbol.label)} ({_t(symbol.path)}:{symbol.line}): {len(hits)} reference(s)"
            + (" (more left out)" if truncated else "")
        ]
        twice = Counter((h.path, h.line) for h in hits)  # two on one line: their columns
        lines += [
            _ref_line(
                _t(h.path),
                f":{h.line}" + (f":{h.column + 1}" if twice[(h.path, h.line)] > 1 else ""),
                h.kind + (" by name" if h.via == "name" else "") + _confidence(h.confidence),
                _t(h.unit.label) if h.unit else "",
                width,
            )
            for h in hits
        ]
        lines += _unlinked_note(symbol, doc["unlinked"], width)
        return doc, "\n".join(lines) + "\n"
    if command in ("callers", "callees"):
        symbol = _symbol_for(conn, args.location, git)
        fn = query.callers if command == "callers" else query.callees
        related = fn(conn, symbol, limit + 1)
        doc = {
            "symbol": symbol_doc(symbol),
            command: [_related_doc(r) for r in related[:limit]],
            "truncated": len(related) > limit,
        }
        if command == "callers":
            doc["unlinked"] = query.unlinked(conn, symbol)
        lines = [f"{_t(symbol.label)} ({_t(symbol.path)}:{symbol.line}): {command}"]
        for r in related[:limit]:
            where = _t(r.symbol.label) if r.symbol is not None else "(top of the file)"
            at = r.symbol.line if r.symbol is not None else r.lines[0]
            numbers = ", ".join(map(str, r.lines))
            lines.append(
                _place_line(
                    _t(r.path),
                    f":{at}",
                    where,
                    f"  lines {numbers}{_confidence(r.confidence)}",
                    width,
                )
            )
        if not related:
            lines.append(
                "  none found in the index"
                + (
                    " (calls to code outside the repository are not indexed)"
                    if command == "callees"
                    else ""
                )
            )
        if command == "callers":
            lines += _unlinked_note(symbol, doc["unlinked"], width)
        return doc, "\n".join(lines) + "\n"
    if command == "search":
        results = query.search(conn, args.text, limit)
        doc = {
            "query": args.text,
            "results": [{"symbol": symbol_doc(s), "score": score} for s, score in results],
        }
        text = "".join(_found_line(s, width) for s, _ in results)
        return doc, text or "no match\n"
    # map
    if args.budget < 1:
        raise UsageError(f"--budget must be at least 1, got {args.budget}")
    if args.path and not os.path.lexists(args.path):
        raise InputError(f"{_t(args.path)}: no such file or folder")
    focus = _relative(args.path, git) if args.path else None
    files, tokens, cut = query.repo_map(conn, focus, args.budget)
    doc = {
        "path": focus,
        "budget": args.budget,
        "tokens": tokens,
        "truncated": cut,
        "files": [
            {"path": f.path, "rank": f.rank, "definitions": [symbol_doc(s) for s in f.symbols]}
            for f in files
        ],
    }
    if not files:
        said = "no definition fits in" if cut else "no definition to show for"
        return doc, f"{said} a budget of {args.budget} tokens\n"
    out: list[str] = []
    for f in files:
        out.append(f"{cut_path(_t(f.path), width - 1)}:")
        shown = {s.qualified for s in f.symbols}
        for s in f.symbols:
            head = f"  {s.line:>5}  {' ' * query.map_depth(s, shown)}"
            out.append(head + ellipsize(_t(s.signature), max(width - len(head), 20), end=True))
    return doc, "\n".join(out) + "\n"


def _bundles_command(
    args: argparse.Namespace,
    git: Located,
    environ: dict[str, str],
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    if args.target_chars < 1000:
        raise UsageError(f"--target-chars must be at least 1000, got {args.target_chars}")
    scope = ""
    if args.path:
        if not Path(args.path).exists():
            raise InputError(f"{args.path}: no such file or folder")
        scope = _relative(args.path, git)
        scope = "" if scope == "." else scope
    database = _database(git, environ)
    doc, text = _from_index(
        git,
        environ,
        args,
        stderr,
        lambda conn: bundles_answer(conn, _git(git), database, args.target_chars, scope),
    )
    out = json.dumps(doc, indent=2, ensure_ascii=False) + "\n" if args.format == "json" else text
    if args.output:
        try:
            Path(args.output).write_text(out, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
        stdout.write(f"wrote {len(doc['bundles'])} bundles to {args.output}\n")
    else:
        stdout.write(out if args.format == "json" else visible(out))
    return EXIT_OK


def bundles_answer(
    conn: sqlite3.Connection, git: Any, database: Path, target: int, scope: str
) -> tuple[dict[str, Any], str]:
    """The repository bundles (incremental from the last bundling kept beside the index) as
    a document and as text; the new bundling is kept for the next run."""
    # OpenBLAS's threads fight over a busy machine's cores for the many small eigenproblems
    # (measured: 0.77 s against 0.02 s for one 160 x 160 problem at load 14); it reads this
    # when scipy loads it, below.
    environ_blas = "OPENBLAS_NUM_THREADS"
    if "scipy" not in sys.modules:
        os.environ.setdefault(environ_blas, "1")
    # Lazy: the bundling imports numpy and scipy (about 0.5 s); the other index commands do
    # not need them.
    from reviewbot.analysis import repo_bundles
    from reviewbot.analysis.repo_cards import git_texts

    state_file = database.parent / state_name(scope, target, repo_bundles.DEFAULT_TARGET)
    previous: dict[str, Any] | None = None
    try:
        loaded = json.loads(state_file.read_text(encoding="utf-8"))
        previous = loaded if isinstance(loaded, dict) else None
    except (OSError, ValueError):
        previous = None
    bundling = repo_bundles.bundle_repository(
        conn,
        lambda units: git_texts(git, units),
        target=target,
        scope=scope,
        previous=previous,
    )
    with contextlib.suppress(OSError):
        state_file.write_text(json.dumps(bundling.state), encoding="utf-8")
    doc = repo_bundles.bundling_doc(bundling)
    return doc, repo_bundles.bundling_text(bundling)


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)

    def work() -> int:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:
            code = exc.code
            return int(code or 0) if isinstance(code, int) or code is None else EXIT_USAGE
        return run(args, out, err)

    return guard(CLI, work, say=lambda line: err.write(line + "\n"), debug="--debug" in argv)
