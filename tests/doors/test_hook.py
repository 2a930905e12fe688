"""The hook door without the framework: staged reviews, safety, edge cases, plain git hooks."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewbot.doors import hook
from reviewbot.doors.hook import files_last
from tests.helpers import AFTER, BEFORE, commit, git, index_held, write


def run_hook(
    repo: Path, *argv: str, monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.chdir(repo)
    out, err = io.StringIO(), io.StringIO()
    code = hook.main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def snapshot(repo: Path) -> tuple[str, str, str, dict[str, bytes]]:
    files = {
        str(p.relative_to(repo)): p.read_bytes()
        for p in repo.rglob("*")
        if p.is_file() and ".git" not in p.parts
    }
    return (git(repo, "write-tree"), git(repo, "diff"), git(repo, "diff", "--cached"), files)


@pytest.fixture
def spiked(repo: Path) -> Path:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    git(repo, "add", "shop.py")
    return repo


def test_warns_and_passes(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run_hook(spiked, "shop.py", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("reviewbot: 1 finding(s) in 1 file(s) of the staged change")
    assert "shop.py:" in lines[1] and "def apply" in lines[1] and "decisions 1 →" in lines[1]
    assert "[RB101]" in lines[1] and "reviewbot: ignore[CODE]" in lines[-1]


def test_fail_on_fails(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_hook(spiked, "shop.py", "--fail-on", "warning", monkeypatch=monkeypatch)
    assert code == 1 and "RB101" in out


def test_silent_when_nothing_to_say(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", BEFORE.replace('"ok"', '"fine"'))
    git(repo, "add", "-A")
    assert run_hook(repo, "shop.py", monkeypatch=monkeypatch) == (0, "", "")
    # --all-files: files without a staged change are simply not reviewed
    assert run_hook(repo, "shop.py", "other.txt", monkeypatch=monkeypatch)[:2] == (0, "")


def test_reviews_only_the_index(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The working tree differs from the index: the index is what gets committed.
    write(spiked, "shop.py", BEFORE)
    code, out, _ = run_hook(spiked, "shop.py", monkeypatch=monkeypatch)
    assert code == 0 and "RB101" in out


def test_git_index_file(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = spiked / ".git" / "tmp-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(index)}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=spiked, env=env, check=True)
    monkeypatch.setenv("GIT_INDEX_FILE", str(index))
    assert run_hook(spiked, "shop.py", monkeypatch=monkeypatch)[1] == ""  # nothing staged there


def test_index_and_work_tree_untouched(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(spiked, "unstaged.py", "x = 1\n")
    before = snapshot(spiked)
    index_bytes = (spiked / ".git" / "index").read_bytes()
    run_hook(spiked, "shop.py", monkeypatch=monkeypatch)
    assert snapshot(spiked) == before
    assert (spiked / ".git" / "index").read_bytes() == index_bytes


def test_internal_error_lets_the_commit_through(
    spiked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(spiked)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr("reviewbot.app.pipeline.review_file", broken)
    code, out, err = run_hook(spiked, "shop.py", "--fail-on", "info", monkeypatch=monkeypatch)
    assert code == 0 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "internal error" in err and "not blocked" in err and "hook.log" in err
    log = (spiked / ".git" / "reviewbot" / "hook.log").read_text()
    assert "simulated bug" in log and "Traceback" in log
    assert snapshot(spiked) == before


def test_bad_configuration_does_not_block(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(spiked, ".reviewbot.toml", 'profile = "nope"\n')
    code, out, err = run_hook(spiked, "shop.py", "--fail-on", "info", monkeypatch=monkeypatch)
    assert code == 0 and out == "" and "profile" in err and "not blocked" in err


@pytest.mark.parametrize("state", ["MERGE_HEAD", "CHERRY_PICK_HEAD", "rebase-merge"])
def test_replays_are_not_reviewed_again(
    spiked: Path, monkeypatch: pytest.MonkeyPatch, state: str
) -> None:
    head = git(spiked, "rev-parse", "HEAD").strip()
    marker = spiked / ".git" / state
    if state == "rebase-merge":
        marker.mkdir()
    else:
        marker.write_text(head + "\n")
    code, out, _ = run_hook(spiked, "shop.py", "--fail-on", "info", monkeypatch=monkeypatch)
    assert code == 0 and "in progress" in out and "RB101" not in out


def test_real_merge_in_progress(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo, "shop.py", AFTER)
    commit(repo)
    git(repo, "checkout", "-q", "main")
    write(repo, "other.py", "y = 2\n")
    commit(repo)
    git(repo, "merge", "--no-commit", "--no-ff", "-q", "topic")
    code, out, _ = run_hook(repo, "shop.py", monkeypatch=monkeypatch)
    assert code == 0 and "merge in progress" in out


def test_initial_commit_and_odd_names(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dense = (
        "def big(x, y):\n"
        + "".join(
            f"    if x > {i} and y:\n        for k in range({i}):\n            x += k\n"
            for i in range(6)
        )
        + "    return x\n"
    )
    write(repo, "with space ünïcode.py", "def small():\n    return 1\n\n\n" + dense)
    git(repo, "add", "-A")
    code, out, err = run_hook(repo, "with space ünïcode.py", monkeypatch=monkeypatch)
    assert (code, err) == (0, "")  # an initial commit: every unit is new
    assert out == "" or "with space ünïcode.py" in out
    commit(repo)
    git(repo, "mv", "with space ünïcode.py", "renamed ünïcode.py")
    write(repo, "gone.py", "x = 1\n")
    git(repo, "add", "-A")
    commit(repo)
    (repo / "gone.py").unlink()
    git(repo, "add", "-A")
    code, out, err = run_hook(repo, monkeypatch=monkeypatch)
    assert (code, out, err) == (0, "", "")  # a rename and a deletion: nothing got tangled


def test_many_files_are_bounded(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(2000):
        write(repo, f"pkg/m{i}.py", f"def f{i}(x):\n    return x\n")
    commit(repo)
    for i in range(2000):
        write(repo, f"pkg/m{i}.py", f"def f{i}(x):\n    if x:\n        return -x\n    return x\n")
    git(repo, "add", "-A")
    code, out, err = run_hook(repo, "--time-budget", "0.5", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "time budget reached" in out and "not reviewed" in out


def test_pre_push_reads_refs_from_stdin(spiked: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = git(spiked, "rev-parse", "HEAD").strip()
    commit(spiked, "spike")
    head = git(spiked, "rev-parse", "HEAD").strip()
    line = f"refs/heads/main {head} refs/heads/main {base}\n"
    code, out, _ = run_hook(spiked, "--pre-push", monkeypatch=monkeypatch, stdin=line)
    assert code == 0 and "pushed commits" in out and "RB101" in out
    # The rest is shown by the range the hook reviewed, not by the (empty) staged change.
    body = "".join(f"    if x == {k}:\n        return {k}\n" for k in range(10))
    write(spiked, "p.py", f"def pick(x):\n{body}    return -1\n")
    commit(spiked, "a second finding")
    head = git(spiked, "rev-parse", "HEAD").strip()
    line = f"refs/heads/main {head} refs/heads/main {base}\n"
    code, out, _ = run_hook(
        spiked, "--pre-push", "--max-findings", "1", monkeypatch=monkeypatch, stdin=line
    )
    assert f"(`reviewbot review {base[:12]}..{head[:12]}` shows all)" in out
    assert "--staged" not in out and max(map(len, out.splitlines())) <= 80
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", base)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", head)
    code, out, _ = run_hook(spiked, monkeypatch=monkeypatch)
    assert "pushed commits" in out and "RB101" in out


def test_pre_push_of_a_new_branch_reviews_its_new_commits_once(
    spiked: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(spiked, "remote", "add", "origin", str(remote))
    git(spiked, "push", "-q", "origin", "HEAD:refs/heads/main")
    git(spiked, "checkout", "-q", "-b", "feature")
    head = commit(spiked, "spike")
    zero = "0" * 40
    line = f"refs/heads/feature {head} refs/heads/feature {zero}\n"
    code, out, _ = run_hook(spiked, "--pre-push", monkeypatch=monkeypatch, stdin=line)
    assert code == 0 and "RB101" in out and "shop.py:" in out
    # Two new refs on the same commits: the file is reviewed, and reported, once.
    both = line + f"refs/heads/copy {head} refs/heads/copy {zero}\n"
    code, twice, _ = run_hook(spiked, "--pre-push", monkeypatch=monkeypatch, stdin=both)
    assert code == 0 and twice.count("RB101") == out.count("RB101") == 1
    # Nothing new to the remote (the branch's commits are there already): nothing to say.
    git(spiked, "push", "-q", "origin", "feature")
    code, out, _ = run_hook(spiked, "--pre-push", monkeypatch=monkeypatch, stdin=line)
    assert code == 0 and "RB101" not in out


def test_pre_push_without_any_remote_history_reviews_from_the_empty_tree(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(repo, "shop.py", AFTER)
    head = commit(repo, "first")
    line = f"refs/heads/main {head} refs/heads/main {'0' * 40}\n"
    code, out, err = run_hook(repo, "--pre-push", monkeypatch=monkeypatch, stdin=line)
    assert code == 0 and err == "" and "shop.py:" in out and "RB102" in out


def test_hook_path_imports_neither_numpy_scipy_nor_jinja2(spiked: Path) -> None:
    """A small change is measured with the engine's pure kernels: numpy (~90 ms to import) is
    not loaded, nor the full review's modules, nor what only some runs need (the TOML parser,
    unidiff, shutil), nor dataclasses (~20 ms with the classes it would build)."""
    unwanted = (
        "numpy scipy jinja2 github unidiff tomllib shutil dataclasses inspect json "
        "reviewbot.engine.index reviewbot.app.full"
    )
    probe = (
        "import io, sys\nfrom reviewbot.doors import hook\n"
        "code = hook.main(['shop.py'], stdout=io.StringIO())\n"
        f"unwanted = {unwanted.split()!r}\n"
        "bad = sorted(m for m in sys.modules if m in unwanted or m.split('.')[0] in unwanted)\n"
        "print(code, bad)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=spiked, capture_output=True, text=True, check=True
    )
    assert proc.stdout.strip() == "0 []", proc.stdout + proc.stderr


# -- plain git hooks ------------------------------------------------------------------------------


def hook_env(tmp_path: Path) -> dict[str, str]:
    """A PATH where `reviewbot-hook` is this interpreter's."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    shim = bindir / "reviewbot-hook"
    shim.write_text(f'#!/bin/sh\nexec {sys.executable} -m reviewbot.doors.hook "$@"\n')
    shim.chmod(0o755)
    return {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}


def test_install_hooks_and_commit(spiked: Path, tmp_path: Path, cli: Any) -> None:
    assert cli("install-hooks", "-C", str(spiked)).code == 0
    env = hook_env(tmp_path)
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "spike"],
        cwd=spiked,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "RB101" in proc.stdout + proc.stderr
    assert git(spiked, "log", "--oneline").count("\n") == 2


def test_install_refuses_a_foreign_hook_or_chains_it(
    spiked: Path, tmp_path: Path, cli: Any
) -> None:
    mine = spiked / ".git" / "hooks" / "pre-commit"
    mine.parent.mkdir(exist_ok=True)
    mine.write_text("#!/bin/sh\necho my-own-hook-ran\n")
    mine.chmod(0o755)
    run = cli("install-hooks", "-C", str(spiked), "--hook", "pre-commit")
    assert run.code == 2 and "not reviewbot's" in run.err
    assert mine.read_text() == "#!/bin/sh\necho my-own-hook-ran\n"
    assert cli("install-hooks", "-C", str(spiked), "--hook", "pre-commit", "--chain").code == 0
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=spiked,
        env=hook_env(tmp_path),
        capture_output=True,
        text=True,
        check=False,
    )
    shown = proc.stdout + proc.stderr  # git sends a hook's output to stderr
    assert "my-own-hook-ran" in shown and "RB101" in shown
    assert cli("uninstall-hooks", "-C", str(spiked), "--hook", "pre-commit").code == 0
    assert mine.read_text() == "#!/bin/sh\necho my-own-hook-ran\n"


def test_installed_hooks_find_their_program_without_path(spiked: Path, cli: Any) -> None:
    """install-hooks records the absolute path of its own reviewbot-hook: the hook runs in a
    repository whose PATH does not have it."""
    cli("install-hooks", "-C", str(spiked), "--hook", "pre-commit")
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=spiked,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and "RB101" in proc.stderr


def test_missing_reviewbot_never_blocks(spiked: Path, cli: Any) -> None:
    cli("install-hooks", "-C", str(spiked), "--hook", "pre-commit")
    hook_file = spiked / ".git" / "hooks" / "pre-commit"
    script = hook_file.read_text()
    recorded = Path(sys.executable).parent / "reviewbot-hook"
    assert f"hook='{recorded}'" in script
    hook_file.write_text(script.replace(str(recorded), "/nonexistent/reviewbot-hook"))
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "x"],
        cwd=spiked,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and "was not found" in proc.stderr


def test_file_names_after_the_options_are_files(tmp_path: Path, monkeypatch: Any) -> None:
    """How pre-commit's argument list is split: the tail of existing, distinct paths after the
    shortest head that reads as the hook's options (a value such as a config file stays with
    its option even when it exists)."""
    monkeypatch.chdir(tmp_path)
    for name in ("--fail-on=never", "--help", "a.py", ".reviewbot.toml"):
        (tmp_path / name).write_text("x\n")
    assert files_last(["--fail-on", "warning", "a.py", "--fail-on=never", "--help"]) == [
        *("--fail-on", "warning", "--", "a.py", "--fail-on=never", "--help")
    ]
    assert files_last(["--config", ".reviewbot.toml", "a.py"]) == [
        *("--config", ".reviewbot.toml", "--", "a.py")
    ]
    assert files_last(["--fail-on", "warning"]) == ["--fail-on", "warning"]
    assert files_last(["a.py"]) == ["--", "a.py"]
    assert files_last([]) == []
    # Files planted to look like the options themselves are passed too (once each), so the
    # options are the head before the repeated names.
    for name in ("--fail-on", "warning"):
        (tmp_path / name).write_text("x\n")
    assert files_last(["--fail-on", "warning", "--fail-on", "a.py", "warning"]) == [
        *("--fail-on", "warning", "--", "--fail-on", "a.py", "warning")
    ]


def test_the_installed_pre_push_hook_refuses_a_push_as_configured(
    spiked: Path, tmp_path: Path, cli: Any
) -> None:
    """The plain pre-push script passed the review's exit status to nobody: with `fail_on =
    "warning"` the push went through, and every push ended with "reviewbot-hook was not
    found"."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(spiked, "remote", "add", "origin", str(remote))
    write(spiked, ".reviewbot.toml", 'fail_on = "warning"\n')
    git(spiked, "add", ".reviewbot.toml")
    git(spiked, "commit", "-q", "--no-verify", "-m", "spike")
    assert cli("install-hooks", "-C", str(spiked), "--hook", "pre-push").code == 0
    env = hook_env(tmp_path)
    push = ["git", "push", "-q", "origin", "HEAD:refs/heads/main"]
    proc = subprocess.run(push, cwd=spiked, env=env, capture_output=True, text=True, check=False)
    shown = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "[RB102]" in shown, shown  # a new branch: all new
    assert "was not found" not in shown
    write(spiked, ".reviewbot.toml", "")
    git(spiked, "commit", "-q", "--no-verify", "-am", "warn only")
    proc = subprocess.run(push, cwd=spiked, env=env, capture_output=True, text=True, check=False)
    shown = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "was not found" not in shown, shown


def test_a_stream_that_cannot_encode_the_sparkline_still_gets_the_findings(repo: Path) -> None:
    """A Windows pipe gets the ANSI code page (cp1252): a sparkline or an arrow made the hook
    an internal error, and its findings were lost. They come out, the glyphs as `?`."""
    write(repo, "README", "x\n")
    commit(repo)
    body = "".join(f"    if x == {k}:\n        return {k}\n" for k in range(10))
    write(repo, "p.py", f"def pick(x):\n{body}    return -1\n")  # RB102 shows a sparkline
    git(repo, "add", "p.py")
    hook = Path(sys.executable).parent / "reviewbot-hook"
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    proc = subprocess.run(
        [str(hook)], cwd=repo, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and "internal error" not in proc.stderr, proc.stderr
    assert "[RB102]" in proc.stdout and "?  [RB102]" in proc.stdout


def test_a_deep_new_unit_says_how_deep_and_a_long_path_is_shown_whole(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new unit flagged for its nesting said only "6 decisions over 10 lines" (under the
    bar of 8: the reason was missing)."""
    write(repo, "README", "x\n")
    commit(repo)
    deep = "def f(x):\n" + "".join(f"{'    ' * (k + 1)}if x > {k}:\n" for k in range(6))
    deep += "    " * 7 + "return x\n    return 0\n"
    path = "very/long/directory/structure/that/goes/on/and/on/forever/module_with_a_long_name.py"
    write(repo, path, deep)
    git(repo, "add", path)
    code, out, _ = run_hook(repo, monkeypatch=monkeypatch)
    assert code == 0 and "[RB102]" in out and "nesting 6" in out, out
    # The place is shown whole on its own line (it says which file to open); the rest keeps
    # to 80 columns.
    assert any(line.endswith(f"{path}:1") for line in out.splitlines()), out
    assert all(len(line) <= 80 for line in out.splitlines() if path not in line), out


def test_install_refuses_a_hooks_folder_of_the_work_tree(spiked: Path, cli: Any) -> None:
    """A team keeps its hooks tracked in `.githooks/` (core.hooksPath): `install-hooks --chain`
    replaced the tracked hook with one naming this machine's reviewbot-hook, ready to be
    committed to everyone."""
    team = spiked / ".githooks" / "pre-commit"
    team.parent.mkdir()
    team.write_text("#!/bin/sh\necho team hook\n")
    git(spiked, "config", "core.hooksPath", ".githooks")
    run = cli("install-hooks", "-C", str(spiked), "--chain")
    assert run.code == 2 and "part of the work tree" in run.err
    assert team.read_text() == "#!/bin/sh\necho team hook\n"
    assert sorted(p.name for p in team.parent.iterdir()) == ["pre-commit"]


def test_without_an_index_a_deletion_says_its_callers_were_not_checked(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`review --staged` warns (git grep) of a deleted function still called; the hook,
    silent without an index, let the user think all was well."""
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone():\n    return 2\n")
    write(repo, "app.py", "from lib import gone\n\ngone()\n")
    commit(repo)
    write(repo, "lib.py", "def keep():\n    return 1\n")
    git(repo, "add", "lib.py")
    code, out, _ = run_hook(repo, monkeypatch=monkeypatch)
    assert code == 0 and "RB105/RB106 not checked: no index (`reviewbot index`" in out, out
    write(repo, "lib.py", "def keep():\n    return 10\n\n\ndef gone():\n    return 2\n")
    git(repo, "add", "lib.py")
    assert run_hook(repo, monkeypatch=monkeypatch)[1] == ""  # nothing deleted: nothing said


def test_an_index_path_holding_another_file_is_said_to_be_so(
    spiked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program's SQLite file at the index's path was "busy or unreadable" (it is
    neither), and a folder there made the hook silent."""
    place = spiked / ".git" / "reviewbot" / "index.sqlite"
    place.parent.mkdir()
    conn = sqlite3.connect(place)
    conn.execute("CREATE TABLE customers(name TEXT)")
    conn.commit()
    conn.close()
    out = run_hook(spiked, monkeypatch=monkeypatch)[1]
    assert "RB105/RB106 not checked: not a reviewbot index" in out, out
    place.unlink()
    place.mkdir()
    out = run_hook(spiked, monkeypatch=monkeypatch)[1]
    assert "RB105/RB106 not checked: the index's path is a folder" in out, out


def test_a_staged_file_too_large_to_review_is_said(
    spiked: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(spiked, ".reviewbot.toml", "max_file_bytes = 2000\n")
    write(spiked, "big.py", "".join(f"def f{k}(x):\n    return x\n" for k in range(200)))
    git(spiked, "add", "big.py", ".reviewbot.toml")
    out = run_hook(spiked, monkeypatch=monkeypatch)[1]
    assert "reviewbot: 1 file(s) too large to review: big.py (max_file_bytes)" in out, out


def test_the_hook_checks_rb105_while_a_long_review_holds_the_index(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """commons-io: a review of an old commit held the index's write lock for 10-40 s (it
    applies the change in a transaction it rolls back); the hook, waiting 0.5 s, said
    "RB105/RB106 not checked: index busy or unreadable" and let a staged deletion of a
    function still called pass unwarned. It reads a copy of the index as last committed
    instead (what the holder has written but not committed is not in it), and the index file
    is left as it was."""
    import time

    from reviewbot.app.config import Config
    from reviewbot.app.pipeline import index_file
    from reviewbot.app.repo_context import settings_of
    from reviewbot.index.build import update_index
    from reviewbot.repo.git import Git

    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef gone():\n    return 2\n")
    write(repo, "app.py", "from lib import gone\n\ngone()\n")
    commit(repo)
    database = index_file(Git(repo))
    update_index(Git(repo), database, settings_of(Config()))
    before = database.read_bytes()
    write(repo, "lib.py", "def keep():\n    return 1\n")
    git(repo, "add", "lib.py")
    with index_held(database, "DELETE FROM refs"):  # (its uncommitted work: never seen)
        began = time.monotonic()
        code, out, _ = run_hook(repo, monkeypatch=monkeypatch)
        took = time.monotonic() - began
    assert code == 0 and "[RB105]" in out and "gone" in out, out
    assert "not checked" not in out, out
    assert took < 20, took  # (the holder waits for the hook: it copied, not waited)
    assert database.read_bytes() == before


def test_the_hook_stops_a_slow_resolution_at_its_time_budget(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook's budget stopped the reading of the change's files into the index, not the
    resolution after it: a change whose references took long to resolve (a TS union of unions
    took 14 s for 30 calls) held the commit till the end. Each reference resolved here costs a
    second of a clock the hook reads: with a budget of 5 s it stops after about 5 of them and
    says RB105/RB106 were not checked."""
    import time

    from reviewbot.app.config import Config
    from reviewbot.app.pipeline import index_file
    from reviewbot.app.repo_context import settings_of
    from reviewbot.index import resolve
    from reviewbot.index.build import update_index
    from reviewbot.repo.git import Git

    calls = "".join(f"def step_{k}(x):\n    return x.step_{k + 1}()\n\n\n" for k in range(30))
    write(repo, "lib.py", f"{calls}def gone():\n    return 2\n")
    write(repo, "app.py", "from lib import gone\n\ngone()\n")
    commit(repo)
    update_index(Git(repo), index_file(Git(repo)), settings_of(Config()))
    write(repo, "lib.py", calls.replace("step_", "stage_"))  # (30 new names: resolved again)
    git(repo, "add", "lib.py")

    real = time.monotonic
    spent = [0.0]
    resolved = [0]
    method = resolve.Resolver.resolve

    def slow(self: resolve.Resolver, *args: Any, **kwargs: Any) -> Any:
        resolved[0] += 1
        spent[0] += 1.0
        return method(self, *args, **kwargs)

    monkeypatch.setattr(time, "monotonic", lambda: real() + spent[0])
    monkeypatch.setattr(resolve.Resolver, "resolve", slow)
    code, out, _ = run_hook(repo, "--time-budget", "5", monkeypatch=monkeypatch)
    assert code == 0, out
    assert "RB105/RB106 not checked: the time budget was spent first" in out, out
    assert "[RB105]" not in out, out
    # (all 31 of the change's references were resolved, and RB105 reported, when nothing
    # stopped the resolution)
    assert resolved[0] <= 6, resolved[0]
