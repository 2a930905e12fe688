"""The real `pre-commit` program with this repository's hooks (.pre-commit-hooks.yaml).

The hook repository is a committed copy of the current source tree, so the tests exercise the
code under test. One PRE_COMMIT_HOME is shared by the whole session: the hook environment is
built once (for the configured repo and rev) and reused; `try-repo` builds its own, once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import AFTER, BEFORE

ROOT = Path(__file__).resolve().parents[2]
# Captured at import, before the per-test HOME isolation: the pip cache keeps env builds fast.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
PRE_COMMIT = str(Path(sys.executable).parent / "pre-commit")  # from the test extra
GIT_ID = {
    "GIT_AUTHOR_NAME": "T",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "T",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def sh(
    *argv: str, cwd: Path, env: dict[str, str], check: bool = True
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=900
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"{argv} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("precommit")


@pytest.fixture(scope="session")
def base_env(session_dir: Path) -> dict[str, str]:
    home = session_dir / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PRE_COMMIT"))}
    env.update(
        GIT_ID,
        HOME=str(home),
        PRE_COMMIT_HOME=str(session_dir / "cache"),
        PIP_CACHE_DIR=PIP_CACHE,
        GIT_CONFIG_NOSYSTEM="1",
        PRE_COMMIT_COLOR="never",
    )
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    return env


@pytest.fixture(scope="session")
def hook_repo(session_dir: Path, base_env: dict[str, str]) -> tuple[Path, str]:
    """A committed copy of the current tree (tracked and untracked, not ignored files)."""
    target = session_dir / "hook-repo"
    listing = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listing):
        source = ROOT / rel
        if source.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / rel)
    sh("git", "init", "-q", cwd=target, env=base_env)
    sh("git", "add", "-A", cwd=target, env=base_env)
    sh("git", "commit", "-q", "-m", "hooks under test", cwd=target, env=base_env)
    sha = sh("git", "rev-parse", "HEAD", cwd=target, env=base_env).stdout.strip()
    return target, sha


@pytest.fixture
def project(tmp_path: Path, base_env: dict[str, str]) -> Iterator[Path]:
    """A repository with one commit and a staged complexity spike."""
    repo = tmp_path / "project"
    repo.mkdir()
    sh("git", "init", "-q", "-b", "main", cwd=repo, env=base_env)
    (repo / "shop.py").write_text(BEFORE)
    sh("git", "add", "-A", cwd=repo, env=base_env)
    sh("git", "commit", "-q", "-m", "start", cwd=repo, env=base_env)
    (repo / "shop.py").write_text(AFTER)
    sh("git", "add", "shop.py", cwd=repo, env=base_env)
    yield repo


def configure(repo: Path, hook_repo: tuple[Path, str], hook_id: str, env: dict[str, str]) -> None:
    path, sha = hook_repo
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {path}\n    rev: {sha}\n    hooks:\n      - id: {hook_id}\n"
    )
    sh("git", "add", ".pre-commit-config.yaml", cwd=repo, env=env)


def test_try_repo_warns_and_the_strict_variant_fails(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    """Both hooks of the manifest in one `try-repo` (it builds a fresh environment per call)."""
    path, sha = hook_repo
    proc = sh(
        str(PRE_COMMIT), "try-repo", str(path), "--ref", sha, cwd=project, env=base_env, check=False
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out  # the strict variant fails the run
    lines = out.splitlines()
    warn = next(line for line in lines if line.startswith("reviewbot (structural review, warns"))
    strict = next(line for line in lines if line.startswith("reviewbot (structural review, fails"))
    assert warn.endswith("Passed") and strict.endswith("Failed")
    assert "RB101" in out and "def apply" in out


def test_commit_passes_with_the_warning_shown(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    configure(project, hook_repo, "reviewbot", base_env)
    sh(str(PRE_COMMIT), "install", cwd=project, env=base_env)
    tree_before = sh("git", "write-tree", cwd=project, env=base_env).stdout
    proc = sh("git", "commit", "-m", "spike", cwd=project, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "RB101" in out and "shop.py" in out
    assert sh("git", "rev-parse", "HEAD^{tree}", cwd=project, env=base_env).stdout == tree_before


def test_strict_variant_fails_the_commit(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    configure(project, hook_repo, "reviewbot-strict", base_env)
    sh(str(PRE_COMMIT), "install", cwd=project, env=base_env)
    diff_before = sh("git", "diff", "--cached", cwd=project, env=base_env).stdout
    proc = sh("git", "commit", "-m", "spike", cwd=project, env=base_env, check=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "RB101" in proc.stdout + proc.stderr
    assert sh("git", "diff", "--cached", cwd=project, env=base_env).stdout == diff_before
    assert sh("git", "rev-list", "--count", "HEAD", cwd=project, env=base_env).stdout.strip() == "1"


def test_a_file_named_like_an_option_cannot_switch_the_strict_hook_off(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    """pre-commit passes file names after the hook's arguments with no `--`: staged files named
    `--fail-on=never` and `--help` are files to the hook, never options."""
    configure(project, hook_repo, "reviewbot-strict", base_env)
    sh(str(PRE_COMMIT), "install", cwd=project, env=base_env)
    for name in ("--fail-on=never", "--help"):
        (project / name).write_text("hello\n")
    sh("git", "add", "--", "--fail-on=never", "--help", cwd=project, env=base_env)
    proc = sh("git", "commit", "-m", "spike", cwd=project, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "RB101" in out and "usage:" not in out
    assert sh("git", "rev-list", "--count", "HEAD", cwd=project, env=base_env).stdout.strip() == "1"


def test_all_files_and_unstaged_changes(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    configure(project, hook_repo, "reviewbot", base_env)
    (project / "notes.txt").write_text("unstaged, untracked\n")
    (project / "shop.py").write_text(AFTER + "\n# an unstaged edit\n")
    proc = sh(str(PRE_COMMIT), "run", "--all-files", cwd=project, env=base_env, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (project / "shop.py").read_text().endswith("# an unstaged edit\n")  # restored intact


def test_pre_push_stage(
    project: Path, hook_repo: tuple[Path, str], base_env: dict[str, str], tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    sh("git", "init", "-q", "--bare", str(remote), cwd=tmp_path, env=base_env)
    sh("git", "remote", "add", "origin", str(remote), cwd=project, env=base_env)
    sh("git", "stash", "-q", cwd=project, env=base_env)
    sh("git", "push", "-q", "origin", "main", cwd=project, env=base_env)
    sh("git", "stash", "pop", "-q", cwd=project, env=base_env)
    sh("git", "add", "shop.py", cwd=project, env=base_env)
    configure(project, hook_repo, "reviewbot", base_env)
    sh("git", "commit", "-q", "-m", "spike", cwd=project, env=base_env)
    sh(str(PRE_COMMIT), "install", "--hook-type", "pre-push", cwd=project, env=base_env)
    proc = sh("git", "push", "origin", "main", cwd=project, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "RB101" in out and "pushed commits" in out


TANGLED = """
    def _tangled(self, chunks, width):
        out = []
        for chunk in chunks:
            if chunk:
                if width > 0:
                    for ch in chunk:
                        if ch == " ":
                            if out and out[-1]:
                                while width > 1:
                                    if ch and width % 2:
                                        width -= 1
                                    elif width > 3:
                                        width -= 2
                                    else:
                                        break
                        elif ch == "-" or ch == "_":
                            out.append(ch)
            elif width < 0 and chunks:
                out.append("")
        return out
"""


@pytest.fixture
def textwrap_project(tmp_path: Path, base_env: dict[str, str]) -> Path:
    """The standard library's textwrap.py (dense methods already) and a staged new method of
    15 decision points and 9 nesting levels: what any complexity gate would reject."""
    import textwrap

    repo = tmp_path / "textwrap-project"
    repo.mkdir()
    sh("git", "init", "-q", "-b", "main", cwd=repo, env=base_env)
    source = Path(textwrap.__file__).read_text(encoding="utf-8")
    (repo / "textwrap.py").write_text(source)
    sh("git", "add", "-A", cwd=repo, env=base_env)
    sh("git", "commit", "-q", "-m", "start", cwd=repo, env=base_env)
    anchor = "    def _split_chunks(self, text):"
    assert anchor in source
    (repo / "textwrap.py").write_text(source.replace(anchor, TANGLED.lstrip("\n") + "\n" + anchor))
    sh("git", "add", "textwrap.py", cwd=repo, env=base_env)
    return repo


@pytest.mark.parametrize(("hook_id", "code"), [("reviewbot", 0), ("reviewbot-strict", 1)])
def test_a_dense_new_unit_is_caught_whatever_the_file_holds(
    textwrap_project: Path,
    hook_repo: tuple[Path, str],
    base_env: dict[str, str],
    hook_id: str,
    code: int,
) -> None:
    configure(textwrap_project, hook_repo, hook_id, base_env)
    sh(str(PRE_COMMIT), "install", cwd=textwrap_project, env=base_env)
    proc = sh("git", "commit", "-m", "tangle", cwd=textwrap_project, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == code, out
    assert "RB102" in out and "_tangled" in out


def test_staged_deletion_of_a_referenced_function_with_an_index(
    tmp_path: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    """With a repository index, the hook reports RB105 for a function deleted while another
    file still calls it (the index is read, never changed)."""
    repo = tmp_path / "indexed"
    repo.mkdir()
    sh("git", "init", "-q", "-b", "main", cwd=repo, env=base_env)
    (repo / "pkg").mkdir()
    (repo / "pkg" / "__init__.py").write_text("")
    lib = "def keep():\n    return 1\n\n\ndef gone(x):\n    return x * 2\n"
    (repo / "pkg" / "lib.py").write_text(lib)
    (repo / "pkg" / "app.py").write_text(
        "from pkg.lib import gone\n\n\ndef main():\n    return gone(3)\n"
    )
    sh("git", "add", "-A", cwd=repo, env=base_env)
    sh("git", "commit", "-q", "-m", "start", cwd=repo, env=base_env)
    reviewbot = str(Path(sys.executable).parent / "reviewbot")
    sh(reviewbot, "index", cwd=repo, env=base_env)
    database = repo / ".git" / "reviewbot" / "index.sqlite"
    before = database.read_bytes()
    (repo / "pkg" / "lib.py").write_text("def keep():\n    return 1\n")
    sh("git", "add", "pkg/lib.py", cwd=repo, env=base_env)
    configure(repo, hook_repo, "reviewbot", base_env)
    sh(str(PRE_COMMIT), "install", cwd=repo, env=base_env)
    proc = sh("git", "commit", "-m", "delete gone", cwd=repo, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "RB105" in out and "gone is deleted but still referenced" in out
    # ... and where: the call that remains, with its unit, under the finding's line.
    assert "pkg/app.py:1 (import), 5 (function main)" in out
    assert database.read_bytes() == before


def test_a_staged_deletion_is_reviewed_under_pre_commit(
    tmp_path: Path, hook_repo: tuple[Path, str], base_env: dict[str, str]
) -> None:
    """pre-commit passes only files that exist, and skips a hook with no file: deleting a
    module whose function is still called was never reviewed, alone or beside an edit."""
    repo = tmp_path / "del"
    repo.mkdir()
    sh("git", "init", "-q", "-b", "main", cwd=repo, env=base_env)
    (repo / "util.py").write_text("def helper(x):\n    return x\n")
    (repo / "app.py").write_text("from util import helper\n\nhelper(1)\n")
    (repo / "notes.txt").write_text("notes\n")
    configure(repo, hook_repo, "reviewbot", base_env)
    sh("git", "add", "-A", cwd=repo, env=base_env)
    sh("git", "commit", "-q", "-m", "start", cwd=repo, env=base_env)
    sh(str(Path(sys.executable).parent / "reviewbot"), "index", cwd=repo, env=base_env)
    sh(str(PRE_COMMIT), "install", cwd=repo, env=base_env)
    sh("git", "rm", "-q", "util.py", cwd=repo, env=base_env)
    proc = sh("git", "commit", "-m", "drop util", cwd=repo, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "[RB105]" in out and "app.py:" in out, out
    sh("git", "reset", "-q", "--soft", "HEAD~1", cwd=repo, env=base_env)
    (repo / "notes.txt").write_text("notes, edited\n")
    sh("git", "add", "notes.txt", cwd=repo, env=base_env)  # a deletion beside an edit
    proc = sh("git", "commit", "-m", "drop util", cwd=repo, env=base_env, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "[RB105]" in out, out
