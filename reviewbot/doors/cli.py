"""The `reviewbot` command: argument parsing, one error handler, exit codes."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from reviewbot import __version__
from reviewbot.doors import index_cli
from reviewbot.doors.guard import CLI, EXIT_FAIL, EXIT_OK, EXIT_USAGE, guard
from reviewbot.engine.profiles import PROFILES
from reviewbot.errors import InputError, UsageError
from reviewbot.model import FailLevel

if TYPE_CHECKING:
    from reviewbot.app.config import Config
    from reviewbot.app.pipeline import ChangeSource
    from reviewbot.model import Finding
    from reviewbot.render.style import Style
    from reviewbot.repo.cache import Cache

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _common(p: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    p.add_argument("--format", choices=formats, default="text", help="output format")
    p.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default=None,
        help="engine profile (default: from configuration, else 'review')",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file (default: found "
        "from the repository root: .reviewbot.toml or pyproject.toml)",
    )
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour text output (auto: on a terminal, unless NO_COLOR is set)",
    )
    p.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="reviewbot",
        description=(
            "Structural code review: wavelet-based structure signals for any language, "
            "computed where a change is."
        ),
    )
    parser.add_argument("--version", action="version", version=f"reviewbot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "review",
        help="review a change: structural deltas of the units it touches "
        "(like git diff: no argument = working tree and index vs HEAD)",
    )
    p.add_argument(
        "range",
        nargs="?",
        metavar="REV | A..B | A...B",
        help="REV = REV vs the working tree; A..B; A...B (from the merge base)",
    )
    p.add_argument("--staged", "--cached", action="store_true", help="the index against HEAD")
    p.add_argument("--patch", metavar="FILE", help="read a unified diff from FILE ('-' = stdin)")
    p.add_argument(
        "--demo",
        action="store_true",
        help="review a small example change built in a temporary repository",
    )
    p.add_argument(
        "--fail-on",
        choices=("info", "warning", "error", "never", "none"),
        default=None,
        help="exit 1 when a finding of this severity or worse is found",
    )
    p.add_argument("--max-findings", type=int, default=None, help="findings to show (default 50)")
    p.add_argument(
        "--budget",
        type=int,
        default=None,
        help="tokens for the hunk context, or with --format prompt for the whole context "
        "pack (about 4 characters a token; default 6000)",
    )
    p.add_argument("--context", action="store_true", help="text format: show the hunk context")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="do not read or write the cache (.git/reviewbot/cache, or REVIEWBOT_CACHE_DIR)",
    )
    p.add_argument(
        "-C",
        dest="directory",
        metavar="DIR",
        default=".",
        help="run as if started in DIR (the repository to review)",
    )
    _common(p, ("text", "json", "markdown", "sarif", "prompt"))

    for name, verb in (("install-hooks", "install"), ("uninstall-hooks", "remove")):
        p = sub.add_parser(
            name,
            help=f"{verb} plain git hooks (pre-commit, pre-push) that run "
            "reviewbot-hook, for repositories without the pre-commit framework",
        )
        p.add_argument("--hook", choices=("pre-commit", "pre-push", "all"), default="all")
        if name == "install-hooks":
            p.add_argument(
                "--chain",
                action="store_true",
                help="keep an existing hook and run it before reviewbot",
            )
        p.add_argument("-C", dest="directory", metavar="DIR", default=".")
        p.add_argument("--config", help=argparse.SUPPRESS)
        p.add_argument("--profile", help=argparse.SUPPRESS)
        p.add_argument("--format", default="text", help=argparse.SUPPRESS)
        p.add_argument("--color", default="auto", help=argparse.SUPPRESS)
        p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    p = sub.add_parser(
        "hotspots",
        help="files and units that change often and are "
        "structurally irregular (git log x irregularity)",
    )
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        default=[],
        help="limit to these paths (default: the whole repository)",
    )
    p.add_argument("--limit", type=int, default=20, help="files to list (default 20)")
    p.add_argument(
        "--commits", type=int, default=1000, help="how many recent commits to count (default 1000)"
    )
    p.add_argument("--no-cache", action="store_true", help="do not use the cache")
    p.add_argument("-C", dest="directory", metavar="DIR", default=".")
    _common(p, ("text", "json"))

    p = sub.add_parser(
        "mcp",
        help="serve the Model Context Protocol over stdio (tools for "
        "coding agents: context, positions, entropy, heatmap, diff, review)",
    )
    p.add_argument("--root", default=".", help="the folder served (paths stay inside it)")
    for hidden in ("--config", "--profile", "--format", "--color"):
        p.add_argument(hidden, default=None, help=argparse.SUPPRESS)
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    p = sub.add_parser(
        "github",
        help="the GitHub Action: review the pull request of this "
        "workflow run and post the results (reads the Actions environment)",
    )
    for hidden in ("--config", "--profile", "--format", "--color"):
        p.add_argument(hidden, default=None, help=argparse.SUPPRESS)
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)

    p = sub.add_parser(
        "positions", help="the most important structural positions of files or folders"
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="do not read or write the cache (.git/reviewbot/cache, or REVIEWBOT_CACHE_DIR)",
    )
    p.add_argument("--limit", type=int, default=20, help="positions per file (default 20)")
    p.add_argument(
        "--min-coefficient",
        type=float,
        default=0.3,
        help="smallest |coefficient| to report (default 0.3; in the review profile "
        "declarations always qualify)",
    )
    _common(p, ("text", "json"))

    p = sub.add_parser("context", help="three zoom levels of context around a line")
    p.add_argument("location", metavar="FILE[:LINE]")
    p.add_argument(
        "--radius",
        type=int,
        default=300,
        help="lines around the centre "
        "(default 300; fine band = max(10, R/5), medium = R/2, coarse = R)",
    )
    _common(p, ("text", "json"))

    p = sub.add_parser("entropy", help="bit cost of each wavelet scale of a file")
    p.add_argument("file", metavar="FILE")
    _common(p, ("text", "json"))

    p = sub.add_parser("heatmap", help="per-line irregularity of a file")
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--top",
        type=int,
        default=10,
        help="how many of the most irregular lines to list (default 10)",
    )
    p.add_argument(
        "--summary",
        action="store_true",
        help="only the sparkline and the top lines, not the whole file",
    )
    _common(p, ("text", "json"))
    index_cli.add_parsers(sub)
    return parser


def _config(args: argparse.Namespace) -> Config:
    start = Path(
        getattr(args, "location", None)
        or getattr(args, "file", None)
        or (args.paths[0] if getattr(args, "paths", None) else None)
        or getattr(args, "directory", None)
        or "."
    )
    if not start.exists():
        start = Path(".")
    # Lazy: the configuration imports the engine's language tables (about 45 ms of CPU);
    # `reviewbot --help` and usage errors need none of it.
    from reviewbot.app.config import load_config

    config = load_config(args.config, start if start.is_dir() else start.parent)
    return config.with_overrides(profile=args.profile)


def _progress(stream: TextIO) -> Callable[[int, str], None] | None:
    if not getattr(stream, "isatty", lambda: False)():
        return None

    def show(count: int, path: str) -> None:
        if count % 25 == 0:
            stream.write(f"\r\x1b[Kscanning {count} files... {path[-60:]}")
            stream.flush()

    return show


def _run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    if args.command in index_cli.COMMANDS:
        return index_cli.run(args, stdout, stderr)
    if args.command == "mcp":
        # Lazy: the MCP SDK is an optional extra, and only this command needs it.
        try:
            from reviewbot.doors.mcp import main as mcp_main
        except ImportError:
            raise InputError(
                "the MCP server needs the `mcp` package: install reviewbot with its `mcp` extra"
            ) from None
        return mcp_main(Path(args.root))
    if args.command == "github":  # its configuration comes from the PR's base commit
        # Lazy: PyGithub costs about 0.3 s to import; only this command uses it.
        from reviewbot.doors.github.action import main as github_main

        return github_main([], stdout=stdout)
    config = _config(args)
    for warning in config.warnings:
        stderr.write(f"reviewbot: warning: {warning}\n")
    # Lazy: the terminal styles are only for the commands below, not the index queries.
    from reviewbot.render.style import Style, use_color

    style = Style(color=args.format == "text" and use_color(stdout, args.color, os.environ))
    if args.command == "review":
        return _review(args, config, style, stdout)

    if args.command in ("install-hooks", "uninstall-hooks"):
        # Lazy: the installer (about 55 ms of CPU with its imports) serves these two commands.
        from reviewbot.doors.install import HOOK_TYPES, install_hooks, uninstall_hooks

        kinds = HOOK_TYPES if args.hook == "all" else (args.hook,)
        where = Path(args.directory)
        lines = (
            install_hooks(where, kinds, args.chain, _hook_program())
            if args.command == "install-hooks"
            else uninstall_hooks(where, kinds)
        )
        stdout.write("".join(f"{line}\n" for line in lines))
        return EXIT_OK
    if args.command == "hotspots":
        return _hotspots(args, config, style, stdout)
    # Lazy: the inspectors and their renderers import numpy and the engine (about 0.25 s of
    # CPU); only the four commands below use them.
    from reviewbot.app import inspect
    from reviewbot.render import jsonfmt, text

    if args.command == "positions":
        progress = _progress(stderr)
        cache = _cache(Path(args.paths[0]), args.no_cache)
        result = inspect.positions_of(
            args.paths,
            config,
            limit=args.limit,
            min_coefficient=args.min_coefficient,
            progress=progress,
            cache=cache,
        )
        if progress is not None:
            stderr.write("\r\x1b[K")
        stdout.write(
            jsonfmt.dumps(jsonfmt.positions_doc(result))
            if args.format == "json"
            else text.positions_text(result, style)
        )
    elif args.command == "context":
        ctx = inspect.context_of(args.location, config, radius=args.radius)
        stdout.write(
            jsonfmt.dumps(jsonfmt.context_doc(ctx))
            if args.format == "json"
            else text.context_text(ctx, style)
        )
    elif args.command == "entropy":
        res = inspect.file_result(args.file, config)
        stdout.write(
            jsonfmt.dumps(jsonfmt.entropy_doc(res))
            if args.format == "json"
            else text.entropy_text(res, style)
        )
    elif args.command == "heatmap":
        if args.top < 0:
            raise UsageError(f"--top must be >= 0, got {args.top}")
        res = inspect.file_result(args.file, config)
        stdout.write(
            jsonfmt.dumps(jsonfmt.heatmap_doc(res))
            if args.format == "json"
            else text.heatmap_text(res, style, args.top, full=not args.summary)
        )
    return EXIT_OK


def _hook_program() -> str:
    """The `reviewbot-hook` of this installation (beside the running interpreter)."""
    candidate = Path(sys.executable).parent / "reviewbot-hook"
    return str(candidate.absolute()) if candidate.exists() else ""


def _cache(start: Path, disabled: bool) -> Cache:
    # Lazy: the cache imports the git wrapper and the findings (about 75 ms of CPU); the
    # commands that read no cache never pay for it.
    from reviewbot.repo.cache import find_cache

    return find_cache(start, disabled=disabled, override=os.environ.get("REVIEWBOT_CACHE_DIR"))


def _review(args: argparse.Namespace, config: Config, style: Style, stdout: TextIO) -> int:
    if sum(bool(x) for x in (args.range, args.patch, args.demo)) > 1 or (
        args.staged and (args.patch or args.demo)
    ):
        raise UsageError("give one of: a revision range, --staged, --patch or --demo")
    if args.max_findings is not None and args.max_findings < 0:
        raise UsageError(f"--max-findings must be >= 0, got {args.max_findings}")
    if args.budget is not None and args.budget < 0:
        raise UsageError(f"--budget must be >= 0, got {args.budget}")
    config = config.with_overrides(max_findings=args.max_findings, budget=args.budget)
    # Lazy: the review pipeline and the demo repository (about 0.1 s of CPU) are this
    # command's alone.
    from reviewbot.app.pipeline import GitChange, PatchChange, review
    from reviewbot.doors.demo import build_demo_repo

    # Lazy: the report renderers (about 0.1 s of CPU) serve this command only.
    from reviewbot.render.formats import PACK_FORMATS, RenderOptions, render_report
    from reviewbot.render.style import encodes, terminal_width

    patch_text = None
    if args.patch == "-":
        patch_text = sys.stdin.read()
    elif args.patch:
        try:
            patch_text = Path(args.patch).read_text(encoding="utf-8", errors="surrogateescape")
        except OSError as exc:
            raise UsageError(f"{args.patch}: cannot read the patch: {exc.strerror}") from None
    fail_on = FailLevel.parse(args.fail_on, "--fail-on") if args.fail_on else config.fail_on
    environ = dict(os.environ)
    source: ChangeSource
    if args.format in PACK_FORMATS:
        findings = _pack(args, config, patch_text, environ, stdout)
        return EXIT_FAIL if fail_on.met_by(findings) else EXIT_OK
    if args.demo:
        with tempfile.TemporaryDirectory(prefix="reviewbot-demo-") as tmp:
            repo = Path(tmp) / "demo"
            spec = build_demo_repo(repo, environ)
            report = review(GitChange(repo, (spec,), environ=environ), config)
    else:
        cwd = Path(args.directory)
        if patch_text is not None:
            source = PatchChange(patch_text, cwd, environ)
        else:
            source = GitChange(cwd, (args.range,), args.staged, environ=environ)
        report = review(source, config, cache=_cache(cwd, args.no_cache))
    options = RenderOptions(
        color=style.color,
        context=args.context,
        width=terminal_width(stdout, os.environ),
        ascii_arrows=not encodes(stdout, "→"),
    )
    stdout.write(render_report(report, args.format, options))
    return EXIT_FAIL if fail_on.met_by(report.findings) else EXIT_OK


def _pack(
    args: argparse.Namespace,
    config: Config,
    patch_text: str | None,
    environ: dict[str, str],
    stdout: TextIO,
) -> tuple[Finding, ...]:
    """`review --format prompt`: the context pack for a model, within --budget tokens; its
    findings (--fail-on applies to them as to every format)."""
    # Lazy: as in `_review`, the pipeline, the pack and its renderer serve this command only.
    from reviewbot.app.context_pack import context_pack
    from reviewbot.app.pipeline import GitChange, PatchChange
    from reviewbot.doors.demo import build_demo_repo

    # Lazy: the pack's renderer, like the report renderers, serves this command only.
    from reviewbot.render.formats import render_pack

    index_file = Path(environ["REVIEWBOT_INDEX"]) if environ.get("REVIEWBOT_INDEX") else None
    source: ChangeSource
    if args.demo:
        with tempfile.TemporaryDirectory(prefix="reviewbot-demo-") as tmp:
            repo = Path(tmp) / "demo"
            spec = build_demo_repo(repo, environ)
            pack = context_pack(
                GitChange(repo, (spec,), environ=environ), config, budget=config.budget
            )
    else:
        cwd = Path(args.directory)
        if patch_text is not None:
            source = PatchChange(patch_text, cwd, environ)
        else:
            source = GitChange(cwd, (args.range,), args.staged, environ=environ)
        pack = context_pack(
            source,
            config,
            budget=config.budget,
            index_file=index_file,
            cache=_cache(cwd, args.no_cache),
        )
    stdout.write(render_pack(pack, args.format))
    return pack.findings


def _hotspots(args: argparse.Namespace, config: Config, style: Style, stdout: TextIO) -> int:
    if args.limit < 1 or args.commits < 1:
        raise UsageError("--limit and --commits must be at least 1")
    # Lazy: the hotspot finder imports numpy and the engine (about 0.23 s of CPU); only this
    # command uses it.
    from reviewbot.analysis.hotspots import EngineSettings, find_hotspots
    from reviewbot.render import jsonfmt, text

    # Lazy: with the renderers above, this command's alone (as `review` imports it).
    from reviewbot.render.style import terminal_width

    # Lazy: the git wrapper (about 40 ms of CPU) is not needed to parse the arguments.
    from reviewbot.repo.git import Git

    root = Path(args.directory)
    cache = _cache(root, args.no_cache)
    settings = EngineSettings(config.profile, config.registry, config.max_file_bytes)
    git = Git(root, environ=os.environ)
    found = find_hotspots(git, args.paths, settings, cache, commits=args.commits, limit=args.limit)
    stdout.write(
        jsonfmt.dumps(jsonfmt.hotspots_doc(found, config.profile))
        if args.format == "json"
        else text.hotspots_text(found, style, width=terminal_width(stdout, os.environ))
    )
    return EXIT_OK


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)

    def work() -> int:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help and --version
            code = exc.code
            return int(code or 0) if isinstance(code, int) or code is None else EXIT_USAGE
        return _run(args, out, err)

    return guard(CLI, work, say=lambda line: err.write(line + "\n"), debug="--debug" in argv)
