"""API requests of one `reviewbot github` run, for pull requests of 1, 50 and 300 files.

    .venv/bin/python bench/action_requests.py [--out bench/results/action_requests.md]

Each PR is a real git repository (every changed file gets a new branchy function, so every file
has findings) served to the real PyGithub client by the fake GitHub of the tests, which counts
requests. Recorded: the first run, a re-run with nothing changed, and a run through the API
fallback (no local git: the file list is paginated, 100 a page, and contents are fetched).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from reviewbot.doors.github.action import run_action
from reviewbot.doors.github.client import Api

from lib.common import RESULTS, ROOT, git, write_result

sys.path.insert(0, str(ROOT))  # the fake GitHub of the tests
from tests.doors.github.fake import DATA, FakeGitHub, PullFile, State

SIZES = (1, 50, 300)
BRANCHY = "".join(
    f"    if x > {i} and y:\n        for k in range({i}):\n            x += k\n" for i in range(4)
)


def build(root: Path, n: int) -> tuple[Path, str, str, list[PullFile]]:
    repo = root / f"pr{n}"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for i in range(n):
        (repo / f"m{i}.py").write_text(f"def f{i}(x, y):\n    return x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    base = git(repo, "rev-parse", "HEAD").strip()
    for i in range(n):
        (repo / f"m{i}.py").write_text(f"def f{i}(x, y):\n{BRANCHY}    return x\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "head")
    head = git(repo, "rev-parse", "HEAD").strip()
    files = []
    for i in range(n):
        diff = git(repo, "diff", f"{base}...{head}", "--", f"m{i}.py")
        files.append(PullFile(f"m{i}.py", "modified", diff[diff.index("@@") :].rstrip("\n")))
    return repo, base, head, files


def run(fake: FakeGitHub, workspace: Path, base: str, head: str, tmp: Path) -> int:
    event = json.loads((DATA / "event-pull_request-opened.json").read_text())
    event["pull_request"]["base"]["sha"], event["pull_request"]["head"]["sha"] = base, head
    (tmp / "event.json").write_text(json.dumps(event))
    env = {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(tmp / "event.json"),
        "GITHUB_REPOSITORY": "Codertocat/Hello-World",
        "GITHUB_API_URL": fake.base,
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "GITHUB_OUTPUT": str(tmp / "out.txt"),
        "RUNNER_TEMP": str(tmp),
        "REVIEWBOT_TOKEN": "t",
        "REVIEWBOT_MAX_COMMENTS": "10",
    }
    before = len(fake.state.log)

    def factory(ctx: object) -> Api:
        return Api("t", fake.base, "Codertocat/Hello-World", 2, throttle=False)

    run_action(env, io.StringIO(), api_factory=factory)
    return len(fake.state.log) - before


def describe(log: list[tuple[str, str, int]]) -> str:
    kinds = Counter(f"{m} {p.split('/Hello-World', 1)[-1]}" for m, p, _ in log)
    return ", ".join(f"{k} x{v}" for k, v in sorted(kinds.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS / "action_requests.md"))
    args = parser.parse_args(argv)
    rows = [
        "| changed files | first run | re-run, no change | API fallback (no local git) |",
        "|---:|---:|---:|---:|",
    ]
    detail = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for n in SIZES:
            repo, base, head, files = build(tmp, n)
            state = State(head_sha=head, base_sha=base, files=files)
            with FakeGitHub(state) as fake:
                first = run(fake, repo, base, head, tmp)
                detail.append(f"- {n} files, first run: {describe(fake.state.log)}")
                again = run(fake, repo, base, head, tmp)
            api_state = State(head_sha=head, base_sha=base, files=files)
            for i in range(n):
                path = f"m{i}.py"
                api_state.contents[(base, path)] = git(repo, "show", f"{base}:{path}").encode()
                api_state.contents[(head, path)] = git(repo, "show", f"{head}:{path}").encode()
            with FakeGitHub(api_state) as fake:
                fallback = run(fake, tmp / "not-a-repo", base, head, tmp)
            rows.append(f"| {n} | {first} | {again} | {fallback} |")
            print(rows[-1], flush=True)
    lines = [
        "# API requests of one Action run\n",
        "Command: `.venv/bin/python bench/action_requests.py`. With local git the number of "
        "requests does not depend on the size of the PR: the change comes from git, and the "
        "API is used for the existing comments (one page each here), the summary and one "
        "review holding at most `max-comments` (10) inline comments. Only the API fallback "
        "pays per file (the paginated file list, and the contents of both sides).\n",
        *rows,
        "",
        "Requests of the first runs:\n",
        *detail,
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
