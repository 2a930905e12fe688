"""The project's own linters pass: ruff (lint and format) and mypy in strict mode."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / argv[0]
    cmd = [str(exe) if exe.exists() else (shutil.which(argv[0]) or argv[0]), *argv[1:]]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_lint() -> None:
    proc = run("ruff", "check", "reviewbot", "tests", "bench")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    proc = run("ruff", "format", "--check", "reviewbot", "tests", "bench")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict() -> None:
    proc = run("mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_package_ships() -> None:
    """pyproject lists packages explicitly (templates/ and hooks/ are mapped in): none left out."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "reviewbot").rglob("__init__.py")
    }
    assert found <= listed, f"missing from [tool.setuptools] packages: {sorted(found - listed)}"
