"""A change as ChangedFile records: what git (or a patch) says, and a defined outcome for every
kind of file: modified, added, deleted, renamed, copied, mode-only, binary, symlink, submodule,
CRLF, invalid UTF-8, too large, generated, the initial commit and an empty change."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import PurePath
from typing import NamedTuple

from reviewbot.errors import InputError
from reviewbot.model import ChangedFile, Hunk, Status
from reviewbot.repo.files import Unreadable, decode, excluded, is_binary
from reviewbot.repo.git import EMPTY_TREE, NULL_SHA, Git, RawEntry
from reviewbot.repo.patch import PatchChunk, PatchEntry, added_chunk, parse_patch

__all__ = [
    "ApiFile",
    "FilePolicy",
    "Range",
    "collect",
    "from_api_files",
    "from_patch",
    "generated_reason",
    "resolve_range",
]

LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "npm-shrinkwrap.json",
        "Cargo.lock",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "pdm.lock",
        "composer.lock",
        "Gemfile.lock",
        "go.sum",
        "mix.lock",
        "pubspec.lock",
        "Podfile.lock",
        "packages.lock.json",
        "flake.lock",
        "bun.lockb",
    }
)
_GO_PACKAGE = re.compile(r"^package\s", re.MULTILINE)
_GENERATED_HEADER = re.compile(
    r"(code generated\b.*\bdo not edit|@generated\b|"
    r"this (?:file|code) (?:is|was|has been) (?:automatically |auto-?)generated|"
    r"^\W*(?:auto-?generated|automatically generated|generated) (?:file|code|by)\b|"
    r"do not (?:edit|modify)\b.{0,60}\bgenerated|\bgenerated\b.{0,60}\bdo not (?:edit|modify))",
    re.IGNORECASE | re.MULTILINE,
)
_MINIFIED_SUFFIXES = (".min.js", ".min.css", ".min.mjs", "-min.js", ".bundle.js")
# A bundler's or compiler's output names its source map on its last line (rollup's
# `dist/axios.js`, `//# sourceMappingURL=axios.js.map`; CSS `/*# sourceMappingURL=... */`).
_SOURCE_MAP = re.compile(r"^\s*(?://|/\*)\s*[#@]\s*sourceMappingURL=\S", re.MULTILINE)


class Range(NamedTuple):
    """What is compared with what, and where the new side's contents come from."""

    base: str  # for people: "HEAD (1a2b3c4d5e6f)"
    head: str  # "working tree", "index", or a commit
    args: tuple[str, ...]
    new_side: str  # "worktree" | "index" | "commit"

    @property
    def base_rev(self) -> str:
        """The commit (or the empty tree) the change is made on."""
        return self.args[0] if self.new_side == "commit" else self.args[-1]


def resolve_range(git: Git, spec: str | None, staged: bool) -> Range:
    """Like ``git diff``: nothing = working tree and index vs HEAD; ``--staged`` = index vs HEAD;
    ``REV`` = REV vs the working tree; ``A..B``; ``A...B`` (from their merge base)."""
    if staged and spec:
        raise InputError("--staged compares the index with HEAD; it takes no revision range")
    if spec is None:
        head = git.head()
        if head is not None:
            base, base_label = head, f"HEAD ({git.short(head)})"
        else:
            base, base_label = EMPTY_TREE, "empty tree (no commits yet)"
        if staged:
            return Range(base_label, "index", ("--cached", base), "index")
        return Range(base_label, "working tree", (base,), "worktree")
    if "..." in spec:
        a, b = spec.split("...", 1)
        a_sha, b_sha = git.resolve(a or "HEAD"), git.resolve(b or "HEAD")
        mb = git.merge_base(a_sha, b_sha)
        return Range(
            f"{a or 'HEAD'}...(merge base {git.short(mb)})",
            f"{b or 'HEAD'} ({git.short(b_sha)})",
            (mb, b_sha),
            "commit",
        )
    if ".." in spec:
        a, b = spec.split("..", 1)
        # The empty tree is a valid left side (`git diff` takes it): review a whole history.
        a_sha = EMPTY_TREE if a == EMPTY_TREE else git.resolve(a or "HEAD")
        b_sha = git.resolve(b or "HEAD")
        return Range(
            f"{a or 'HEAD'} ({git.short(a_sha)})",
            f"{b or 'HEAD'} ({git.short(b_sha)})",
            (a_sha, b_sha),
            "commit",
        )
    sha = git.resolve(spec)
    return Range(f"{spec} ({git.short(sha)})", "working tree", (sha,), "worktree")


MARKED_GENERATED = "generated (linguist-generated attribute)"


def generated_reason(path: str, text: str, marked: bool | None = None) -> str | None:
    """Why a file is generated (nobody's code to review), or None. ``marked``: what its
    ``linguist-generated`` attribute says (``Git.generated_attributes``), which overrides
    everything else, as on GitHub: False reviews a file whose header says it is generated."""
    if marked is not None:
        return MARKED_GENERATED if marked else None
    name = path.rsplit("/", 1)[-1]
    if name in LOCK_FILES:
        return "generated (lock file)"
    lowered = name.lower()
    if lowered.endswith(_MINIFIED_SUFFIXES):
        return "generated (minified)"
    head = "\n".join(text.split("\n", 10)[:10])
    if path.endswith(".go") and (clause := _GO_PACKAGE.search(head)) is not None:
        # Go's own rule: the marker stands before the package clause (testify's
        # suite/interfaces.go, a doc comment "... // generated by 'go test'.", is no marker).
        head = head[: clause.start()]
    if _GENERATED_HEADER.search(head[:2000]):
        return "generated (header says so)"
    lines = text.count("\n") + 1
    if len(text) > 2000 and len(text) / lines > 500:
        return "generated (minified: very long lines)"
    if _SOURCE_MAP.search(text[-400:]):
        return "generated (has a source map)"
    return None


def _mode_kind(mode: str) -> str | None:
    if mode == "120000":
        return "symbolic link"
    if mode == "160000":
        return "submodule"
    return None


class FilePolicy:
    """What may be analysed: excluded globs, binary files, the size limit, generated files."""

    def __init__(
        self, max_bytes: int, exclude: Sequence[str], generated_attr: dict[str, bool] | None = None
    ) -> None:
        self.max_bytes = max_bytes
        self.exclude = exclude
        self.generated_attr = generated_attr or {}

    def with_generated(self, marked: dict[str, bool]) -> FilePolicy:
        """The policy with these paths' ``linguist-generated`` attributes (True: generated,
        False: not, whatever the file says)."""
        return FilePolicy(self.max_bytes, self.exclude, {**self.generated_attr, **marked})

    def build(
        self,
        path: str,
        old_path: str | None,
        status: Status,
        hunks: tuple[Hunk, ...],
        old: bytes | None,
        new: bytes | None,
        binary: bool,
    ) -> ChangedFile:
        def skipped(reason: str, st: Status = Status.SKIPPED) -> ChangedFile:
            return ChangedFile(path, old_path, st, hunks, None, None, reason)

        if excluded(path, self.exclude):
            return skipped("excluded by configuration")
        if binary or (old is not None and is_binary(old)) or (new is not None and is_binary(new)):
            return skipped("binary file", Status.BINARY)
        size = max(len(old or b""), len(new or b""))
        if size > self.max_bytes:
            return skipped(f"larger than {self.max_bytes // 1024} KiB ({size} bytes)")
        marked = self.generated_attr.get(path)
        if marked:
            return skipped(MARKED_GENERATED)
        warnings: list[str] = []
        old_text = new_text = None
        if old is not None:
            old_text, w = decode(old)
            warnings += [f"old side: {x}" for x in w]
        if new is not None:
            new_text, w = decode(new)
            warnings += [f"new side: {x}" for x in w]
        if new_text is not None:
            reason = generated_reason(path, new_text, marked)
        else:  # (a deleted lock file too, not "prose, data or configuration"; a deleted
            # generated source's declarations may still be referenced: analysed)
            reason = generated_reason(path, "") if path.rsplit("/", 1)[-1] in LOCK_FILES else None
        if reason:
            return skipped(reason)
        if (new_text or "").count("\r\n") or (old_text or "").count("\r\n"):
            warnings.append("CRLF line endings (analysed like LF)")
        return ChangedFile(path, old_path, status, hunks, old_text, new_text, None, tuple(warnings))


_STATUS = {
    "A": Status.ADDED,
    "D": Status.DELETED,
    "M": Status.MODIFIED,
    "R": Status.RENAMED,
    "C": Status.ADDED,
    "T": Status.MODIFIED,
}


def collect(git: Git, rng: Range, *, policy: FilePolicy) -> list[ChangedFile]:
    """Every changed file of the range. Sizes are looked at before any content is read: a
    file over the limit is never read, diffed or parsed; an object that cannot be read skips
    its own file, with the reason, and the rest is reviewed."""
    batch = git.start_batch()  # it starts while the diff runs
    try:
        # Between commits, a file added whole is read once, as a blob: not also as a patch.
        whole = rng.new_side == "commit"
        entries = git.diff(rng.args, max_bytes=policy.max_bytes, whole_added=whole)
        shas = [e.old_sha for e, _ in entries]
        if rng.new_side != "worktree":
            shas += [e.new_sha for e, _ in entries]
        sizes, blobs = git.read_blobs(shas, policy.max_bytes, batch)
    finally:
        git.end_batch(batch)
    if not entries:
        return []
    policy = policy.with_generated(git.generated_attributes([e.new_path for e, _ in entries]))
    return [
        _one(
            git,
            rng,
            e,
            added_chunk(blobs.get(e.new_sha), policy.max_bytes) if chunk.whole else chunk,
            blobs,
            sizes,
            policy,
        )
        for e, chunk in entries
    ]


def _side(
    sha: str, blobs: dict[str, bytes], sizes: dict[str, int | None], max_bytes: int
) -> bytes | Unreadable:
    if sha in blobs:
        return blobs[sha]
    size = sizes.get(sha)
    if size is not None and size > max_bytes:
        return Unreadable(f"larger than {max_bytes // 1024} KiB ({size} bytes)")
    return Unreadable(f"content unavailable (git object {sha[:12]} is missing or unreadable)")


def _one(
    git: Git,
    rng: Range,
    e: RawEntry,
    chunk: PatchChunk,
    blobs: dict[str, bytes],
    sizes: dict[str, int | None],
    policy: FilePolicy,
) -> ChangedFile:
    status = _STATUS.get(e.status, Status.MODIFIED)
    path = e.new_path if e.status != "D" else e.old_path
    old_path = e.old_path if e.status in "RC" else (None if e.status == "A" else e.old_path)
    hunks = chunk.hunks
    if e.status == "T" and _mode_kind(e.old_mode) and not _mode_kind(e.new_mode):
        # A symbolic link (or submodule) became a regular file: every line of it is new code,
        # reviewed as an added file (skipped, it slipped new code past the review).
        now = _new_side(git, rng, e, blobs, sizes, policy)
        if isinstance(now, Unreadable):
            return ChangedFile(path, None, Status.SKIPPED, hunks, reason=now.reason)
        cf = policy.build(path, None, Status.ADDED, (), None, now, False)
        return cf._replace(hunks=_all_added(cf.new_text)) if cf.new_text is not None else cf
    for mode in (e.old_mode, e.new_mode):
        kind = _mode_kind(mode)
        if kind:
            return ChangedFile(path, old_path, Status.SKIPPED, hunks, reason=kind)
    if e.status == "T":
        return ChangedFile(
            path,
            old_path,
            Status.SKIPPED,
            hunks,
            reason=f"type change ({e.old_mode} → {e.new_mode})",
        )
    if e.status in "UX":
        return ChangedFile(path, old_path, Status.SKIPPED, hunks, reason="unmerged")
    if e.status == "M" and e.old_sha == e.new_sha and e.old_mode != e.new_mode and not hunks:
        return ChangedFile(
            path,
            old_path,
            Status.SKIPPED,
            (),
            reason=f"mode change only ({e.old_mode} → {e.new_mode})",
        )
    old: bytes | Unreadable | None = None
    if e.status != "A" and e.old_sha != NULL_SHA:
        old = _side(e.old_sha, blobs, sizes, policy.max_bytes)
    new: bytes | Unreadable | None = (
        None if e.status == "D" else _new_side(git, rng, e, blobs, sizes, policy)
    )
    if isinstance(old, Unreadable):
        return ChangedFile(path, old_path, Status.SKIPPED, hunks, reason=f"old side: {old.reason}")
    if isinstance(new, Unreadable):
        return ChangedFile(path, old_path, Status.SKIPPED, hunks, reason=new.reason)
    if e.status == "C":
        # A copy: the new file is analysed as added (every line its own, no old side: a unit
        # that came from the source is then recognised as moved); the source stays as it was.
        cf = policy.build(path, old_path, Status.ADDED, hunks, None, new, chunk.binary)
        return cf._replace(hunks=_all_added(cf.new_text)) if cf.new_text is not None else cf
    return policy.build(path, old_path, status, hunks, old, new, chunk.binary)


def _new_side(
    git: Git,
    rng: Range,
    e: RawEntry,
    blobs: dict[str, bytes],
    sizes: dict[str, int | None],
    policy: FilePolicy,
) -> bytes | Unreadable | None:
    if rng.new_side == "worktree" and (e.new_sha == NULL_SHA or e.new_sha not in sizes):
        return git.worktree_bytes(e.new_path, policy.max_bytes)
    return _side(e.new_sha, blobs, sizes, policy.max_bytes)


def _all_added(text: str) -> tuple[Hunk, ...]:
    """The hunk of a file added whole: `@@ -0,0 +1,n @@`."""
    n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    return (Hunk(0, 0, 1, n, tuple(range(1, n + 1)), ()),) if n else ()


# -- patches --------------------------------------------------------------------------------------


def _apply(
    old_text: str, entry: PatchEntry, patch_lines: dict[int, list[tuple[str, str]]]
) -> str | None:
    """The new text from the old text and the hunks, or None when the context does not match."""
    lines = old_text.split("\n")
    trailing = old_text.endswith("\n")
    if trailing:
        lines.pop()
    out: list[str] = []
    pos = 0  # 0-based index into the old lines
    for index, h in enumerate(entry.hunks):
        start = h.old_start - 1 if h.old_len else h.old_start
        if start < pos or start > len(lines):
            return None
        out.extend(lines[pos:start])
        pos = start
        for kind, text in patch_lines[index]:
            if kind in " -":
                if pos >= len(lines) or lines[pos].rstrip("\r") != text.rstrip("\r"):
                    return None
                pos += 1
            if kind in " +":
                out.append(text)
    out.extend(lines[pos:])
    return "\n".join(out) + ("\n" if trailing or not out else "")


def _hunk_lines(text: str) -> list[dict[int, list[tuple[str, str]]]]:
    """The line texts of each hunk, which the records leave out, for applying a patch: one
    table per file of the patch, in the order of ``parse_patch``'s entries (a patch may hold
    the same file twice, each time with other hunks)."""
    # Lazy: unidiff (~3 ms to import) reads patch files only, never git's own diffs.
    from unidiff.patch import PatchSet

    return [
        {
            i: [(line.line_type, line.value.rstrip("\n")) for line in h if line.line_type in " +-"]
            for i, h in enumerate(pf)
        }
        for pf in PatchSet(text)
    ]


def _context_only(
    hunks: tuple[Hunk, ...], lines: dict[int, list[tuple[str, str]]], side: str
) -> str:
    """A text holding only what the patch shows of one side, at its line numbers."""
    known: dict[int, str] = {}
    for index, h in enumerate(hunks):
        n = h.old_start if side == "old" else h.new_start
        for kind, text in lines[index]:
            if (side == "old" and kind in " -") or (side == "new" and kind in " +"):
                known[n] = text
                n += 1
    out: list[str] = []
    previous = 0
    for n in sorted(known):  # the lines in between are empty: one newline each, not a list
        out += ["\n" * (n - previous - 1), known[n], "\n"]
        previous = n
    return "".join(out)


def _in_work_tree(git: Git, path: str) -> bool:
    """Whether a patch's name can only be a file of the repository's work tree: relative, no
    `..` or `.git` component, no folder that leads out (a patch names what it likes, and the
    old side it finds is shown in the report)."""
    pure = PurePath(path)
    if pure.is_absolute() or pure.drive or any(p in ("..", "") for p in path.split("/")):
        return False
    if any(p.lower() == ".git" for p in pure.parts):
        return False
    try:
        return (git.root / path).resolve().is_relative_to(git.root.resolve())
    except (OSError, RuntimeError, ValueError):  # a loop, a NUL
        return False


def from_patch(text: str, git: Git | None, *, policy: FilePolicy) -> list[ChangedFile]:
    """Records from a unified diff. The old side comes from the repository's HEAD (or the
    working tree) when there is one and the patch applies to it; otherwise the analysis sees
    only what the patch shows (and says so)."""
    entries = parse_patch(text)
    files: list[ChangedFile] = []
    for entry, lines in zip(entries, _hunk_lines(text), strict=True):
        path = entry.new_path or entry.old_path or "?"
        status = (
            Status.ADDED
            if entry.old_path is None
            else Status.DELETED
            if entry.new_path is None
            else Status.RENAMED
            if entry.old_path != entry.new_path
            else Status.MODIFIED
        )
        if entry.binary:
            files.append(ChangedFile(path, entry.old_path, Status.BINARY, (), reason="binary file"))
            continue
        last = max((max(h.old_end, h.new_end) for h in entry.hunks), default=0)
        if last > policy.max_bytes:
            # Every line is a byte at least: the file is over the size limit, whatever its
            # contents (and the patch alone would be padded to that many lines).
            reason = f"larger than {policy.max_bytes // 1024} KiB (a hunk at line {last})"
            files.append(
                ChangedFile(path, entry.old_path, Status.SKIPPED, entry.hunks, reason=reason)
            )
            continue
        old_bytes: bytes | None = None
        if entry.old_path is not None and git is not None and _in_work_tree(git, entry.old_path):
            for candidate in (
                git.show("HEAD", entry.old_path) if git.has_head() else None,
                git.worktree_bytes(entry.old_path, policy.max_bytes),
            ):
                if not isinstance(candidate, bytes):
                    continue
                old_try, _ = decode(candidate)
                if _apply(old_try, entry, lines) is not None:
                    old_bytes = candidate
                    break
        note: tuple[str, ...] = ()
        old_text: str | None
        new_text: str | None
        if entry.old_path is None:
            old_text = None
            new_text = _context_only(entry.hunks, lines, "new")
        elif old_bytes is not None:
            old_text, _ = decode(old_bytes)
            new_text = _apply(old_text, entry, lines)
        else:
            old_text = _context_only(entry.hunks, lines, "old")
            new_text = _context_only(entry.hunks, lines, "new")
            note = ("analysed from the patch alone: its old side is not in the repository",)
        if entry.new_path is None:
            new_text = None
        built = policy.build(
            path,
            entry.old_path
            if status == Status.RENAMED
            else (None if status == Status.ADDED else entry.old_path),
            status,
            entry.hunks,
            None if old_text is None else old_text.encode(),
            None if new_text is None else new_text.encode(),
            False,
        )
        if note and built.status not in (Status.SKIPPED, Status.BINARY):
            built = ChangedFile(
                built.path,
                built.old_path,
                built.status,
                built.hunks,
                built.old_text,
                built.new_text,
                built.reason,
                built.warnings + note,
            )
        files.append(built)
    return files


# -- the GitHub API's file list -------------------------------------------------------------------


class ApiFile(NamedTuple):
    """One file of a pull request as the API lists it."""

    path: str
    status: str  # added | removed | modified | renamed | copied | changed | unchanged
    patch: str | None  # None for binary and very large files
    previous_path: str | None = None


def from_api_files(
    items: Sequence[ApiFile],
    contents: Callable[[str, str], bytes | None],
    policy: FilePolicy,
) -> list[ChangedFile]:
    """Records from the API's file list, with each side's contents from ``contents(path,
    side)`` (side "old" or "new"). Used when local git cannot provide the change."""
    files: list[ChangedFile] = []
    for item in items:
        if item.patch is None:
            files.append(
                ChangedFile(
                    item.path,
                    None,
                    Status.SKIPPED,
                    reason="no patch from the API (binary or very large)",
                )
            )
            continue
        old_path = item.previous_path or item.path
        header = (
            f"--- {'/dev/null' if item.status == 'added' else 'a/' + old_path}\n"
            f"+++ {'/dev/null' if item.status == 'removed' else 'b/' + item.path}\n"
        )
        text = item.patch if item.patch.endswith("\n") else item.patch + "\n"
        try:
            parsed = from_patch(header + text, None, policy=policy)
        except InputError as exc:  # one patch GitHub sent that does not read: that file only
            files.append(
                ChangedFile(item.path, item.previous_path, Status.SKIPPED, (), reason=f"{exc}")
            )
            continue
        if not parsed:
            continue
        cf = parsed[0]
        old = contents(old_path, "old") if item.status != "added" else None
        new = contents(item.path, "new") if item.status != "removed" else None
        files.append(policy.build(item.path, cf.old_path, cf.status, cf.hunks, old, new, False))
    return files
