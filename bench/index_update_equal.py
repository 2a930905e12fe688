"""Does an incremental ``reviewbot index`` still equal a cold build after random edits of real
code? Each round edits 5 random files of Django's ``django/db``, ``django/utils`` and
``django/contrib/admin`` (from the sdist index_speed.py uses, about 100,000 lines) and commits
them; the index is updated from the previous round's and compared, table by table with ids
replaced by what they stand for, with a cold build of the same commit. The edits: a function
appended under a common name (``connection``, ``get``, ``Model`` ...), a function or method
renamed, a class's bases changed, an import added (the standard library, a module already
imported, a star import, a sibling module), lines inserted at the top, a method added under a
common name, a module-level name inserted before a definition, a return type changed, a return
annotation written on a method (a class, or a collection of one: what a ``for`` over the result
binds), a ``@property`` added with a return annotation (what ``x.prop.m`` goes through), a
``return``'s callee changed (what a function with no written return type returns). Results
go to ``bench/results/index_update_equal.md``.

    python bench/index_update_equal.py --seeds 1 2 3 --rounds 8
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from index_speed import fetch, unpack

from lib.common import ROOT, command_line, git, revision, write_result

sys.path.insert(0, str(ROOT))  # the tests' reading of an index
from tests.index.support import dump, update

PARTS = ("django/db", "django/utils", "django/contrib/admin")
NAMES = (
    "connection",
    "get",
    "save",
    "Model",
    "Field",
    "timezone",
    "force_str",
    "models",
    "query",
    "filter",
    "__init__",
    "settings",
    "value",
    "Options",
)
IMPORTS = (
    "import os\n",
    "from django.db import models\n",
    "from django.utils import timezone\n",
    "from django.db.models import *\n",
    "from . import utils\n",
)
KINDS = (
    "function appended",
    "definition renamed",
    "bases changed",
    "import added",
    "lines inserted at the top",
    "method added",
    "name inserted before a definition",
    "return type changed",
    "return annotation written",
    "property added",
    "returned value changed",
)
# What kind 10 puts in place of a `return f(`'s callee.
CALLEES = ("Model", "QuerySet", "self._chain", "Options", "self.__class__", "timezone.now")
# What kind 8 writes on a method's header: a class, or what a `for` over its result binds.
ANNOTATIONS = ("list[Model]", '"QuerySet"', "Iterator[Options]", "Options", "tuple[Model, ...]")


def edit(text: str, kind: int, rnd: random.Random) -> str:
    """``text`` edited the ``kind``-th way of ``KINDS`` (unchanged when it has no place)."""
    if kind == 0:
        return text + f"\n\ndef {rnd.choice(NAMES)}(*a):\n    return a\n"
    if kind == 3:
        return rnd.choice(IMPORTS) + text
    if kind == 4:
        return "\n\n# edited\n" + text
    if kind == 5:
        added = f"    def {rnd.choice(NAMES)}(self):\n        return self\n\n    def "
        return text.replace("    def ", added, 1)
    if kind == 9:
        written = rnd.choice(ANNOTATIONS)
        added = f"    @property\n    def {rnd.choice(NAMES)}(self) -> {written}:\n"
        return text.replace("    def ", added + "        return self\n\n    def ", 1)
    pattern, group = {
        1: (r"^\s*def (\w+)\(", 1),
        2: (r"^class \w+\(([^)]*)\):", 1),
        6: (r"^(?:def|class) \w+", 0),
        7: (r"-> (\w+)", 1),
        8: (r"^\s+def \w+\(self[^()]*\)()\s*:", 1),
        10: (r"^\s+return ([A-Za-z_][\w.]*)\(", 1),
    }[kind]
    found = list(re.finditer(pattern, text, re.M))
    if not found:
        return text
    m = rnd.choice(found)
    start, end = m.start(group), m.end(group)
    if kind == 1:
        new = m.group(1) + "_renamed"
    elif kind == 2:
        new = rnd.choice(["object", "Exception", "dict", m.group(1) + ", object"])
    elif kind == 6:
        new, end = "_inserted = 1\n" + m.group(0), m.end(0)
    elif kind == 8:
        new = " -> " + rnd.choice(ANNOTATIONS)
    elif kind == 10:
        new = rnd.choice(CALLEES)
    else:
        new = rnd.choice(["str", "Model", "QuerySet", "None"])
    return text[:start] + new + text[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--out", default="bench/results/index_update_equal.md")
    args = parser.parse_args(argv)
    out_file = Path(args.out).resolve()
    archive = fetch("django", "sdist")
    kinds: Counter[str] = Counter()
    rows: list[str] = []
    failed = 0
    for seed in args.seeds:
        rnd = random.Random(seed)
        with tempfile.TemporaryDirectory(prefix="reviewbot-update-equal-") as tmp:
            full = Path(tmp) / "full"
            full.mkdir()
            unpack(archive, full)
            repo = Path(tmp) / "repo"
            for part in (*PARTS, "django/__init__.py"):
                (repo / part).parent.mkdir(parents=True, exist_ok=True)
                (full / part).rename(repo / part)
            git(repo, "init", "-q")
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", "corpus")
            warm = Path(tmp) / "warm.sqlite"
            update(repo, warm)
            files = sorted(repo.rglob("*.py"))
            for round_ in range(args.rounds):
                done = []
                for path in rnd.sample(files, 5):
                    kind = rnd.randrange(len(KINDS))
                    path.write_text(edit(path.read_text(), kind, rnd))
                    done.append(KINDS[kind])
                kinds.update(done)
                git(repo, "commit", "-qam", f"round {round_}")
                update(repo, warm)
                cold = Path(tmp) / "cold.sqlite"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{cold}{suffix}").unlink(missing_ok=True)
                update(repo, cold)
                a, b = dump(warm), dump(cold)
                differ = [table for table in a if a[table] != b[table]]
                failed += bool(differ)
                verdict = "equal" if not differ else "DIFFER: " + ", ".join(differ)
                rows.append(f"| {seed} | {round_ + 1} | {'; '.join(done)} | {verdict} |")
                print(rows[-1], flush=True)
    lines = [
        "# Index: incremental update against a cold build after random edits",
        "",
        f"reviewbot {revision()}; `{command_line('index_update_equal.py', argv)}`. Corpus: "
        f"{', '.join(PARTS)} of {archive.name}. Each round edits 5 random files and commits; "
        "the index updated from the previous round's is compared, table by table (files, defs, "
        "imports, refs, edges with confidence and via, file_links with weights, search; ids "
        "replaced by what they stand for), with a cold build of the same commit. "
        f"Load average {os.getloadavg()[0]:.1f} at the end (this measures equality, not time).",
        "",
        f"Rounds: {len(rows)}; rounds whose update differed from the cold build: {failed}. "
        "Edits made: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) + ".",
        "",
        "| seed | round | edits | update against cold build |",
        "| --- | --- | --- | --- |",
        *rows,
    ]
    write_result(out_file, lines)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
