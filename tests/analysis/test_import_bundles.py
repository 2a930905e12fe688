"""An import hunk joins the hunks of its file that use a name it imports (commons-cli
e852acf5: `import org.apache.commons.cli.help.OptionFormatter;` added in 6 files was a bundle
of its own, "the same edit in 6 files", while the uses of `OptionFormatter.DEFAULT_OPT_PREFIX`
were in B1 and B2; valtio 9ad5228: the import of `unstable_enableOp` went to the tests')."""

from __future__ import annotations

from pathlib import Path

from reviewbot.analysis.bundles import _imported
from tests.analysis.test_bundles import bundles
from tests.helpers import commit, write

_FILLER = "".join(
    f"    // line {k} of the class's comments, far from the imports\n" for k in range(12)
)


def _java(name: str, body: str) -> str:
    return (
        f"package p;\n\nimport java.util.List;\n\npublic class {name} {{\n{_FILLER}"
        f"    public boolean {name.lower()}Check(List<String> args) {{\n"
        f"        for (String arg : args) {{\n            if ({body}.equals(arg)) {{\n"
        "                return true;\n            }\n        }\n        return false;\n    }\n}\n"
    )


def test_an_import_joins_the_bundle_of_the_code_using_it(repo: Path) -> None:
    write(
        repo,
        "p/help/Fmt.java",
        'package p.help;\n\npublic class Fmt {\n    public static final String PREFIX = "-";\n}\n',
    )
    for name in ("Alpha", "Beta", "Gamma"):
        write(repo, f"p/{name}.java", _java(name, '"-"'))
    commit(repo)
    for name in ("Alpha", "Beta", "Gamma"):
        text = _java(name, "Fmt.PREFIX").replace(
            "import java.util.List;\n", "import java.util.List;\n\nimport p.help.Fmt;\n"
        )
        write(repo, f"p/{name}.java", text)
    found = bundles(repo)
    for b in found:
        paths = [h["path"] for h in b["hunks"]]
        imports = [h for h in b["hunks"] if h["new_start"] < 8]
        for h in imports:  # each import is with its file's use of Fmt
            assert paths.count(h["path"]) == 2, found


def test_the_names_an_import_only_hunk_brings_in() -> None:
    assert _imported(
        ["import { snapshot, subscribe, unstable_enableOp } from '../../vanilla.ts'"],
        ["import { snapshot, subscribe } from '../../vanilla.ts'"],
    ) == {"unstable_enableOp"}
    assert "Fmt" in _imported(["import p.help.Fmt;", ""], [])
    assert _imported(["from a import (b,", "    c as d,", ")"], []) >= {"b", "d"}
    assert _imported(["import os", "    return x"], []) == frozenset()  # not imports only
