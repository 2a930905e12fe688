"""Impact context, hotspots and the cache, over real repositories."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import jsonschema

from reviewbot.analysis.hotspots import EngineSettings, find_hotspots
from reviewbot.app import pipeline
from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange
from reviewbot.engine.languages import default_registry
from reviewbot.render.report_json import load_schema, report_doc
from reviewbot.repo.cache import Cache, find_cache
from reviewbot.repo.files import blob_id
from reviewbot.repo.git import Git
from tests.helpers import commit, git, write


def review(repo: Path) -> dict[str, Any]:
    doc = report_doc(pipeline.review(GitChange(repo), Config()))
    jsonschema.validate(doc, load_schema())
    return doc


def test_impact_lists_references_with_their_units(repo: Path) -> None:
    write(repo, "lib.py", "def apply(order):\n    return order\n")
    write(
        repo,
        "app.py",
        "from lib import apply\n\n\ndef main():\n    return apply(1)\n\n\n"
        "def other():\n    x = apply(2)\n    return x\n",
    )
    commit(repo)
    write(repo, "lib.py", "def apply(order, rate):\n    return order * rate\n")
    doc = review(repo)
    (item,) = [i for i in doc["impact"] if i["name"] == "apply"]
    assert item["change"] == "signature" and item["total"] == 3
    assert item["detail"] == "added rate (required)"  # (without an index: the header lines)
    places = {(r["path"], r["line"], r["unit"]) for r in item["references"]}
    assert ("app.py", 5, "def main") in places and ("app.py", 9, "def other") in places
    # A body-only change does not list references; a type's change lists them, said so.
    write(repo, "lib.py", "def apply(order):\n    return order + 0\n")
    assert [i for i in review(repo)["impact"] if i["name"] == "apply"] == []
    write(repo, "lib.py", "def apply(order: int) -> int:\n    return order\n")
    (item,) = [i for i in review(repo)["impact"] if i["name"] == "apply"]
    assert item["change"] == "signature" and item["detail"] == "types or defaults only"


def test_deleted_name_still_referenced_is_a_finding(repo: Path) -> None:
    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef helper_gone():\n    return 2\n")
    write(
        repo, "app.py", "from lib import helper_gone\n\n\ndef main():\n    return helper_gone()\n"
    )
    commit(repo)
    write(repo, "lib.py", "def keep():\n    return 1\n")
    doc = review(repo)
    (finding,) = [f for f in doc["findings"] if f["code"] == "RB105"]
    # Where the deleted lines were (lib.py's last line now), inside the diff: the Action can
    # post it inline, as with an index (it sat on app.py:1, outside the pull request's diff).
    assert (finding["path"], finding["line"], finding["in_diff"]) == ("lib.py", 2, True)
    assert "helper_gone" in finding["message"] and "2 place(s)" in finding["message"]
    assert "app.py:1" in finding["message"] and "app.py:5" in finding["message"]


def test_impact_is_bounded(repo: Path) -> None:
    write(repo, "lib.py", "def widely_used(x):\n    return x\n")
    for i in range(60):
        write(repo, f"users/u{i}.py", "".join(f"widely_used({k})\n" for k in range(20)))
    commit(repo)
    write(repo, "lib.py", "def widely_used(x, y=0):\n    return x + y\n")
    (item,) = review(repo)["impact"]
    assert item["total"] == 1200 and len(item["references"]) == 20 and item["truncated"]


def _impact_of_commit(repo: Path) -> dict[str, dict[str, Any]]:
    doc = report_doc(pipeline.review(GitChange(repo, ("HEAD~1..HEAD",)), Config()))
    return {i["name"]: i for i in doc["impact"]}


def test_a_new_file_that_declares_every_name_is_not_searched(repo: Path) -> None:
    # A wholly added file that declares every searched name cannot give a reference the
    # impact keeps, so the search passes it by. Before, its own 2,500 uses of the name ran the
    # search into its 2,000-match limit: cut short, and the old file's use (sorted after it)
    # was never found.
    write(repo, "zz_old.py", "def legacy():\n    return fresh_helper_name(1)\n")
    commit(repo)
    calls = "".join(f"    fresh_helper_name({k})\n" for k in range(2500))
    write(repo, "aa_new.py", f"def fresh_helper_name(x):\n    return x\n\n\ndef run():\n{calls}")
    commit(repo)
    item = _impact_of_commit(repo)["fresh_helper_name"]
    assert item["change"] == "added" and item["truncated"] is False
    assert [(r["path"], r["line"], r["unit"]) for r in item["references"]] == [
        ("zz_old.py", 2, "def legacy")
    ]


def test_a_new_file_using_another_new_files_names_is_still_searched(repo: Path) -> None:
    write(repo, "README", "x\n")
    commit(repo)
    write(repo, "lib_new.py", "def brand_new_api(x):\n    return x\n")
    write(
        repo,
        "use_new.py",
        "from lib_new import brand_new_api\n\n\ndef go():\n    return brand_new_api(2)\n",
    )
    commit(repo)
    item = _impact_of_commit(repo)["brand_new_api"]
    # Both lines of use_new.py are changed lines of another file: listed, in the change.
    assert [(r["path"], r["line"], r["in_change"]) for r in item["references"]] == [
        ("use_new.py", 1, True),
        ("use_new.py", 5, True),
    ]


def test_grep_words_excludes_paths_literally(repo: Path) -> None:
    write(repo, "a*b.py", "needle_word = 1\n")
    write(repo, "axb.py", "needle_word = 2\n")
    write(repo, "sub/c.py", "needle_word = 3\n")
    commit(repo)
    hits, cut = Git(repo).grep_words(["needle_word"], "HEAD", exclude=["a*b.py", "sub/c.py"])
    assert [(path, line) for path, line, _ in hits] == [("axb.py", 1)] and not cut


def test_hotspots_rank_churn_times_irregularity(repo: Path) -> None:
    calm = "def calm():\n    return 1\n"
    busy = "def busy(x):\n" + "".join(f"    if x > {i}:\n        x -= {i}\n" for i in range(8))
    write(repo, "calm.py", calm)
    write(repo, "busy.py", busy + "    return x\n")
    commit(repo)
    for i in range(5):
        write(repo, "busy.py", busy + f"    return x + {i}\n")
        write(repo, "calm.py", calm.replace("1", str(i + 2)))
        commit(repo)
    settings = EngineSettings("review", default_registry(), 2**21)
    found = find_hotspots(Git(repo), [], settings, Cache(None), limit=5)
    assert [f.path for f in found.files] == ["busy.py", "calm.py"]
    assert found.files[0].changes == 6 and found.files[0].units[0].label == "def busy"
    write(repo, "busy.py", busy + "    return -x\n")
    doc = review(repo)
    assert doc["stats"]["hotspots_touched"][0]["path"] == "busy.py"


def test_generated_files_and_notebooks_are_no_hotspots(repo: Path) -> None:
    """axios: its committed rollup bundles (`dist/axios.js`, ending `//# sourceMappingURL=`)
    ranked first to fourth, above every source file; tqdm: `DEMO.ipynb` (JSON) third."""
    busy = "function busy(x) {\n" + "".join(f"  if (x > {i}) {{ x -= {i}; }}\n" for i in range(8))
    cell = '{"cells": [{"source": ["' + "if x: y = 1\\n" * 30 + '"]}]}\n'
    for i in range(4):
        write(repo, "src/busy.js", busy + f"  return x + {i};\n}}\n")
        write(repo, "dist/bundle.js", (busy + f"  return {i};\n}}\n") * 9 + MAP)
        write(repo, "gen/out.js", (busy + f"  return {i};\n}}\n") * 9)
        write(repo, "DEMO.ipynb", cell.replace("1", str(i)))
        write(repo, ".gitattributes", "gen/** linguist-generated\n")
        commit(repo)
    settings = EngineSettings("review", default_registry(), 2**21)
    found = find_hotspots(Git(repo), [], settings, Cache(None), limit=5)
    assert [f.path for f in found.files] == ["src/busy.js"]


MAP = "//# sourceMappingURL=bundle.js.map\n"


def test_a_reviewed_commits_hotspots_are_its_historys(repo: Path) -> None:
    """`review A..B` of an old commit marks the hotspots of B's history and B's files (gin's
    2020 commit was told today's counts); the work tree's change, HEAD's."""
    busy = "def busy(x):\n" + "".join(f"    if x > {i}:\n        x -= {i}\n" for i in range(8))
    for i in range(3):
        write(repo, "busy.py", busy + f"    return x + {i}\n")
        commit(repo)
    old = git(repo, "rev-parse", "HEAD").strip()
    for i in range(5):
        write(repo, "busy.py", busy + f"    return x - {i}\n")
        commit(repo)
    touched = pipeline.review(GitChange(repo, (f"{old}~1..{old}",)), Config()).stats
    assert [(h.path, h.changes) for h in touched.hotspots_touched or ()] == [("busy.py", 3)]
    write(repo, "busy.py", busy + "    return -x\n")
    now = pipeline.review(GitChange(repo), Config()).stats
    assert [(h.path, h.changes) for h in now.hotspots_touched or ()] == [("busy.py", 8)]
    settings = EngineSettings("review", default_registry(), 2**21)
    (at_old,) = find_hotspots(Git(repo), [], settings, Cache(None), rev=old).files
    assert at_old.changes == 3 and at_old.units == ()


def test_cache_lives_in_the_git_dir_and_hits(repo: Path, cli: Any) -> None:
    for i in range(5):
        write(repo, f"m{i}.py", f"def f{i}(x):\n    if x:\n        return {i}\n")
    commit(repo)
    first = cli("positions", str(repo), "--format", "json")
    cache_dir = repo / ".git" / "reviewbot" / "cache" / "positions"
    entries = list(cache_dir.rglob("*.json"))
    assert len(entries) >= 5
    assert git(repo, "status", "--porcelain") == ""  # nothing in the work tree
    second = cli("positions", str(repo), "--format", "json")
    assert first.out == second.out
    for entry in entries:  # corrupt every entry: ignored and rebuilt
        entry.write_text("{not json")
    third = cli("positions", str(repo), "--format", "json")
    assert third.out == first.out and third.code == 0
    assert all(json.loads(e.read_text())["key"] for e in cache_dir.rglob("*.json"))
    nocache = cli("positions", str(repo), "--format", "json", "--no-cache")
    assert nocache.out == first.out


def test_a_review_with_no_cache_neither_reads_nor_writes_it(repo: Path, cli: Any) -> None:
    """The README says `--no-cache` turns the cache off, which reviews' hotspot marking uses;
    `review --no-cache` was an unknown argument."""
    for i in range(3):
        write(repo, "m.py", f"def f(x):\n    if x:\n        return {i}\n")
        commit(repo)
    write(repo, "m.py", "def f(x):\n    if x > 1:\n        return 9\n")
    cache_dir = repo / ".git" / "reviewbot" / "cache"
    off = cli("review", "-C", str(repo), "--no-cache", "--format", "json")
    assert off.code == 0 and not list(cache_dir.rglob("*.json"))
    on = cli("review", "-C", str(repo), "--format", "json")
    assert on.code == 0 and list(cache_dir.rglob("*.json"))
    strip = ("seconds", "elapsed")
    same = [
        {k: v for k, v in json.loads(run.out)["stats"].items() if k not in strip}
        for run in (off, on)
    ]
    assert same[0] == same[1] and same[0]["hotspots_touched"]


def test_cache_keys_change_with_content_and_language(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    python = default_registry().get("python")
    go = default_registry().get("go")
    a = cache.key(blob_id(b"x = 1\n"), "review", python)
    assert a != cache.key(blob_id(b"x = 2\n"), "review", python)
    assert a != cache.key(blob_id(b"x = 1\n"), "wavescope", python)
    assert a != cache.key(blob_id(b"x = 1\n"), "review", go)
    assert blob_id(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"  # git hash-object


def _writer(args: tuple[str, int]) -> int:
    root, n = args
    cache = Cache(Path(root))
    for i in range(200):
        cache.put("kind", f"{i % 10:064d}", {"writer": n, "i": i, "pad": "x" * 2000})
        seen = cache.get("kind", f"{(i + 5) % 10:064d}")
        if seen is not None and seen["pad"] != "x" * 2000:  # a torn read would show here
            return -1
    return n


def test_concurrent_writers_leave_whole_entries(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(4) as pool:
        assert sorted(pool.map(_writer, [(str(tmp_path), n) for n in range(4)])) == [0, 1, 2, 3]
    cache = Cache(tmp_path)
    for i in range(10):
        value = cache.get("kind", f"{i:064d}")
        assert value is not None and value["pad"] == "x" * 2000
    assert not [p for p in tmp_path.rglob(".tmp-*")]


def test_cache_location_override(tmp_path: Path, repo: Path) -> None:
    assert find_cache(repo, override=str(tmp_path)).root == tmp_path
    assert find_cache(repo).root == repo / ".git" / "reviewbot" / "cache"
    assert find_cache(tmp_path / "nowhere").enabled is False
    assert find_cache(repo, disabled=True).enabled is False


def test_hotspots_command(repo: Path, cli: Any) -> None:
    busy = "def busy(x):\n" + "".join(f"    if x > {i}:\n        x -= {i}\n" for i in range(6))
    for i in range(3):
        write(repo, "busy.py", busy + f"    return x + {i}\n")
        write(repo, "notes.txt", f"revision {i}\n")
        commit(repo)
    run = cli("hotspots", "-C", str(repo), "--format", "json", "--limit", "5")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["commits"] == 3 and doc["files"][0]["path"] == "busy.py"
    assert doc["files"][0]["units"][0]["label"] == "def busy"
    text = cli("hotspots", "-C", str(repo))
    assert text.code == 0 and "busy.py" in text.out and "def busy" in text.out
    assert cli("hotspots", "-C", str(repo), "--limit", "0").code == 2


def test_hotspots_follow_renames_and_rank_members_not_classes(repo: Path) -> None:
    body = "class Shop:\n    def busy(self, x):\n" + "".join(
        f"        if x > {i}:\n            x -= {i}\n" for i in range(8)
    )
    write(repo, "old_name.py", body + "        return x\n")
    commit(repo)
    for i in range(3):
        write(repo, "old_name.py", body + f"        return x + {i}\n")
        commit(repo)
    git(repo, "mv", "old_name.py", "new_name.py")
    commit(repo)
    write(repo, "new_name.py", body + "        return -x\n")
    commit(repo)
    settings = EngineSettings("review", default_registry(), 2**21)
    found = find_hotspots(Git(repo), [], settings, Cache(None), limit=5)
    (hot,) = found.files
    assert hot.path == "new_name.py" and hot.changes == 6  # its changes under the old name too
    assert [u.label for u in hot.units] == ["class Shop > def busy"]  # the member, not the class


def test_files_changed_fewer_times_than_min_changes_are_not_scored(repo: Path) -> None:
    # One commit adds many files, one more changes one of them: only that one has changed
    # twice, and only it is read (a review marks hotspots with min_changes=2, so a fresh
    # import of a whole tree must not make it read every file).
    for i in range(30):
        write(repo, f"m{i}.py", f"def f{i}(x):\n    if x:\n        return {i}\n")
    commit(repo)
    write(repo, "m7.py", "def f7(x):\n    if x:\n        if x > 1:\n            return 2\n")
    commit(repo)
    settings = EngineSettings("review", default_registry(), 2**21)
    found = find_hotspots(Git(repo), [], settings, Cache(None), limit=50, min_changes=2)
    assert [(f.path, f.changes) for f in found.files] == [("m7.py", 2)]
    every = find_hotspots(Git(repo), [], settings, Cache(None), limit=50)
    assert len(every.files) == 30  # with the default, every changed code file counts


def test_a_namesake_in_another_language_is_no_reference(repo: Path) -> None:
    """Without an index, matches are whole words: a TypeScript function's are kept in
    TypeScript and JavaScript code, never a Python parameter of the same name."""
    write(repo, "rates.ts", "export function rate(x: number): number {\n  return x * 2;\n}\n")
    write(repo, "use.js", "import { rate } from './rates';\nconsole.log(rate(1));\n")
    write(repo, "calc.py", "def total(rate):\n    return rate * 3\n")
    commit(repo)
    write(
        repo,
        "rates.ts",
        "export function rate(x: number, y: number): number {\n  return x * y;\n}\n",
    )
    (item,) = [i for i in review(repo)["impact"] if i["name"] == "rate"]
    assert {r["path"] for r in item["references"]} == {"use.js"}
    assert item["total"] == 2


def test_a_units_commits_are_those_of_the_window_its_file_is_counted_in(repo: Path) -> None:
    """pinia: `function createSetupStore … 76 commit(s)` under a store.ts of 63 changes in
    "the last 1000 commits": git blame named every commit that last touched a line, however
    old. A unit counts the window's commits, as its file does; one untouched in the window
    is not listed."""
    write(repo, "m.py", "def old(x):\n    return x\n\n\ndef busy(x):\n    return x\n")
    commit(repo)
    for i in range(3):
        write(repo, "m.py", f"def old(x):\n    return x\n\n\ndef busy(x):\n    return x + {i}\n")
        commit(repo)
    settings = EngineSettings("review", default_registry(), 2**21)
    (hot,) = find_hotspots(Git(repo), [], settings, Cache(None), commits=2).files
    assert hot.changes == 2
    # (blame: the last commit to touch each line; `return x + 2` is the window's, its header
    # the first commit's)
    assert [(u.label, u.commits) for u in hot.units] == [("def busy", 1)]
    (whole,) = find_hotspots(Git(repo), [], settings, Cache(None)).files
    assert [(u.label, u.commits) for u in whole.units] == [("def busy", 2), ("def old", 1)]


def test_a_go_methods_removal_is_searched_by_its_name_without_an_index(repo: Path) -> None:
    # chi: a Go method's label is `func endpoints.Value`; its name for git grep was none, so
    # removing a used method listed nothing. It is `Value`, a member: listed, no RB105.
    write(repo, "go.mod", "module example.com/g\n")
    write(
        repo,
        "e.go",
        "package g\n\ntype E struct{}\n\nfunc (e *E) Value(k string) string {\n\treturn k\n}\n",
    )
    write(repo, "u.go", 'package g\n\nfunc use(e *E) string {\n\treturn e.Value("a")\n}\n')
    commit(repo)
    write(repo, "e.go", "package g\n\ntype E struct{}\n")
    doc = review(repo)
    (item,) = [i for i in doc["impact"] if i["name"] == "Value"]
    assert (item["change"], item["source"], item["total"]) == ("removed", "grep", 1)
    assert [(r["path"], r["line"]) for r in item["references"]] == [("u.go", 4)]
    assert not [f for f in doc["findings"] if f["code"] == "RB105"]


def test_a_review_without_an_index_says_once_what_it_did_not_check(repo: Path) -> None:
    from reviewbot.render.formats import RenderOptions, render_report

    write(repo, "lib.py", "def keep():\n    return 1\n\n\ndef helper_gone():\n    return 2\n")
    write(repo, "app.py", "from lib import helper_gone\n\nhelper_gone()\n")
    commit(repo)
    write(repo, "lib.py", "def keep():\n    return 1\n")
    report = pipeline.review(GitChange(repo), Config())
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    said = "no index (`reviewbot index` builds one); RB106 not checked"
    assert text.count(said) == 1, text
    # A pull request's runner has no index: its comments do not say so every time.
    assert "RB106 not checked" not in render_report(report, "markdown")
    # A change that removes, renames or re-signs nothing has nothing unchecked to say.
    write(repo, "lib.py", "def keep():\n    return 2\n\n\ndef helper_gone():\n    return 2\n")
    quiet = pipeline.review(GitChange(repo), Config())
    assert "RB106" not in render_report(quiet, "text", RenderOptions(width=80))


def test_a_licence_with_a_qualifier_in_its_name_is_no_reference(repo: Path) -> None:
    # structlog (no index): `bind (signature)` listed LICENSE-APACHE:46, a licence's prose.
    write(repo, "lib.py", "def bind(a):\n    return a\n")
    write(repo, "app.py", "from lib import bind\n\nbind(1)\n")
    write(repo, "LICENSE-APACHE", "You may not bind the licensor to anything.\n")
    write(repo, "license-check", "#!/bin/sh\nbind 1\n")  # (no prose name in capitals: read)
    commit(repo)
    write(repo, "lib.py", "def bind(a, b):\n    return a + b\n")
    (item,) = [i for i in review(repo)["impact"] if i["name"] == "bind"]
    paths = {r["path"] for r in item["references"]}
    assert "app.py" in paths and "LICENSE-APACHE" not in paths, paths
    assert "license-check" in paths


def test_without_an_index_build_scripts_and_minified_files_are_no_references(repo: Path) -> None:
    # retrofit aa593fc4 (no index): `build.gradle:90` (`libs.googleJavaFormat.get().version`)
    # listed as a reference of a removed Java method; cd4f8fa6 a `bootstrap.min.js` line.
    write(repo, "lib.py", "def render(a):\n    return a\n")
    write(repo, "app.py", "from lib import render\n\nrender(1)\n")
    write(repo, "build.gradle", "task render { doLast { render() } }\n")
    write(repo, "Makefile", "render:\n\trender docs\n")
    write(repo, "site/app.min.js", "var a=" + "1+" * 1500 + "render(2);\n")
    commit(repo)
    write(repo, "lib.py", "def render(a, b):\n    return a + b\n")
    (item,) = [i for i in review(repo)["impact"] if i["name"] == "render"]
    assert {r["path"] for r in item["references"]} == {"app.py"}
    # And a build script's own edits are configuration, not units to measure.
    write(repo, "build.gradle", "task render { doLast { render(); render() } }\n")
    (gradle,) = [f for f in review(repo)["files"] if f["path"] == "build.gradle"]
    assert gradle["units"] == [] and "not code" in (gradle["reason"] or ""), gradle


def test_without_an_index_a_functions_own_class_and_a_common_member_name_are_not_listed(
    repo: Path,
) -> None:
    # retrofit 36721477 (no index): a test method's own `class Example` "(added) is named
    # (git grep) in 206 place(s)"; aa593fc4: `Platform.get()` removed, 491 places listed.
    calls = "".join(f"    x{k} = other.get({k})\n" for k in range(25))
    write(repo, "lib.py", "class Box:\n    def get(self, k):\n        return k\n")
    write(repo, "use.py", "def run(other):\n" + calls + "    return 0\n")
    write(repo, "t.py", "def test_it():\n    return 1\n")
    write(repo, "other.py", "from shapes import Example\n\n\ndef make():\n    return Example()\n")
    commit(repo)
    write(repo, "lib.py", "class Box:\n    pass\n")
    write(
        repo,
        "t.py",
        "def test_it():\n    class Example:\n        def run(self):\n            return 1\n\n"
        "    return Example().run()\n",
    )
    doc = review(repo)
    assert {i["name"] for i in doc["impact"]} >= {"get"}
    # (the test's own class is searched in its file only: `run` in use.py is another's)
    (example,) = [i for i in doc["impact"] if i["name"] == "Example"]
    assert (example["total"], example["references"]) == (0, []), example  # (its use: in the diff)
    (get,) = [i for i in doc["impact"] if i["name"] == "get"]
    assert (get["total"], get["uncertain"], get["references"]) == (0, 25, [])
    from reviewbot.render.formats import RenderOptions, render_report

    report = pipeline.review(GitChange(repo), Config())
    text = " ".join(render_report(report, "text", RenderOptions(width=80)).split())
    assert "25 whole-word matches of `get` were not checked" in text, text
