"""What the repository index adds to the pre-commit hook: `reviewbot-hook FILE` on a staged
change, with and without an index, in one run, interleaved.

    .venv/bin/python bench/hook_index.py [--repeat 11] [--out bench/results/hook_index.md]

The repository is click's newest commit (its git history under /work/.mirror, code nobody here
wrote). The staged change deletes one referenced function (``_compat.term_len``, used across
the package) and re-signs another (``formatting.wrap_text`` gains a required parameter): the
hook then reports RB105 and RB106 when an index exists. Without one it runs as before (no
sqlite3 or parser imported). With one it resolves the change's two sides in a rolled-back
transaction of the index. Medians of wall and CPU time (user + system, git included).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from lib.common import ENV, RESULTS, command_line, git, revision, write_result
from lib.procs import Timing, timed_cpu, tool

CLICK = Path("/work/.mirror/pallets+click/repo")


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--out", default=str(RESULTS / "hook_index.md"))
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        archive = subprocess.run(
            ["git", f"--git-dir={CLICK}", "archive", "HEAD"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(repo)], input=archive, check=True)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "click")
        database = Path(tmp) / "index.sqlite"
        env = {**os.environ, **ENV, "REVIEWBOT_INDEX": str(database), "NO_COLOR": "1"}
        subprocess.run([*tool("reviewbot"), "index"], cwd=repo, env=env, check=True)
        compat = repo / "src/click/_compat.py"
        text = compat.read_text()
        start = text.index("def term_len(")
        end = text.index("\ndef ", start + 1)
        compat.write_text(text[:start] + text[end + 1 :])
        formatting = repo / "src/click/formatting.py"
        ftext = formatting.read_text()
        formatting.write_text(ftext.replace("def wrap_text(\n", "def wrap_text(\n    style,\n", 1))
        git(repo, "add", "-A")
        files = ["src/click/_compat.py", "src/click/formatting.py"]
        argv_hook = [*tool("reviewbot-hook"), *files]
        with_index: list[Timing] = []
        without: list[Timing] = []
        missing = {**env, "REVIEWBOT_INDEX": str(Path(tmp) / "none.sqlite")}
        output = subprocess.run(
            argv_hook, cwd=repo, env=env, capture_output=True, text=True, check=True
        ).stdout
        for k in range(args.repeat):
            runs = [(with_index, env), (without, missing)]
            for bucket, environ in runs if k % 2 == 0 else runs[::-1]:
                bucket.append(timed_cpu(argv_hook, repo, environ))
    lines = [
        "# What the index adds to the pre-commit hook",
        "",
        f"reviewbot {revision()}; `{command_line('hook_index.py', argv)}`; load average "
        f"{load:.1f} on 2 cores at the start (wall times inflated by it; CPU times less).",
        "",
        "Staged: click's `_compat.term_len` deleted, `formatting.wrap_text` re-signed "
        f"(2 files), {args.repeat} runs each, interleaved.",
        "",
        "| hook | wall (median) | CPU (median) |",
        "| --- | ---: | ---: |",
        f"| without an index | {_ms([t.wall for t in without])} | "
        f"{_ms([t.cpu for t in without])} |",
        f"| with an index | {_ms([t.wall for t in with_index])} | "
        f"{_ms([t.cpu for t in with_index])} |",
        "",
        "What the hook printed with the index:",
        "",
        "```text",
        *output.rstrip("\n").split("\n"),
        "```",
        "",
    ]
    print("\n".join(lines))
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
