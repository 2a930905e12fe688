"""The git hook door (`reviewbot-hook`): pre-commit (the framework or a plain git hook) and
pre-push. Warns on complexity spikes in what is about to be committed or pushed.

It never loses work and never blocks a commit because of itself: it only reads (git diff,
cat-file; no index refresh), and on an internal error it prints one line, logs the details
under the git directory and exits 0. Nothing on this path imports scipy or jinja2.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from reviewbot.errors import EXIT_FAIL, EXIT_OK, ReviewbotError

if TYPE_CHECKING:
    from reviewbot.diff.git import Git

# The hook does no linear algebra: one BLAS thread starts numpy about 10 ms sooner. Set before
# numpy is imported (it is, later, by the engine), and never over a user's own setting.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__all__ = ["HookResult", "main", "run_hook"]

_ZERO = "0" * 40
DEFAULT_MAX = 10


class HookResult:
    def __init__(self, text: str, failed: bool) -> None:
        self.text = text
        self.failed = failed


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="reviewbot-hook",
        description="Warn on complexity spikes in the staged change (pre-commit) or the pushed "
        "commits (pre-push). Exits 0 unless --fail-on is met.",
    )
    p.add_argument("files", nargs="*", help="files to review (pre-commit passes the staged ones)")
    p.add_argument(
        "--fail-on",
        choices=("info", "warning", "error", "never"),
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
    from reviewbot.diff.git import EMPTY_TREE

    ranges = []
    for line in stdin.read().splitlines():
        parts = line.split()
        if len(parts) != 4 or parts[1] == _ZERO:
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
    args: argparse.Namespace, cwd: Path, environ: dict[str, str], stdin: TextIO, color: bool
) -> HookResult:
    from reviewbot.analysis.review import review_files
    from reviewbot.config import load_config
    from reviewbot.diff.changes import collect, resolve_range
    from reviewbot.diff.git import Git
    from reviewbot.render.hook_text import hook_text
    from reviewbot.review import fails, options

    # Everything is loaded: keep what exists out of future collections, and collect again.
    gc.freeze()
    gc.enable()
    started = time.monotonic()
    git = Git(cwd)
    busy = _in_progress(git.git_dir())
    if busy:
        return HookResult(
            f"reviewbot: {busy} in progress: its changes are not reviewed again\n", False
        )
    config = load_config(args.config, git.root)
    from_ref, to_ref = environ.get("PRE_COMMIT_FROM_REF"), environ.get("PRE_COMMIT_TO_REF")
    if from_ref and to_ref:
        specs: list[str | None] = [f"{from_ref}..{to_ref}"]
        what = "pushed commits"
    elif args.pre_push:
        specs = list(_push_ranges(stdin, git))
        what = "pushed commits"
    else:
        specs = [None]
        what = "staged change"
    wanted = {f.replace(os.sep, "/") for f in args.files}
    root = git.root.resolve()
    if wanted:
        wanted = {_repo_path(f, cwd, root) for f in wanted}
    files = []
    seen: set[str] = set()  # refs pushed together share commits: each file once
    for spec in specs:
        rng = resolve_range(git, spec, staged=spec is None)
        for cf in collect(git, rng, max_bytes=config.max_file_bytes, exclude=config.exclude):
            if (not wanted or cf.path in wanted) and cf.path not in seen:
                seen.add(cf.path)
                files.append(cf)
    deadline = started + max(0.1, args.time_budget)
    # The hook shows findings only: no hunk context (budget 0), so no wavelet transform runs,
    # and no bundles (so scipy is never imported).
    opts = replace(options(config), budget=0, bundles=False)
    report = review_files(files, opts, base="HEAD", head=what, deadline=deadline)
    left = int(report.stats.get("files_not_reviewed", 0))
    text = hook_text(
        report,
        what,
        max_findings=args.max_findings,
        show_info=args.show_info,
        left_out=left,
        color=color,
    )
    fail_on = args.fail_on or config.fail_on
    failed = bool(fail_on and fail_on != "never" and fails(report, fail_on))
    return HookResult(text, failed)


def _repo_path(name: str, cwd: Path, root: Path) -> str:
    path = Path(name)
    full = (cwd / path) if not path.is_absolute() else path
    try:
        return full.resolve().relative_to(root).as_posix()
    except ValueError:
        return name


def _log_dir(cwd: Path) -> Path | None:
    try:
        from reviewbot.diff.git import Git

        return Git(cwd).git_dir() / "reviewbot"
    except Exception:
        return None


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    # The engine's modules (numpy among them) load lazily below and make many objects: no
    # cyclic collection while they do (run_hook freezes them, then collects as usual).
    gc.disable()
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    cwd = Path.cwd()
    try:
        return _main(argv, out, err, cwd, stdin)
    finally:
        gc.enable()  # whatever happened (main may run inside a longer-lived process)


def _main(
    argv: Sequence[str] | None, out: TextIO, err: TextIO, cwd: Path, stdin: TextIO | None
) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if isinstance(exc.code, int) else 2
    try:
        from reviewbot.render.style import use_color

        color = use_color(out, args.color, os.environ)
        result = run_hook(args, cwd, dict(os.environ), stdin or sys.stdin, color)
        out.write(result.text)
        return EXIT_FAIL if result.failed else EXIT_OK
    except ReviewbotError as exc:
        # A problem with the input or configuration: say it, let the commit through.
        err.write(f"reviewbot: {exc} (the commit is not blocked)\n")
        return EXIT_OK
    except Exception as exc:
        where = _log_dir(cwd)
        detail = "".join(traceback.format_exception(exc))
        shown = "run `reviewbot review --staged --debug` for details"
        if where is not None:
            try:
                where.mkdir(parents=True, exist_ok=True)
                with (where / "hook.log").open("a", encoding="utf-8") as log:
                    log.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{detail}\n")
                shown = f"details in {where / 'hook.log'}"
            except OSError:
                pass
        err.write(
            f"reviewbot: internal error ({type(exc).__name__}: {exc}); {shown}. "
            f"The commit is not blocked.\n"
        )
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
