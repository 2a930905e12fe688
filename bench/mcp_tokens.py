"""The token cost of structural questions answered by `reviewbot mcp`, next to reading the file.

    .venv/bin/python bench/mcp_tokens.py [--out bench/results/mcp_tokens.md]

Three tasks on large real files (Python's standard library; Go and Java sources where
installed): the outline of the file (get_important_positions, 30 positions), its most tangled
parts (get_complexity_heatmap, top 10 lines), and the context of one line in the middle
(query_wavelet_context, radius 100). The answer is what an agent receives over MCP (the
server's JSON text); tokens are estimated as characters / 4, the same for both columns.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from lib.common import RESULTS, write_result
from lib.corpora import GO_SRC, STDLIB, jdk_sources

GO_FILE = GO_SRC / "net/http/server.go"
JAVA_FILE = "java.base/java/util/HashMap.java"


def files(target: Path) -> list[Path]:
    chosen = [STDLIB / "argparse.py", STDLIB / "typing.py"]
    if GO_FILE.exists():
        chosen.append(GO_FILE)
    out = []
    for src in chosen:
        dst = target / src.name
        shutil.copy(src, dst)
        out.append(dst)
    for name, data in jdk_sources(JAVA_FILE):
        (target / Path(name).name).write_bytes(data)
        out.append(target / Path(name).name)
    return out


async def ask(root: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "reviewbot", "mcp", "--root", str(root)]
    )
    answers = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            answers.append(" ".join(getattr(b, "text", "") for b in result.content))
    return answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", default=str(RESULTS / "mcp_tokens.md"))
    args = parser.parse_args(argv)
    rows = [
        "| file | lines | task | answer (tokens) | whole file (tokens) | share |",
        "|---|---:|---|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        targets = files(root)
        calls: list[tuple[str, dict[str, Any]]] = []
        for f in targets:
            middle = f.read_text(errors="replace").count("\n") // 2
            calls += [
                ("get_important_positions", {"path": f.name, "limit": 30}),
                ("get_complexity_heatmap", {"path": f.name, "top": 10}),
                ("query_wavelet_context", {"path": f.name, "line": middle, "radius": 100}),
            ]
        answers = anyio.run(ask, root, calls)
        tasks = ("outline", "most tangled parts", "context of one line")
        for i, f in enumerate(targets):
            text = f.read_text(errors="replace")
            whole = len(text) / 4
            for k, task in enumerate(tasks):
                answer = len(answers[3 * i + k]) / 4
                rows.append(
                    f"| {f.name} | {text.count(chr(10))} | {task} | {answer:,.0f} | "
                    f"{whole:,.0f} | {answer / whole:.1%} |"
                )
                print(rows[-1], flush=True)
    lines = [
        "# Token cost of structural questions over MCP\n",
        "Command: `.venv/bin/python bench/mcp_tokens.py`. Tokens estimated as characters / 4 "
        "for both columns; the answers are the JSON texts the server returns.\n",
        *rows,
        "",
    ]
    write_result(args.out, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
