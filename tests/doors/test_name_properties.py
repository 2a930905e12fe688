"""Property: whatever name git can store, a file is reviewed exactly like `plain.py`, through
review, the hook, the Markdown report, the PR summary, SARIF and JSON.

The hand-written table of tests/doors/test_hostile_cli.py holds the names we thought of; these
names are generated: any characters but NUL and "/" in a component (quotes, backslashes, tabs,
newlines, control characters, unicode, Markdown and HTML punctuation, mentions, our hidden
markers, leading dashes and spaces), one to three components."""

from __future__ import annotations

import contextlib
import functools
import html
import io
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.doors import hook
from reviewbot.model import Report
from reviewbot.render.markdown import render_markdown, summary_body
from reviewbot.render.report_json import load_schema, report_json
from reviewbot.render.sarif import sarif_doc
from reviewbot.render.style import one_line, visible
from tests.doors.test_hostile_cli import SIMPLE, SPIKED
from tests.helpers import commit, examples, git, write
from tests.render.gfm import check_markdown
from tests.render.test_render import sarif_schema

# Single characters and pieces that have broken (or could break) some renderer.
_CHARS = list('"\\\t\n\r\x1b\x07\x08\x7f\x85\x9b\u2028\u2029\u202e\u2066\u200b\ufeff')
_CHARS += [*"`*_[]()|<>&#!~%?:;=@-+ '{}$^,.", "ü", "ß", "İ", "日本", "😀", "\ue000", "\ue002"]
_CHARS += ["\udc80", "\udcff"]  # bytes that are not UTF-8 (as os.fsdecode reads them)
_PIECES = [
    "@user",
    "@octocat",
    "<!-- reviewbot:summary -->",
    "<!--",
    "-->",
    "<img src=x onerror=alert(1)>",
    "<script>",
    "</td>",
    "```",
    "**b**",
    "[l](u)",
    "&lt;",
    "&#64;",
    "%41",
    "%zz",
    "#L1",
    "?q=1",
    "c:",
    "\\n",
    "\\*",
    "x" * 40,
]
# Folders the default configuration excludes: a file there is skipped by design.
_EXCLUDED_DIRS = {"node_modules", ".venv", "venv", "__pycache__"}
_ANY = st.characters(exclude_characters="\x00/", exclude_categories=["Cs"])


def _storable(component: str) -> bool:
    """What git stores (and this file system holds) as one path component."""
    lowered = component.lower()
    return (
        component not in ("", ".", "..")
        and not lowered.startswith((".git", "git~"))
        and component not in _EXCLUDED_DIRS
        and len(os.fsencode(component)) <= 200
    )


_component = st.lists(
    st.one_of(st.sampled_from(_CHARS), st.sampled_from(_PIECES), st.text(_ANY, max_size=3)),
    min_size=1,
    max_size=6,
).map("".join)


@st.composite
def git_names(draw: st.DrawFn) -> str:
    """A Python file's path as git can store it: folders, then a stem, then `.py`."""
    folders = draw(st.lists(_component.filter(_storable), max_size=2))
    # Not an empty stem: `.py` alone is a hidden file, not Python (as os.path.splitext says).
    stem = draw(_component.filter(lambda c: c != "" and _storable(c + ".py")))
    return "/".join([*folders, stem + ".py"])


def _shape(report: Report) -> tuple[Any, ...]:
    """Everything the review says, with the file's name taken out."""
    files = tuple(
        (fs.status, fs.language, fs.added, fs.removed, fs.reason, fs.hunks) for fs in report.files
    )
    units = tuple(
        (u.kind, u.label, u.old, u.new, u.metrics) for fs in report.files for u in fs.units
    )
    findings = tuple(
        (f.code, f.severity, f.line, f.end_line, f.title, f.message, f.metrics, f.unit)
        for f in report.findings
    )
    return files, units, findings


@functools.cache
def _plain() -> tuple[Any, ...]:
    with tempfile.TemporaryDirectory() as tmp:
        report = _spiked_review(Path(tmp), "plain.py")
    assert [f.code for f in report.findings][:1] == ["RB101"]
    return _shape(report)


def _spiked_review(tmp: Path, name: str) -> Report:
    repo = tmp / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write(repo, name, SIMPLE)
    commit(repo)
    write(repo, name, SPIKED)
    git(repo, "add", "-A")
    return review(GitChange(repo), Config())


_URI = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*")


def _check_sarif(report: Report, name: str) -> None:
    doc = sarif_doc(report)
    jsonschema.Draft4Validator(sarif_schema()).validate(doc)
    (result,) = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "RB101"]
    uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    # A relative reference (RFC 3986): only URI characters, no scheme, no query or fragment.
    assert _URI.fullmatch(uri), uri
    parts = urlsplit(uri)
    assert (parts.scheme, parts.netloc, parts.query, parts.fragment) == ("", "", "", ""), uri
    assert unquote(uri, errors="surrogateescape") == name


def _shown(name: str) -> str:
    """A name as Markdown shows it: on one line (control characters as spaces), its bytes
    that are not UTF-8 as U+FFFD (no Markdown or HTML can hold them), bidirectional
    overrides as their escapes (they would reorder it), mentions, autolinks and issue
    references defused (a zero-width space after `@`, `#`, `www`, `http`...)."""
    text = re.sub(r"[\ud800-\udfff]", "\ufffd", name)
    text = re.sub(r"[\u202a-\u202e\u2066-\u2069]", lambda m: f"\\u{ord(m.group()):04x}", text)
    text = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", text)
    text = re.sub(r"(?i)\b(www(?=\.)|https?(?=:)|ftp(?=:)|gh(?=-\d))", "\\1\u200b", text)
    text = re.sub(r"#(?=\d)", "#\u200b", text)
    return re.sub(r"@(?=[A-Za-z0-9_-])", "@\u200b", text)  # and no one is mentioned


def _check_markdown(report: Report, name: str) -> None:
    shown = _shown(name)
    for markdown, markers in (
        (render_markdown(report), 0),
        (summary_body(report, blob_base=_BLOB), 1),
    ):
        page = check_markdown(markdown, markers=markers, verbatim=[shown])
        if markers == 0:
            # The report's context of the hunk is introduced by the file's name, as it is (the
            # PR summary leaves hunk context out).
            summaries = [html.unescape(s) for s in re.findall(r"<summary>(.*?)</summary>", page)]
            assert f"{shown}:1-12, in def work" in summaries, summaries
    # The summary's links, to the finding's lines and to the unit's, name the file
    # (percent-encoded), nothing else.
    links = re.findall(r'href="([^"]*)"', page)
    assert all(x.startswith(_BLOB + "/") for x in links), links
    targets = {unquote(x.removeprefix(_BLOB + "/"), errors="surrogateescape") for x in links}
    assert targets == {f"{name}#L2-L11", f"{name}#L1-L12"}


_BLOB = "https://github.com/o/r/blob/" + "0" * 40


def _check_json(report: Report, name: str) -> None:
    doc = json.loads(report_json(report))
    jsonschema.validate(doc, load_schema())
    assert [f["path"] for f in doc["files"]] == [name]
    assert {f["path"] for f in doc["findings"]} == {name}


def _check_hook(repo: Path, name: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(repo):
        code = hook.main(["--fail-on", "warning"], stdout=out, stderr=err, stdin=io.StringIO())
    assert code == 1, (out.getvalue(), err.getvalue())
    lines = out.getvalue().split("\n")  # a terminal breaks lines at \n only
    assert "RB101" in out.getvalue() and err.getvalue() == ""
    # The name is shown on the finding's line (its control characters as escapes), never obeyed.
    # (At its line's end when the place is too long to share it with the rest.)
    place = visible(one_line(name)) + ":2"
    assert any(place + " " in line or line.endswith(place) for line in lines), lines


@settings(
    max_examples=examples(25),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(name=git_names())
def test_any_name_is_reviewed_like_a_plain_one(name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        report = _spiked_review(Path(tmp), name)
        assert [fs.path for fs in report.files] == [name]
        assert [u.label for fs in report.files for u in fs.units] == ["def work"]
        assert [f.code for f in report.findings][:1] == ["RB101"]
        assert {f.path for f in report.findings} == {name}
        assert _shape(report) == _plain()  # and everything else as for `plain.py`
        _check_hook(Path(tmp) / "repo", name)
    _check_markdown(report, name)
    _check_sarif(report, name)
    _check_json(report, name)
