"""The change sources directly: git ranges, the index, paths filters, several ranges at once,
patches and the GitHub API's file list all become the same ChangedFile records."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from reviewbot.app.config import Config
from reviewbot.app.pipeline import ApiChange, Change, GitChange, PatchChange, read_change
from reviewbot.model import ChangedFile, Status
from reviewbot.repo.changes import ApiFile, FilePolicy, from_api_files
from tests.helpers import AFTER, BEFORE, commit, git, write


@pytest.fixture
def history(repo: Path) -> tuple[Path, str, str]:
    write(repo, "shop.py", BEFORE)
    write(repo, "old.py", "def legacy():\n    return 1\n")
    write(repo, "keep.py", "def keep():\n    return 1\n" * 3)
    base = commit(repo)
    write(repo, "shop.py", AFTER)
    (repo / "old.py").unlink()
    git(repo, "mv", "keep.py", "kept.py")
    head = commit(repo)
    return repo, base, head


def by_path(change: Change) -> dict[str, ChangedFile]:
    return {cf.path: cf for cf in change.files}


def test_a_range_gives_every_kind_of_file(history: tuple[Path, str, str]) -> None:
    repo, base, head = history
    change = read_change(GitChange(repo, (f"{base}..{head}",)), Config())
    files = by_path(change)
    assert set(files) == {"shop.py", "old.py", "kept.py"}
    shop, old, kept = files["shop.py"], files["old.py"], files["kept.py"]
    assert shop.status is Status.MODIFIED and shop.old_text == BEFORE and shop.new_text == AFTER
    assert old.status is Status.DELETED and old.new_text is None
    assert kept.status is Status.RENAMED and kept.old_path == "keep.py"
    assert change.git is not None and change.base.startswith(base[:7])


def test_staged_paths_filter_and_several_ranges(history: tuple[Path, str, str]) -> None:
    repo, base, head = history
    write(repo, "shop.py", BEFORE)
    write(repo, "other.py", "x = 1\n")
    git(repo, "add", "-A")
    staged = read_change(GitChange(repo, staged=True, paths=frozenset({"shop.py"})), Config())
    assert [cf.path for cf in staged.files] == ["shop.py"]
    both = read_change(GitChange(repo, (f"{base}..{head}", f"{base}..{head}")), Config())
    assert sorted(cf.path for cf in both.files) == ["kept.py", "old.py", "shop.py"]  # once each


def test_a_patch_applies_to_the_repository_or_stands_alone(
    history: tuple[Path, str, str], tmp_path: Path
) -> None:
    repo, base, head = history
    patch = git(repo, "diff", f"{base}..{head}", "--", "shop.py")
    git(repo, "checkout", "-q", base)
    applied = read_change(PatchChange(patch, repo), Config())
    (cf,) = applied.files
    assert cf.old_text == BEFORE and cf.new_text == AFTER and not cf.warnings
    alone = read_change(PatchChange(patch, None), Config())
    (lone,) = alone.files
    assert lone.new_text is not None and "analysed from the patch alone" in lone.warnings[0]


def test_the_api_file_list_is_the_same_change(history: tuple[Path, str, str]) -> None:
    repo, base, head = history
    patch = git(repo, "diff", f"{base}..{head}", "--", "shop.py")
    hunks_text = patch[patch.index("@@") :]
    blobs = {("shop.py", "old"): BEFORE.encode(), ("shop.py", "new"): AFTER.encode()}
    items = (
        ApiFile("shop.py", "modified", hunks_text),
        ApiFile("logo.png", "modified", None),
    )
    change = read_change(ApiChange(items, lambda p, s: blobs.get((p, s)), "b", "h"), Config())
    files = by_path(change)
    from_git = by_path(read_change(GitChange(repo, (f"{base}..{head}",)), Config()))
    assert files["shop.py"].hunks == from_git["shop.py"].hunks
    assert files["shop.py"].new_text == AFTER
    assert files["logo.png"].status is Status.SKIPPED


def test_the_policy_skips_excluded_binary_and_large_files() -> None:
    policy = FilePolicy(100, ("vendor/**",))
    items = (
        ApiFile("vendor/a.py", "added", "@@ -0,0 +1 @@\n+x = 1"),
        ApiFile("big.py", "added", "@@ -0,0 +1 @@\n+x = 1"),
        ApiFile("bin.py", "added", "@@ -0,0 +1 @@\n+x"),
    )
    contents = {"big.py": b"x" * 200, "bin.py": b"\0\1", "vendor/a.py": b"x = 1\n"}
    files = from_api_files(items, lambda p, s: contents.get(p), policy)
    reasons = {cf.path: (cf.status, cf.reason) for cf in files}
    assert reasons["vendor/a.py"] == (Status.SKIPPED, "excluded by configuration")
    assert reasons["big.py"][0] is Status.SKIPPED and "larger than" in str(reasons["big.py"][1])
    assert reasons["bin.py"][0] is Status.BINARY


def test_git_is_not_needed_for_a_patch_outside_a_repository(tmp_path: Path) -> None:
    text = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+def f():\n+    return 1\n"
    change = read_change(PatchChange(text, tmp_path), Config())
    assert [cf.path for cf in change.files] == ["new.py"] and change.git is None
    assert subprocess.run(["git", "-C", str(tmp_path), "status"], capture_output=True).returncode


# The shrunk examples that tests/repo/test_patch_properties.py found.


def test_a_hunk_far_down_a_file_is_over_the_size_limit_not_padded() -> None:
    # A 60-byte patch made reviewbot build a text of 60 million empty lines (0.5 GB, minutes).
    text = "--- a/f0.py\n+++ b/f0.py\n@@ -60000000,0 +60000001,3 @@\n+a\n+b\n+c\n"
    started = time.monotonic()
    (cf,) = read_change(PatchChange(text), Config()).files
    assert time.monotonic() - started < 5
    assert cf.status is Status.SKIPPED and cf.new_text is None
    assert cf.reason == "larger than 2048 KiB (a hunk at line 60000003)"


def test_a_patch_may_hold_the_same_file_twice() -> None:
    # The second diff of f0.py took the first one's hunk lines: a KeyError, a traceback.
    text = (
        "--- a/f0.py\n+++ b/f0.py\n@@ -1,2 +1,4 @@\n-a\n-a\n+b\n+b\n+b\n+b\n"
        "diff --git a/f0.py b/f0.py\nindex 0000000..1111111 100644\n--- a/f0.py\n+++ b/f0.py\n"
        "@@ -1 +1 @@\n-c\n+d\n"
    )
    first, second = read_change(PatchChange(text), Config()).files
    assert (first.old_text, first.new_text) == ("a\na\n", "b\nb\nb\nb\n")
    assert (second.old_text, second.new_text) == ("c\n", "d\n")


@pytest.mark.parametrize("name", ["{outside}/secret.py", "../secret.py", "out/secret.py"])
def test_a_patch_cannot_read_files_outside_the_repository(
    repo: Path, tmp_path: Path, name: str
) -> None:
    # The old side was looked up wherever the patch's name pointed, and shown in the report.
    (tmp_path / "secret.py").write_text("def secret():\n    return 'TOPSECRET'\n")
    (repo / "out").symlink_to(tmp_path, target_is_directory=True)
    commit(repo)
    name = name.format(outside=tmp_path)
    text = f"--- a/{name}\n+++ b/{name}\n@@ -1,0 +2 @@\n+    x = 1\n"
    (cf,) = read_change(PatchChange(text, repo), Config()).files
    assert "TOPSECRET" not in f"{cf.old_text}{cf.new_text}"
    assert "analysed from the patch alone" in cf.warnings[0]


def test_a_symlink_that_becomes_a_file_is_reviewed_as_new_code(repo: Path) -> None:
    """A type change from a symbolic link to a regular file brings new code: reviewed as an
    added file (it was skipped as "symbolic link", a way past the strict hook); a file that
    becomes a link is still skipped, with the reason."""
    write(repo, "f.py", "def f(x):\n    return x\n")
    (repo / "link.py").symlink_to("f.py")
    write(repo, "g.py", "def g(x):\n    return x\n")
    commit(repo)
    (repo / "link.py").unlink()
    write(repo, "link.py", "def h(x):\n    if x:\n        return 1\n    return 2\n")
    (repo / "g.py").unlink()
    (repo / "g.py").symlink_to("f.py")
    change = read_change(GitChange(repo), Config())
    files = {cf.path: cf for cf in change.files}
    link = files["link.py"]
    assert (link.status, link.old_path, link.old_text) == (Status.ADDED, None, None)
    assert link.new_text is not None and "def h" in link.new_text
    assert [h.added for h in link.hunks] == [(1, 2, 3, 4)]
    assert files["g.py"].status == Status.SKIPPED and "symbolic link" in (
        files["g.py"].reason or ""
    )


def test_one_api_patch_that_does_not_read_skips_that_file_only() -> None:
    """The API's patch for one file holds fewer lines than its hunk header says: that file is
    skipped with the reason (in plain words), the others are reviewed."""
    blobs = {("ok.py", "old"): b"a = 1\n", ("ok.py", "new"): b"a = 2\n"}
    items = (
        ApiFile("lie.py", "modified", "@@ -1,1 +1,50 @@\n+def x():\n+    return 1"),
        ApiFile("ok.py", "modified", "@@ -1 +1 @@\n-a = 1\n+a = 2"),
    )
    change = read_change(ApiChange(items, lambda p, s: blobs.get((p, s)), "b", "h"), Config())
    files = {cf.path: cf for cf in change.files}
    assert files["ok.py"].status is Status.MODIFIED and files["ok.py"].new_text == "a = 2\n"
    assert files["lie.py"].status is Status.SKIPPED
    assert "hunk" in (files["lie.py"].reason or "") and "hunk hunk" not in (
        files["lie.py"].reason or ""
    )


def test_a_move_of_a_thousand_files_reads_as_renames(repo: Path) -> None:
    """git gives up on renames when it also looks for copies in a change this big (1,100
    files moved, each with a one-line edit, read as 1,100 deletions and 1,100 additions):
    reviews look for renames only."""
    for k in range(1100):
        write(repo, f"a/m{k}.py", f"def f{k}(x):\n    y = x + {k}\n    return y * 2\n")
    commit(repo)
    git(repo, "mv", "a", "b")
    for k in range(1100):
        with (repo / f"b/m{k}.py").open("a") as out:
            out.write("# moved\n")
    commit(repo)
    change = read_change(GitChange(repo, ("HEAD~1..HEAD",)), Config())
    assert len(change.files) == 1100
    assert {cf.status for cf in change.files} == {Status.RENAMED}
    assert {cf.old_path for cf in change.files if cf.path == "b/m7.py"} == {"a/m7.py"}
