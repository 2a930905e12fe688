"""Where a repository is, in one `git rev-parse` and without importing the rest of the repo
layer (the diff parser and the records cost more than a whole index query): for the paths a
fast command needs before it knows whether it must do any real work."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from reviewbot.errors import InputError

__all__ = ["Located", "locate"]


class Located:
    """A repository's top folder and git directory, and the environment git runs with; the
    same attributes as :class:`reviewbot.repo.git.Git` has for these."""

    def __init__(self, root: Path, git_dir: Path, environ: Mapping[str, str] | None) -> None:
        self.root = root
        self._git_dir = git_dir
        self.environ = None if environ is None else dict(environ)

    def git_dir(self) -> Path:
        return self._git_dir


def locate(cwd: Path | str, environ: Mapping[str, str] | None = None) -> Located:
    folder = Path(cwd)
    if not folder.is_dir():
        raise InputError(f"{folder}: no such directory")
    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--show-toplevel", "--absolute-git-dir"],
            cwd=folder,
            capture_output=True,
            env=None if environ is None else dict(environ),
            check=False,
        )
    except FileNotFoundError:
        raise InputError("git is not installed (or not on PATH)") from None
    except PermissionError as exc:
        raise InputError(f"{folder}: cannot run git there: {exc.strerror}") from None
    lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
    if proc.returncode != 0 or len(lines) < 2 or not lines[1]:
        said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        first = said[0].removeprefix("fatal: ") if said else f"exit code {proc.returncode}"
        if "not a git repository" in first:
            raise InputError(f"{folder}: not a git repository")
        raise InputError(f"{folder}: git could not find the repository: {first}")
    return Located(Path(lines[0]), Path(lines[1]), environ)
