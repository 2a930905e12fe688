"""The layering is a contract, not a hope: import-linter's contracts hold, only the doors read
the environment or argv or decide exit codes, and imports sit at module top unless a measured
cost needs them lazy (and a `# Lazy:` comment says which)."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reviewbot"


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_import_linter_contracts_are_kept() -> None:
    exe = Path(sys.executable).parent / "lint-imports"
    cmd = str(exe) if exe.exists() else (shutil.which("lint-imports") or "lint-imports")
    proc = subprocess.run([cmd], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


_DOOR_ONLY = re.compile(
    r"\bos\.environ\b|\bos\.getenv\b|\bos\.putenv\b|\bsys\.argv\b|\bsys\.exit\b|"
    r"\bSystemExit\b|\bEXIT_(?:OK|FAIL|USAGE|INTERNAL|INTERRUPTED)\b"
)


def test_only_doors_read_the_environment_or_decide_exit_codes() -> None:
    found = []
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("reviewbot/doors/") or rel == "reviewbot/__main__.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _DOOR_ONLY.search(line.split("#", 1)[0]):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == [], "outside reviewbot/doors/:\n" + "\n".join(found)


def test_the_grep_sees_a_violation(tmp_path: Path) -> None:
    """The pattern above is not vacuous: it matches each thing it forbids."""
    for text in ("x = os.environ.get('A')", "sys.argv[1:]", "raise SystemExit(2)", "EXIT_USAGE"):
        assert _DOOR_ONLY.search(text), text
    assert not _DOOR_ONLY.search("environ: Mapping[str, str]")


def _function_imports(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    bad = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body_imports = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
        for imp in body_imports:
            above = lines[max(0, imp.lineno - 4) : imp.lineno - 1]
            if not any(line.strip().startswith("# Lazy:") for line in above):
                bad.append((imp.lineno, lines[imp.lineno - 1].strip()))
    return bad


def test_imports_are_at_module_top_unless_a_lazy_comment_says_why() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{n}: {text}"
        for path in modules()
        for n, text in _function_imports(path)
    ]
    assert found == [], "imports inside functions without a `# Lazy:` reason:\n" + "\n".join(found)
