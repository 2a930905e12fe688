"""Unified diffs -> frozen records. Nothing outside this module holds unidiff's objects.

git's own diffs are read with our hunk parser, matched to the NUL-separated raw listing by
position (so no name is ever parsed out of a C-quoted header); patches from a file or stdin go
through unidiff. Both check every hunk header against the lines that follow it."""

from __future__ import annotations

import re
from typing import NamedTuple

from reviewbot.errors import InputError
from reviewbot.model import Hunk

__all__ = [
    "MAX_LINE",
    "PatchChunk",
    "PatchEntry",
    "c_unquote",
    "parse_git_patch",
    "parse_hunks",
    "parse_patch",
    "strip_prefix",
    "validate_hunks",
]

# No file reviewbot reads has more lines than this (it reads files up to a few MiB; a line is
# at least one byte): a hunk header beyond it is a lie, not a big file.
MAX_LINE = 64 * 1024 * 1024
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchEntry(NamedTuple):
    """One file of a patch: paths (None for /dev/null), hunks, and what the header says."""

    old_path: str | None
    new_path: str | None
    hunks: tuple[Hunk, ...]
    binary: bool


class PatchChunk(NamedTuple):
    """The patch of one file of a git diff, matched to its raw entry by position."""

    hunks: tuple[Hunk, ...]
    binary: bool
    # A regular file added whole whose patch was not asked of git: its hunk and git's binary
    # verdict come from its content (``added_chunk``), which is read anyway.
    whole: bool = False


GIT_BINARY_PROBE = 8000  # git diff calls a file binary with a NUL in its first 8,000 bytes


def added_chunk(data: bytes | None, big: int | None = None) -> PatchChunk:
    """What ``git diff -p`` says of a regular file added whole with content ``data`` (None:
    unreadable, as when git cannot read it: no hunks), without a gitattributes file that
    applies to it: binary when a NUL is in its first 8,000 bytes or it is larger than ``big``
    (core.bigFileThreshold), else one hunk ``@@ -0,0 +1,n @@`` of its n lines (none when
    empty), lines ending at each ``\n`` as git splits them (CR, a BOM or invalid UTF-8 change
    nothing)."""
    if data is None:
        return PatchChunk((), False)
    if b"\0" in data[:GIT_BINARY_PROBE] or (big is not None and len(data) > big):
        return PatchChunk((), True)
    n = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    return PatchChunk((Hunk(0, 0, 1, n, tuple(range(1, n + 1)), ()),) if n else (), False)


def strip_prefix(path: str) -> str | None:
    if path == "/dev/null":
        return None
    path = c_unquote(path)
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def c_unquote(name: str) -> str:
    """A name as git C-quotes it in patch headers (``"a/t\\tx.py"``), unquoted. Used only for
    patches read from a file or stdin: git's own output is read with NUL-separated names."""
    if len(name) < 2 or not (name.startswith('"') and name.endswith('"')):
        return name
    body = name[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 >= len(body):
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        octal = body[i + 1 : i + 4]
        if len(octal) == 3 and all(c in "01234567" for c in octal):
            out.append(int(octal, 8) & 0xFF)
            i += 4
        elif nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out += nxt.encode("utf-8", "surrogateescape")
            i += 2
    return out.decode("utf-8", "surrogateescape")


def validate_hunks(hunks: tuple[Hunk, ...], where: str) -> None:
    """Refuse hunk headers that cannot describe a real diff: lines beyond any file reviewbot
    reads, hunks out of order, or a new-side start that the earlier hunks do not explain."""
    shift = 0
    last_old = 0
    for h in hunks:
        if max(h.old_start + h.old_len, h.new_start + h.new_len) > MAX_LINE:
            raise InputError(
                f"{where}: hunk @@ -{h.old_start} +{h.new_start} @@ is beyond any file"
            )
        old_first = h.old_start if h.old_len else h.old_start + 1
        new_first = h.new_start if h.new_len else h.new_start + 1
        if old_first < last_old or new_first - old_first != shift:
            raise InputError(
                f"{where}: hunk @@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@ "
                "does not follow from the hunks before it (not a unified diff of one file?)"
            )
        shift += h.new_len - h.old_len
        last_old = old_first + h.old_len


def _one_sided(lines: list[str], i: int, old_len: int, new_len: int) -> str | None:
    """ "+" for a hunk that only adds lines whose body from ``lines[i]`` is that many lines,
    each starting with "+" ("-" for one that only removes lines, likewise): a hunk of a new
    file of a million lines, read without a loop per line. None for any other hunk (read line
    by line, the same)."""
    if old_len and new_len:
        return None
    sign, count = ("+", new_len) if not old_len else ("-", old_len)
    if count == 0 or i + count > len(lines) or not lines[i].startswith(sign):
        return None
    # The lines hold no newline: each line after the first starts with the sign when the sign
    # follows every newline of the block joined.
    if "\n".join(lines[i : i + count]).count("\n" + sign) != count - 1:
        return None
    return sign


def parse_hunks(
    lines: list[str], where: str
) -> tuple[tuple[Hunk, ...], tuple[tuple[str, ...], ...]]:
    """Hunks of one file's patch body: each header's counts are checked against the lines
    that follow it (a header that promises more lines than are there is refused)."""
    hunks: list[Hunk] = []
    bodies: list[tuple[str, ...]] = []
    i = 0
    n = len(lines)
    while i < n:
        m = _HUNK.match(lines[i])
        if m is None:
            i += 1
            continue
        old_start, new_start = int(m.group(1)), int(m.group(3))
        old_len = int(m.group(2)) if m.group(2) is not None else 1
        new_len = int(m.group(4)) if m.group(4) is not None else 1
        i += 1
        old_n, new_n = (
            old_start if old_len else old_start + 1,
            new_start if new_len else new_start + 1,
        )
        old_left, new_left = old_len, new_len
        added: list[int] = []
        removed: list[int] = []
        body: list[str] = []
        sign = _one_sided(lines, i, old_len, new_len)
        if sign == "+":  # every line added (a new file): as the loop below would read them
            body = lines[i : i + new_len]
            added = list(range(new_n, new_n + new_len))
            i += new_len
            new_left = 0
        elif sign == "-":
            body = lines[i : i + old_len]
            removed = list(range(old_n, old_n + old_len))
            i += old_len
            old_left = 0
        while (old_left > 0 or new_left > 0) and i < n:
            line = lines[i]
            kind = line[:1]
            if kind == "\\":
                i += 1
                continue
            if kind == "+" and new_left > 0:
                added.append(new_n)
                new_n += 1
                new_left -= 1
            elif kind == "-" and old_left > 0:
                removed.append(old_n)
                old_n += 1
                old_left -= 1
            elif kind in (" ", "") and old_left > 0 and new_left > 0:
                old_n += 1
                new_n += 1
                old_left -= 1
                new_left -= 1
            else:
                break
            body.append(line if line else " ")
            i += 1
        if old_left or new_left:
            raise InputError(
                f"{where}: hunk @@ -{old_start},{old_len} +{new_start},{new_len} @@ is shorter "
                "than its header says"
            )
        hunks.append(Hunk(old_start, old_len, new_start, new_len, tuple(added), tuple(removed)))
        bodies.append(tuple(body))
    result = tuple(hunks)
    validate_hunks(result, where)
    return result, tuple(bodies)


# The lines that start a file's patch in ``git diff -p`` (a hunk's lines start with " ", "+",
# "-" or "\\", so these are headers wherever they are).
_FILE_HEADERS = ("diff --git ", "diff --cc ", "* Unmerged path ")


def _header_starts(text: str) -> list[int]:
    """Where the lines starting with one of ``_FILE_HEADERS`` start, in order (found with
    ``str.find``: a regular expression anchored at line starts tries every character)."""
    found = [0] if text.startswith(_FILE_HEADERS) else []
    for header in _FILE_HEADERS:
        needle = "\n" + header
        at = text.find(needle)
        while at >= 0:
            found.append(at + 1)
            at = text.find(needle, at + 1)
    return sorted(found)


def parse_git_patch(text: str) -> list[PatchChunk]:
    """The per-file patches of ``git diff -p`` in their order (which is the order of the raw
    listing of the same diff). File names are not read from the headers at all."""
    chunks: list[PatchChunk] = []
    starts = _header_starts(text)
    for k, start in enumerate(starts):
        if text.startswith("* Unmerged path ", start):
            chunks.append(PatchChunk((), False))
            continue
        # The lines after the header line, up to the next header (a million-line patch is
        # split in C, not looked at line by line).
        end = text.find("\n", start)
        stop = len(text) if k + 1 == len(starts) else starts[k + 1] - 1  # before its newline
        if end < 0 or end + 1 > stop:  # no line after the header line
            chunks.append(PatchChunk(*_read_part([])))
            continue
        added = _file_added(text, end + 1, stop)
        if added:
            chunks.append(PatchChunk(added, False))
        else:
            chunks.append(PatchChunk(*_read_part(text[end + 1 : stop].split("\n"))))
    return chunks


def _read_part(lines: list[str]) -> tuple[tuple[Hunk, ...], bool]:
    """The hunks of one file's part of a git patch, and whether git says it is binary."""
    binary = any(line.startswith(("Binary files ", "GIT binary patch")) for line in lines[:8])
    return (() if binary else parse_hunks(lines, "git diff")[0]), binary


def _file_added(text: str, lo: int, hi: int) -> tuple[Hunk, ...] | None:
    """The hunk of a file added whole, from the part ``text[lo:hi]`` of a git patch: at most six
    header lines, `@@ -0,0 +1,n @@` and n lines each starting with "+", then at most two lines
    (`\\ No newline at end of file`), read in place (no copy, no split into lines) the same as
    ``_read_part`` reads the part's lines; None for any other part."""
    at = lo if text.startswith("@@ ", lo, hi) else text.find("\n@@ ", lo, hi) + 1
    if at <= 0:
        return None
    head = text[lo:at].split("\n")[:-1]
    if len(head) > 6 or any(h.startswith(("Binary files ", "GIT binary patch")) for h in head):
        return None
    eol = text.find("\n", at, hi)
    m = _HUNK.match(text[at:eol]) if eol >= 0 else None
    if m is None or m.group(1) != "0" or m.group(2) != "0" or not m.group(4):
        return None
    start, count = int(m.group(3)), int(m.group(4))
    body = eol + 1  # the body is text[body:hi]
    extra = text.count("\n", body, hi) + 1 - count  # lines after the hunk's
    if count < 1 or not 0 <= extra <= 2 or not text.startswith("+", body, hi):
        return None
    end = hi
    for _ in range(extra):  # the lines after the hunk's, from the end
        cut = text.rfind("\n", body, end)
        line = text[cut + 1 : end]
        if line.startswith("+") or _HUNK.match(line):
            return None
        end = cut
    if text.count("\n+", body, hi) + 1 != count:  # then the first ``count`` lines all start
        return None  # with "+"
    hunks = (Hunk(0, 0, start, count, tuple(range(start, start + count)), ()),)
    validate_hunks(hunks, "git diff")
    return hunks


def parse_patch(text: str) -> list[PatchEntry]:
    """Parse a unified diff from a file or stdin (git's or plain ``diff -u``)."""
    # Lazy: unidiff (~3 ms to import) reads patch files only; git's own diffs (the hook's) go
    # through parse_git_patch.
    from unidiff.errors import UnidiffParseError
    from unidiff.patch import PatchSet

    try:
        patch = PatchSet(text)
    except UnidiffParseError as exc:
        message = str(exc)
        if message.lower().startswith("hunk "):  # unidiff's "Hunk is shorter than expected"
            raise InputError(
                f"not a valid unified diff: a {message[0].lower()}{message[1:]}"
            ) from None
        raise InputError(f"not a valid unified diff: {exc}") from None
    entries: list[PatchEntry] = []
    for pf in patch:
        hunks = []
        for h in pf:
            added = tuple(line.target_line_no for line in h if line.is_added)
            removed = tuple(line.source_line_no for line in h if line.is_removed)
            hunks.append(
                Hunk(
                    h.source_start,
                    h.source_length,
                    h.target_start,
                    h.target_length,
                    tuple(int(a) for a in added if a is not None),
                    tuple(int(r) for r in removed if r is not None),
                )
            )
        old = None if pf.is_added_file else strip_prefix(pf.source_file)
        new = None if pf.is_removed_file else strip_prefix(pf.target_file)
        validate_hunks(tuple(hunks), new or old or "patch")
        entries.append(PatchEntry(old, new, tuple(hunks), bool(pf.is_binary_file)))
    if text.strip() and not entries:
        raise InputError("the patch holds no file changes (is it a unified diff?)")
    return entries
