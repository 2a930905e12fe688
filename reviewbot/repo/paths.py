"""What a path says about its code: tests, benchmarks, examples and fixtures are secondary
code, read after the product's own (findings, the context pack, the declarations looked up)."""

from __future__ import annotations

import re

__all__ = ["internal", "secondary"]

# A folder or a file name that marks code as tests, benchmarks, examples or fixtures.
_FOLDERS = frozenset(
    {
        "test",
        "tests",
        "testing",
        "__tests__",
        "spec",
        "specs",
        "bench",
        "benches",
        "benchmark",
        "benchmarks",
        "example",
        "examples",
        "fixtures",
        "testdata",
        "e2e",
    }
)
_FILE = re.compile(
    r"(^test_.*|.*_test\.[^.]+|.*[._-](test|spec|bench)\.[^.]+|.*Tests?\.[^.]+|conftest\.py)$"
)


def secondary(path: str) -> bool:
    """Tests, benchmarks, examples and fixtures (by folder or file name), not product code."""
    parts = path.split("/")
    return any(p.lower() in _FOLDERS for p in parts[:-1]) or bool(_FILE.match(parts[-1]))


def internal(path: str) -> bool:
    """Code the repository keeps for itself, not its API: a folder named ``internal`` (Go's
    rule: no other module may import it; testify's copies of spew and difflib live there) or
    a folder or module whose name starts with ``_`` (Python's private modules: click's
    ``_compat.py``; testify's ``_codegen/``), but not ``__init__.py`` or ``__main__.py``."""
    parts = path.split("/")
    if any(p == "internal" or (p.startswith("_") and not p.startswith("__")) for p in parts[:-1]):
        return True
    name = parts[-1]
    return name.startswith("_") and not name.startswith("__")
