"""What a path says about its code: tests, benchmarks, examples and fixtures are secondary
code, read after the product's own (findings, the context pack, the declarations looked up)."""

from __future__ import annotations

import re

__all__ = ["secondary"]

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
