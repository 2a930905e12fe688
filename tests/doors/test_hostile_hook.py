"""Hostile inputs at the hook: every name git can store is reviewed (the strict hook fails on
its spike), Ctrl-C is quiet, the totals are true, pushed refs are validated."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reviewbot.doors import hook
from tests.doors.test_hostile_cli import HOSTILE_NAMES, SIMPLE, SPIKED
from tests.helpers import commit, git, write


def run_hook(
    repo: Path, *argv: str, monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    out, err = io.StringIO(), io.StringIO()
    code = hook.main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=lambda n: repr(n))
def test_the_strict_hook_fails_on_a_spike_whatever_the_name(
    repo: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    write(repo, name, SIMPLE)
    commit(repo)
    write(repo, name, SPIKED)
    git(repo, "add", "-A")
    code, out, err = run_hook(repo, "--fail-on", "warning", monkeypatch=monkeypatch)
    assert code == 1, (out, err)
    assert "RB101" in out and "\x1b[31mred" not in out


def test_the_header_counts_every_finding_not_the_cap(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(60):
        write(repo, f"m{i:02d}.py", SIMPLE)
    commit(repo)
    for i in range(60):
        write(repo, f"m{i:02d}.py", SPIKED)
    git(repo, "add", "-A")
    code, out, _ = run_hook(repo, "--max-findings", "5", monkeypatch=monkeypatch)
    assert code == 0
    assert out.splitlines()[0].startswith("reviewbot: 60 finding(s) in 60 file(s)")
    assert "... and 55 more" in out


@pytest.mark.parametrize(
    "line",
    [
        "refs/heads/main --upload-pack=x refs/heads/main " + "0" * 40,
        "refs/heads/main HEAD~1 refs/heads/main " + "1" * 40,
        "refs/heads/main " + "g" * 40 + " refs/heads/main " + "0" * 40,
    ],
)
def test_pushed_object_ids_are_validated(
    repo: Path, monkeypatch: pytest.MonkeyPatch, line: str
) -> None:
    write(repo, "a.py", SIMPLE)
    commit(repo)
    code, out, err = run_hook(repo, "--pre-push", monkeypatch=monkeypatch, stdin=line + "\n")
    assert code == 0 and out == ""
    assert "not an object id" in err and "not blocked" in err
    assert len(err.strip().splitlines()) == 1


def test_ctrl_c_is_quiet(repo: Path) -> None:
    for i in range(40):
        write(repo, f"m{i:02d}.py", SIMPLE * 200)
    commit(repo)
    for i in range(40):
        write(repo, f"m{i:02d}.py", SPIKED * 200)
    git(repo, "add", "-A")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # Interrupt once the interpreter runs our code (Python's own start-up, site, is not ours
    # to quiet): after as long as a bare interpreter takes to start here, and well into it.
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    startup = time.monotonic() - started
    for extra in (0.02, 0.3):
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "reviewbot-hook")],
            cwd=repo,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(startup * 1.5 + extra)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
        assert proc.returncode in (0, 130), (proc.returncode, err)
