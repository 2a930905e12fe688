"""A small git wrapper: argument lists (never a shell), no external diff or textconv drivers,
the user's repository and ``GIT_INDEX_FILE`` respected, blobs read in bulk."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import InputError
from reviewbot.repo.patch import PatchEntry, parse_patch

__all__ = ["EMPTY_TREE", "NULL_SHA", "Git", "GitError", "RawEntry"]

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
NULL_SHA = "0" * 40
# No optional locks: git must not refresh (write) the index while we read it.
_CONFIG = (
    "--no-optional-locks",
    "--no-pager",
    "-c",
    "core.quotepath=false",
    "-c",
    "diff.noprefix=false",
)
_DIFF_OPTIONS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--full-index",
    "-M",
    "-C",
    "--ignore-submodules=none",
)


class GitError(InputError):
    """git refused: the message is git's own first line."""


class RawEntry(NamedTuple):
    """One line of ``git diff --raw``: modes, blob ids, status letter and paths."""

    old_mode: str
    new_mode: str
    old_sha: str
    new_sha: str
    status: str  # A C D M R T U X, without the score
    score: int | None
    old_path: str
    new_path: str


class Git:
    """One repository. ``environ`` is the environment git runs with (the door's); None
    inherits this process's."""

    def __init__(self, cwd: Path | str = ".", *, environ: Mapping[str, str] | None = None) -> None:
        self.cwd = Path(cwd)
        self.environ = None if environ is None else dict(environ)
        if not self.cwd.is_dir():
            raise InputError(f"{self.cwd}: no such directory")
        # One process for the top level, the git directory and HEAD: exit code 1 (and no
        # third line) before the first commit, 128 outside a repository.
        proc = self._spawn(
            ["rev-parse", "--show-toplevel", "--absolute-git-dir", "--verify", "-q", "HEAD"],
            cwd=self.cwd,
        )
        lines = proc.stdout.decode("utf-8", "surrogateescape").split("\n")
        if proc.returncode not in (0, 1) or len(lines) < 2 or not lines[1]:
            first = _first_line(proc.stderr, proc.returncode)
            if "not a git repository" in first or not first:
                raise GitError(f"{self.cwd}: not a git repository (use --patch for a diff file)")
            raise GitError(f"{self.cwd}: git could not find the repository: {first}")
        self.root = Path(lines[0])
        self._git_dir = Path(lines[1])
        head = lines[2] if proc.returncode == 0 and len(lines) > 2 else ""
        self._head: str | None = head or None

    def git_dir(self) -> Path:
        """The repository's git directory (``.git``, or a worktree's)."""
        return self._git_dir

    @staticmethod
    def find(cwd: Path | str = ".") -> Git | None:
        try:
            return Git(cwd)
        except InputError:
            return None

    def _spawn(
        self, args: Sequence[str], *, cwd: Path, stdin: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(
                ["git", *_CONFIG, *args],
                cwd=cwd,
                input=stdin,
                capture_output=True,
                env=self.environ,
                check=False,
            )
        except FileNotFoundError:
            if not cwd.is_dir():
                raise InputError(f"{cwd}: no such directory") from None
            raise InputError("git is not installed (or not on PATH)") from None
        except PermissionError as exc:
            raise InputError(f"{cwd}: cannot run git there: {exc.strerror}") from None

    def _run(
        self, args: Sequence[str], *, what: str, stdin: bytes | None = None, cwd: Path | None = None
    ) -> bytes:
        proc = self._spawn(args, cwd=cwd or self.cwd, stdin=stdin)
        if proc.returncode != 0:
            raise GitError(f"git could not {what}: {_first_line(proc.stderr, proc.returncode)}")
        return proc.stdout

    def run(self, *args: str, what: str = "run", stdin: bytes | None = None) -> bytes:
        return self._run(args, what=what, stdin=stdin, cwd=self.root)

    # -- revisions --------------------------------------------------------------------------------

    def head(self) -> str | None:
        """HEAD's commit id, or None before the first commit."""
        return self._head

    def has_head(self) -> bool:
        return self.head() is not None

    def resolve(self, rev: str) -> str:
        """A commit id for ``rev``. Options are refused: a revision never starts with '-'."""
        if not rev or rev.startswith("-") or "\0" in rev:
            raise InputError(f"invalid revision {rev!r}")
        out = self.run(
            "rev-parse",
            "--verify",
            "--end-of-options",
            f"{rev}^{{commit}}",
            what=f"find revision {rev!r}",
        )
        return out.decode().strip()

    def merge_base(self, a: str, b: str) -> str:
        out = self.run("merge-base", a, b, what=f"find a merge base of {a} and {b}")
        return out.decode().strip()

    def short(self, sha: str) -> str:
        return sha[:12]

    # -- diffs ------------------------------------------------------------------------------------

    def diff(self, args: Sequence[str]) -> tuple[list[RawEntry], list[PatchEntry]]:
        """The raw listing and the patch of one diff, from two git processes run side by side."""
        raw_cmd = ["diff", "--raw", "-z", *_DIFF_OPTIONS, *args, "--"]
        patch_cmd = ["diff", "-p", "-U3", *_DIFF_OPTIONS, *args, "--"]
        raw_out, patch_out = self._run_many([raw_cmd, patch_cmd], what="compute the diff")
        return _parse_raw(raw_out), parse_patch(patch_out.decode("utf-8", "surrogateescape"))

    def _run_many(self, commands: Sequence[Sequence[str]], *, what: str) -> list[bytes]:
        env = self.environ
        procs = []
        try:
            for args in commands:
                procs.append(
                    subprocess.Popen(
                        ["git", *_CONFIG, *args],
                        cwd=self.root,
                        env=env,
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                    )
                )
        except FileNotFoundError:
            raise InputError("git is not installed (or not on PATH)") from None
        results = [p.communicate() for p in procs]
        for proc, (_, err) in zip(procs, results, strict=True):
            if proc.returncode != 0:
                raise GitError(f"git could not {what}: {_first_line(err, proc.returncode)}")
        return [out for out, _ in results]

    def raw(self, args: Sequence[str]) -> list[RawEntry]:
        out = self.run("diff", "--raw", "-z", *_DIFF_OPTIONS, *args, "--", what="list changes")
        return _parse_raw(out)

    def patch(self, args: Sequence[str], paths: Sequence[str] = ()) -> list[PatchEntry]:
        out = self.run(
            "diff", "-p", "-U3", *_DIFF_OPTIONS, *args, "--", *paths, what="compute the diff"
        )
        return parse_patch(out.decode("utf-8", "surrogateescape"))

    def blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Contents of many blobs through one ``git cat-file --batch`` process."""
        wanted = sorted({s for s in shas if s and s != NULL_SHA})
        if not wanted:
            return {}
        out = self.run(
            "cat-file",
            "--batch",
            what="read file contents",
            stdin=("\n".join(wanted) + "\n").encode(),
        )
        result: dict[str, bytes] = {}
        pos = 0
        for sha in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].split()
            pos = end + 1
            if len(header) < 3 or header[1] == b"missing":
                continue
            size = int(header[2])
            result[sha] = out[pos : pos + size]
            pos += size + 1
        return result

    def _has_attributes(self, paths: Sequence[str]) -> bool:
        """Whether any attributes file could apply (saves a git process when none does)."""
        if (self._git_dir / "info" / "attributes").exists():
            return True
        folders = {Path(p).parent for p in paths}
        seen: set[Path] = set()
        for folder in folders:
            while folder not in seen:
                seen.add(folder)
                if (self.root / folder / ".gitattributes").exists():
                    return True
                if folder == folder.parent:
                    break
                folder = folder.parent
        if self.environ is None:
            return True  # where the global attributes file is, is unknown: ask git
        home = self.environ.get("HOME", "")
        xdg = self.environ.get("XDG_CONFIG_HOME") or (f"{home}/.config" if home else "")
        # The default global attributes file (a core.attributesFile set elsewhere is not seen).
        return not xdg or (Path(xdg) / "git" / "attributes").exists()

    def generated_attributes(self, paths: Sequence[str]) -> set[str]:
        """Paths with the ``linguist-generated`` attribute set (gitattributes)."""
        if not paths or not self._has_attributes(paths):
            return set()
        data = "\0".join(paths).encode("utf-8", "surrogateescape") + b"\0"
        out = self.run(
            "check-attr", "-z", "--stdin", "linguist-generated", stdin=data, what="read attributes"
        )
        parts = out.split(b"\0")
        marked = set()
        for k in range(0, len(parts) - 2, 3):
            value = parts[k + 2].decode()
            if value in ("set", "true"):
                marked.add(parts[k].decode("utf-8", "surrogateescape"))
        return marked

    def grep_words(
        self, words: Sequence[str], where: str | None, *, timeout: float = 1.0, limit: int = 2000
    ) -> tuple[list[tuple[str, int, str]], bool]:
        """Whole-word, fixed-string matches of ``words`` (path, line, text): in ``where``
        (a commit), in the index (``"--cached"``) or, when None, in the working tree's tracked
        files. Bounded in time and count; the flag says whether it was cut short."""
        args = ["git", *_CONFIG, "grep", "-n", "-I", "-w", "-F", "--no-color", "--full-name", "-z"]
        for word in words:
            args += ["-e", word]
        if where == "--cached":
            args.append("--cached")
        elif where is not None:
            args.append(where)
        args.append("--")
        try:
            proc = subprocess.run(
                args,
                cwd=self.root,
                env=self.environ,
                capture_output=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            out, cut = exc.stdout or b"", True
        else:
            out, cut = proc.stdout, False
        found: list[tuple[str, int, str]] = []
        for record in out.split(b"\n"):
            parts = record.split(b"\0", 2)
            if len(parts) < 3:
                continue
            path = parts[0].decode("utf-8", "surrogateescape")
            if where not in (None, "--cached") and path.startswith(f"{where}:"):
                path = path[len(where) + 1 :]
            try:
                line = int(parts[1])
            except ValueError:
                continue
            found.append((path, line, parts[2].decode("utf-8", "replace")))
            if len(found) >= limit:
                return found, True
        return found, cut

    def show(self, rev: str, path: str) -> bytes | None:
        try:
            return self.run("show", f"{rev}:{path}", what="read a file")
        except GitError:
            return None

    def worktree_bytes(self, path: str) -> bytes | None:
        full = self.root / path
        try:
            if full.is_symlink():
                return os.readlink(full).encode("utf-8", "surrogateescape")
            return full.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None


def _first_line(stderr: bytes, code: int) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return (lines[0] if lines else f"exit code {code}").removeprefix("fatal: ")


def _parse_raw(out: bytes) -> list[RawEntry]:
    """Entries of `git diff --raw -z`: `:modes shas status NUL path NUL [path NUL]`."""
    fields = out.split(b"\0")
    entries: list[RawEntry] = []
    i = 0
    while i < len(fields) and fields[i]:
        meta = fields[i].decode("ascii").lstrip(":").split()
        old_mode, new_mode, old_sha, new_sha, status = meta[:5]
        letter, score = status[0], (int(status[1:]) if len(status) > 1 else None)
        first = fields[i + 1].decode("utf-8", "surrogateescape")
        if letter in "RC":
            second = fields[i + 2].decode("utf-8", "surrogateescape")
            i += 3
        else:
            second = first
            i += 2
        entries.append(RawEntry(old_mode, new_mode, old_sha, new_sha, letter, score, first, second))
    return entries
