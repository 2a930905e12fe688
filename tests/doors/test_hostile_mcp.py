"""Hostile inputs at the MCP server: a root inside a repository confines every answer, FIFOs
and devices are refused without hanging the server, every result obeys the size cap, and
arguments are validated strictly with one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.doors.test_hostile_cli import SIMPLE, SPIKED
from tests.doors.test_mcp import session_run, structured, text_of
from tests.helpers import commit, write

CAP = 60_000


def call(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any]]:
    """The session, bounded in time: a hang is a failure, not a stuck test run."""

    async def bounded() -> tuple[Any, list[Any]]:
        with anyio.fail_after(120):
            return await session_run(root, calls)

    return anyio.run(bounded)


def test_a_subfolder_root_confines_reviews_and_paths(repo: Path) -> None:
    write(repo, "config.py", "SECRET = 'top level'\n" + SIMPLE)
    write(repo, "sub/config.py", SIMPLE)
    commit(repo)
    write(repo, "config.py", "SECRET = 'top level'\n" + SPIKED)
    write(repo, "sub/config.py", SPIKED)
    _, results = call(
        repo / "sub",
        [
            ("review_change", {}),
            ("diff_wavelet_context", {"path": "config.py"}),
            ("review_change", {"range": "HEAD"}),
        ],
    )
    assert not any(r.is_error for r in results), [text_of(r) for r in results]
    whole, diff, again = map(structured, results)
    for doc in (whole, again):
        assert [f["path"] for f in doc["files"]] == ["sub/config.py"]
        assert "top level" not in json.dumps(doc)
    assert diff["path"] == "sub/config.py" and diff["changed"] is True
    assert "top level" not in json.dumps(diff)


def test_fifos_and_devices_are_refused_and_the_server_keeps_serving(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "ok.py").write_text(SIMPLE)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("get_entropy_bands", {"path": "pipe.py"}),
        ("query_wavelet_context", {"path": "pipe.py"}),
        ("get_complexity_heatmap", {"path": "pipe.py"}),
    ] * 20
    calls.append(("get_entropy_bands", {"path": "ok.py"}))
    _, results = call(tmp_path, calls)
    assert all(r.is_error for r in results[:-1])
    assert all("not a regular file" in text_of(r) for r in results[:-1])
    assert not results[-1].is_error


def test_every_result_obeys_the_size_cap(tmp_path: Path) -> None:
    big = "".join(
        f"def f{i}(x):\n    if x:\n        return {i}\n    return 0\n" for i in range(15000)
    )
    (tmp_path / "big.py").write_text(big)
    _, results = call(
        tmp_path,
        [
            ("query_wavelet_context", {"path": "big.py", "line": 30000, "radius": 200000}),
            ("get_complexity_heatmap", {"path": "big.py", "top": 100000, "include_per_line": True}),
            ("get_important_positions", {"path": "big.py", "limit": 100000}),
        ],
    )
    for r in results:
        assert not r.is_error, text_of(r)
        assert len(text_of(r)) <= CAP + 2000
        assert "truncated" in structured(r)


def test_arguments_are_validated_strictly_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(SIMPLE)
    _, results = call(
        tmp_path,
        [
            ("query_wavelet_context", {"path": "ok.py", "line": "NaN"}),
            ("query_wavelet_context", {"path": "ok.py", "line": True}),
            ("get_important_positions", {"path": "ok.py", "min_coefficient": "NaN"}),
            ("get_important_positions", {"path": "ok.py", "limit": 1.5}),
            ("query_wavelet_context", {"path": "ok.py", "radius": -1}),
        ],
    )
    for r in results:
        assert r.is_error
        message = text_of(r)
        assert len(message.strip().splitlines()) == 1, message


def test_a_missing_root_is_an_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reviewbot", "mcp", "--root", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 2 and "no such directory" in proc.stderr


def test_a_folder_holding_a_link_out_of_the_root_is_outlined_with_the_link_skipped(
    repo: Path, tmp_path: Path
) -> None:
    """A tracked `sub/escape -> /etc`-like link: the folder's outline was an internal error
    (the skipped link's path was resolved out of the root)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(SIMPLE)
    write(repo, "sub/ok.py", SIMPLE)
    (repo / "sub" / "escape").symlink_to(outside)
    commit(repo)
    _, (result,) = call(repo, [("get_important_positions", {"path": "sub"})])
    assert not result.is_error, text_of(result)
    doc = structured(result)
    assert [f["path"] for f in doc["files"]] == ["sub/ok.py"]
    assert [s["path"] for s in doc["skipped"]] == ["sub/escape"]
    assert "secret" not in json.dumps(doc)


def test_a_subfolder_server_takes_the_paths_its_review_gives(repo: Path) -> None:
    """Served from `sub/`, review_change names `sub/config.py` (from the repository's root)
    while the file tools wanted `config.py`: an agent passing one to the other got "no such
    file". Both are taken; the root still confines."""
    write(repo, "config.py", "SECRET = 'top level'\n" + SIMPLE)
    write(repo, "sub/config.py", SIMPLE)
    commit(repo)
    _, results = call(
        repo / "sub",
        [
            ("get_entropy_bands", {"path": "config.py"}),
            ("get_entropy_bands", {"path": "sub/config.py"}),
            ("get_entropy_bands", {"path": "../config.py"}),
        ],
    )
    plain, whole, outside = results
    assert not plain.is_error and not whole.is_error, text_of(whole)
    assert structured(plain) == structured(whole)
    assert outside.is_error and "outside the served folder" in text_of(outside)
