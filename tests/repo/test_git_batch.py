"""Blob sizes and contents from one `git cat-file --batch-command` process, and the same from
the two older commands when git does not know it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from reviewbot.repo.git import Git
from tests.helpers import commit, git, write

MISSING = "1" * 40


def blob_ids(repo: Path) -> list[str]:
    return [line.split()[1] for line in git(repo, "ls-files", "-s").splitlines()]


@pytest.fixture
def filled(repo: Path) -> Path:
    for i in range(300):  # more than one batch of commands
        write(repo, f"f{i:03d}.txt", f"file {i}\n" * (i % 7) + "x" * (i * 13))
    commit(repo)
    return repo


def test_one_process_reads_what_two_do(filled: Path) -> None:
    g = Git(filled)
    shas = [*blob_ids(filled), MISSING]
    sizes, blobs = g.read_blobs(shas, 2000)
    assert sizes == g.sizes(shas) and sizes[MISSING] is None
    small = [s for s in shas if (sizes.get(s) or 0) <= 2000]
    assert blobs == g.blobs(small)
    assert 0 < len(blobs) < len(shas) - 1  # the large ones are left unread
    assert g.read_blobs([], 10) == ({}, {})


def test_an_older_git_is_asked_the_old_way(
    filled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Git(filled)
    shas = blob_ids(filled)
    want = real.read_blobs(shas, 2000)
    shim = tmp_path / "bin" / "git"
    shim.parent.mkdir()
    # git before 2.36: `cat-file --batch-command` is a usage error (exit 129).
    shim.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do [ "$a" = --batch-command ] && { echo usage >&2; exit 129; }; done\n'
        f'exec {git_path()} "$@"\n'
    )
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    assert Git(filled).read_blobs(shas, 2000) == want


def git_path() -> str:
    for folder in os.environ["PATH"].split(os.pathsep):
        candidate = Path(folder) / "git"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise AssertionError("git is not on PATH")
