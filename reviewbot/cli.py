"""The `reviewbot` command: argument parsing, one error handler, exit codes."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from reviewbot import __version__
from reviewbot.config import Config, load_config
from reviewbot.engine.profiles import PROFILES
from reviewbot.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, ReviewbotError, UsageError
from reviewbot.render.style import Style

__all__ = ["build_parser", "main", "use_color"]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def use_color(stream: TextIO, choice: str, environ: dict[str, str] | os._Environ[str]) -> bool:
    if choice == "always":
        return True
    if choice == "never" or ("NO_COLOR" in environ and environ["NO_COLOR"] != ""):
        return False
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


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
        "positions", help="the most important structural positions of files or folders"
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
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
    return parser


def _config(args: argparse.Namespace) -> Config:
    start = Path(
        getattr(args, "location", None)
        or getattr(args, "file", None)
        or (args.paths[0] if getattr(args, "paths", None) else ".")
    )
    if not start.exists():
        start = Path(".")
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
    from reviewbot import inspect
    from reviewbot.render import jsonfmt, text

    config = _config(args)
    for warning in config.warnings:
        stderr.write(f"reviewbot: warning: {warning}\n")
    style = Style(color=args.format == "text" and use_color(stdout, args.color, os.environ))
    if args.command == "positions":
        progress = _progress(stderr)
        result = inspect.positions_of(
            args.paths,
            config,
            limit=args.limit,
            min_coefficient=args.min_coefficient,
            progress=progress,
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


def main(
    argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        args = build_parser().parse_args(argv)
        return _run(args, out, err)
    except ReviewbotError as exc:
        err.write(f"reviewbot: error: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        err.write("reviewbot: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (`reviewbot ... | head`): not an error of ours.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return EXIT_OK
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if isinstance(exc.code, int) or exc.code is None else EXIT_USAGE
    except Exception as exc:  # one line for the user, the traceback only with --debug
        err.write(f"reviewbot: internal error: {type(exc).__name__}: {exc}\n")
        if debug:
            traceback.print_exc(file=err)
        else:
            err.write("reviewbot: this is a bug; run again with --debug for the details\n")
        return EXIT_INTERNAL
