"""What the repository index adds to the pre-commit hook: `reviewbot-hook FILE` on a staged
change, with and without an index, in one run, interleaved.

    .venv/bin/python bench/hook_index.py [--repeat 11] [--out bench/results/hook_index.md]

Two repositories of code nobody here wrote: click's newest commit (its git history under
/work/.mirror; 80 Python files) and Django + Pygments (the corpus of ``bench/index_speed.py``;
about 3,000 files). The staged change deletes one referenced function and re-signs another
(a required parameter added): click's ``_compat.term_len`` and ``formatting.wrap_text``,
Django's ``utils.text.get_valid_filename`` and ``utils.text.smart_split``; the hook then
reports RB105 and RB106 when an index exists. Without one it runs as before (no
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
from typing import NamedTuple

from index_speed import PACKAGES, fetch, unpack

from lib.common import ENV, RESULTS, command_line, git, revision, write_result
from lib.procs import Timing, timed_cpu, tool

CLICK = Path("/work/.mirror/pallets+click/repo")


class Corpus(NamedTuple):
    name: str
    deleted: tuple[str, str]  # file, function
    resigned: tuple[str, str, str]  # file, header as written, the same with a new parameter


CORPORA = (
    Corpus(
        "click",
        ("src/click/_compat.py", "term_len"),
        ("src/click/formatting.py", "def wrap_text(\n", "def wrap_text(\n    style,\n"),
    ),
    Corpus(
        "django+pygments",
        ("django/utils/text.py", "get_valid_filename"),
        ("django/utils/text.py", "def smart_split(text):", "def smart_split(text, sep):"),
    ),
)


def _fill(corpus: Corpus, repo: Path) -> None:
    if corpus.name == "click":
        archive = subprocess.run(
            ["git", f"--git-dir={CLICK}", "archive", "HEAD"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(repo)], input=archive, check=True)
        return
    for name, kind in PACKAGES:
        unpack(fetch(name, kind), repo)


def _change(corpus: Corpus, repo: Path) -> list[str]:
    path, name = corpus.deleted
    target = repo / path
    text = target.read_text()
    start = text.index(f"def {name}(")
    end = text.index("\ndef ", start + 1)
    target.write_text(text[:start] + text[end + 1 :])
    path2, old, new = corpus.resigned
    other = repo / path2
    other.write_text(other.read_text().replace(old, new, 1))
    return sorted({path, path2})


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def _measure(corpus: Corpus, repeat: int) -> tuple[list[tuple[str, list[Timing]]], str, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        _fill(corpus, repo)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", corpus.name)
        git(repo, "gc", "-q")  # packed, as a clone is (and no gc left running)
        database = Path(tmp) / "index.sqlite"
        env = {**os.environ, **ENV, "REVIEWBOT_INDEX": str(database), "NO_COLOR": "1"}
        subprocess.run([*tool("reviewbot"), "index"], cwd=repo, env=env, check=True)
        files = _change(corpus, repo)
        git(repo, "add", "-A")
        argv_hook = [*tool("reviewbot-hook"), *files]
        missing = {**env, "REVIEWBOT_INDEX": str(Path(tmp) / "none.sqlite")}
        output = subprocess.run(
            argv_hook, cwd=repo, env=env, capture_output=True, text=True, check=True
        ).stdout
        with_index: list[Timing] = []
        without: list[Timing] = []
        for k in range(repeat):
            runs = [(with_index, env), (without, missing)]
            for bucket, environ in runs if k % 2 == 0 else runs[::-1]:
                bucket.append(timed_cpu(argv_hook, repo, environ))
    return [("without an index", without), ("with an index", with_index)], output, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--out", default=str(RESULTS / "hook_index.md"))
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    table: list[str] = []
    shown: list[str] = []
    for corpus in CORPORA:
        timings, output, files = _measure(corpus, args.repeat)
        table.extend(
            f"| {corpus.name} | {how} | {_ms([t.wall for t in runs])} | "
            f"{_ms([t.cpu for t in runs])} |"
            for how, runs in timings
        )
        printed = output.rstrip("\n").split("\n")
        title = f"{corpus.name} (`reviewbot-hook {' '.join(files)}`):"
        shown.extend([title, "", "```text", *printed, "```", ""])
    lines = [
        "# What the index adds to the pre-commit hook",
        "",
        f"reviewbot {revision()}; `{command_line('hook_index.py', argv)}`; load average "
        f"{load:.1f} on 2 cores at the start (wall times inflated by it; CPU times less).",
        "",
        f"Each staged change deletes a referenced function and re-signs another; {args.repeat} "
        "runs each, interleaved with and without the index (`REVIEWBOT_INDEX` pointing at a "
        "built index, or at none).",
        "",
        "| repository | hook | wall (median) | CPU (median) |",
        "| --- | --- | ---: | ---: |",
        *table,
        "",
        "What the hook printed with the index:",
        "",
        *shown,
    ]
    print("\n".join(lines))
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
