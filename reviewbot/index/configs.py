"""The files that say where a module specifier leads: Go's ``go.mod`` (the module path of its
folder) and TypeScript's ``tsconfig.json`` / ``jsconfig.json`` (``baseUrl`` and ``paths``: the
aliases a monorepo or a test folder imports its own code by, ``import { create } from
'zustand'`` or ``'@/lib/util'``).

The build reads each such file once and keeps what matters of it as a short text in the
file's ``package`` column (``summary``); the resolver turns those texts into a lookup
(``TsConfigs``) that gives, for an importing file and a bare specifier, the repository paths
the compiler would try. How TypeScript does it (its handbook, "Module Resolution"): the
nearest ``tsconfig.json`` above the importing file applies; ``extends`` inherits the options
of another configuration file; a ``paths`` pattern holds at most one ``*``, and of the
patterns that match, the one with the longest prefix before its ``*`` wins; its substitutions
are relative to ``baseUrl`` when one is set, else to the file that wrote ``paths``; with a
``baseUrl`` and no pattern matching, a bare specifier is a path under ``baseUrl``.
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import NamedTuple

_GO_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"]+)", re.MULTILINE)
_TS_CONFIG = re.compile(r"^[tj]sconfig(\.[\w.-]+)?\.json$")
_PROJECT = ("tsconfig.json", "jsconfig.json")  # those that apply to the files below them


def is_module_config(path: str) -> bool:
    """Whether the file at ``path`` is one this module reads."""
    base = path.rsplit("/", 1)[-1]
    return base == "go.mod" or bool(_TS_CONFIG.match(base))


def summary(path: str, text: str) -> str:
    """What the index keeps of a configuration file: a ``go.mod``'s module path; a TypeScript
    configuration's ``extends``, ``baseUrl`` and ``paths`` as compact JSON ("" when it has
    none of them or cannot be read)."""
    if path.rsplit("/", 1)[-1] == "go.mod":
        found = _GO_MODULE.search(text)
        return found.group(1) if found else ""
    try:
        data = json.loads(_plain_json(text))
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    kept: dict[str, object] = {}
    extends = data.get("extends")
    if isinstance(extends, str):
        extends = [extends]
    if isinstance(extends, list):
        local = [e for e in extends if isinstance(e, str) and e.startswith(".")]
        if local:
            kept["extends"] = local
    options = data.get("compilerOptions")
    if isinstance(options, dict):
        if isinstance(options.get("baseUrl"), str):
            kept["baseUrl"] = options["baseUrl"]
        paths = options.get("paths")
        if isinstance(paths, dict):
            good = {
                k: [s for s in v if isinstance(s, str)]
                for k, v in paths.items()
                if isinstance(k, str) and k.count("*") <= 1 and isinstance(v, list)
            }
            if good:
                kept["paths"] = good
    return json.dumps(kept, separators=(",", ":"), sort_keys=True) if kept else ""


def _plain_json(text: str) -> str:
    """JSON with comments (``//``, ``/* */``) and trailing commas, as TypeScript reads its
    configuration, made plain JSON; strings are kept as they are."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "}]":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            if k >= 0 and out[k] == ",":
                del out[k]
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class _Options(NamedTuple):
    base_url: str | None  # a repository folder ("" for the root)
    paths: tuple[tuple[str, tuple[str, ...]], ...]  # pattern, substitutions
    written_in: str  # the folder of the file that wrote ``paths``

    @property
    def paths_base(self) -> str:
        """The folder the substitutions are relative to: ``baseUrl`` when there is one."""
        return self.written_in if self.base_url is None else self.base_url


class TsConfigs:
    """The TypeScript configurations of a repository (``(path, summary)`` pairs)."""

    def __init__(self, rows: list[tuple[str, str]]) -> None:
        self._raw: dict[str, dict[str, object]] = {}
        for path, text in rows:
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if isinstance(data, dict):
                self._raw[path] = data
        self._options: dict[str, _Options | None] = {}
        self._nearest: dict[str, str | None] = {}
        self.projects: dict[str, str] = {}
        for p in sorted(self._raw, reverse=True):  # tsconfig.json before jsconfig.json
            if p.rsplit("/", 1)[-1] in _PROJECT:
                self.projects.setdefault(posixpath.dirname(p), p)

    def __bool__(self) -> bool:
        return bool(self.projects)

    def candidates(self, importer: str, spec: str) -> list[str]:
        """The repository paths (maybe without an extension, maybe folders) that a bare
        ``spec`` imported by the file at ``importer`` leads to, in the compiler's order."""
        config = self._project(posixpath.dirname(importer))
        options = self._effective(config, 0) if config else None
        if options is None:
            return []
        found: list[str | None] = []
        best: tuple[int, str, tuple[str, ...]] | None = None
        for pattern, targets in options.paths:
            if "*" in pattern:
                head, _, tail = pattern.partition("*")
                if (
                    len(spec) >= len(head) + len(tail)
                    and spec.startswith(head)
                    and spec.endswith(tail)
                    and (best is None or len(head) > best[0])
                ):
                    best = (len(head), spec[len(head) : len(spec) - len(tail)], targets)
            elif pattern == spec:
                best = (len(pattern) + 1, "", targets)
                break
        if best is not None:
            for target in best[2]:
                found.append(_join(options.paths_base, target.replace("*", best[1])))
        if options.base_url is not None:
            found.append(_join(options.base_url, spec))
        return [p for p in found if p is not None]

    def _project(self, folder: str) -> str | None:
        if folder in self._nearest:
            return self._nearest[folder]
        config = self.projects.get(folder)
        if config is None and folder:
            config = self._project(posixpath.dirname(folder))
        self._nearest[folder] = config
        return config

    def _effective(self, path: str, depth: int) -> _Options | None:
        if path in self._options:
            return self._options[path]
        self._options[path] = None  # (a cycle of `extends` ends here)
        data = self._raw.get(path)
        if data is None or depth > 8:
            return None
        folder = posixpath.dirname(path)
        inherited: _Options | None = None
        extends = data.get("extends")
        for parent in extends if isinstance(extends, list) else ():
            target = _join(folder, str(parent))
            if target is None:
                continue
            if not target.endswith(".json"):
                target += ".json"
            inherited = self._effective(target, depth + 1) or inherited
        base_url = inherited.base_url if inherited else None
        if isinstance(data.get("baseUrl"), str):
            base_url = _join(folder, str(data["baseUrl"]))
        paths = inherited.paths if inherited else ()
        written_in = inherited.written_in if inherited else folder
        written = data.get("paths")
        if isinstance(written, dict):
            paths = tuple((str(k), tuple(str(s) for s in v)) for k, v in written.items())
            written_in = folder
        options = None if not paths and base_url is None else _Options(base_url, paths, written_in)
        self._options[path] = options
        return options


def _join(folder: str, relative: str) -> str | None:
    """``relative`` from the repository folder ``folder``, or None when it leaves the
    repository."""
    joined = posixpath.normpath(posixpath.join(folder, relative))
    if joined == ".":
        return ""
    if joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return joined
