"""Properties of the patch readers: whatever text comes in, a patch is read or refused with an
InputError, in bounded time and memory; what is read agrees with difflib line for line; git's
hunk parser and unidiff read the same hunks."""

from __future__ import annotations

import difflib
import re
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from reviewbot.app.config import Config
from reviewbot.app.pipeline import PatchChange, policy_of
from reviewbot.errors import InputError
from reviewbot.model import Hunk, LineMap
from reviewbot.repo.patch import MAX_LINE, parse_git_patch, parse_hunks, parse_patch
from tests.helpers import commit, examples, git, write

# -- valid patches, and what a hostile or broken one does to them -------------------------------

# Lines that look like a patch's own structure when they are a file's contents.
_TRICKY_LINES = [
    "",
    " ",
    "x",
    "-- a",
    "++ b",
    "--- a/x.py",
    "+++ b/x.py",
    "@@ -1 +1 @@",
    "\\ No newline at end of file",
    "diff --git a/x.py b/x.py",
    "Binary files a/x.py and b/x.py differ",
    "\t",
    "\r",
]
_line = st.one_of(
    st.sampled_from(_TRICKY_LINES), st.text(max_size=8).map(lambda s: s.replace("\n", ""))
)


@st.composite
def edited(draw: st.DrawFn, max_size: int = 40) -> tuple[list[str], list[str]]:
    """Two sides of one file: either random lines over a small alphabet (many repeats, where
    alignments are ambiguous), or distinct lines with inserts, deletes and replaces (many
    hunks), with an empty side now and then."""
    kind = draw(st.sampled_from(["repeats", "edits", "empty old", "empty new"]))
    if kind == "repeats":
        alphabet = st.sampled_from(["a", "b", "c", "", "-- a"])
        return draw(st.lists(alphabet, max_size=max_size)), draw(
            st.lists(alphabet, max_size=max_size)
        )
    old = [f"line {i}" for i in range(draw(st.integers(0, 3 * max_size)))]
    if kind == "empty old":
        return [], old
    if kind == "empty new":
        return old, []
    new = list(old)
    for op, at, size, text in draw(
        st.lists(
            st.tuples(
                st.sampled_from(["insert", "delete", "replace"]),
                st.integers(0, 3 * max_size),
                st.integers(1, 4),
                _line,
            ),
            max_size=8,
        )
    ):
        at = min(at, len(new))
        if op == "insert":
            new[at:at] = [f"{text} new {k}" for k in range(size)]
        elif op == "delete":
            del new[at : at + size]
        else:
            new[at : at + size] = [f"{text} changed"]
    return old, new


def unified(old: list[str], new: list[str], context: int, name: str = "x.py") -> str:
    return "".join(
        difflib.unified_diff(
            [x + "\n" for x in old], [x + "\n" for x in new], f"a/{name}", f"b/{name}", n=context
        )
    )


@st.composite
def valid_patches(draw: st.DrawFn) -> str:
    """One to three files' unified diffs, some with git's headers."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(["f0.py", "f1.py"]))  # a file may come twice
        old, new = draw(edited(max_size=12))
        body = unified(old, new, draw(st.integers(0, 3)), name)
        if body and draw(st.booleans()):
            body = f"diff --git a/{name} b/{name}\nindex 0000000..1111111 100644\n" + body
        parts.append(body)
    return "".join(parts)


_BIG = st.sampled_from(
    [0, 1, 2, 3, 10, 99, MAX_LINE - 1, MAX_LINE, 60_000_000, 900_000_000, 2**31, 2**63, 10**30]
)
_JUNK = st.sampled_from(
    [
        "Binary files a/x.py and b/x.py differ",
        "GIT binary patch",
        "literal 0",
        "\\ No newline at end of file",
        "diff --git a/x.py b/x.py",
        "diff --cc x.py",
        "* Unmerged path x.py",
        "--- /dev/null",
        "+++ /dev/null",
        "--- a/x.py",
        "+++ b/y.py",
        '--- "a/q\\"\\t\\303\\251.py"',
        "@@ -1 +1 @@",
        "@@ -0,0 +0,0 @@",
        "@@ -1,900000000 +1,900000000 @@",
        "new file mode 100644",
        "deleted file mode 100644",
        "rename from x.py",
        "rename to ../../y.py",
        "similarity index 90%",
        "",
        "+",
        "-",
        " ",
    ]
)


_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def _renumber(line: str, numbers: list[int]) -> str:
    """A hunk header with other numbers (or a line left alone)."""
    if not line.startswith("@@"):
        return line
    a, b, c, d = numbers
    return f"@@ -{a},{b} +{c},{d} @@"


def _shift(line: str, offset: int) -> str:
    """A hunk header moved down by ``offset`` lines on both sides: the same change, far down
    a (claimed) huge file; the headers still agree with each other."""
    m = _HEADER.match(line)
    if m is None:
        return line
    a, b, c, d = (int(x) if x is not None else 1 for x in m.groups())
    return f"@@ -{a + offset},{b} +{c + offset},{d} @@"


@st.composite
def mutated_patches(draw: st.DrawFn) -> str:
    """A valid patch, then a few edits of the kind that break parsers."""
    lines = draw(valid_patches()).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(
            st.sampled_from(
                [
                    "renumber",
                    "shift",
                    "drop",
                    "duplicate",
                    "junk",
                    "shuffle",
                    "truncate",
                    "crlf",
                    "cr",
                    "dup-file",
                ]
            )
        )
        lines = lines or [""]
        at = draw(st.integers(0, len(lines) - 1))
        if op == "shift":
            offset = draw(_BIG)
            lines = [_shift(line, offset) for line in lines]
        elif op == "renumber":
            lines[at] = _renumber(lines[at], draw(st.lists(_BIG, min_size=4, max_size=4)))
        elif op == "drop":
            del lines[at]
        elif op == "duplicate":
            lines.insert(at, lines[at])
        elif op == "junk":
            lines.insert(at, draw(_JUNK))
        elif op == "shuffle":
            span = lines[at : at + draw(st.integers(2, 6))]
            lines[at : at + len(span)] = draw(st.permutations(span))
        elif op == "truncate":
            lines = lines[:at]
        elif op == "crlf":
            lines = [x + "\r" for x in lines]
        elif op == "cr":
            lines[at] += "\r"
        else:
            lines = lines + lines  # the same file twice
    return "\n".join(lines)


_PATCH_CHARS = st.sampled_from([*'@-+ \\\n\r\t,0123456789abdgif/."', "\x00", "\udcff", "é"])
texts = st.one_of(
    valid_patches(),
    mutated_patches(),
    st.text(_PATCH_CHARS, max_size=400),
    st.lists(_JUNK, max_size=12).map("\n".join),
)


# -- bounds --------------------------------------------------------------------------------------

SECONDS = 2.0  # for one call on an input under 10 KB
MEGABYTES = 50


@contextmanager
def bounded() -> Iterator[None]:
    """The call inside finishes within SECONDS and allocates at most MEGABYTES at its peak
    (traced only while it runs: generating the examples is not slowed down)."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    assert seconds < SECONDS, f"{seconds:.1f} s"
    assert peak < MEGABYTES, f"{peak:.0f} MB at its peak"


def refused_or_read(call: Callable[[], object]) -> None:
    with bounded():
        try:
            call()
        except InputError as exc:
            assert str(exc).strip()  # a message for the user (the doors put it on one line)


def _repo_with_old_sides(root: Path) -> Path:
    """A repository where the patches' files exist, so that their old sides are looked up."""
    repo = root / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for k in range(3):
        write(repo, f"f{k}.py", "".join(f"line {i}\n" for i in range(40)))
    write(repo, "x.py", "a\nb\nc\n")
    commit(repo)
    return repo


def test_any_text_is_read_or_refused_with_an_input_error() -> None:
    policy = policy_of(Config())
    with tempfile.TemporaryDirectory() as tmp:
        repo = _repo_with_old_sides(Path(tmp))

        @settings(max_examples=examples(250), suppress_health_check=[HealthCheck.too_slow])
        @given(text=texts, with_repo=st.booleans())
        def check(text: str, with_repo: bool) -> None:
            assume(len(text.encode("utf-8", "surrogatepass")) < 10_000)
            refused_or_read(lambda: parse_patch(text))
            refused_or_read(lambda: PatchChange(text, repo if with_repo else None).read(policy))
            refused_or_read(lambda: parse_git_patch(text))
            refused_or_read(lambda: parse_hunks(text.split("\n"), "patch"))

        check()


# -- agreement with difflib -----------------------------------------------------------------------


def truth(old: list[str], new: list[str]) -> dict[int, int]:
    """Old line -> new line (1-based) of the lines difflib keeps, with its own matcher."""
    matcher = difflib.SequenceMatcher(None, old, new)
    return {
        a + k + 1: b + k + 1 for a, b, size in matcher.get_matching_blocks() for k in range(size)
    }


def hunks_of(diff: str) -> tuple[Hunk, ...]:
    entries = parse_patch(diff)
    assert len(entries) == (1 if diff else 0)
    return entries[0].hunks if entries else ()


@settings(max_examples=examples(300))
@given(sides=edited(), context=st.integers(0, 3))
def test_the_line_map_is_difflibs(sides: tuple[list[str], list[str]], context: int) -> None:
    old, new = sides
    diff = unified(old, new, context)
    hunks = hunks_of(diff)
    lm = LineMap(hunks)
    expected = truth(old, new)
    for line in range(1, len(old) + 1):
        assert lm.old_to_new(line) == expected.get(line), line
    inverse = {v: k for k, v in expected.items()}
    for line in range(1, len(new) + 1):
        assert lm.new_to_old(line) == inverse.get(line), line
    # The changed lines are the ones difflib leaves out, on each side.
    assert lm.removed_lines() == [n for n in range(1, len(old) + 1) if n not in expected]
    assert lm.added_lines() == [n for n in range(1, len(new) + 1) if n not in inverse]


@settings(max_examples=examples(300))
@given(sides=edited(), context=st.integers(0, 3))
def test_git_and_unidiff_read_the_same_hunks(
    sides: tuple[list[str], list[str]], context: int
) -> None:
    old, new = sides
    diff = unified(old, new, context)
    hunks = hunks_of(diff)
    body = diff.split("\n")
    parsed, bodies = parse_hunks(body, "x.py")
    assert parsed == hunks
    # Each hunk's body: its context and removed lines (the old side), and its added lines.
    assert [len(b) for b in bodies] == [h.old_len + len(h.added) for h in hunks]
    header = "diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n"
    chunks = parse_git_patch(header + diff if diff else "")
    assert [c.hunks for c in chunks] == ([hunks] if diff else [])


# -- a patch's names --------------------------------------------------------------------------

SECRET = "TOPSECRET"
_ROUTE = st.lists(st.sampled_from(["..", "out", ".", "repo", ".git"]), max_size=2)
_LEAF = st.sampled_from(["secret.py", "inside.py", "config"])


def test_a_patch_reads_old_sides_from_the_work_tree_only() -> None:
    """Whatever a patch's names say (`..`, absolute paths, `.git`, a folder that links out),
    the old side it is applied to is a file of the repository or nothing: no other file's
    contents can reach the report."""
    policy = policy_of(Config())
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "secret.py").write_text(f"def secret():\n    return {SECRET!r}\n")
        repo = root / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "reviewbot.marker", f"def f():\n    return {SECRET}")
        write(repo, "inside.py", "def inside():\n    return 1\n")
        (repo / "out").symlink_to(root, target_is_directory=True)
        commit(repo)

        @settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
        # The shrunk examples of the defect this found, kept as regressions.
        @example(route=[], leaf="secret.py", absolute=True)
        @example(route=[".."], leaf="secret.py", absolute=False)
        @example(route=["out"], leaf="secret.py", absolute=False)
        @given(route=_ROUTE, leaf=_LEAF, absolute=st.booleans())
        def check(route: list[str], leaf: str, absolute: bool) -> None:
            name = "/".join([*route, leaf])
            name = f"{root}/{name}" if absolute else name
            # Inserts after line 1 of any file: no context line has to match.
            text = f"--- a/{name}\n+++ b/{name}\n@@ -1,0 +2 @@\n+    x = 1\n"
            try:
                change = PatchChange(text, repo).read(policy)
            except InputError:
                return
            for cf in change.files:
                assert SECRET not in (cf.old_text or "") + (cf.new_text or ""), cf

        check()
