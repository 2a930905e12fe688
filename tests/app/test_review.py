"""`reviewbot review` over real git repositories built in temporary folders."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.model import Status
from reviewbot.render.report_json import load_schema, report_doc
from tests.helpers import AFTER, BEFORE, commit, git, write


def doc(repo: Path, *args: str, cli: Any) -> dict[str, Any]:
    run = cli("review", "-C", str(repo), "--format", "json", *args)
    assert run.code == 0, run.err
    data: dict[str, Any] = json.loads(run.out)
    jsonschema.validate(data, load_schema())
    return data


def files_by_path(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["path"]: f for f in data["files"]}


def test_spike_in_a_changed_unit(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    data = doc(repo, cli=cli)
    (finding,) = [f for f in data["findings"] if f["code"] == "RB101"]
    assert finding["path"] == "shop.py" and finding["unit"]["label"] == "def apply"
    assert finding["metrics"]["branches"]["before"] == 1
    assert finding["metrics"]["branches"]["after"] >= 6
    assert "def apply" in finding["message"] and "→" in finding["message"]
    assert 1 <= finding["line"] <= finding["end_line"] <= 13
    # ship() is unchanged: not a changed unit.
    labels = [u["label"] for u in files_by_path(data)["shop.py"]["units"]]
    assert labels == ["def apply"]


def test_fingerprint_survives_line_shifts(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    first = doc(repo, cli=cli)["findings"]
    write(repo, "shop.py", "import os\nimport sys\n\n\n" + AFTER)
    shifted = doc(repo, cli=cli)["findings"]
    assert [f["fingerprint"] for f in first] == [f["fingerprint"] for f in shifted]
    assert [f["line"] + 4 for f in first] == [f["line"] for f in shifted]


def test_unit_measures_are_local(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    alone = doc(repo, cli=cli)
    far = (
        AFTER
        + "\n\n"
        + "\n".join(f"def f{i}(x):\n    if x:\n        return {i}\n" for i in range(30))
    )
    write(repo, "shop.py", far)
    crowded = doc(repo, cli=cli)

    def unit(d: dict[str, Any]) -> Any:
        units = files_by_path(d)["shop.py"]["units"]
        return next(u for u in units if u["label"] == "def apply")["metrics"]

    assert unit(alone) == unit(crowded)


def test_dense_new_unit_and_suppression(repo: Path, cli: Any) -> None:
    write(repo, "a.py", "def small():\n    return 1\n")
    commit(repo)
    dense = (
        "def small():\n    return 1\n\n\ndef big(x, y):\n"
        + "".join(
            f"    if x > {i} and y:\n        for k in range({i}):\n            x += k\n"
            for i in range(6)
        )
        + "    return x\n"
    )
    write(repo, "a.py", dense)
    codes = [f["code"] for f in doc(repo, cli=cli)["findings"]]
    assert "RB102" in codes
    write(
        repo, "a.py", dense.replace("def big(x, y):", "def big(x, y):  # reviewbot: ignore[RB102]")
    )
    assert "RB102" not in [f["code"] for f in doc(repo, cli=cli)["findings"]]
    write(repo, "a.py", dense.replace("def big(x, y):", "def big(x, y):  # reviewbot: ignore"))
    assert doc(repo, cli=cli)["findings"] == []


def test_every_kind_of_change(repo: Path, cli: Any) -> None:
    write(repo, "mod.py", BEFORE)
    write(
        repo,
        "gone.py",
        "class Obsolete:\n    # nothing like the other files\n\n"
        "    def old(self, a, b, c):\n        return [a * b for _ in range(c)]\n",
    )
    write(repo, "moved.py", "def stay():\n    return 1\n" * 5)
    write(repo, "moved_edit.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n" * 3)
    write(repo, "script.sh", "echo hi\n")
    write(repo, "img.bin", b"\x00\x01\x02")
    write(repo, "crlf.py", "def f():\r\n    return 1\r\n")
    write(repo, "big.py", "x = 1\n")
    write(repo, ".gitattributes", "gen/*.py linguist-generated\n")
    write(repo, "website/pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
    commit(repo)
    write(repo, "mod.py", AFTER)
    (repo / "gone.py").unlink()
    (repo / "website/pnpm-lock.yaml").unlink()  # (jotai 7fe16287: "not code (prose, ...)")
    git(repo, "mv", "moved.py", "renamed.py")
    git(repo, "mv", "moved_edit.py", "renamed_edit.py")
    write(
        repo,
        "renamed_edit.py",
        (repo / "renamed_edit.py").read_text() + "\n\ndef c():\n    return 3\n",
    )
    os.chmod(repo / "script.sh", 0o755)
    write(repo, "img.bin", b"\x00\x01\x03")
    write(repo, "crlf.py", "def f():\r\n    if True:\r\n        return 1\r\n    return 2\r\n")
    write(repo, "big.py", "x = 1\n" * 500_000)
    write(repo, "new.py", "def fresh():\n    return 1\n")
    write(repo, "bad.py", b"def g():\n    return '\xff'\n")
    write(repo, "gen/out.py", "def generated():\n    return 1\n")
    write(repo, "header.go", "// Code generated by protoc. DO NOT EDIT.\npackage x\n")
    write(repo, "package-lock.json", "{}\n")
    write(repo, "app.min.js", "var a=1;" * 10 + "\n")
    os.symlink("mod.py", repo / "link.py")
    git(repo, "add", "-A")
    data = doc(repo, "--staged", cli=cli)
    files = files_by_path(data)
    assert files["mod.py"]["status"] == "modified"
    assert files["gone.py"]["status"] == "deleted"
    assert files["gone.py"]["units"][0]["change"] == "removed"
    assert (
        files["renamed.py"]["status"] == "renamed" and files["renamed.py"]["old_path"] == "moved.py"
    )
    assert files["renamed.py"]["units"] == []  # a pure rename touches no unit
    assert files["renamed_edit.py"]["status"] == "renamed"
    assert [u["label"] for u in files["renamed_edit.py"]["units"]] == ["def c"]
    assert (
        files["script.sh"]["status"] == "skipped" and "mode change" in files["script.sh"]["reason"]
    )
    assert files["img.bin"]["status"] == "binary"
    assert files["crlf.py"]["status"] == "modified"
    assert any("CRLF" in w for w in files["crlf.py"]["warnings"])
    assert files["big.py"]["status"] == "skipped" and "larger than" in files["big.py"]["reason"]
    assert files["new.py"]["status"] == "added" and files["new.py"]["units"][0]["change"] == "added"
    assert any("replacement" in w for w in files["bad.py"]["warnings"])
    assert files["gen/out.py"]["reason"] == "generated (linguist-generated attribute)"
    assert files["header.go"]["reason"] == "generated (header says so)"
    assert files["package-lock.json"]["reason"] == "generated (lock file)"
    assert files["website/pnpm-lock.yaml"]["reason"] == "generated (lock file)"
    assert files["app.min.js"]["reason"] == "generated (minified)"
    assert files["link.py"]["status"] == "skipped" and files["link.py"]["reason"] == "symbolic link"


def test_crlf_and_lf_give_the_same_units(repo: Path, cli: Any) -> None:
    write(repo, "lf.py", BEFORE)
    write(repo, "crlf.py", BEFORE.replace("\n", "\r\n"))
    commit(repo)
    write(repo, "lf.py", AFTER)
    write(repo, "crlf.py", AFTER.replace("\n", "\r\n"))
    files = files_by_path(doc(repo, cli=cli))
    assert files["lf.py"]["units"] == files["crlf.py"]["units"]


def test_submodule_is_skipped(repo: Path, tmp_path: Path, cli: Any) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    write(sub, "x.py", "x = 1\n")
    commit(sub)
    write(repo, "a.py", "a = 1\n")
    commit(repo)
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "vendor/sub")
    data = doc(repo, "--staged", cli=cli)
    assert files_by_path(data)["vendor/sub"]["reason"] == "submodule"


def test_initial_commit_and_empty_change(repo: Path, cli: Any) -> None:
    write(repo, "a.py", "def f():\n    return 1\n")
    git(repo, "add", "-A")
    data = doc(repo, "--staged", cli=cli)
    assert data["base"].startswith("empty tree")
    assert files_by_path(data)["a.py"]["status"] == "added"
    commit(repo)
    empty = doc(repo, cli=cli)
    assert empty["files"] == [] and empty["findings"] == []
    text = cli("review", "-C", str(repo))
    assert text.code == 0 and "no changes" in text.out


def test_range_forms(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    a = commit(repo, "a")
    git(repo, "checkout", "-q", "-b", "topic")
    write(repo, "shop.py", AFTER)
    b = commit(repo, "b")
    git(repo, "checkout", "-q", "main")
    write(repo, "other.py", "def x():\n    return 1\n")
    c = commit(repo, "c")
    two = doc(repo, f"{a}..{b}", cli=cli)
    assert [f["path"] for f in two["files"]] == ["shop.py"]
    three = doc(repo, f"{c}...{b}", cli=cli)  # from the merge base (a): only the topic's change
    assert [f["path"] for f in three["files"]] == ["shop.py"]
    direct = doc(repo, f"{c}..{b}", cli=cli)  # c against b: other.py differs too
    assert sorted(f["path"] for f in direct["files"]) == ["other.py", "shop.py"]
    # REV against the working tree, the default and --staged.
    write(repo, "shop.py", AFTER)
    assert [f["path"] for f in doc(repo, a, cli=cli)["files"]] == ["other.py", "shop.py"]
    assert [f["path"] for f in doc(repo, cli=cli)["files"]] == ["shop.py"]
    assert doc(repo, "--staged", cli=cli)["files"] == []
    git(repo, "add", "shop.py")
    assert [f["path"] for f in doc(repo, "--staged", cli=cli)["files"]] == ["shop.py"]


def test_git_index_file_is_respected(repo: Path, cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    index = repo / ".git" / "alt-index"
    env = {**os.environ, "GIT_INDEX_FILE": str(index)}
    subprocess.run(["git", "read-tree", "HEAD"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "add", "shop.py"], cwd=repo, env=env, check=True)
    assert doc(repo, "--staged", cli=cli)["files"] == []  # the real index has nothing staged
    monkeypatch.setenv("GIT_INDEX_FILE", str(index))
    assert [f["path"] for f in doc(repo, "--staged", cli=cli)["files"]] == ["shop.py"]


def test_patch_input_matches_git(repo: Path, cli: Any, tmp_path: Path) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    from_git = doc(repo, cli=cli)
    patch = git(repo, "diff")
    (tmp_path / "change.patch").write_text(patch)
    from_patch = doc(repo, "--patch", str(tmp_path / "change.patch"), cli=cli)
    assert from_patch["findings"] == from_git["findings"]
    assert from_patch["files"][0]["units"] == from_git["files"][0]["units"]
    # Outside any repository: context-only, and said so.
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    run = cli(
        "review", "-C", str(outside), "--patch", str(tmp_path / "change.patch"), "--format", "json"
    )
    assert run.code == 0, run.err
    data = json.loads(run.out)
    assert any("patch alone" in w for w in data["files"][0]["warnings"])


def test_bad_input_is_one_clear_line(repo: Path, cli: Any, tmp_path: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    run = cli("review", "-C", str(outside))
    assert run.code == 2 and "not a git repository" in run.err
    write(repo, "a.py", "x = 1\n")
    commit(repo)
    for bad in ("nope..HEAD", "--upload-pack=x", "-x"):
        run = (
            cli("review", "-C", str(repo), "--", bad)
            if bad.startswith("-")
            else cli("review", "-C", str(repo), bad)
        )
        assert run.code == 2, (bad, run.err)
        assert len(run.err.strip().splitlines()) == 1 and "Traceback" not in run.err
    (tmp_path / "junk.patch").write_text("this is not a diff\n")
    run = cli("review", "-C", str(repo), "--patch", str(tmp_path / "junk.patch"))
    assert run.code == 2 and "diff" in run.err
    run = cli("review", "-C", str(repo), "--staged", "HEAD")
    assert run.code == 2


def test_fail_on_and_max_findings(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    assert cli("review", "-C", str(repo)).code == 0
    assert cli("review", "-C", str(repo), "--fail-on", "warning").code == 1
    assert cli("review", "-C", str(repo), "--fail-on", "never").code == 0
    data = json.loads(cli("review", "-C", str(repo), "--format", "json", "--max-findings", "0").out)
    assert data["findings"] == [] and data["stats"]["findings_not_shown"] >= 1


def test_config_thresholds_and_excludes(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    write(repo, "vendor/lib.py", BEFORE)
    write(repo, "gen/out.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    write(repo, "vendor/lib.py", AFTER)
    write(repo, "gen/out.py", AFTER)
    write(
        repo,
        ".reviewbot.toml",
        'exclude = ["vendor/**", "./gen/*"]\nfail_on = "error"\n[thresholds]\nspike_branches = 50\n'
        "spike_ratio = 100\nmax_decisions = 0\nmax_nesting = 0\nbogus = 1\n",
    )
    run = cli("review", "-C", str(repo), "--format", "json")
    assert "unknown threshold 'thresholds.bogus'" in run.err
    data = json.loads(run.out)
    assert files_by_path(data)["vendor/lib.py"]["reason"] == "excluded by configuration"
    assert files_by_path(data)["gen/out.py"]["reason"] == "excluded by configuration"
    # The same globs, the same rule, when scanning the folder.
    scan = json.loads(cli("positions", str(repo), "--format", "json").out)
    scanned = {Path(f["path"]).relative_to(repo).as_posix() for f in scan["files"]}
    assert "shop.py" in scanned and not scanned & {"vendor/lib.py", "gen/out.py"}
    assert "RB101" not in [f["code"] for f in data["findings"]]
    write(repo, ".reviewbot.toml", '[thresholds]\nspike_branches = "many"\n')
    run = cli("review", "-C", str(repo))
    assert run.code == 2 and "thresholds.spike_branches" in run.err


def test_same_report_from_every_entry(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    via_cli = doc(repo, cli=cli)
    direct = report_doc(review(GitChange(repo), Config()))
    for key in ("files", "findings", "context", "base", "head"):
        assert via_cli[key] == direct[key]


def test_budget_bounds_the_context(repo: Path, cli: Any) -> None:
    filler = "".join(f"    y{k} = x + {k}\n" for k in range(8))
    body = "".join(
        f"def f{i}(x):\n    if x:\n        return {i}\n{filler}    return 0\n\n\n"
        for i in range(40)
    )
    write(repo, "many.py", body)
    commit(repo)
    write(repo, "many.py", body.replace("return 0", "return -1"))
    small = doc(repo, "--budget", "200", cli=cli)
    big = doc(repo, "--budget", "20000", cli=cli)

    def size(d: dict[str, Any]) -> int:
        return sum(len("".join(c["bands"].values())) for c in d["context"])

    assert len(small["context"]) == len(big["context"]) >= 40  # one per hunk, any budget
    assert size(small) <= 200 * 4
    assert size(big) > size(small)
    assert any(c["truncated"] for c in small["context"])


def test_text_output_reads_well(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    run = cli("review", "-C", str(repo), "--context")
    assert run.code == 0
    assert "def apply" in run.out and "RB101" in run.out and "silence:" in run.out
    assert "Context" in run.out
    assert Status.MODIFIED.value in run.out


def test_generated_headers_are_recognised_but_not_guessed() -> None:
    from reviewbot.repo.changes import generated_reason

    generated = [
        "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n",
        "# @generated by a tool\n",
        "# This file was automatically generated.\n",
        "// Autogenerated file, do not edit\n",
        "/* DO NOT EDIT: generated by stringer */\n",
    ]
    written = [
        "/* Tables built by hand rather than auto-generated. */\n",
        "x = 1  # the generated values are checked below\n",
        "def generate():\n    pass\n",
    ]
    assert all(generated_reason("a.go", t) == "generated (header says so)" for t in generated)
    assert all(generated_reason("a.go", t) is None for t in written)
    assert generated_reason("pkg/yarn.lock", "x") == "generated (lock file)"
    # A bundler's output (axios's committed `dist/axios.js`, rollup's: its four copies ranked
    # above every source file in hotspots) names its source map on its last line.
    bundle = "// Axios v1.7.9\nfunction bind(fn) {\n  return fn;\n}\n" * 50
    assert generated_reason("dist/axios.js", bundle + "//# sourceMappingURL=axios.js.map\n") == (
        "generated (has a source map)"
    )
    assert generated_reason("dist/a.css", "a { b: c }\n/*# sourceMappingURL=a.css.map */") == (
        "generated (has a source map)"
    )
    # ... not a source that mentions source maps in its code or far above its end.
    mentions = "const hint = '//# sourceMappingURL=' + name;\n"
    assert generated_reason("src/maps.js", mentions) is None
    assert generated_reason("src/early.js", "//# sourceMappingURL=x.map\n" + bundle) is None
