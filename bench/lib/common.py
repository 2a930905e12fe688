"""What the benchmark scripts share: paths, git with a fixed identity, where reviewbot stands,
the command that reproduces a result, and the writers of prose and results files."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

BENCH = Path(__file__).resolve().parents[1]
ROOT = BENCH.parent
RESULTS = BENCH / "results"
CORPUS = BENCH / ".corpus"  # downloads and extracted sources (git-ignored)

# Commits made by the benchmarks: one identity and one date, no user or system configuration.
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
_GIT_OPTIONS = (
    "-c",
    "core.autocrlf=false",
    "-c",
    "init.defaultBranch=main",
    "-c",
    "commit.gpgsign=false",
    # No `git gc --auto` detached after a large commit: it repacked the 10k objects of a new
    # corpus in the background and took about 2 s of a core from the build timed next.
    "-c",
    "gc.auto=0",
)


def git_bytes(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    """Run git in ``repo`` with the fixed identity; its standard output (raises on failure)."""
    out = subprocess.run(
        ["git", *_GIT_OPTIONS, *args], cwd=repo, input=data, capture_output=True, env=ENV
    )
    if out.returncode != 0:
        said = out.stderr.decode(errors="replace").strip()
        raise RuntimeError(f"git {' '.join(args)} (in {repo}): {said}")
    return out.stdout


def git(repo: Path, *args: str) -> str:
    """``git_bytes`` as text (undecodable bytes kept as surrogates)."""
    return git_bytes(repo, *args).decode("utf-8", "surrogateescape")


def write_tree(repo: Path, files: dict[str, bytes]) -> None:
    """Make the work tree of ``repo`` hold exactly ``files`` (path -> content), ``.git`` kept."""
    for child in repo.iterdir():
        if child.name != ".git":
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    for rel, data in files.items():
        target = repo / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def dirty_paths(folder: str = "reviewbot") -> list[str]:
    """Files under ``folder`` of this checkout that differ from its HEAD commit."""
    status = git(ROOT, "status", "--porcelain", "--", folder)
    return [line[3:] for line in status.splitlines() if line.strip()]


def revision(short: int = 7) -> str:
    """Where reviewbot stands: ``commit abc1234``, and whether reviewbot/ has local changes."""
    try:
        head = git(ROOT, "rev-parse", f"--short={short}", "HEAD").strip()
        dirty = dirty_paths()
    except (OSError, RuntimeError):
        return "an unknown revision"
    return f"commit {head}" + (" with uncommitted changes under reviewbot/" if dirty else "")


def versions(*tools: str) -> str:
    """What a run used: reviewbot's revision, Python, the ``tools`` named (`numpy 2.4.6`), and
    git."""
    git_version = subprocess.run(
        ["git", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    parts = [f"reviewbot at {revision(12)}", f"Python {sys.version.split()[0]}", *tools]
    return ", ".join([*parts, git_version])


def command_line(script: str, argv: Sequence[str] | None) -> str:
    """The command that reproduces a run of ``bench/<script>`` with ``argv``."""
    args = sys.argv[1:] if argv is None else list(argv)
    return " ".join([".venv/bin/python", f"bench/{script}", *args])


def para(text: str, width: int = 100) -> list[str]:
    """A Markdown paragraph, wrapped, and the blank line after it."""
    return [*textwrap.wrap(" ".join(text.split()), width=width), ""]


def write_result(out: str | Path, lines: Sequence[str]) -> Path:
    """Write a Markdown results file (one element per line) and say where."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return path


def write_json(out: Path, payload: Any) -> Path:
    """Write raw results as indented JSON."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return out


def exported_tree(rev: str, into: Path) -> Path:
    """``reviewbot/`` of revision ``rev`` of this repository, written under ``into`` (made):
    another version to run beside this one."""
    into.mkdir(parents=True, exist_ok=True)
    data = git_bytes(ROOT, "archive", rev, "reviewbot")
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        tf.extractall(into, filter="data")
    return into


T = TypeVar("T")


def alternate_builds(
    rev: str, runs: int, tmp: Path, repo: Path, build_once: Callable[[Path, Path, Path], T]
) -> tuple[dict[str, list[T]], list[float]]:
    """``build_once(tree, repo, database)`` for this checkout and for ``reviewbot/`` of
    ``rev`` (exported under ``tmp``), ``runs`` times each, alternating which goes first; both
    byte-compiled, as ``pip install`` leaves a package. The results by version (``rev`` and
    "this"), and the load averages before each build and after the last."""
    trees = {rev: exported_tree(rev, tmp / "old"), "this": ROOT}
    for tree in trees.values():
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(tree / "reviewbot")], check=True
        )
    results: dict[str, list[T]] = {name: [] for name in trees}
    loads: list[float] = []
    for k in range(runs):
        names = list(trees) if k % 2 == 0 else list(reversed(trees))
        for name in names:
            loads.append(os.getloadavg()[0])
            results[name].append(build_once(trees[name], repo, tmp / "i.sqlite"))
    loads.append(os.getloadavg()[0])
    return results, loads


MIRRORS = Path("/work/.mirror")  # local git mirrors of real repositories (`fetch`)


def clone_mirror(name: str, into: Path) -> Path:
    """A fresh clone of the mirror ``owner+name`` at its newest commit, as ``into/name``."""
    mirror = MIRRORS / name / "repo"
    if not mirror.exists():
        raise SystemExit(f"{mirror}: no such mirror")
    repo = into / name
    subprocess.run(["git", "clone", "-q", str(mirror), str(repo)], check=True)
    return repo


def run_version(
    tree: Path, repo: Path, database: Path, *argv: str
) -> subprocess.CompletedProcess[str]:
    """``reviewbot ARGV`` of the version whose ``reviewbot/`` is under ``tree``, in ``repo``
    (`-m` puts the current folder first on the path: run elsewhere, this checkout would win),
    with its own index ``database``, at 80 columns."""
    env = dict(ENV, PYTHONPATH=str(tree), REVIEWBOT_INDEX=str(database), COLUMNS="80")
    return subprocess.run(
        [sys.executable, "-m", "reviewbot", *argv],
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
