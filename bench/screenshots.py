"""What a pull request gets: the PR summary of real changes rendered the way GitHub renders it
(cmark-gfm, through cmarkgfm) and photographed in a real browser (Debian's chromium, headless).

    .venv/bin/python bench/screenshots.py [--out docs/images]

Writes `summary-small.png` (the demo change of `reviewbot review --demo`) and `summary-large.png`
(35 real commits of pallets/click, brought here with the search tool's `fetch`), each with the
HTML next to it in /tmp for a look. Needs `chromium` on PATH (`apt-get install chromium`).
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import cmarkgfm
from cmarkgfm.cmark import Options

from reviewbot.app.config import Config
from reviewbot.app.pipeline import GitChange, review
from reviewbot.doors.demo import build_demo_repo
from reviewbot.model import Report
from reviewbot.render.markdown import summary_body

from lib.common import ROOT, git

CLICK = Path("/work/.mirror/pallets+click/repo")
# A small part of GitHub's look: enough to judge layout, tables and folding.
CSS = """
body { font: 14px -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
       color: #1f2328; background: #fff; margin: 0; }
.comment { width: 860px; margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
.head { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px;
        color: #636c76; }
.body { padding: 16px; }
h2 { font-size: 1.5em; border-bottom: 1px solid #d8dee4; padding-bottom: .3em; margin-top: 0; }
h3 { font-size: 1.25em; margin-top: 24px; }
table { border-collapse: collapse; display: block; overflow: auto; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 6px 13px; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: rgba(175,184,193,.2); border-radius: 6px; padding: .2em .4em;
       font: 85% ui-monospace, SFMono-Regular, Menlo, monospace; }
a { color: #0969da; text-decoration: none; }
summary { cursor: pointer; }
sub { color: #636c76; }
"""


def page(markdown: str, title: str) -> str:
    body = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><style>{CSS}</style></head><body>"
        f"<div class='comment'><div class='head'><b>reviewbot</b> commented · "
        f"{html.escape(title)}</div><div class='body'>{body}</div></div></body></html>"
    )


def shoot(html_text: str, png: Path, height: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(html_text, encoding="utf-8")
        keep = Path("/tmp") / (png.stem + ".html")
        keep.write_text(html_text, encoding="utf-8")
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                f"--user-data-dir={tmp}/profile",
                f"--window-size=900,{height}",
                f"--screenshot={png}",
                source.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    quant = shutil.which("pngquant")  # small files to commit (apt-get install pngquant)
    if quant is not None:
        subprocess.run(
            [quant, "--force", "--quality", "60-90", "--output", str(png), str(png)], check=False
        )
    print(f"wrote {png}")


def demo_report(tmp: Path) -> tuple[Report, str]:
    repo = tmp / "demo"
    spec = build_demo_repo(repo, dict(os.environ))
    return review(GitChange(repo, (spec,)), Config()), git(repo, "rev-parse", "HEAD").strip()


def click_report(tmp: Path) -> tuple[Report, str]:
    work = tmp / "click"
    git(tmp, "clone", "-q", "--no-checkout", str(CLICK), str(work))
    head = git(work, "rev-parse", "2c8cd3ac").strip()
    git(work, "checkout", "-q", head)
    return review(GitChange(work, (f"{head}~35..{head}",)), Config()), head


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shots-") as tmp:
        for name, make, height, base in (
            ("summary-small", demo_report, 900, "https://github.com/acme/shop/blob/"),
            ("summary-large", click_report, 1400, "https://github.com/pallets/click/blob/"),
        ):
            report, head = make(Path(tmp))
            markdown = summary_body(report, blob_base=base + head)
            shoot(page(markdown, f"{report.base} .. {report.head}"), out / f"{name}.png", height)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
