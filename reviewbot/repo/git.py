"""A small git wrapper: argument lists (never a shell), no external diff or textconv drivers,
the user's repository and ``GIT_INDEX_FILE`` respected, blobs read in bulk."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from reviewbot.errors import InputError
from reviewbot.repo.files import Unreadable, read_bytes
from reviewbot.repo.patch import PatchChunk, parse_git_patch

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
_REGULAR = ("100644", "100755")  # the modes of regular files in git
_DIFF_OPTIONS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "--full-index",
    "-M",
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

    def diff(
        self, args: Sequence[str], *, max_bytes: int | None = None, whole_added: bool = False
    ) -> list[tuple[RawEntry, PatchChunk]]:
        """Each changed file's raw entry (names NUL-separated, never C-quoted) and its patch,
        from one git process: the patch of the N-th file is the N-th in the output. Files over
        ``max_bytes`` are diffed as binary (git's core.bigFileThreshold), so their content is
        never read into a patch.

        ``whole_added`` (a diff between commits): the files listed first, and regular files
        added whole get no patch from git (a chunk marked ``whole``: ``added_chunk`` of their
        content gives the same), so a large new file is not written out and parsed once more
        as a patch; the others' patches come from a second git process. Where gitattributes
        could apply, or an added entry is not a regular file, all from one process."""
        big = ["-c", f"core.bigFileThreshold={max_bytes}"] if max_bytes else []
        options = ["-z", "--no-abbrev", *_DIFF_OPTIONS, *args, "--"]
        if whole_added:
            split = self._diff_without_added(options, big)
            if split is not None:
                return split
        try:
            out = self.run(*big, "diff", "--raw", "-p", "-U3", *options, what="compute the diff")
        except GitError:
            # An object git cannot read (missing, corrupt, not fetched): list the files
            # without their contents and diff each on its own, so only that file is lost.
            raw = self._plumbing_raw(args)
            if not raw:
                raise
            return [(e, self._one_patch(args, e, big)) for e in raw]
        raw, rest = _split_raw(out)
        chunks = parse_git_patch(rest.decode("utf-8", "surrogateescape"))
        if len(chunks) == len(raw):
            return list(zip(raw, chunks, strict=True))
        # git printed one file's patch in a form we do not split (a combined diff of a
        # conflict, say): ask for each file's patch on its own.
        return [(e, self._one_patch(args, e, big)) for e in raw]

    def _diff_without_added(
        self, options: list[str], big: list[str]
    ) -> list[tuple[RawEntry, PatchChunk]] | None:
        """``diff``'s answer with the patches of regular files added whole left to their
        content; None when that does not apply (nothing added, an added entry that is not a
        regular file, attributes that could apply, a listing that does not match)."""
        try:
            raw, _ = _split_raw(self.run(*big, "diff", "--raw", *options, what="list the changes"))
        except GitError:
            return None
        added = [e for e in raw if e.status == "A"]
        if not added or any(e.new_mode not in _REGULAR for e in added):
            return None
        if self._has_attributes([e.new_path for e in added]):
            return None  # binary, -diff or a diff driver: git's own patch says
        rest: list[tuple[RawEntry, PatchChunk]] = []
        if len(added) < len(raw):
            try:
                out = self.run(
                    *big,
                    "diff",
                    "--raw",
                    "-p",
                    "-U3",
                    "--diff-filter=a",
                    *options,
                    what="compute the diff",
                )
            except GitError:
                return None
            others, text = _split_raw(out)
            chunks = parse_git_patch(text.decode("utf-8", "surrogateescape"))
            if others != [e for e in raw if e.status != "A"] or len(chunks) != len(others):
                return None
            rest = list(zip(others, chunks, strict=True))
        patches = iter(rest)
        whole = PatchChunk((), False, True)
        return [(e, whole) if e.status == "A" else next(patches) for e in raw]

    def _plumbing_raw(self, args: Sequence[str]) -> list[RawEntry]:
        """The raw listing from git's plumbing, which reads no file contents (the porcelain
        `git diff` does, and fails on a missing object). No rename detection here."""
        if len(args) == 2 and args[0] != "--cached":
            cmd = ["diff-tree", "-r", "-z", "--no-abbrev", args[0], args[1], "--"]
        else:
            cmd = ["diff-index", "-z", "--no-abbrev", *args, "--"]
        try:
            out = self.run(*cmd, what="list the changed files")
        except GitError:
            return []
        raw, _ = _split_raw(out + b"\0")
        return raw

    def _one_patch(self, args: Sequence[str], e: RawEntry, big: list[str]) -> PatchChunk:
        paths = [e.old_path] if e.old_path == e.new_path else [e.old_path, e.new_path]
        try:
            out = self.run(
                "--literal-pathspecs",
                *big,
                "diff",
                "-p",
                "-U3",
                *_DIFF_OPTIONS,
                *args,
                "--",
                *paths,
                what="compute the diff",
            )
        except GitError:
            return PatchChunk((), False)  # its contents will be missing too: said there
        chunks = parse_git_patch(out.decode("utf-8", "surrogateescape"))
        return chunks[0] if len(chunks) == 1 else PatchChunk((), False)

    def start_batch(self) -> subprocess.Popen[bytes] | None:
        """A ``git cat-file --batch-command`` process for ``read_blobs``, started ahead (git
        2.36 and later), so that it starts while another git process runs. None when it
        cannot start. ``read_blobs`` ends it; ``end_batch`` ends one that was not used."""
        try:
            return subprocess.Popen(
                ["git", *_CONFIG, "cat-file", "--batch-command"],
                cwd=self.root,
                env=self.environ,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return None

    @staticmethod
    def end_batch(batch: subprocess.Popen[bytes] | None) -> None:
        if batch is not None and batch.returncode is None:
            _close(batch)

    def read_blobs(
        self,
        shas: Iterable[str],
        max_bytes: int,
        batch: subprocess.Popen[bytes] | None = None,
    ) -> tuple[dict[str, int | None], dict[str, bytes]]:
        """Each blob's size (None when the object is missing), and the contents of those of at
        most ``max_bytes``: ``sizes`` then ``blobs``, in one ``git cat-file --batch-command``
        process (``batch`` when one was started ahead; git 2.36 and later; before, or when it
        fails, the two of them)."""
        wanted = sorted({s for s in shas if s and s != NULL_SHA})
        if not wanted:
            self.end_batch(batch)
            return {}, {}
        proc = batch or self.start_batch()
        if proc is not None:
            try:
                found = _batch_command(proc, wanted, max_bytes)
            except (OSError, ValueError):
                found = None  # an older git (no --batch-command), or it failed: ask again
            finally:
                _close(proc)
            if found is not None and proc.returncode == 0:
                return found
        sizes = self.sizes(wanted)
        return sizes, self.blobs([s for s in wanted if (sizes.get(s) or 0) <= max_bytes])

    def sizes(self, shas: Iterable[str]) -> dict[str, int | None]:
        """Each blob's size in bytes (None when the object is missing), without its content."""
        wanted = sorted({s for s in shas if s and s != NULL_SHA})
        if not wanted:
            return {}
        try:
            out = self.run(
                "cat-file",
                "--batch-check",
                what="list file sizes",
                stdin=("\n".join(wanted) + "\n").encode(),
            )
        except GitError:
            return {sha: self._size(sha) for sha in wanted}
        sizes: dict[str, int | None] = {}
        for line in out.decode("ascii", "replace").splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[2].isdigit():
                sizes[parts[0]] = int(parts[2])
            elif parts:
                sizes[parts[0]] = None
        return sizes

    def _size(self, sha: str) -> int | None:
        try:
            return int(self.run("cat-file", "-s", sha, what="read a size").decode().strip())
        except (GitError, ValueError):
            return None

    def blobs(self, shas: Iterable[str]) -> dict[str, bytes]:
        """Contents of many blobs through one ``git cat-file --batch`` process. A missing or
        unreadable object is left out (the caller says why); when the batch itself fails (a
        partial clone without its network, say), each blob is read on its own."""
        wanted = sorted({s for s in shas if s and s != NULL_SHA})
        if not wanted:
            return {}
        try:
            out = self.run(
                "cat-file",
                "--batch",
                what="read file contents",
                stdin=("\n".join(wanted) + "\n").encode(),
            )
        except GitError:
            return {sha: data for sha in wanted if (data := self._blob(sha)) is not None}
        result: dict[str, bytes] = {}
        pos = 0
        for _ in wanted:
            end = out.find(b"\n", pos)
            if end < 0:
                break
            header = out[pos:end].split()
            pos = end + 1
            if len(header) < 3 or not header[2].isdigit():
                continue  # "<sha> missing" (or ambiguous): no content follows
            size = int(header[2])
            result[header[0].decode("ascii", "replace")] = out[pos : pos + size]
            pos += size + 1
        return result

    def _blob(self, sha: str) -> bytes | None:
        try:
            return self.run("cat-file", "blob", sha, what="read a file")
        except GitError:
            return None

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

    def generated_attributes(self, paths: Sequence[str]) -> dict[str, bool]:
        """The paths whose gitattributes say whether they are generated: True where
        ``linguist-generated`` is set (or ``=true``), False where it is unset
        (``-linguist-generated``) or ``=false`` (testify's `assert/*.go
        linguist-generated=false`: generated, but to be reviewed; as on GitHub, that overrides
        what the file's header says). Paths the attribute leaves unspecified are not listed."""
        if not paths or not self._has_attributes(paths):
            return {}
        data = "\0".join(paths).encode("utf-8", "surrogateescape") + b"\0"
        out = self.run(
            "check-attr", "-z", "--stdin", "linguist-generated", stdin=data, what="read attributes"
        )
        parts = out.split(b"\0")
        marked: dict[str, bool] = {}
        for k in range(0, len(parts) - 2, 3):
            value = parts[k + 2].decode()
            if value in ("set", "true", "unset", "false"):
                marked[parts[k].decode("utf-8", "surrogateescape")] = value in ("set", "true")
        return marked

    def grep_words(
        self,
        words: Sequence[str],
        where: str | None,
        *,
        timeout: float = 1.0,
        limit: int = 2000,
        exclude: Sequence[str] = (),
    ) -> tuple[list[tuple[str, int, str]], bool]:
        """Whole-word, fixed-string matches of ``words`` (path, line, text): in ``where``
        (a commit), in the index (``"--cached"``) or, when None, in the working tree's tracked
        files, but not in the files ``exclude`` names (repository-relative paths, taken
        literally). Bounded in time and count; the flag says whether it was cut short."""
        args = ["git", *_CONFIG, "grep", "-n", "-I", "-w", "-F", "--no-color", "--full-name", "-z"]
        for word in words:
            args += ["-e", word]
        if where == "--cached":
            args.append("--cached")
        elif where is not None:
            args.append(where)
        args.append("--")
        args += [f":(top,literal,exclude){path}" for path in exclude]
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

    def worktree_bytes(self, path: str, max_bytes: int | None = None) -> bytes | Unreadable | None:
        """A working-tree file's bytes (a symbolic link's target, as git stores it), None when
        it is absent, or why it cannot be read (not a regular file, too large, no permission)."""
        full = self.root / path
        try:
            if full.is_symlink():
                return os.readlink(full).encode("utf-8", "surrogateescape")
        except OSError as exc:
            return Unreadable(f"unreadable: {exc.strerror or exc}")
        try:
            return read_bytes(full, max_bytes)
        except (FileNotFoundError, NotADirectoryError):
            return None


_BATCH = 256  # commands written before their answers are read (the pipes never fill up)


def _batch_command(
    proc: subprocess.Popen[bytes], wanted: list[str], max_bytes: int
) -> tuple[dict[str, int | None], dict[str, bytes]]:
    """Sizes (``info``), then the contents of the small blobs (``contents``), from a running
    ``git cat-file --batch-command`` that answers each command as it comes. ValueError when
    the answers are not what was asked (git stopped, or does not know the command)."""
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None
    sizes: dict[str, int | None] = {}
    for i in range(0, len(wanted), _BATCH):
        part = wanted[i : i + _BATCH]
        stdin.write(b"".join(b"info " + sha.encode("ascii") + b"\n" for sha in part))
        stdin.flush()
        for sha in part:
            fields = stdout.readline().split()
            if not fields or fields[0].decode("ascii", "replace") != sha:
                raise ValueError("git cat-file --batch-command: unexpected answer")
            sizes[sha] = int(fields[2]) if len(fields) >= 3 and fields[2].isdigit() else None
    small = [sha for sha in wanted if (size := sizes[sha]) is not None and size <= max_bytes]
    blobs: dict[str, bytes] = {}
    for i in range(0, len(small), _BATCH):
        part = small[i : i + _BATCH]
        stdin.write(b"".join(b"contents " + sha.encode("ascii") + b"\n" for sha in part))
        stdin.flush()
        for sha in part:
            fields = stdout.readline().split()
            if not fields or fields[0].decode("ascii", "replace") != sha:
                raise ValueError("git cat-file --batch-command: unexpected answer")
            if len(fields) < 3 or not fields[2].isdigit():
                continue  # gone missing since: no content follows
            size = int(fields[2])
            data = stdout.read(size + 1)
            if len(data) != size + 1:
                raise ValueError("git cat-file --batch-command: short read")
            blobs[sha] = data[:size]
    return sizes, blobs


def _close(proc: subprocess.Popen[bytes]) -> None:
    """End a batch process: its pipes closed (git ends, or gets SIGPIPE), waited for."""
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    proc.wait()  # (with a timeout, Popen.wait polls and sleeps: a few ms for nothing)


def _first_line(stderr: bytes, code: int) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return (lines[0] if lines else f"exit code {code}").removeprefix("fatal: ")


def _split_raw(out: bytes) -> tuple[list[RawEntry], bytes]:
    """`git diff --raw -p -z` output: the raw entries, and the patch text after them (the raw
    part ends with an empty NUL-separated field)."""
    entries: list[RawEntry] = []
    pos = 0
    while pos < len(out) and out[pos : pos + 1] == b":":
        meta_end = out.index(b"\0", pos)
        meta = out[pos + 1 : meta_end].decode("ascii").split()
        status = meta[4]
        names = 2 if status[0] in "RC" else 1
        fields = []
        cursor = meta_end + 1
        for _ in range(names):
            end = out.index(b"\0", cursor)
            fields.append(out[cursor:end].decode("utf-8", "surrogateescape"))
            cursor = end + 1
        pos = cursor
        letter, score = status[0], (int(status[1:]) if len(status) > 1 else None)
        first = fields[0]
        second = fields[1] if names == 2 else first
        entries.append(RawEntry(meta[0], meta[1], meta[2], meta[3], letter, score, first, second))
    if out[pos : pos + 1] == b"\0":
        pos += 1
    return entries, out[pos:]


def common_dir(git_dir: Path) -> Path | None:
    """A linked worktree's main git directory (its ``commondir`` file), else None."""
    try:
        text = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    path = Path(text)
    return path if path.is_absolute() else git_dir / path
