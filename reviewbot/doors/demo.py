"""Build the demo change in a temporary git repository: one commit before, one after."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

__all__ = ["build_demo_repo"]

_ENV = {
    "GIT_AUTHOR_NAME": "reviewbot demo",
    "GIT_AUTHOR_EMAIL": "demo@reviewbot.invalid",
    "GIT_COMMITTER_NAME": "reviewbot demo",
    "GIT_COMMITTER_EMAIL": "demo@reviewbot.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def _git(root: Path, environ: Mapping[str, str], *args: str) -> None:
    env = {**environ, **_ENV, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=root,
        env=env,
        check=True,
        capture_output=True,
    )


def _copy(side: str, root: Path) -> None:
    source = resources.files("reviewbot.demo").joinpath(side)
    for item in source.iterdir():
        if item.name.endswith(".demo"):
            (root / item.name.removesuffix(".demo")).write_bytes(item.read_bytes())


def build_demo_repo(root: Path, environ: Mapping[str, str]) -> str:
    """Create the repository in ``root`` (emptied first); returns the range to review."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    _git(root, environ, "init", "-q")
    _copy("before", root)
    _git(root, environ, "add", "-A")
    _git(root, environ, "commit", "-q", "-m", "before")
    _copy("after", root)
    _git(root, environ, "add", "-A")
    _git(root, environ, "commit", "-q", "-m", "after: member discounts and payment reconciliation")
    return "HEAD~1..HEAD"
