"""`reviewbot review --format prompt`: the context pack from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewbot.doors.guard import EXIT_FAIL, EXIT_OK, EXIT_USAGE
from tests.helpers import AFTER, BEFORE, commit, git, write


def test_review_format_prompt(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    write(repo, "shop.py", AFTER)
    run = cli("review", "-C", str(repo), "--format", "prompt", "--budget", "500")
    assert run.code == EXIT_OK, run.err  # the default fail-on is never
    failing = cli("review", "-C", str(repo), "--format", "prompt", "--fail-on", "error")
    assert failing.code == EXIT_FAIL and "- RB101 error at shop.py" in failing.out
    assert len(run.out) <= 500 * 4
    assert run.out.startswith("# Review context\n")
    assert "### `shop.py::apply@1`" in run.out and "- signature: `def apply" in run.out
    assert "run `reviewbot index`" in run.out
    # The same change as a patch: no repository behind it, and the pack says so.
    patch = repo / "change.diff"
    patch.write_text(git(repo, "diff"), encoding="utf-8")
    run = cli("review", "--patch", str(patch), "--format", "prompt", "-C", str(repo.parent))
    assert run.code == EXIT_OK, run.err
    assert "a patch has no repository" in run.out and "### `shop.py::apply@1`" in run.out


def test_a_budget_below_the_floor_is_a_usage_error(repo: Path, cli: Any) -> None:
    write(repo, "shop.py", BEFORE)
    commit(repo)
    run = cli("review", "-C", str(repo), "--format", "prompt", "--budget", "100")
    assert run.code == EXIT_USAGE
    assert run.err.strip().splitlines() == [
        "reviewbot: error: the context pack needs a budget of at least 200 tokens"
    ]
