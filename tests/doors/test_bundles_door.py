"""`reviewbot bundles` and the MCP tools list_bundles / get_bundle: shapes, the state kept for
the next run, a folder, errors in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.doors.test_mcp import call, structured, text_of
from tests.helpers import commit, write

BUNDLE_KEYS = {
    "id",
    "title",
    "files",
    "cards",
    "chars",
    "links_inside",
    "links_outside",
    "preview",
}
CARD_KEYS = {"id", "path", "start", "end", "chars", "label"}


def function(name: str, calls: tuple[str, ...] = ()) -> str:
    body = "".join(f"    value_{k} = {k} + len('{name}' * {k})\n" for k in range(12))
    return f"def {name}():\n{body}" + "".join(f"    {c}()\n" for c in calls) + "    return 0\n"


@pytest.fixture
def project(repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for folder in ("app", "lib"):
        write(repo, f"{folder}/__init__.py", "")
        for k in range(4):
            names = [f"{folder}{k}_{j}" for j in range(3)]
            text = f"from {folder}.m{(k + 1) % 4} import *\n\n\n" + "\n\n".join(
                function(n, (f"{folder}{(k + 1) % 4}_{j}",)) for j, n in enumerate(names)
            )
            write(repo, f"{folder}/m{k}.py", text)
    commit(repo)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("REVIEWBOT_INDEX", str(tmp_path / "idx" / "index.sqlite"))
    return repo


def test_bundles_json_text_and_output_file(project: Path, cli: Any, tmp_path: Path) -> None:
    run = cli("bundles", "--target-chars", "3000", "--format", "json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["schema"] == "reviewbot.bundles/1" and doc["target_chars"] == 3000
    assert doc["method"] == "spectral" and doc["update"] == "full"
    assert set(doc["stats"]) == {"count", "mean_chars", "min_chars", "max_chars", "within_bounds"}
    assert doc["stats"]["count"] == len(doc["bundles"]) > 1
    for b in doc["bundles"]:
        assert set(b) == BUNDLE_KEYS
        assert all(set(c) == CARD_KEYS for c in b["cards"])
        assert b["chars"] == sum(c["chars"] for c in b["cards"]) <= 4500
        assert b["files"] == list(dict.fromkeys(c["path"] for c in b["cards"]))
    ids = [c["id"] for b in doc["bundles"] for c in b["cards"]]
    assert len(ids) == len(set(ids))
    # The state for the next run is kept beside the index: nothing changed, nothing redone.
    # (Another target than the default's is kept in a file of its own: bundles.json stays
    # the repository's default bundling.)
    (state,) = Path(os.environ["REVIEWBOT_INDEX"]).parent.glob("bundles-*-3000.json")
    assert state.is_file() and not (state.parent / "bundles.json").exists()
    again = json.loads(cli("bundles", "--target-chars", "3000", "--format", "json").out)
    assert again["update"] == "unchanged" and again["bundles"] == doc["bundles"]

    text = cli("bundles", "--target-chars", "3000")
    lines = text.out.splitlines()
    assert lines[0].split() == ["bundle", "size", "files", "cohesion", "title"]
    assert len(lines) == len(doc["bundles"]) + 3
    assert all(len(line) <= 80 for line in lines)
    assert lines[1].startswith("b1 ") and doc["bundles"][0]["title"][:20] in lines[1]
    assert "within 30-150%" in lines[-2] and "unchanged since the last bundling" in lines[-1]

    out = tmp_path / "bundles.json"
    run = cli("bundles", "lib", "--target-chars", "3000", "--format", "json", "-o", str(out))
    assert run.code == 0 and f"to {out}" in run.out
    scoped = json.loads(out.read_text())
    assert scoped["scope"] == "lib"
    assert {c["path"].split("/")[0] for b in scoped["bundles"] for c in b["cards"]} == {"lib"}


def test_bundles_errors_are_one_line(project: Path, cli: Any) -> None:
    run = cli("bundles", "--target-chars", "10")
    assert run.code == 2 and run.err.count("\n") == 1 and "at least 1000" in run.err
    run = cli("bundles", "nowhere")
    assert run.code != 0 and run.err.count("\n") == 1 and "nowhere" in run.err


def test_list_and_get_bundle_over_mcp(project: Path) -> None:
    root = project / "app"
    _tools, results = call(
        root,
        [
            ("list_bundles", {"target_chars": 3000}),
            ("get_bundle", {"bundle": "b1", "target_chars": 3000}),
            ("get_bundle", {"bundle": "b999", "target_chars": 3000}),
            ("list_bundles", {"target_chars": 10}),
        ],
    )
    listed = structured(results[0])
    assert listed["method"] == "spectral" and listed["bundles"]
    files = {f for b in listed["bundles"] for f in b["files"]}
    assert files <= {f"m{k}.py" for k in range(4)} | {"__init__.py"}  # relative to the root
    first = listed["bundles"][0]
    assert set(first) == {"id", "title", "files", "chars", "cards", "cohesion"}
    got = structured(results[1])
    assert got["id"] == "b1" and got["files"] == first["files"]
    code = got["code"]
    headers = [line for line in code.splitlines() if line.startswith("--- ")]
    assert len(headers) == first["cards"]
    assert headers[0].startswith(f"--- {first['files'][0]}:")
    assert "def app" in code and not got["code_truncated"]
    assert results[2].is_error and "no such bundle" in text_of(results[2])
    assert results[3].is_error
