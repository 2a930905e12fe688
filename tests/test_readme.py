"""The README's example outputs are what the commands really print (keep the README true)."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from reviewbot.doors.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = re.findall(
    r"```text\n\$ (reviewbot[^\n]*)\n(.*?)```",
    (ROOT / "README.md").read_text(encoding="utf-8"),
    flags=re.S,
)


def test_the_readme_has_examples() -> None:
    commands = {shlex.split(cmd)[1] for cmd, _ in EXAMPLES}
    assert {"review", "positions", "context", "entropy", "heatmap"} <= commands


@pytest.mark.parametrize("command,shown", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_example_output_is_current(
    command: str, shown: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    out, err = io.StringIO(), io.StringIO()
    code = main(shlex.split(command)[1:], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert out.getvalue() == shown, "README example is stale: refresh it from the real output"


_SUMMARY = re.compile(
    r"(### What the summary comment looks like\n.*?````markdown\n)(.*?)(````)", re.S
)


def demo_summary() -> str:
    """The PR summary of the demo change, as the Action would post it."""
    import os
    import tempfile

    from reviewbot.app.config import Config
    from reviewbot.app.pipeline import GitChange, review
    from reviewbot.doors.demo import build_demo_repo
    from reviewbot.render.markdown import summary_body

    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "demo"
        spec = build_demo_repo(repo, dict(os.environ))
        report = review(GitChange(repo, (spec,)), Config())
        head = report.head.rsplit("(", 1)[-1].rstrip(")")
        return summary_body(report, blob_base=f"https://github.com/acme/shop/blob/{head}")


def test_the_summary_example_is_current() -> None:
    found = _SUMMARY.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert found is not None, "the README shows what the summary comment looks like"
    assert found.group(2) == demo_summary(), "refresh it: python -m tests.test_readme --refresh"


def refresh() -> None:
    """Rewrite every example in the README with the command's real output
    (`python -m tests.test_readme --refresh`; then read the diff before committing)."""
    path = ROOT / "README.md"
    text = path.read_text(encoding="utf-8")

    def one(m: re.Match[str]) -> str:
        out, err = io.StringIO(), io.StringIO()
        main(shlex.split(m.group(1))[1:], stdout=out, stderr=err)
        return f"```text\n$ {m.group(1)}\n{out.getvalue()}```"

    text = re.sub(r"```text\n\$ (reviewbot[^\n]*)\n(.*?)```", one, text, flags=re.S)
    summary = demo_summary()
    text = _SUMMARY.sub(lambda m: m.group(1) + summary + m.group(3), text)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    import os
    import sys

    if "--refresh" in sys.argv:
        os.chdir(ROOT)
        refresh()
