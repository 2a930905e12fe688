"""The git hook door (`reviewbot-hook`): pre-commit (the framework or a plain git hook) and
pre-push. Warns on complexity spikes in what is about to be committed or pushed.

It never loses work and never blocks a commit because of itself: it only reads (git diff,
cat-file; no index refresh; a repository index, when there is one, is read in a transaction
that is rolled back), and on an internal error it prints one line, logs the details under the
git directory and exits 0. Nothing on this path imports numpy, scipy, jinja2 or
dataclasses: units are measured with the engine's plain-Python kernels (numpy's numbers, bit
for bit), and the full review's modules are not loaded (the hook runs a fast review).
"""

from __future__ import annotations

import gc

# The modules make many objects while they load: no cyclic collection during these imports,
# then they are frozen out of later collections and collection goes on as usual.
gc.disable()

import argparse  # noqa: E402
import contextlib  # noqa: E402
import io  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402

# The hook does no linear algebra: one BLAS thread starts numpy about 10 ms sooner, should a
# unit of 20,000 lines or more import it (engine/lines.py). Never over a user's own setting.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Mapping, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import NamedTuple, TextIO  # noqa: E402

from reviewbot.app.config import load_config  # noqa: E402
from reviewbot.app.pipeline import GitChange, Mode, review  # noqa: E402
from reviewbot.doors.guard import EXIT_FAIL, EXIT_OK, HOOK, guard  # noqa: E402
from reviewbot.errors import InputError, ReviewbotError  # noqa: E402
from reviewbot.model import FailLevel, Report  # noqa: E402
from reviewbot.render.hook_text import hook_text  # noqa: E402
from reviewbot.render.style import use_color, visible  # noqa: E402
from reviewbot.repo.git import EMPTY_TREE, Git  # noqa: E402

gc.freeze()
gc.enable()

__all__ = ["HookResult", "main", "run_hook"]

_ZERO = "0" * 40
_OBJECT_ID = r"[0-9a-f]{40}|[0-9a-f]{64}"  # compiled on first use (pre-push only)
DEFAULT_MAX = 10


class HookResult(NamedTuple):
    text: str
    failed: bool
    report: Report | None = None  # None when nothing was reviewed (a merge in progress)


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter, sized without shutil: argparse makes one for every argument it
    adds, and shutil.get_terminal_size imports shutil with zlib, bz2 and lzma (~3 ms of every
    hook run) where only a help text needs the width. The same width as shutil's."""

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ.get("COLUMNS", "0"))
        except ValueError:
            columns = 0
        if columns <= 0 and sys.__stdout__ is not None:
            try:
                columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 0
        super().__init__(prog, width=(columns if columns > 0 else 80) - 2)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="reviewbot-hook",
        formatter_class=_Formatter,
        description="Warn on complexity spikes in the staged change (pre-commit) or the pushed "
        "commits (pre-push). Exits 0 unless --fail-on is met.",
    )
    p.add_argument("files", nargs="*", help="files to review (pre-commit passes the staged ones)")
    p.add_argument(
        "--fail-on",
        choices=("info", "warning", "error", "never", "none"),
        default=None,
        help="fail (exit 1) at this severity or worse; default: never (warn only)",
    )
    p.add_argument(
        "--max-findings",
        type=int,
        default=DEFAULT_MAX,
        help=f"findings to print, then a count (default {DEFAULT_MAX})",
    )
    p.add_argument("--show-info", action="store_true", help="also print info-level findings")
    p.add_argument(
        "--pre-push",
        action="store_true",
        help="plain git pre-push hook: read the pushed refs from stdin",
    )
    p.add_argument(
        "--time-budget",
        type=float,
        default=10.0,
        help="seconds to spend at most; then a summary of what was left (default 10)",
    )
    p.add_argument("--config", metavar="FILE", help="configuration file")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    return p


def _in_progress(git_dir: Path) -> str | None:
    """A merge, rebase or cherry-pick replays changes that were reviewed already."""
    for name, what in (
        ("MERGE_HEAD", "merge"),
        ("CHERRY_PICK_HEAD", "cherry-pick"),
        ("REVERT_HEAD", "revert"),
        ("rebase-merge", "rebase"),
        ("rebase-apply", "rebase"),
    ):
        if (git_dir / name).exists():
            return what
    return None


def _push_ranges(stdin: TextIO, git: Git) -> list[str]:
    """Ranges from git's pre-push input: `<local ref> <local sha> <remote ref> <remote sha>`.

    A ref new to the remote is reviewed from the parent of its oldest commit that no remote
    has yet (from the empty tree when that commit is a root)."""
    ranges = []
    for line in stdin.read().splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        for sha in (parts[1], parts[3]):
            if not re.fullmatch(_OBJECT_ID, sha):
                raise InputError(f"pre-push: {visible(sha)[:80]!r} is not an object id")
        if parts[1] == _ZERO:
            continue  # a deleted ref: nothing to review
        local, remote = parts[1], parts[3]
        if remote != _ZERO:
            ranges.append(f"{remote}..{local}")
            continue
        new = git.run(
            "rev-list",
            "--reverse",
            "--topo-order",
            local,
            "--not",
            "--remotes",
            what="list the commits no remote has",
        ).split()
        if not new:
            continue  # every commit is on a remote already
        parents = git.run("rev-list", "--parents", "-n", "1", new[0].decode(), what="find a parent")
        fields = parents.decode().split()
        ranges.append(f"{fields[1] if len(fields) > 1 else EMPTY_TREE}..{local}")
    return ranges


def run_hook(
    args: argparse.Namespace,
    cwd: Path,
    environ: Mapping[str, str],
    stdin: TextIO,
    color: bool,
) -> HookResult:
    started = time.monotonic()
    git = Git(cwd, environ=environ)
    busy = _in_progress(git.git_dir())
    if busy:
        return HookResult(
            f"reviewbot: {busy} in progress: its changes are not reviewed again\n", False
        )
    config = load_config(args.config, git.root)
    from_ref, to_ref = environ.get("PRE_COMMIT_FROM_REF"), environ.get("PRE_COMMIT_TO_REF")
    specs: tuple[str | None, ...]
    if from_ref and to_ref:
        specs = (f"{from_ref}..{to_ref}",)
        what = "pushed commits"
    elif args.pre_push:
        specs = tuple(_push_ranges(stdin, git))
        what = "pushed commits"
    else:
        specs = (None,)
        what = "staged change"
    root = git.root.resolve()
    wanted = frozenset(_repo_path(f.replace(os.sep, "/"), cwd, root) for f in args.files)
    staged = specs == (None,)
    source = GitChange(git.cwd, specs, staged, paths=wanted or None, environ=environ, git=git)
    deadline = started + max(0.1, args.time_budget)
    # The hook shows findings only: no hunk context, bundles or history (FAST mode), and
    # RB105/RB106 when the repository has an index; it counts every finding and prints the
    # first --max-findings.
    everything = config.with_overrides(max_findings=10**6)
    report = review(source, everything, mode=Mode.FAST, deadline=deadline)
    text = hook_text(
        report,
        what,
        max_findings=args.max_findings,
        show_info=args.show_info,
        left_out=report.stats.files_not_reviewed,
        color=color,
        # What shows the rest: the range the hook reviewed (pre-push), else the staged change.
        rerun="reviewbot review --staged"
        if staged
        else "reviewbot review " + " ".join(_short_range(s) for s in specs if s),
    )
    fail_on = FailLevel.parse(args.fail_on, "--fail-on") if args.fail_on else config.fail_on
    return HookResult(text, fail_on.met_by(report.findings), report)


def _short_range(spec: str) -> str:
    """`A..B` with commit ids cut to 12 characters (the hook's lines keep to 80 columns; the
    empty tree, which no repository stores, keeps its whole id)."""
    sides = spec.split("..")
    return "..".join(
        s[:12]
        if len(s) == 40 and s != EMPTY_TREE and all(c in "0123456789abcdef" for c in s)
        else s
        for s in sides
    )


def _repo_path(name: str, cwd: Path, root: Path) -> str:
    path = Path(name)
    full = (cwd / path) if not path.is_absolute() else path
    try:
        return full.resolve().relative_to(root).as_posix()
    except ValueError:
        return name


def _log_file(cwd: Path) -> Path | None:
    try:
        return Git(cwd).git_dir() / "reviewbot" / "hook.log"
    except ReviewbotError:  # no repository: no log, the one line says it all
        return None


def files_last(argv: list[str], parser: argparse.ArgumentParser | None = None) -> list[str]:
    """pre-commit runs ``entry + args + file names`` with no ``--`` between them, so a staged
    file named ``--fail-on=never`` or ``--help`` would be read as an option (a strict hook
    switched off by adding a file). The file names are the tail of existing, distinct paths
    after the shortest head that reads as complete options of the hook's own; ``--`` goes
    before them. Nothing changes when no such split exists."""
    start = len(argv)
    seen: set[str] = set()
    while start > 0 and argv[start - 1] not in seen and os.path.lexists(argv[start - 1]):
        start -= 1
        seen.add(argv[start])
    parser = parser or _parser()
    for k in range(start, len(argv) + 1):
        head = argv[:k]
        try:
            with (
                contextlib.redirect_stderr(io.StringIO()),
                contextlib.redirect_stdout(io.StringIO()),
            ):
                parsed = parser.parse_args(head)
        except SystemExit:
            continue
        if not parsed.files:  # the head holds options only: the rest are the files
            return [*head, "--", *argv[k:]] if k < len(argv) else head
    return argv


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    cwd = Path.cwd()
    given = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if os.environ.get("PRE_COMMIT") == "1":
        given = files_last(given, parser)
    try:
        args = parser.parse_args(given)
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else 2

    def work() -> int:
        color = use_color(out, args.color, os.environ)
        result = run_hook(args, cwd, os.environ, stdin or sys.stdin, color)
        out.write(result.text)
        return EXIT_FAIL if result.failed else EXIT_OK

    return guard(
        HOOK, work, say=lambda line: err.write(line + "\n"), log_file=lambda: _log_file(cwd)
    )


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
