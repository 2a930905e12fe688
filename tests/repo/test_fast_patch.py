"""The fast paths of git's patch reader read what the line-by-line reading reads: a hunk that
only adds or only removes lines (a new file of a million lines) and the file headers found with
``str.find``; and a file added whole, reviewed from a real repository, is the same review either
way, whatever its bytes (CRLF, no final newline, invalid UTF-8, binary, empty)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewbot.errors import InputError
from reviewbot.model import Hunk
from reviewbot.repo import patch
from reviewbot.repo.patch import PatchChunk
from tests.helpers import commit, examples, git, write

_BODY = ["+a", "+", "-b", "-", " c", "", "\\ No newline at end of file", "+@@ -1 +1 @@", "x"]


def _read(lines: list[str]) -> Any:
    try:
        return patch.parse_hunks(lines, "t")
    except InputError as exc:
        return str(exc)


@st.composite
def one_hunk(draw: st.DrawFn) -> list[str]:
    """A hunk header (often one-sided) over a body that mostly, not always, matches it."""
    old_len, new_len = draw(st.sampled_from([(0, 3), (0, 1), (2, 0), (1, 0), (0, 0), (1, 2)]))
    sign = "+" if not old_len else "-"
    lines = [f"@@ -{int(not new_len)},{old_len} +{int(not old_len)},{new_len} @@"]
    body = draw(st.lists(st.sampled_from([f"{sign}x", sign, *_BODY]), max_size=6))
    if draw(st.booleans()):  # exactly what the header promises
        body = [f"{sign}{k}" for k in range(max(old_len, new_len))] + body[:1]
    return lines + body


@settings(max_examples=examples(400))
@given(st.lists(one_hunk(), min_size=1, max_size=3).map(lambda hs: [x for h in hs for x in h]))
def test_one_sided_hunks_read_as_line_by_line(lines: list[str]) -> None:
    fast = _read(lines)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(patch, "_one_sided", lambda *args: None)  # the loop over each line
        slow = _read(lines)
    assert fast == slow


def _chunks_line_by_line(text: str) -> list[PatchChunk]:
    """The file parts of a git patch as first written: each line looked at."""
    chunks: list[PatchChunk] = []
    current: list[str] | None = None

    def close() -> None:
        if current is not None:
            binary = any(x.startswith(("Binary files ", "GIT binary patch")) for x in current[:8])
            hunks = patch.parse_hunks(current, "git diff")[0] if not binary else ()
            chunks.append(PatchChunk(hunks, binary))

    for line in text.split("\n"):
        if line.startswith(("diff --git ", "diff --cc ", "* Unmerged path ")):
            close()
            current = []
            if line.startswith("* Unmerged path "):
                chunks.append(PatchChunk((), False))
                current = None
        elif current is not None:
            current.append(line)
    close()
    return chunks


_PARTS = [
    "diff --git a/x b/x",
    "diff --cc x",
    "* Unmerged path x",
    "diff --git",
    " diff --git a b",
    "+diff --git a b",
    "--- a/x",
    "+++ b/x",
    "@@ -0,0 +1,2 @@",
    "@@ -1,2 +0,0 @@",
    "@@ -1 +1 @@",
    "Binary files a and b differ",
    *_BODY,
]


@settings(max_examples=examples(400))
@given(st.lists(st.sampled_from(_PARTS), max_size=14), st.sampled_from(["", "\n", "\n\n"]))
def test_file_parts_are_found_as_line_by_line(lines: list[str], end: str) -> None:
    text = "\n".join(lines) + end

    def read(f: Any) -> Any:
        try:
            return f(text)
        except InputError as exc:
            return str(exc)

    assert read(patch.parse_git_patch) == read(_chunks_line_by_line)


@st.composite
def added_files(draw: st.DrawFn) -> str:
    """The part of a git patch of a file added whole, and near misses: other headers, a count
    that is not the body's, a body line that is not an added line, lines after the hunk."""
    heads = ["new file mode 100644", "index 0000000..1234567", "--- /dev/null", "+++ b/x.py"]
    lines = ["diff --git a/x b/x"]
    lines += draw(st.lists(st.sampled_from([*heads, "Binary files a and b differ"]), max_size=8))
    n = draw(st.integers(1, 5))
    lines.append(
        draw(st.sampled_from([f"@@ -0,0 +1,{n} @@", "@@ -0,0 +1 @@", f"@@ -0,0 +2,{n} @@"]))
    )
    body = draw(
        st.lists(st.sampled_from(["+a", "+", "+@@ -1 +1 @@", "+\\ x"]), min_size=n, max_size=n)
    )
    if draw(st.booleans()):
        body[draw(st.integers(0, n - 1))] = draw(st.sampled_from(_BODY))
    lines += body[: draw(st.integers(0, n))] if draw(st.booleans()) else body
    lines += draw(st.lists(st.sampled_from([*_BODY, "@@ -0,0 +1 @@"]), max_size=3))
    return "\n".join(lines)


@settings(max_examples=examples(400))
@given(st.lists(added_files(), min_size=1, max_size=3), st.sampled_from(["", "\n"]))
def test_files_added_whole_are_read_as_line_by_line(parts: list[str], end: str) -> None:
    text = "\n".join(parts) + end

    def read(f: Any) -> Any:
        try:
            return f(text)
        except InputError as exc:
            return str(exc)

    assert read(patch.parse_git_patch) == read(_chunks_line_by_line)


def test_a_million_added_lines_are_read_in_place() -> None:
    """The part of a file added whole is not split into its lines (the time of counting them
    in C, not of a list of a million strings)."""
    n = 1_000_000
    text = "diff --git a/x b/x\nnew file mode 100644\n@@ -0,0 +1,{} @@\n{}".format(
        n, "+x = 1\n" * n
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(patch, "_read_part", None)  # any split of the part into lines fails
        (chunk,) = patch.parse_git_patch(text)
    assert chunk == PatchChunk((Hunk(0, 0, 1, n, tuple(range(1, n + 1)), ()),), False)


# -- a file added whole, from a real repository -------------------------------------------------

_BODY_PY = (
    "def f(x):\n    if x:\n        return 1\n    return 2\n\n\n"
    "class K:\n    def g(self):\n        pass\n"
)


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (_BODY_PY.encode() * 3, 27),
        (_BODY_PY.replace("\n", "\r\n").encode(), 9),  # CRLF
        (_BODY_PY.encode()[:-1], 9),  # no newline at the end
        (_BODY_PY.encode() + b"# caf\xe9 \xff\n", 10),  # not UTF-8
        (b"\x00\x01binary\n" * 4, 0),  # binary
        (b"", 0),  # empty
    ],
    ids=["plain", "crlf", "no-final-newline", "not-utf8", "binary", "empty"],
)
def test_a_file_added_whole_is_reviewed_as_line_by_line(
    repo: Path, cli: Any, data: bytes, lines: int
) -> None:
    write(repo, "README", "base\n")
    commit(repo)
    write(repo, "new.py", data)
    commit(repo)
    fast = cli("review", "-C", str(repo), "HEAD~1..HEAD", "--format", "json")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(patch, "_one_sided", lambda *args: None)
        mp.setattr(patch, "_file_added", lambda *args: None)
        slow = cli("review", "-C", str(repo), "HEAD~1..HEAD", "--format", "json")
    assert fast.code == slow.code == 0
    a, b = json.loads(fast.out), json.loads(slow.out)
    a["stats"].pop("seconds")
    b["stats"].pop("seconds")
    assert a == b
    (f,) = a["files"]
    # git's own count of the added lines, read apart from reviewbot
    numstat = git(repo, "diff", "--numstat", "HEAD~1", "HEAD").split("\t")
    assert f["added"] == lines == (0 if numstat[0] == "-" else int(numstat[0]))
    if lines:
        spans = [(u["new"]["start"], u["new"]["end"]) for u in f["units"]]
        assert spans and all(1 <= s <= e <= lines for s, e in spans)
    else:
        assert f["units"] == []
