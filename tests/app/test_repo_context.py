"""The repository index in a full review: the bundler's hunk links resolved by the index (read
in the impact's own transaction), and what the review says when an index exists but cannot be
used."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import numpy as np

from reviewbot.analysis import bundles
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, index_file, read_change
from reviewbot.app.repo_context import indexed_context, settings_of
from reviewbot.index.build import update_index
from reviewbot.render.formats import RenderOptions, render_report
from reviewbot.render.report_json import load_schema, report_doc
from reviewbot.repo.git import Git
from tests.helpers import commit, write
from tests.render import gfm

LIB = """def load(path, mode):
    return open(path, mode).read()


def unrelated(x):
    return x * 2
"""

APP = """from pkg.lib import load


def main():
    return load("a", "r")


def spacer_one():
    return 0


def spacer_two():
    return 0


def other():
    return 1
"""


def _repo(repo: Path, config: Config) -> None:
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/lib.py", LIB)
    write(repo, "pkg/app.py", APP)
    commit(repo)
    update_index(Git(repo), index_file(Git(repo)), settings_of(config))


def test_hunk_links_are_resolved_by_the_index_in_one_transaction(repo: Path) -> None:
    config = Config()
    _repo(repo, config)
    # lib.py: load gains a parameter (its header changes); app.py: main's call is edited, and
    # other() changes without touching load.
    write(repo, "pkg/lib.py", LIB.replace("(path, mode):", "(path, mode, encoding):"))
    write(
        repo,
        "pkg/app.py",
        APP.replace('load("a", "r")', 'load("a", "r", "utf-8")').replace("1\n", "2\n"),
    )
    before = index_file(Git(repo)).read_bytes()
    change = read_change(GitChange(repo), config)
    assert change.git is not None
    found = indexed_context(change.git, change.files, config, links=True)
    assert index_file(Git(repo)).read_bytes() == before  # rolled back: the file is unchanged
    assert found.links is not None
    hunks = {
        cf.path: [(cf.path, h.new_start, h.old_start) for h in cf.hunks] for cf in change.files
    }
    (definer,) = hunks["pkg/lib.py"]
    call, edit = hunks["pkg/app.py"]
    # The edited call resolves to the declaration whose header the lib hunk changes, with the
    # index's full confidence; the unrelated edit links to nothing.
    assert found.links.defines == {(call, definer): 1.0}
    assert (call, definer) in found.links.calls
    assert all(edit not in pair for pair in found.links.calls)
    assert all(edit not in pair for pair in found.links.changes)
    # Without ``links`` nothing is read for the bundler (the hook's path).
    assert indexed_context(change.git, change.files, config, links=False).links is None


def test_the_index_features_enter_the_pair_model() -> None:
    # Each index feature is a column of its own, weighted by its own fitted weight, after the
    # name-based ones (whose weights are those of the model without an index).
    assert bundles.INDEX_FEATURES[: len(bundles.FEATURES)] == bundles.FEATURES
    assert len(bundles.INDEX_WEIGHTS) == len(bundles.INDEX_FEATURES)
    assert np.all(np.isfinite(bundles.INDEX_WEIGHTS))


def test_an_index_built_with_other_settings_is_named_not_called_missing(repo: Path) -> None:
    _repo(repo, Config(max_file_bytes=4096))  # the review below uses the default settings
    write(repo, "pkg/lib.py", LIB.replace("(path, mode):", "(path, mode, encoding):"))
    report = pipeline.review(GitChange(repo), Config())
    doc = report_doc(report)
    jsonschema.validate(doc, load_schema())
    (load,) = [i for i in doc["impact"] if i["name"] == "load"]
    assert load["source"] == "grep"
    assert load["fallback"] == "index built with other settings; run `reviewbot index`"
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    said = (
        "git grep's name matches, not the index (index built with other settings; run "
        "`reviewbot index`); RB106 not checked"
    )
    assert text.count(said) == 1  # once for the review, not once an entry
    assert "named (git grep) in" in text and "no index" not in text
    markdown = render_report(report, "markdown")
    assert markdown.count("index built with other settings") == 1 and "no index" not in markdown
    # (under "### Impact", the line does not say "impact:" again)
    assert "\n- git grep's name matches, not the index (" in markdown, markdown
    assert "- impact:" not in markdown
    # The command is a code span on GitHub, not backticks shown escaped.
    html = gfm.render(markdown)
    assert "run <code>reviewbot index</code>" in html and "`reviewbot index`" not in html
    # A deleted function still called: its RB105 tells the impact (no entry is listed), and
    # the index's silence was said nowhere (structlog, echo: a rules bump).
    write(repo, "pkg/lib.py", "X = 1\n")
    report = pipeline.review(GitChange(repo), Config())
    assert [f.code for f in report.findings if f.code.startswith("RB10")] == ["RB105"]
    assert report.impact_shown == ()
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    assert said in text
    markdown = render_report(report, "markdown")
    assert "not the index (index built with other settings" in markdown
    assert "RB106 not checked" in markdown


def test_without_an_index_the_label_still_says_no_index(repo: Path) -> None:
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/lib.py", LIB)
    write(repo, "pkg/app.py", APP)
    commit(repo)
    write(repo, "pkg/lib.py", LIB.replace("(path, mode):", "(path, mode, encoding):"))
    report = pipeline.review(GitChange(repo), Config())
    (load,) = [i for i in report_doc(report)["impact"] if i["name"] == "load"]
    assert load["source"] == "grep" and "fallback" not in load
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    assert "git grep, no index" in text


RUBY = """module Util
  def self.q_values(header)
    header.split(",")
  end

  def self.best(header)
    q_values(header).first
  end
end
"""


def test_a_language_without_a_parser_keeps_the_grep_impact_with_an_index(repo: Path) -> None:
    """rack: deleting a Ruby method still called listed its references without an index
    (git grep) and nothing once `reviewbot index` had run (the index's impact reads the
    languages it has a parser for). With an index, such a declaration's impact is the grep's,
    marked so; a Python declaration's beside it is still the index's."""
    _repo(repo, Config())
    write(repo, "util.rb", RUBY)
    commit(repo)
    update_index(Git(repo), index_file(Git(repo)), settings_of(Config()))
    start = RUBY.index("  def self.q_values")
    end = RUBY.index("  def self.best")
    write(repo, "util.rb", RUBY[:start] + RUBY[end:])
    write(repo, "pkg/lib.py", LIB.replace("(path, mode):", "(path, mode, encoding):"))
    report = pipeline.review(GitChange(repo), Config())
    doc = report_doc(report)
    jsonschema.validate(doc, load_schema())
    by_name = {i["name"]: i for i in doc["impact"]}
    assert by_name["load"]["source"] == "index"
    q = by_name["q_values"]
    assert q["source"] == "grep" and q["change"] == "removed"
    assert q["fallback"] == "a language the index reads by name only"
    assert [(r["path"], r["line"]) for r in q["references"]] == [("util.rb", 3)]
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    assert "is still named (git grep: no parser for its language) in 1 place(s)" in text
    assert "no index" not in text  # the index answered for the Python file


def test_an_index_link_joins_what_names_alone_cannot(repo: Path) -> None:
    # A call in b/y.py of a function of a/x.py whose parameters change: the module's name is
    # too short for the name-based link and the two hunks share no rare word, so without the
    # index they are two bundles; the index resolves the import and joins them.
    config = Config()
    write(repo, "a/__init__.py", "")
    write(repo, "a/x.py", "def compute_total(items):\n    return sum(items)\n")
    write(repo, "b/__init__.py", "")
    write(
        repo,
        "b/y.py",
        "from a.x import compute_total\n\n\ndef run():\n    return compute_total([1])\n",
    )
    commit(repo)
    update_index(Git(repo), index_file(Git(repo)), settings_of(config))
    write(repo, "a/x.py", "def compute_total(items, tax):\n    return sum(items) * tax\n")
    write(
        repo,
        "b/y.py",
        "from a.x import compute_total\n\n\ndef run():\n    return compute_total([1], 2)\n",
    )
    explained = pipeline.explain_bundles(GitChange(repo), config)
    assert explained.links is not None and explained.links.defines
    (bundle,) = explained.bundles
    assert {h.path for h in bundle.hunks} == {"a/x.py", "b/y.py"}
    report = pipeline.review(GitChange(repo), config)
    assert [b.hunks for b in report.bundles] == [bundle.hunks]  # the report's own bundles
    index_file(Git(repo)).unlink()
    alone = pipeline.explain_bundles(GitChange(repo), config)
    assert alone.links is None
    assert sorted(h.path for b in alone.bundles for h in b.hunks) == ["a/x.py", "b/y.py"]
    assert len(alone.bundles) == 2


def test_removed_code_links_on_the_old_side(repo: Path) -> None:
    # Both hunks only remove lines: the call and the function it called. Only the old side,
    # applied in the same transaction, can resolve the removed call.
    config = Config()
    _repo(repo, config)
    write(repo, "pkg/lib.py", LIB.split("\n\n\n")[1])  # load is deleted
    write(repo, "pkg/app.py", APP.replace('    return load("a", "r")\n', "    return None\n"))
    change = read_change(GitChange(repo), config)
    assert change.git is not None
    found = indexed_context(change.git, change.files, config, links=True)
    assert found.links is not None
    (lib,) = [
        (cf.path, h.new_start, h.old_start)
        for cf in change.files
        if cf.path == "pkg/lib.py"
        for h in cf.hunks
    ]
    (app,) = [
        (cf.path, h.new_start, h.old_start)
        for cf in change.files
        if cf.path == "pkg/app.py"
        for h in cf.hunks
    ]
    assert found.links.defines == {(app, lib): 1.0}


def test_a_change_to_a_file_whose_name_is_not_utf8_keeps_the_indexed_review(repo: Path) -> None:
    """The index leaves such a file out; a review touching it still gets the index's impact
    and RB106 for the other files, and the file itself is reviewed (it used to end the whole
    review with an internal error)."""
    odd = os.fsdecode(b"bad\xffname.py")
    (repo / odd).write_bytes(b"def f():\n    return 1\n")
    _repo(repo, Config())
    (repo / odd).write_bytes(b"def f():\n    if f:\n        return 1\n    return 2\n")
    write(repo, "pkg/lib.py", LIB.replace("(path, mode):", "(path, mode, encoding):"))
    report = pipeline.review(GitChange(repo), Config())
    (load,) = [i for i in report.impact if i.name == "load"]
    assert load.source == "index"
    assert [f.code for f in report.findings if f.code == "RB106"] == ["RB106"]
    assert {fs.path for fs in report.files} == {odd, "pkg/lib.py"}
    assert [u.label for fs in report.files if fs.path == odd for u in fs.units] == ["def f"]


CORE = "def important():\n    return 1\n\n\ndef resign(a):\n    return a\n"
INNER = "from sub.core import important, resign\n\n\ndef inner():\n    return important()\n"
OUTSIDE = (
    "from sub.core import important, resign\n\n\n"
    "def secret_caller():\n    return important() + resign(1)\n"
)


def test_a_scoped_review_counts_no_reference_outside_its_folder(repo: Path) -> None:
    """An MCP server rooted at `sub/` confines the review: references outside it are neither
    listed nor counted, and cannot raise RB105/RB106 or name their files in a message, with
    the index or with git grep."""
    write(repo, "sub/__init__.py", "")
    write(repo, "sub/core.py", CORE)
    write(repo, "sub/inner.py", INNER)
    write(repo, "secret_app.py", OUTSIDE)
    commit(repo)
    new_core = "def keep():\n    return 1\n\n\ndef resign(a, b):\n    return a + b\n"
    for indexed in (False, True):
        if indexed:
            update_index(Git(repo), index_file(Git(repo)), settings_of(Config()))
        write(repo, "sub/core.py", new_core)
        report = pipeline.review(GitChange(repo, scope="sub"), Config())
        text = json.dumps(report_doc(report))
        assert "secret" not in text, indexed
        assert {i.source for i in report.impact} == {"index" if indexed else "grep"}
        (gone,) = [i for i in report.impact if i.name == "important"]
        assert gone.total == 2 and {r.path for r in gone.references} == {"sub/inner.py"}
        (resign,) = [i for i in report.impact if i.name == "resign"]
        # Inside, only sub/inner.py's import names it; its one caller is outside.
        assert (
            [r.path for r in resign.references]
            == ["sub/inner.py"]
            == [r.path for r in gone.references][:1]
        )
        codes = sorted(f.code for f in report.findings if f.code in ("RB105", "RB106"))
        assert codes == ["RB105"]  # no RB106: nobody inside calls it the old way
        write(repo, "sub/core.py", CORE)


def test_a_scoped_review_counts_every_reference_in_its_folder_not_only_the_listed(
    repo: Path,
) -> None:
    """The impact lists at most 20 references but counts them all; under a folder's scope the
    count stays the folder's whole count (it was cut to the listed ones)."""
    write(repo, "sub/lib.py", "def widely_used(x):\n    return x\n")
    for k in range(30):
        write(repo, f"sub/u{k}.py", "from sub.lib import widely_used\n\nwidely_used(1)\n")
    commit(repo)
    write(repo, "sub/lib.py", "def widely_used(x, y):\n    return x + y\n")
    report = pipeline.review(GitChange(repo, scope="sub"), Config())
    (item,) = [i for i in report.impact if i.name == "widely_used"]
    assert len(item.references) == 20 and item.total == 60  # an import and a call in each
