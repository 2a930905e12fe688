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
from reviewbot.repo.changes import FilePolicy, collect, resolve_range
from reviewbot.repo.git import Git
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


# Contents git and the reader could see differently: line ends, final newline, encodings, a NUL
# past reviewbot's 4,096-byte probe but inside git's 8,000 (binary to git), empty, one newline.
_ADDED = {
    "crlf.py": b"def f():\r\n    return 1\r\n",
    "no_final_newline.py": b"def g():\n    return 2",
    "latin1.py": b"# caf\xe9\ndef h():\n    return '\xe9'\n",
    "bom.py": b"\xef\xbb\xbfdef i():\n    return 3\n",
    "empty.py": b"",
    "newline.py": b"\n",
    "lone_cr.py": b"a = 1\rb = 2\n",
    "late_nul.py": b"x = 1\n" * 900 + b"\0\n",
    "early_nul.bin": b"\0\1\2",
    "dir/na\xc3\xafve name.py": b"def j():\n    return 4\n",
}


def _collect(root: Path, whole: bool) -> list[Any]:
    g = Git(root, environ={"HOME": str(root.parent / "home")})
    rng = resolve_range(g, "HEAD~1..HEAD", False)
    if not whole:  # as between a working tree and a commit: every patch from git
        rng = rng._replace(new_side="commit-read-by-patch")
    return collect(g, rng, policy=FilePolicy(1 << 20, ()))


def test_files_added_whole_are_read_without_their_patch_the_same(repo: Path) -> None:
    """Between commits, a regular file added whole gets its hunk from its content, not from
    git's patch: every ChangedFile is the same as from the patch, beside a modified, a renamed
    and a deleted file whose patches still come from git."""
    write(repo, "kept.py", "def k():\n    return 1\n")
    write(repo, "moving.py", "def m():\n    return 1\n" * 20)
    write(repo, "gone.py", "".join(f"GONE_{k} = {k * k}\n" for k in range(30)))
    commit(repo)
    write(repo, "kept.py", "def k():\n    return 2\n")
    (repo / "moving.py").rename(repo / "moved.py")
    (repo / "gone.py").unlink()
    for name, data in _ADDED.items():
        write(repo, name.encode("latin-1").decode("utf-8"), data)
    (repo / "run.sh").write_bytes(b"echo 1\n")
    (repo / "run.sh").chmod(0o755)
    commit(repo)
    fast, slow = _collect(repo, True), _collect(repo, False)
    assert fast == slow
    statuses = {cf.path: cf.status.value for cf in fast}
    assert statuses["moved.py"] == "renamed" and statuses["gone.py"] == "deleted"
    assert statuses["late_nul.py"] == "binary" and statuses["crlf.py"] == "added"
    by_path = {cf.path: cf for cf in fast}
    assert by_path["no_final_newline.py"].hunks[0].added == (1, 2)
    assert by_path["empty.py"].hunks == () and by_path["newline.py"].hunks[0].added == (1,)


def test_the_patch_of_an_added_file_is_not_asked_of_git_unless_attributes_could_apply(
    repo: Path,
) -> None:
    write(repo, "a.py", "x = 1\n")
    commit(repo)
    write(repo, "b.py", "y = 2\n")
    commit(repo)
    g = Git(repo, environ={"HOME": str(repo.parent / "home")})
    ((entry, chunk),) = g.diff(("HEAD~1", "HEAD"), whole_added=True)
    assert entry.status == "A" and chunk == PatchChunk((), False, True)
    # A .gitattributes could make it binary or give it a diff driver: git's own patch says.
    write(repo, ".gitattributes", "b.py -diff\n")
    write(repo, "b.py", "y = 3\n")
    commit(repo)
    write(repo, "c.py", "z = 1\n")
    commit(repo)
    ((_, chunk),) = g.diff(("HEAD~1", "HEAD"), whole_added=True)
    assert not chunk.whole and chunk.hunks[0].added == (1,)
