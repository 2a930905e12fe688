"""`reviewbot github` against the fake GitHub, with the real PyGithub client over HTTP."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from reviewbot.app.config import Config
from reviewbot.doors.github.action import _config_from_base, annotation, run_action
from reviewbot.doors.github.client import Api
from reviewbot.doors.github.event import ActionContext
from reviewbot.errors import ConfigError
from reviewbot.model import Report
from reviewbot.render.markdown import MAX_BODY, SUMMARY_MARKER, summary_body
from reviewbot.repo.git import Git
from tests.doors.github.fake import DATA, FakeGitHub, Fault, PullFile, State
from tests.helpers import AFTER, BEFORE, git

DENSE = (
    "def big(x, y):\n"
    + "".join(
        f"    if x > {i} and y:\n        for k in range({i}):\n            x += k\n"
        for i in range(6)
    )
    + "    return x\n"
)


@dataclass
class Pr:
    origin: Path  # the "GitHub" side of git
    workspace: Path  # the runner's checkout
    base: str
    head: str
    fake: FakeGitHub
    tmp: Path

    def env(self, **extra: str) -> dict[str, str]:
        event = json.loads((DATA / "event-pull_request-opened.json").read_text())
        event["pull_request"]["base"]["sha"] = self.base
        event["pull_request"]["head"]["sha"] = self.head
        if extra.pop("FORK", ""):
            event["pull_request"]["head"]["repo"]["full_name"] = "someone/Hello-World"
        path = self.tmp / "event.json"
        path.write_text(json.dumps(event))
        env = {
            "GITHUB_EVENT_NAME": "pull_request",
            "GITHUB_EVENT_PATH": str(path),
            "GITHUB_REPOSITORY": "Codertocat/Hello-World",
            "GITHUB_API_URL": self.fake.base,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_STEP_SUMMARY": str(self.tmp / "summary.md"),
            "GITHUB_OUTPUT": str(self.tmp / "output.txt"),
            "RUNNER_TEMP": str(self.tmp),
            "REVIEWBOT_TOKEN": "ghs_secret_token_value",
            "REVIEWBOT_MAX_COMMENTS": "10",
        }
        env.update(extra)
        return env

    def push(self, files: dict[str, str | None], message: str = "update") -> None:
        """A new head commit on the PR branch (on the origin side), and the fake's new diff."""
        git(self.origin, "checkout", "-q", "topic")
        for name, text in files.items():
            if text is None:
                (self.origin / name).unlink()
            else:
                (self.origin / name).write_text(text)
        git(self.origin, "add", "-A")
        git(self.origin, "commit", "-q", "-m", message)
        self.head = git(self.origin, "rev-parse", "HEAD").strip()
        git(self.origin, "checkout", "-q", "main")
        sync(self)

    def run(self, sleep: list[float] | None = None, **extra: str) -> tuple[int, str]:
        out = io.StringIO()
        waits = sleep if sleep is not None else []

        def factory(ctx: ActionContext) -> Api:
            return Api(
                ctx.token,
                ctx.api_url,
                ctx.repository,
                ctx.number,
                sleep=waits.append,
                throttle=False,
            )

        code = run_action(self.env(**extra), out, api_factory=factory)
        return code, out.getvalue()


def file_patches(repo: Path, base: str, head: str) -> list[PullFile]:
    raw = git(repo, "diff", "--name-status", "-M", f"{base}...{head}")
    files = []
    for line in raw.splitlines():
        parts = line.split("\t")
        status, name = parts[0][0], parts[-1]
        diff = git(repo, "diff", "-M", f"{base}...{head}", "--", *parts[1:])
        patch = diff[diff.index("@@") :] if "@@" in diff else None
        kind = {"A": "added", "D": "removed", "M": "modified", "R": "renamed"}.get(
            status, "modified"
        )
        files.append(
            PullFile(
                name,
                kind,
                patch.rstrip("\n") if patch else None,
                parts[1] if status == "R" else None,
            )
        )
    return files


def sync(pr: Pr) -> None:
    s = pr.fake.state
    s.head_sha, s.base_sha = pr.head, pr.base
    s.files = file_patches(pr.origin, pr.base, pr.head)


@pytest.fixture
def pr(tmp_path: Path) -> Iterator[Pr]:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    git(origin, "config", "uploadpack.allowAnySHA1InWant", "true")  # as GitHub allows
    (origin / "shop.py").write_text(BEFORE)
    (origin / "old.py").write_text("def legacy():\n    return 'old'\n")
    (origin / "logo.png").write_bytes(b"\x89PNG\x00\x01")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "base")
    base = git(origin, "rev-parse", "HEAD").strip()
    git(origin, "checkout", "-q", "-b", "topic")
    (origin / "shop.py").write_text(AFTER + "\n\n" + DENSE)
    (origin / "old.py").unlink()
    (origin / "logo.png").write_bytes(b"\x89PNG\x00\x02")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "spike")
    head = git(origin, "rev-parse", "HEAD").strip()
    git(origin, "checkout", "-q", "main")
    workspace = tmp_path / "workspace"
    git(tmp_path, "clone", "-q", "--depth=1", f"file://{origin}", str(workspace))
    with FakeGitHub(State()) as fake:
        p = Pr(origin, workspace, base, head, fake, tmp_path)
        sync(p)
        yield p
    assert fake.state.errors == [], fake.state.errors  # every request and response validated


def ours(pr: Pr) -> list[dict[str, Any]]:
    return [c for c in pr.fake.state.review_comments if "reviewbot:fp=" in c["body"]]


def test_first_run_posts_summary_review_and_outputs(pr: Pr) -> None:
    code, log = pr.run()
    s = pr.fake.state
    assert code == 0, log
    (summary,) = s.issue_comments
    assert summary["body"].startswith(SUMMARY_MARKER)
    assert "### Findings" in summary["body"] and "shop.py" in summary["body"]
    assert len(s.reviews) == 1 and s.reviews[0]["state"] == "COMMENTED"
    inline = ours(pr)
    assert {code for c in inline for code in re.findall(r"RB10\d", c["body"])[:1]} >= {
        "RB101",
        "RB102",
    }
    assert all(c["path"] == "shop.py" and c["side"] == "RIGHT" for c in inline)
    assert (pr.tmp / "summary.md").read_text().startswith("## ")
    outputs = dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())
    report = json.loads(Path(outputs["report"]).read_text())
    assert report["schema"] == "reviewbot.report/1" and int(outputs["findings"]) >= 2
    statuses = {f["path"]: f["status"] for f in report["files"]}
    assert statuses == {"shop.py": "modified", "old.py": "deleted", "logo.png": "binary"}
    assert 1 <= sum(line.startswith("::warning ") for line in log.splitlines()) <= 10
    assert "ghs_secret_token_value" not in log + summary["body"]


def test_rerun_without_change_writes_nothing(pr: Pr) -> None:
    pr.run()
    before = len(pr.fake.state.writes)
    code, _ = pr.run()
    assert code == 0
    assert pr.fake.state.writes[before:] == []


def test_force_push_that_shifts_lines_reposts_nothing(pr: Pr) -> None:
    pr.run()
    first = {c["id"] for c in ours(pr)}
    shifted = "import os\nimport sys\n\n\n" + AFTER + "\n\n" + DENSE
    pr.push({"shop.py": shifted}, "rebase: imports on top")
    writes = len(pr.fake.state.writes)
    pr.run()
    new_writes = pr.fake.state.writes[writes:]
    assert not [w for w in new_writes if w[0] == "POST"], new_writes  # no repost, no new review
    assert {c["id"] for c in ours(pr)} == first


def test_finding_that_disappears_is_removed_unless_answered(pr: Pr) -> None:
    pr.run()
    dense = next(c for c in ours(pr) if "RB102" in c["body"])
    spike = next(c for c in ours(pr) if "RB101" in c["body"])
    pr.fake.add_reply(dense["id"], "Good point, will split it.")
    pr.push(
        {"shop.py": BEFORE + "\n\n" + DENSE.replace("def big", "def big_renamed")},
        "undo the spike, rename big",
    )
    pr.run()
    remaining = {c["id"] for c in ours(pr)}
    assert spike["id"] not in remaining  # its finding is gone: deleted
    assert dense["id"] in remaining  # gone too, but someone answered: kept


def test_comments_of_people_are_never_ours_even_with_our_markers(pr: Pr) -> None:
    """A person quoting the hidden summary marker, or a fingerprint marker, in a comment: the
    Action neither edits nor deletes it, and still posts and updates its own."""
    quoted = f"I think `{SUMMARY_MARKER}` is neat"
    pr.fake.add_issue_comment(quoted)
    pr.fake.add_review_comment("shop.py", 1, "see <!-- reviewbot:fp=deadbeef;v=1 --> here")
    code, log = pr.run()
    assert code == 0, log
    s = pr.fake.state
    bodies = [c["body"] for c in s.issue_comments]
    assert bodies[0] == quoted and len(bodies) == 2 and bodies[1].startswith(SUMMARY_MARKER)
    human = [c for c in s.review_comments if c["user"]["type"] == "User"]
    assert [c["body"] for c in human] == ["see <!-- reviewbot:fp=deadbeef;v=1 --> here"]
    first = s.issue_comments[1]["body"]
    pr.push({"shop.py": BEFORE}, "undo the spike")
    code, log = pr.run()
    assert code == 0, log
    assert s.issue_comments[0]["body"] == quoted and len(s.issue_comments) == 2
    assert s.issue_comments[1]["body"] != first  # its own summary was updated
    assert [c["body"] for c in s.review_comments if c["user"]["type"] == "User"] == [
        "see <!-- reviewbot:fp=deadbeef;v=1 --> here"
    ]


def test_a_person_s_token_finds_its_own_comments(pr: Pr) -> None:
    """With a person's token the Action's comments are that person's: GET /user says who,
    so a rerun updates them instead of posting again."""
    pr.fake.state.bot = "maintainer"
    pr.fake.state.user_login = "maintainer"
    pr.run()
    before = len(pr.fake.state.writes)
    code, _ = pr.run()
    assert code == 0 and pr.fake.state.writes[before:] == []
    assert len(pr.fake.state.issue_comments) == 1


def test_422_on_the_review_falls_back_to_single_comments(pr: Pr) -> None:
    pr.fake.state.faults.append(Fault("POST", r"/pulls/2/reviews$", 422))
    pr.fake.state.faults.append(Fault("POST", r"/pulls/2/comments$", 422))
    code, _ = pr.run()
    assert code == 0
    inline = ours(pr)
    assert len(inline) >= 1  # the ones GitHub accepted, posted one by one
    assert "could not be placed on the diff" in pr.fake.state.issue_comments[0]["body"]
    assert pr.fake.state.reviews == []


def test_read_only_token_does_not_fail(pr: Pr) -> None:
    pr.fake.state.can_write = False
    code, log = pr.run(FORK="1")
    assert code == 0
    assert pr.fake.state.issue_comments == [] and pr.fake.state.review_comments == []
    assert "workflow_run" in log and "read-only" in log
    summary = (pr.tmp / "summary.md").read_text()
    assert "### Findings" in summary and "Fork pull requests" in summary
    assert sum(line.startswith("::warning ") for line in log.splitlines()) >= 1


def test_retries_without_duplicates(pr: Pr) -> None:
    s = pr.fake.state
    s.faults.append(Fault("POST", r"/issues/2/comments$", 502, after=True))  # landed, then 502
    s.faults.append(Fault("POST", r"/pulls/2/reviews$", 429, headers={"Retry-After": "7"}))
    s.faults.append(
        Fault(
            "GET",
            r"/pulls/2/comments$",
            403,
            headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": "0"},
        )
    )
    waits: list[float] = []
    code, _ = pr.run(sleep=waits)
    assert code == 0
    assert len(s.issue_comments) == 1  # the summary landed once, not twice
    assert len(s.reviews) == 1
    assert 7.0 in waits and len(waits) >= 3


def test_a_secondary_rate_limit_is_waited_out_not_called_a_read_only_token(pr: Pr) -> None:
    """GitHub's secondary limit: 403 "rate limit" with neither header. It was reported as a
    fork's read-only token right after the inline comments were written, and the summary was
    lost; it is retried like a 429."""
    s = pr.fake.state
    s.faults.append(Fault("POST", r"/issues/2/comments$", 403, times=2))
    waits: list[float] = []
    code, log = pr.run(sleep=waits)
    assert code == 0 and len(s.issue_comments) == 1
    assert "read-only" not in log and len(waits) == 2


def test_gives_up_on_persistent_errors_without_failing(pr: Pr) -> None:
    pr.fake.state.faults.append(Fault("GET", r"/pulls/2/comments$", 500, times=20))
    code, log = pr.run()
    assert code == 0 and "could not post" in log
    assert (pr.tmp / "summary.md").read_text()


def test_the_check_run_fails_when_the_job_does(pr: Pr) -> None:
    """With `fail-on: warning` the job failed while its check run said "neutral"."""
    code, _ = pr.run(REVIEWBOT_CHECK_RUN="true", REVIEWBOT_FAIL_ON="warning")
    (run,) = pr.fake.state.check_runs
    assert code == 1 and run["conclusion"] == "failure"
    code, _ = pr.run(REVIEWBOT_CHECK_RUN="true")
    assert code == 0 and pr.fake.state.check_runs[-1]["conclusion"] == "neutral"


def test_fail_on_input(pr: Pr) -> None:
    code, _ = pr.run(REVIEWBOT_FAIL_ON="warning")
    assert code == 1


def test_api_fallback_and_many_files(pr: Pr, tmp_path: Path) -> None:
    s = pr.fake.state
    for i in range(305):
        s.files.append(
            PullFile(f"gen/m{i}.py", "added", f"@@ -0,0 +1,2 @@\n+def f{i}(x):\n+    return x")
        )
        s.contents[(pr.head, f"gen/m{i}.py")] = f"def f{i}(x):\n    return x\n".encode()
    s.contents[(pr.base, "shop.py")] = BEFORE.encode()
    s.contents[(pr.head, "shop.py")] = (AFTER + "\n\n" + DENSE).encode()
    shutil.rmtree(pr.workspace / ".git")  # no local git: the API has to serve the change
    code, log = pr.run()
    assert code == 0 and "reading it from the API" in log
    report = json.loads(
        Path(
            dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())[
                "report"
            ]
        ).read_text()
    )
    paths = {f["path"]: f for f in report["files"]}
    assert len(paths) == 308
    assert paths["logo.png"]["status"] in ("skipped", "binary")
    assert any(f["code"] == "RB101" for f in report["findings"])
    pages = [e for e in s.log if e[1].endswith("/pulls/2/files")]
    assert len(pages) == 4  # 308 files, 100 a page


def test_summary_respects_the_size_limit(pr: Pr) -> None:
    pr.run()
    report_path = dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())[
        "report"
    ]
    assert Path(report_path).exists()
    from reviewbot.app.config import Config
    from reviewbot.app.pipeline import GitChange, review

    git(pr.origin, "checkout", "-q", "topic")
    report: Report = review(GitChange(pr.origin, (f"{pr.base}...{pr.head}",)), Config())
    git(pr.origin, "checkout", "-q", "main")

    base = f"https://github.com/o/r/blob/{pr.head}"
    full = summary_body(report, blob_base=base)
    small = summary_body(report, blob_base=base, limit=len(full) // 2)
    assert len(full) <= MAX_BODY and len(small) <= len(full) // 2
    assert small.startswith(SUMMARY_MARKER)
    assert "shortened" in small or "Cut to fit" in small


def test_annotation_escaping() -> None:
    line = annotation("a,b:c.py", 3, 5, "T: x,y", "100% sure\nnext")
    assert (
        line == "::warning file=a%2Cb%3Ac.py,line=3,endLine=5,title=T%3A x%2Cy::100%25 sure%0Anext"
    )


def test_injected_code_cannot_fake_markers_or_mentions(pr: Pr) -> None:
    evil = AFTER.replace(
        "def apply(order, rate, member=False):",
        "def apply(order, rate, member=False):  # <!-- reviewbot:summary --> @admin",
    )
    pr.push({"shop.py": evil + "\n\n" + DENSE})
    pr.run()
    body = pr.fake.state.issue_comments[0]["body"]
    assert body.count(SUMMARY_MARKER) == 1
    prose = re.sub(r"(`{3,}).*?\1", "", body, flags=re.S)  # mentions in code do not notify
    prose = re.sub(r"(`+).*?\1", "", prose)
    assert "@admin" not in prose


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("pyproject.toml", 'tool = "x"\n', None),  # not a table: no settings, the defaults
        ("pyproject.toml", '[tool]\nreviewbot = "x"\n', "must be a table"),
        ("pyproject.toml", "[tool.reviewbot\n", "invalid TOML"),
        (".reviewbot.toml", 'tool = "x"\nprofile = "nope"\n', "profile: expected one of"),
        ("pyproject.toml", '[tool.reviewbot]\nprofile = "wavescope"\n', "wavescope"),
    ],
)
def test_configuration_of_the_base_commit(
    tmp_path: Path, name: str, text: str, expected: str | None
) -> None:
    """The Action reads the base commit's settings; bad ones are a clear error naming the file,
    never a traceback."""
    git(tmp_path, "init", "-q")
    (tmp_path / name).write_text(text)
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "base")
    repo = Git(tmp_path)
    base = repo.resolve("HEAD")
    if expected is None:
        assert _config_from_base(repo, base, None, tmp_path) == Config()
    elif expected == "wavescope":
        assert _config_from_base(repo, base, None, tmp_path).profile == "wavescope"
    else:
        with pytest.raises(ConfigError, match=expected) as err:
            _config_from_base(repo, base, None, tmp_path)
        assert f"{name} (base commit)" in str(err.value)


def test_a_run_for_an_older_push_does_not_put_its_review_back(pr: Pr) -> None:
    """Two pushes, their runs finishing out of order: the run whose event is not the pull
    request's head any more posts nothing (the newer run's review stays) and says why."""
    old_head = pr.head
    pr.push({"shop.py": BEFORE}, "undo the spike")
    pr.run()  # the newer push's run finishes first
    before = len(pr.fake.state.writes)
    summary = pr.fake.state.issue_comments[0]["body"]
    pr.head = old_head  # the older push's event, GitHub's head already moved on
    code, log = pr.run()
    assert code == 0, log
    assert pr.fake.state.writes[before:] == []
    assert pr.fake.state.issue_comments[0]["body"] == summary
    assert "Not posted: the pull request's head is now" in log
    assert "Not posted" in (pr.tmp / "summary.md").read_text()


def test_an_outdated_comment_of_a_finding_still_there_is_posted_again(pr: Pr) -> None:
    """A push edits the flagged lines: GitHub marks the comment outdated (no line) and
    collapses it. The finding is still there, so it is posted again on its lines, and the
    outdated copy is removed (unless someone answered it)."""
    pr.run()
    first = ours(pr)
    for c in first:
        pr.fake.outdate(c["id"])
    code, log = pr.run()
    assert code == 0, log
    now = ours(pr)
    assert {c["id"] for c in now}.isdisjoint({c["id"] for c in first})
    assert len(now) == len(first) and all(c.get("line") for c in now)


@pytest.mark.parametrize("attribute", ["*.py linguist-generated", "*.py -diff"])
def test_a_pull_request_cannot_exempt_its_files_through_gitattributes(
    pr: Pr, attribute: str
) -> None:
    """The PR adds a `.gitattributes` marking `*.py` generated (or not to be diffed: binary to
    git) and the runner checks the PR out, as `actions/checkout` does: attributes are read
    from the base commit, as the configuration is, so its spike is still reviewed."""
    pr.push({".gitattributes": attribute + "\n"}, "exempt python")
    git(pr.workspace, "fetch", "-q", "--depth=1", "origin", pr.head)
    git(pr.workspace, "checkout", "-q", pr.head)
    code, log = pr.run()
    assert code == 0, log
    assert "attributes are read from the base" in log
    outputs = dict(line.split("=", 1) for line in (pr.tmp / "output.txt").read_text().split())
    report = json.loads(Path(outputs["report"]).read_text())
    statuses = {f["path"]: f["status"] for f in report["files"]}
    assert statuses["shop.py"] == "modified"
    assert {f["code"] for f in report["findings"]} >= {"RB101", "RB102"}


def test_an_inline_comment_someone_deleted_is_not_posted_again(pr: Pr) -> None:
    """A maintainer deletes one of the bot's inline comments as noise: later runs do not post
    it again while its finding stays (the summary remembers what was posted), and a run
    with nothing new writes nothing."""
    pr.run()
    gone = ours(pr)[0]
    pr.fake.state.review_comments.remove(gone)  # deleted on GitHub by a person
    before = len(pr.fake.state.writes)
    code, log = pr.run()
    assert code == 0, log
    assert gone["id"] not in {c["id"] for c in ours(pr)}
    assert not [c for c in ours(pr) if c["body"] == gone["body"]]  # not posted again
    assert "1 deleted by someone and not posted again" in log
    assert pr.fake.state.writes[before:] == []  # the summary did not change either
    assert "reviewbot:posted=" in pr.fake.state.issue_comments[0]["body"]
