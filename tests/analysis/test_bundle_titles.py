"""A bundle's reason names a name once, and its title fits the text report's 80 columns
(packaging 668da866: "defines _format_full_version; renames format_full_version to
_format_full_version"; 0bfc3cea: an 84-column line holding a test's qualified name)."""

from __future__ import annotations

from pathlib import Path

from reviewbot.render.review_text import _fit_names
from tests.analysis.test_bundles import bundles
from tests.helpers import commit, write


def test_a_renamed_function_is_said_renamed_not_also_defined(repo: Path) -> None:
    body = "    if not info:\n        return '0'\n    return info.version + info.extra\n"
    write(repo, "lib.py", f"def format_full_version(info):\n{body}\n\ndef other():\n    return 1\n")
    write(repo, "app.py", "from lib import format_full_version\n\nx = format_full_version(None)\n")
    commit(repo)
    write(
        repo, "lib.py", f"def _format_full_version(info):\n{body}\n\ndef other():\n    return 1\n"
    )
    write(
        repo, "app.py", "from lib import _format_full_version\n\nx = _format_full_version(None)\n"
    )
    reasons = [b["reason"] for b in bundles(repo)]
    assert any("renames format_full_version to _format_full_version" in r for r in reasons)
    assert not any("defines _format_full_version" in r for r in reasons), reasons


def test_a_qualified_name_too_long_for_a_line_keeps_its_last_parts() -> None:
    title = (
        "def TestOperatorEvaluation.test_arbitrary_equality_on_non_version_key_is_undefined (t.py)"
    )
    fitted = _fit_names(title, 74)
    assert fitted == "def …test_arbitrary_equality_on_non_version_key_is_undefined (t.py)"
    assert all(len(w) <= 74 for w in fitted.split(" "))
    assert _fit_names("def A.b (t.py)", 74) == "def A.b (t.py)"
    assert _fit_names("def Outer.Inner.method_name (t.py)", 20) == "def …Inner.method_name (t.py)"
