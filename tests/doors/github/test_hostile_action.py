"""Hostile inputs at the Action: file names an author chooses, a token with a newline, a
network that fails. The PR comment stays safe Markdown, the token never shows in any form,
there is never a traceback, and the job summary and outputs are always written."""

from __future__ import annotations

import io
import re
import socket
from pathlib import Path

import pytest

from reviewbot.doors.github.action import main
from tests.doors.github.test_action import Pr, pr, sync  # noqa: F401 - the fixture
from tests.doors.test_hostile_cli import SIMPLE, SPIKED
from tests.helpers import git
from tests.render.gfm import check_markdown

TOKEN = "ghs_secret_token_value"


def add_files(pr: Pr, names: list[str]) -> None:  # noqa: F811
    git(pr.origin, "checkout", "-q", "main")
    for name in names:
        (pr.origin / name).parent.mkdir(parents=True, exist_ok=True)
        (pr.origin / name).write_text(SIMPLE)
    git(pr.origin, "add", "-A")
    git(pr.origin, "commit", "-q", "-m", "base files")
    pr.base = git(pr.origin, "rev-parse", "HEAD").strip()
    git(pr.origin, "checkout", "-q", "topic")
    git(pr.origin, "merge", "-q", "main", "-m", "merge")
    for name in names:
        (pr.origin / name).write_text(SPIKED)
    git(pr.origin, "add", "-A")
    git(pr.origin, "commit", "-q", "-m", "spikes")
    pr.head = git(pr.origin, "rev-parse", "HEAD").strip()
    git(pr.origin, "checkout", "-q", "main")
    sync(pr)


NAMES = [
    "a) <img src=x onerror=alert(2)> @octocat (.py",
    "m|<!-- reviewbot:summary -->|.py",
    "x](javascript:alert(1)) [y.py",
    "@org/team <b>bold</b>.py",
]


def test_file_names_cannot_inject_into_the_summary(pr: Pr) -> None:  # noqa: F811
    add_files(pr, NAMES)
    code, log = pr.run()
    assert code == 0, log
    (summary,) = pr.fake.state.issue_comments
    html = check_markdown(summary["body"], markers=1)
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert hrefs and all(h.startswith("https://github.com/Codertocat/Hello-World/") for h in hrefs)
    for comment in pr.fake.state.review_comments:
        check_markdown(comment["body"], markers=0)
    check_markdown((pr.tmp / "summary.md").read_text(), markers=0, limit=1024 * 1024)


def run_main(pr: Pr, **env: str) -> str:  # noqa: F811
    out = io.StringIO()
    code = main([], env={**pr.env(), **env}, stdout=out)
    assert code == 0
    return out.getvalue()


@pytest.mark.parametrize("token", [TOKEN + "\n", " " + TOKEN + "\r\n", TOKEN + "\nsecond"])
def test_a_token_with_a_newline_is_never_printed(pr: Pr, token: str) -> None:  # noqa: F811
    log = run_main(pr, REVIEWBOT_TOKEN=token)
    written = log + (pr.tmp / "summary.md").read_text() + (pr.tmp / "output.txt").read_text()
    for form in (TOKEN, repr(token)[1:-1], TOKEN[:12]):
        assert form not in written, form
    assert "Traceback" not in log


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_network_error_still_writes_summary_and_outputs(pr: Pr) -> None:  # noqa: F811
    pr.workspace = Path(str(pr.workspace) + "-missing")  # no local git: the API is needed
    log = run_main(pr, GITHUB_API_URL=f"http://127.0.0.1:{closed_port()}")
    assert "Traceback" not in log and len(log.strip().splitlines()) <= 6, log
    assert "::warning" in log
    summary = (pr.tmp / "summary.md").read_text()
    assert "could not review" in summary
    outputs = (pr.tmp / "output.txt").read_text()
    assert "findings=0" in outputs and "report=" in outputs


def test_event_shas_that_are_not_commit_ids_never_reach_git(pr: Pr) -> None:  # noqa: F811
    """A forged event (the workflow_run recipe reads one from an artifact): a head sha such as
    `--upload-pack=...` would be an option to `git fetch`, which runs it. Refused in one line,
    nothing run, nothing posted, the summary and outputs still written."""
    planted = pr.tmp / "PWNED"
    pr.head = f"--upload-pack=touch {planted};git-upload-pack"
    log = run_main(pr)
    assert not planted.exists()
    assert "pull_request.head.sha is not a commit id" in log and "Traceback" not in log
    assert pr.fake.state.writes == []
    assert "findings=0" in (pr.tmp / "output.txt").read_text()
    assert (pr.tmp / "summary.md").read_text().strip()


def test_the_token_is_redacted_from_every_line_the_run_prints(pr: Pr) -> None:  # noqa: F811
    """A remote whose path holds the token (git hides credentials in a URL's user part, not
    in its path): git's refusal, printed by the run, shows it redacted."""
    git(pr.workspace, "remote", "set-url", "origin", f"file:///nonexistent/{TOKEN}/repo.git")
    log = run_main(pr, REVIEWBOT_TOKEN=TOKEN)
    assert "nonexistent" in log  # git's message was printed ...
    assert TOKEN not in log and "***" in log  # ... without the token
