"""`reviewbot install-hooks` / `uninstall-hooks`: plain git hooks for people without the
pre-commit framework. Never overwrites a hook that is not reviewbot's: it refuses, or with
``--chain`` keeps it and runs it first."""

from __future__ import annotations

import os
import stat
from importlib import resources
from pathlib import Path

from reviewbot.errors import InputError
from reviewbot.repo.git import Git

__all__ = ["HOOK_TYPES", "MARKER", "install_hooks", "uninstall_hooks"]

HOOK_TYPES = ("pre-commit", "pre-push")
MARKER = "reviewbot-managed-hook"
CHAINED = ".reviewbot-chained"


def _hooks_dir(git: Git) -> Path:
    out = git.run("rev-parse", "--git-path", "hooks", what="find the hooks folder")
    path = Path(out.decode("utf-8", "surrogateescape").strip())
    return path if path.is_absolute() else git.root / path


def _ours(path: Path) -> bool:
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _quoted(path: str) -> str:
    """A path as one shell word (single quotes; a quote inside closed and escaped)."""
    return "'" + path.replace("'", "'\\''") + "'"


def install_hooks(
    cwd: Path, kinds: tuple[str, ...], chain: bool, hook_program: str = ""
) -> list[str]:
    """Install the plain git hooks. ``hook_program`` is the absolute path of the
    `reviewbot-hook` to run (the one next to the running interpreter), so the hooks work in any
    repository whatever its PATH; when it is gone they fall back to PATH."""
    git = Git(cwd)
    folder = _hooks_dir(git)
    inside = folder.resolve().is_relative_to(git.root.resolve())
    if inside and not folder.resolve().is_relative_to(git.git_dir().resolve()):
        # `core.hooksPath` naming a folder of the work tree: a team's hooks, tracked; ours
        # holds this machine's path to reviewbot-hook and would be committed to everyone.
        raise InputError(
            f"the hooks folder {folder} is part of the work tree (core.hooksPath): nothing "
            "was changed. Call `reviewbot-hook` from a hook there, or use pre-commit"
        )
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for kind in kinds:
        target = folder / kind
        if target.exists() and not _ours(target):
            if not chain:
                raise InputError(
                    f"{target} exists and is not reviewbot's: nothing was changed. Use --chain "
                    "to keep it and run it before reviewbot, or remove it first"
                )
            kept = folder / (kind + CHAINED)
            if kept.exists():
                raise InputError(f"{kept} exists already: nothing was changed")
            target.rename(kept)
            done.append(f"{kind}: kept your hook as {kept.name}; it runs first")
        script = resources.files("reviewbot.githooks").joinpath(kind).read_text("utf-8")
        script = script.replace("@REVIEWBOT_HOOK@", _quoted(hook_program))
        target.write_text(script, encoding="utf-8")
        target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        done.append(f"{kind}: installed {target}")
    return done


def uninstall_hooks(cwd: Path, kinds: tuple[str, ...]) -> list[str]:
    git = Git(cwd)
    folder = _hooks_dir(git)
    done = []
    for kind in kinds:
        target = folder / kind
        kept = folder / (kind + CHAINED)
        if target.exists() and not _ours(target):
            done.append(f"{kind}: {target} is not reviewbot's; left alone")
            continue
        if target.exists():
            target.unlink()
            done.append(f"{kind}: removed {target}")
        if kept.exists():
            os.replace(kept, target)
            done.append(f"{kind}: restored your hook {target}")
        if not done or not done[-1].startswith(kind):
            done.append(f"{kind}: no reviewbot hook installed")
    return done
