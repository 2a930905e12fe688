"""Hostile inputs at the command line: file names, contents, revisions, configurations and
patches that a repository (or an attacker) can hand reviewbot. Each must be reviewed exactly
like a plain one, or refused in one line naming the problem; never a hang, a traceback, a
silent skip or a terminal escape from the repository."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import commit, git, write
from tests.render.gfm import check_markdown

SIMPLE = "def work(x):\n    return x\n"
SPIKED = (
    "def work(x):\n"
    + "".join(f"    if x > {i} and x < {i + 50}:\n        x -= {i}\n" for i in range(5))
    + "    return x\n"
)

# Names git can store that a pull request author chooses freely.
HOSTILE_NAMES = [
    'dq"x.py',
    "bs\\x.py",
    "tab\tx.py",
    "nl\nx.py",
    "a) <img src=x onerror=alert(2)> @octocat (.py",
    "m|<!-- reviewbot:summary -->|.py",
    "sp ace [l](u) *b* `c`.py",
    "ünï cødé.py",
    "-dash.py",
    "esc\x1b[31mred.py",
    # Found by tests/doors/test_name_properties.py: a backslash before `.py`, and a byte
    # that is not UTF-8 (0xFF, as os.fsdecode reads it).
    "\\.py",
    "\udcff.py",
]


def spiked_repo(repo: Path, name: str) -> Path:
    write(repo, name, SIMPLE)
    commit(repo)
    write(repo, name, SPIKED)
    return repo


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=lambda n: repr(n))
def test_every_name_is_reviewed_like_a_plain_one(repo: Path, cli: Any, name: str) -> None:
    spiked_repo(repo, name)
    run = cli("review", "-C", str(repo), "--format", "json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    (entry,) = doc["files"]
    assert entry["path"] == name and entry["status"] == "modified"
    assert entry["added"] > 0 and [u["label"] for u in entry["units"]] == ["def work"]
    assert [f["code"] for f in doc["findings"]][:1] == ["RB101"]
    assert doc["findings"][0]["path"] == name


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=lambda n: repr(n))
def test_names_cannot_break_markdown_or_the_terminal(repo: Path, cli: Any, name: str) -> None:
    spiked_repo(repo, name)
    run = cli("review", "-C", str(repo), "--format", "markdown")
    assert run.code == 0, run.err
    check_markdown(run.out, markers=0, verbatim=[name])  # a name may hold `\.` itself
    text = cli("review", "-C", str(repo), "--color", "always", "--context")
    assert text.code == 0
    assert "\x1b[31mred" not in text.out  # the repository's escape is shown, not obeyed
    stray = [c for c in text.out if (ord(c) < 32 and c not in "\n\x1b") or 0x7F <= ord(c) < 0xA0]
    assert stray == []


def test_terminal_escapes_in_code_are_not_printed(
    repo: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, "t.py", 'def f():\n    x = "\x1b]0;owned\x07\x1b[2J"\n    return x\n')
    monkeypatch.chdir(repo)
    for args in (["context", "t.py:2"], ["heatmap", "t.py"], ["positions", "t.py"]):
        run = cli(*args, "--color", "never")
        assert run.code == 0, run.err
        assert "\x1b" not in run.out and "\x07" not in run.out, args


def _limit_memory() -> None:
    # A defect that reads without bound fails here instead of exhausting the machine.
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))


def run_cli(*argv: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewbot", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        preexec_fn=_limit_memory,
    )


@pytest.mark.parametrize("command", ["entropy", "context", "heatmap"])
def test_a_fifo_is_an_error_not_a_hang(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "fifo.py"
    os.mkfifo(fifo)
    started = time.monotonic()
    proc = run_cli(command, str(fifo), cwd=tmp_path, timeout=30)
    assert time.monotonic() - started < 30
    assert proc.returncode == 2, proc.stderr
    assert "not a regular file" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_devices_and_fifos_are_skipped_with_a_reason(tmp_path: Path, cli: Any) -> None:
    proc = run_cli("entropy", "/dev/zero", cwd=tmp_path)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "real.py").write_text(SIMPLE)
    run = cli("positions", str(tmp_path / "pipe.py"), "--format", "json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["skipped"] == [
        {"path": str(tmp_path / "pipe.py"), "reason": "not a regular file (a named pipe)"}
    ]


def test_symlinks_in_folders_are_skipped_with_a_reason(tmp_path: Path, cli: Any) -> None:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "real.py").write_text(SIMPLE)
    (folder / "link.py").symlink_to(folder / "real.py")
    (folder / "loop.py").symlink_to(folder / "loop.py")
    run = cli("positions", str(folder), "--format", "json")
    assert run.code == 0, run.err
    reasons = {Path(s["path"]).name: s["reason"] for s in json.loads(run.out)["skipped"]}
    assert reasons["link.py"] == "symbolic link"
    assert reasons["loop.py"] == "symbolic link"
    run = cli("entropy", str(folder / "loop.py"))
    assert run.code == 2 and "symbolic link loop" in run.err


def test_missing_directory_is_named(cli: Any, tmp_path: Path) -> None:
    run = cli("review", "-C", str(tmp_path / "nope"))
    assert run.code == 2 and "no such directory" in run.err and "not installed" not in run.err


@pytest.mark.parametrize(
    "patch",
    [
        "--- a/x.py\n+++ b/x.py\n@@ -0,0 +900000000,2 @@\n+a\n+b\n",
        "--- a/x.py\n+++ b/x.py\n@@ -900000000,1 +900000000,1 @@\n-a\n+b\n",
        "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,3 @@\n a\n+b\n",
        "--- a/x.py\n+++ b/x.py\n@@ -5,1 +1,1 @@\n-a\n+b\n",
    ],
)
def test_a_lying_hunk_header_is_refused(repo: Path, cli: Any, tmp_path: Path, patch: str) -> None:
    (tmp_path / "p.diff").write_text(patch)
    run = cli("review", "-C", str(repo), "--patch", str(tmp_path / "p.diff"))
    assert run.code == 2, (run.out, run.err)
    assert "hunk" in run.err and len(run.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("toml", "key"),
    [
        ('profile = ["review"]', "profile"),
        ("profile = {a = 1}", "profile"),
        ("[thresholds]\nspike_ratio = nan", "thresholds.spike_ratio"),
        ("[thresholds]\nspike_branches = inf", "thresholds.spike_branches"),
        ("[thresholds]\nspike_branches = 2.5", "thresholds.spike_branches"),
        ('fail_on = ["error"]', "fail_on"),
        ("max_findings = -1", "max_findings"),
        ('exclude = "x"', "exclude"),
        (
            '[languages.zig]\nextensions = [".zig"]\nindent_weight = nan',
            "indent_weight",
        ),
        ('[languages.zig]\nextensions = [".zig"]\n[languages.zig.keywords]\nfn = nan', "fn"),
        ("budget = 1e400", "budget"),
        # The shrunk examples that tests/app/test_config_properties.py found: tracebacks
        # (OverflowError, ValueError) and a message that did not name its key.
        ("[thresholds]\nspike_branches = " + "9" * 400, "thresholds.spike_branches"),
        ('[languages.zig]\nextensions = [".zig"]\nindent_weight = ' + "9" * 400, "indent_weight"),
        ('[languages.zig]\nextensions = [".zig"]\nbase = "cobol"', "languages.zig.base"),
        ("budget = " + "9" * 4301, "invalid TOML"),
    ],
)
def test_bad_configuration_names_the_key(repo: Path, cli: Any, toml: str, key: str) -> None:
    write(repo, ".reviewbot.toml", toml + "\n")
    write(repo, "a.py", SIMPLE)
    run = cli("review", "-C", str(repo))
    assert run.code == 2, (toml, run.out, run.err)
    assert key in run.err and len(run.err.strip().splitlines()) == 1, run.err
    assert "Traceback" not in run.err and "RuntimeWarning" not in run.err


def test_staged_during_a_conflicted_merge_lists_unmerged_files(repo: Path, cli: Any) -> None:
    write(repo, "a.py", SIMPLE)
    commit(repo)
    git(repo, "checkout", "-q", "-b", "other")
    write(repo, "a.py", SIMPLE.replace("x", "y"))
    commit(repo)
    git(repo, "checkout", "-q", "main")
    write(repo, "a.py", SIMPLE.replace("x", "z"))
    commit(repo)
    proc = subprocess.run(["git", "merge", "other"], cwd=repo, capture_output=True, check=False)
    assert proc.returncode != 0  # a conflict
    run = cli("review", "-C", str(repo), "--staged", "--format", "json")
    assert run.code == 0, run.err
    (entry,) = json.loads(run.out)["files"]
    assert entry["path"] == "a.py" and entry["reason"] == "unmerged"


def test_a_missing_object_skips_that_file_only(repo: Path, cli: Any) -> None:
    write(repo, "gone.py", SIMPLE)
    write(repo, "kept.py", "# kept\n" + SIMPLE)  # another blob than gone.py's
    commit(repo)
    write(repo, "gone.py", SPIKED)
    write(repo, "kept.py", "# kept\n" + SPIKED)
    blob = git(repo, "rev-parse", "HEAD:gone.py").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    run = cli("review", "-C", str(repo), "--format", "json")
    assert run.code == 0, run.err
    files = {f["path"]: f for f in json.loads(run.out)["files"]}
    assert files["gone.py"]["status"] == "skipped" and "missing" in files["gone.py"]["reason"]
    assert [u["label"] for u in files["kept.py"]["units"]] == ["def work"]


def test_deleted_files_in_the_review_order_show_their_old_lines(repo: Path, cli: Any) -> None:
    write(repo, "t.py", SPIKED)
    write(repo, "u.py", SIMPLE)
    commit(repo)
    (repo / "t.py").unlink()
    write(repo, "u.py", SPIKED)
    run = cli("review", "-C", str(repo))
    assert run.code == 0, run.err
    assert ":0-0" not in run.out
    markdown = cli("review", "-C", str(repo), "--format", "markdown")
    assert ":0-0" not in markdown.out


def test_oversized_files_never_reach_the_patch_parser(repo: Path) -> None:
    from reviewbot.repo.git import Git

    write(repo, "big.py", "x = 1\n")
    write(repo, "small.py", "x = 1\n")
    commit(repo)
    write(repo, "big.py", "x = 2\n" * 50_000)
    write(repo, "small.py", "x = 2\n")
    git(repo, "add", "-A")
    entries = Git(repo).diff(["--cached", "HEAD"], max_bytes=10_000)
    chunks = {raw.new_path: chunk for raw, chunk in entries}
    assert chunks["big.py"].binary and chunks["big.py"].hunks == ()
    assert not chunks["small.py"].binary and len(chunks["small.py"].hunks) == 1
