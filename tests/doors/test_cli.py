"""The inspection commands end to end through `main`, including bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewbot.engine import open_index
from reviewbot.render.style import use_color
from tests.helpers import PARITY, git

INVENTORY = str(PARITY / "inputs" / "inventory.py")


def test_positions_json_for_a_file(cli: Any) -> None:
    run = cli("positions", INVENTORY, "--format", "json", "--limit", "5")
    assert run.code == 0, run.err
    doc = run.json()
    (f,) = doc["files"]
    assert f["path"] == INVENTORY and f["language"] == "python" and f["lines"] == 139
    assert len(f["positions"]) == 5
    index = open_index(INVENTORY, Path(INVENTORY).read_text())
    want = index.important_positions(0.3, 5)
    assert [(p["line"], p["label"]) for p in f["positions"]] == [
        (w.line + 1, w.label) for w in want
    ]
    assert doc["skipped"] == []


def test_positions_wavescope_profile_matches_golden_lines(cli: Any) -> None:
    import json

    golden = json.loads((PARITY / "golden" / "inventory.py.json").read_text())
    run = cli("positions", INVENTORY, "--format", "json", "--profile", "wavescope")
    got = [(p["line"], p["label"]) for p in run.json()["files"][0]["positions"]]
    assert got == [(p["position"] + 1, p["label"]) for p in golden["importantPositions"]["result"]]


def test_positions_folder_skips_with_reasons(cli: Any, repo: Path) -> None:
    (repo / "a.py").write_text("def f():\n    return 1\n")
    (repo / "bin.dat").write_bytes(b"abc\0def")
    (repo / "big.py").write_text("x = 1\n" * 400_000)  # 2.4 MB > 2 MB
    (repo / "bad.py").write_bytes(b"def g():\n    return '\xff\xfe'\n")
    (repo / ".gitignore").write_text("build/\n")
    (repo / "build").mkdir()
    (repo / "build" / "gen.py").write_text("def hidden():\n    pass\n")
    run = cli("positions", str(repo), "--format", "json")
    assert run.code == 0, run.err
    doc = run.json()
    skipped = {Path(s["path"]).name: s["reason"] for s in doc["skipped"]}
    assert "binary" in skipped["bin.dat"]
    assert "larger than 2 MB" in skipped["big.py"]
    assert skipped["build"] == "ignored by git"
    files = {Path(f["path"]).name: f for f in doc["files"]}
    assert set(files) == {"a.py", "bad.py", ".gitignore"}
    assert "replacement" in files["bad.py"]["warnings"][0]
    assert files["a.py"]["positions"][0]["label"] == "def f"
    assert doc["top"] and all("path" in t for t in doc["top"])


def test_positions_text_is_aligned_and_plain_off_a_terminal(cli: Any) -> None:
    run = cli("positions", INVENTORY, "--limit", "3")
    assert run.code == 0
    assert "\x1b[" not in run.out
    lines = run.out.splitlines()
    assert "line  scale" in lines[1]
    assert len({len(line.split("  ")[0]) for line in lines[2:5]}) == 1


def test_color_rules() -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    assert use_color(Tty(), "auto", {}) is True  # type: ignore[arg-type]
    assert use_color(Tty(), "auto", {"NO_COLOR": "1"}) is False  # type: ignore[arg-type]
    assert use_color(Tty(), "auto", {"TERM": "dumb"}) is False  # type: ignore[arg-type]
    assert use_color(sys.stdout, "never", {}) is False
    assert use_color(sys.stdout, "always", {"NO_COLOR": "1"}) is True


def test_color_always_colours(cli: Any) -> None:
    assert "\x1b[" in cli("positions", INVENTORY, "--color", "always").out


def test_context_json_and_clamping(cli: Any) -> None:
    run = cli("context", f"{INVENTORY}:500", "--format", "json", "--radius", "40")
    assert run.code == 0
    doc = run.json()
    assert doc["clamped"] is True and doc["center"] == 139 and doc["requested"] == 500
    assert "outside the file" in doc["warnings"][0]
    assert set(doc["bands"]) == {"fine", "medium", "coarse"}
    assert doc["bands"]["fine"]["end"] == 139
    run = cli("context", f"{INVENTORY}:55", "--format", "json")
    doc = run.json()
    assert doc["clamped"] is False and doc["center"] == 55
    assert doc["unit"]["label"] == "def apply" and doc["unit"]["start"] == 49


def test_context_text_marks_the_centre(cli: Any) -> None:
    run = cli("context", f"{INVENTORY}:55", "--radius", "20")
    assert run.code == 0
    assert "unit    def apply  lines 49-67" in run.out
    assert any(line.lstrip().startswith("55 ▶") for line in run.out.splitlines())


def test_entropy_and_heatmap_json(cli: Any) -> None:
    doc = cli("entropy", INVENTORY, "--format", "json").json()
    assert [b["scale"] for b in doc["bands"]] == [1, 2, 4, 8, 16, 32, 64, 128]
    assert doc["total_bit_cost"] == sum(b["bit_cost"] for b in doc["bands"])
    doc = cli("heatmap", INVENTORY, "--format", "json").json()
    assert len(doc["per_line"]) == 139
    assert doc["total_entropy"] == sum(lv["bit_cost"] for lv in doc["levels"])


def test_heatmap_text_has_a_gutter_and_top_lines(cli: Any) -> None:
    run = cli("heatmap", INVENTORY, "--top", "3")
    assert run.code == 0
    body = run.out.splitlines()
    assert body[1].startswith("irregularity")
    assert sum(" │ " in line for line in body) == 139
    assert "most irregular lines of code (top 3)" in run.out
    top = run.out.split("most irregular lines of code (top 3)", 1)[1].strip().splitlines()
    assert len(top) == 3
    text = open_index("inventory.py", Path(INVENTORY).read_text()).lines
    for row in top:  # never a blank line or an import
        code = text[int(row.split()[0]) - 1].strip()
        assert code and not code.startswith(("import ", "from "))
    summary = cli("heatmap", INVENTORY, "--summary").out
    assert sum(" │ " in line for line in summary.splitlines()) == 0


@pytest.mark.parametrize(
    "argv,needle",
    [
        (("positions", "does/not/exist.py"), "no such file"),
        (("context", "does/not/exist.py:3"), "no such file"),
        (("entropy", "."), "is a directory"),
        (("positions", INVENTORY, "--limit", "0"), "--limit"),
        (("positions", INVENTORY, "--bogus"), "unrecognized arguments"),
        (("context", f"{INVENTORY}:abc"), "FILE:LINE with a line number"),
        (("context", INVENTORY, "--radius", "-1"), "--radius"),
        (("frobnicate",), "invalid choice"),
    ],
)
def test_usage_errors_exit_2_with_one_line(cli: Any, argv: tuple[str, ...], needle: str) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert run.out == ""
    assert len(run.err.strip().splitlines()) == 1
    assert needle in run.err and "Traceback" not in run.err


def test_binary_file_is_a_clear_error(cli: Any, tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_bytes(b"\x00\x01binary")
    run = cli("heatmap", str(f))
    assert run.code == 2 and "binary" in run.err


def test_empty_one_line_and_huge_line(cli: Any, tmp_path: Path) -> None:
    empty = tmp_path / "empty.py"
    empty.write_text("")
    one = tmp_path / "one.py"
    one.write_text("x = 1\n")
    huge = tmp_path / "huge.js"
    huge.write_text("var a=" + "1+" * 2_500_000 + "1;\n")  # one 5 MB line
    for f in (empty, one, huge):
        for cmd in ("positions", "entropy", "heatmap"):
            run = cli(cmd, str(f), "--format", "json")
            assert run.code == 0, (cmd, f, run.err)
        run = cli("context", f"{f}:1", "--format", "json")
        assert run.code == 0
    assert cli("heatmap", str(empty), "--format", "json").json()["per_line"] == []
    assert cli("positions", str(empty)).out.count("empty file") == 1
    doc = cli("positions", str(huge), "--format", "json").json()
    assert doc["files"][0]["lines"] == 1


def test_crlf_gives_the_same_structure(tmp_path: Path, cli: Any) -> None:
    text = (PARITY / "inputs" / "store.go").read_text()
    lf, crlf = tmp_path / "lf.go", tmp_path / "crlf.go"
    lf.write_text(text, newline="")
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    a = cli("positions", str(lf), "--format", "json").json()["files"][0]["positions"]
    b = cli("positions", str(crlf), "--format", "json").json()["files"][0]["positions"]
    assert a == b
    ca = cli("context", f"{lf}:50", "--format", "json").json()
    cb = cli("context", f"{crlf}:50", "--format", "json").json()
    assert ca["bands"] == cb["bands"] and ca["unit"] == cb["unit"]


def test_unknown_extension_uses_generic(cli: Any, tmp_path: Path) -> None:
    f = tmp_path / "notes.weird"
    f.write_text("# comment\nsection {\n  item\n}\n")
    assert cli("positions", str(f), "--format", "json").json()["files"][0]["language"] == "generic"


def test_config_extra_language_and_warnings(cli: Any, repo: Path) -> None:
    (repo / ".reviewbot.toml").write_text(
        'colour = "blue"\n[languages.zig]\nextensions = [".zig"]\nbase = "c_like_missing"\n'
    )
    (repo / "a.zig").write_text("pub fn main() void {\n}\n")
    run = cli("positions", str(repo / "a.zig"))
    assert run.code == 2 and "unknown language 'c_like_missing'" in run.err
    (repo / ".reviewbot.toml").write_text(
        'colour = "blue"\n[languages.zig]\nextensions = [".zig"]\nline_comments = ["//"]\n'
        "[languages.zig.keywords]\nfn = 0.9\npub = 0.4\n"
    )
    run = cli("positions", str(repo / "a.zig"), "--format", "json")
    assert run.code == 0, run.err
    assert "unknown configuration key 'colour'" in run.err
    assert run.json()["files"][0]["language"] == "zig"
    (repo / ".reviewbot.toml").write_text('profile = "fast"\n')
    run = cli("positions", str(repo / "a.zig"))
    assert run.code == 2 and "profile" in run.err and "review" in run.err


def test_profile_from_pyproject_and_flag_overrides(cli: Any, repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.reviewbot]\nprofile = "wavescope"\n')
    (repo / "a.py").write_text("def f():\n    return 1\n")
    assert (
        cli("positions", str(repo / "a.py"), "--format", "json").json()["tool"]["profile"]
        == "wavescope"
    )
    doc = cli("positions", str(repo / "a.py"), "--format", "json", "--profile", "review").json()
    assert doc["tool"]["profile"] == "review"


def test_reviewbot_settings_in_a_pyproject_that_does_not_parse_are_an_error(
    cli: Any, repo: Path
) -> None:
    """A TOML error anywhere in pyproject.toml dropped `[tool.reviewbot]` silently: its
    `fail_on` stopped failing. A pyproject.toml without reviewbot settings stays nobody's
    business."""
    (repo / "a.py").write_text("def f():\n    return 1\n")
    (repo / "pyproject.toml").write_text('[tool.reviewbot]\nfail_on = "warning"\nbroken = \n')
    run = cli("positions", str(repo / "a.py"))
    assert run.code == 2 and "pyproject.toml: invalid TOML" in run.err
    (repo / "pyproject.toml").write_text("[project]\nname = \n")
    assert cli("positions", str(repo / "a.py")).code == 0


def test_python_dash_m_and_console_script(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reviewbot", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("reviewbot ")
    proc = subprocess.run(
        [sys.executable, "-m", "reviewbot", "positions", INVENTORY, "--limit", "1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and "class" in proc.stdout
    git(tmp_path, "init", "-q")
