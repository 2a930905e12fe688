"""Star imports that form cycles (`from .a import *` in modules importing each other so, TS
`export * from` barrels that re-export each other): a name is found through them, and the work
grows with the modules, not with the paths through the cycle (walked recursively, every path
was read: 9 Python modules importing each other so did not index in two minutes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewbot.index import resolve
from tests.index.support import build, targets

_MODULES = 6
_MISSING = 10


def _star_package() -> dict[str, str]:
    files = {"pkg/__init__.py": ""}
    for i in range(_MODULES):
        stars = "".join(f"from .m{j} import *\n" for j in range(_MODULES) if j != i)
        files[f"pkg/m{i}.py"] = f"{stars}\n\ndef own{i}():\n    return {i}\n"
    files["use.py"] = "from pkg.m0 import *\n\n" + "".join(
        f"def f{n}():\n    return missing{n}() + own{_MODULES - 1}()\n" for n in range(_MISSING)
    )
    return files


def test_a_name_is_found_through_a_cycle_of_star_imports_with_linear_work(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = 0
    module_files = resolve.Resolver.module_files

    def counted(self: resolve.Resolver, *args: object, **kwargs: object) -> list[int]:
        nonlocal reads
        reads += 1
        return module_files(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(resolve.Resolver, "module_files", counted)
    db = build(repo, _star_package())
    last = _MODULES - 1
    for n in range(_MISSING):
        line = 4 + 2 * n
        assert targets(db, "use.py", line, f"own{last}") == {(f"own{last}", _MODULES + 2)}
        assert targets(db, "use.py", line, f"missing{n}") == set()
    # Each module's star imports are read once per name looked up: 31 star lines and 11
    # names here give about 340 reads (336 measured). The recursive walk read every path
    # through the cycle: 16,636 at 6 modules, and minutes' worth at 9.
    star_lines = _MODULES * (_MODULES - 1) + 1
    assert reads <= 2 * star_lines * (_MISSING + 1)


def test_typescript_barrels_that_re_export_each_other(repo: Path) -> None:
    # `export * from` both ways between two barrels, and a namespace re-export beyond them:
    # `import { util, helper } from './a'` finds what c defines and the module d.
    db = build(
        repo,
        {
            "src/a.ts": "export * from './b';\nexport * from './c';\n",
            "src/b.ts": "export * from './a';\nexport * from './e';\n",
            "src/c.ts": "export function helper(): number { return 1; }\n",
            "src/d.ts": "export function twice(n: number): number { return 2 * n; }\n",
            "src/e.ts": "export * from './b';\nexport * as util from './d';\n",
            "src/use.ts": (
                "import { util, helper } from './a';\n\n"
                "export function run(): number {\n"
                "    return util.twice(helper());\n"
                "}\n"
            ),
        },
    )
    assert targets(db, "src/use.ts", 4, "helper") == {("helper", 1)}
    assert targets(db, "src/use.ts", 4, "twice") == {("twice", 1)}
