"""CommonJS `require` resolved as ES imports are: what a module's `module.exports` holds (a
function, a class, an object of its functions) and its `exports.f`; nothing outside the
repository."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index.support import build, targets

MAIN = """const isThing = require('./lib/util')
const anon = require('./lib/anon.js')
const { double, thrice: three } = require('./lib/calc')
const calc = require('./lib/calc')
const half = require('./lib/more').half
const more = require('./lib/more')
const App = require('./lib')
const Emitter = require('events')
isThing(1)
anon(2)
double(3)
three(4)
calc.double(5)
half(6)
more.quarter(7)
new App().make()
Emitter(8)
"""


def test_require_binds_what_module_exports_holds(repo: Path) -> None:
    db = build(
        repo,
        {
            "lib/util.js": "module.exports = function isThing (x) {\n  return !!x\n}\n",
            "lib/anon.js": "module.exports = (s) => {\n  return s\n}\n",
            "lib/calc.js": (
                "const double = x => x * 2\n"
                "function triple (x) {\n  return x * 3\n}\n"
                "module.exports = { double, thrice: triple }\n"
            ),
            "lib/more.js": (
                "exports.half = (x) => x / 2\n"
                "module.exports.quarter = function (x) {\n  return x / 4\n}\n"
            ),
            "lib/app.js": "module.exports = class App {\n  make () {\n    return 1\n  }\n}\n",
            "lib/index.js": "module.exports = require('./app')\n",
            "main.js": MAIN,
        },
    )
    assert targets(db, "main.js", 9, "isThing") == {("isThing", 1)}
    assert targets(db, "main.js", 10, "anon") == {("exports", 1)}
    assert targets(db, "main.js", 3, "double") == {("double", 1)}
    assert targets(db, "main.js", 11, "double") == {("double", 1)}
    assert targets(db, "main.js", 12, "three") == {("triple", 2)}
    assert targets(db, "main.js", 13, "double") == {("double", 1)}
    assert targets(db, "main.js", 14, "half") == {("half", 1)}
    assert targets(db, "main.js", 15, "quarter") == {("quarter", 2)}
    assert targets(db, "main.js", 16, "App") == {("App", 1)}
    assert targets(db, "main.js", 16, "make") == {("App.make", 2)}
    # A package outside the repository links nothing.
    assert targets(db, "main.js", 17, "Emitter") == set()


def test_a_default_export_behind_a_condition_is_a_function(repo: Path) -> None:
    # axios lib/adapters/http.js: `export default isHttpAdapterSupported && function
    # httpAdapter(config) {` (695 lines) was no definition, its calls were the file's top's;
    # xhr.js's and fetch.js's anonymous ones are `default`, as `export default function () {`.
    db = build(
        repo,
        {
            "h.js": "export function helper(c) {\n  return c\n}\n",
            "http.js": (
                "import { helper } from './h.js'\nconst ok = true\n"
                "export default ok && function httpAdapter(config) {\n  return helper(config)\n}\n"
            ),
            "xhr.js": (
                "import { helper } from './h.js'\nconst ok = true\n"
                "export default ok && function (config) {\n  return helper(config)\n}\n"
            ),
            "fetch.js": (
                "import { helper } from './h.js'\nconst ok = true\n"
                "export default ok && (async (config) => {\n  return helper(config)\n})\n"
            ),
            "plain.js": "export default (config) => {\n  return config\n}\n",
            "guard.js": "const guarded = ok && function inner(c) {\n  return c\n}\n",
            "main.js": (
                "import httpAdapter from './http.js'\nimport xhrAdapter from './xhr.js'\n"
                "httpAdapter(1)\nxhrAdapter(2)\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        defs = set(
            conn.execute(
                "SELECT f.path, d.kind, d.name, d.line, d.end_line FROM defs d"
                " JOIN files f ON f.id = d.file_id WHERE d.kind = 'function'"
            )
        )
        units = set(  # the unit each call of helper is in
            conn.execute(
                "SELECT f.path, u.name FROM refs r JOIN files f ON f.id = r.file_id"
                " LEFT JOIN defs u ON u.id = r.unit_id WHERE r.name = 'helper' AND r.line > 1"
            )
        )
    finally:
        conn.close()
    assert defs == {
        ("h.js", "function", "helper", 1, 3),
        ("http.js", "function", "httpAdapter", 3, 5),
        ("xhr.js", "function", "default", 3, 5),
        ("fetch.js", "function", "default", 3, 5),
        ("plain.js", "function", "default", 1, 3),
        ("guard.js", "function", "guarded", 1, 3),
    }
    assert units == {("http.js", "httpAdapter"), ("xhr.js", "default"), ("fetch.js", "default")}
    assert targets(db, "main.js", 3, "httpAdapter") == {("httpAdapter", 3)}
    assert targets(db, "main.js", 4, "xhrAdapter") == {("default", 3)}


def test_a_default_export_chosen_by_a_ternary_is_each_function(repo: Path) -> None:
    # `export default ok ? function fetchAdapter(config) {...} : function xhrAdapter(config)
    # {...}` (as axios' `ok && function httpAdapter`): each branch's function is a definition
    # (anonymous ones: the statement, `default`), and a default import under any name means
    # them.
    db = build(
        repo,
        {
            "h.js": "export function helper(c) {\n  return c\n}\n",
            "adapter.js": (
                "import { helper } from './h.js'\nconst ok = true\n"
                "export default ok ? function fetchAdapter(config) {\n  return helper(config)\n"
                "} : function xhrAdapter(config) {\n  return helper(config)\n}\n"
            ),
            "anon.js": (
                "import { helper } from './h.js'\nconst ok = true\n"
                "export default ok\n  ? function (config) {\n    return helper(config)\n  }\n"
                "  : (config) => {\n    return helper(config)\n  }\n"
            ),
            "main.js": (
                "import adapter from './adapter.js'\nimport anon from './anon.js'\n"
                "adapter(1)\nanon(2)\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        defs = set(
            conn.execute(
                "SELECT f.path, d.name, d.line, d.end_line FROM defs d"
                " JOIN files f ON f.id = d.file_id WHERE d.kind = 'function'"
            )
        )
        units = set(  # the unit each call of helper is in
            conn.execute(
                "SELECT f.path, r.line, u.name FROM refs r JOIN files f ON f.id = r.file_id"
                " LEFT JOIN defs u ON u.id = r.unit_id WHERE r.name = 'helper' AND r.line > 1"
            )
        )
    finally:
        conn.close()
    assert defs == {
        ("h.js", "helper", 1, 3),
        ("adapter.js", "fetchAdapter", 3, 5),
        ("adapter.js", "xhrAdapter", 5, 7),
        ("anon.js", "default", 3, 9),
    }
    assert units == {
        ("adapter.js", 4, "fetchAdapter"),
        ("adapter.js", 6, "xhrAdapter"),
        ("anon.js", 5, "default"),
        ("anon.js", 8, "default"),
    }
    assert targets(db, "main.js", 3, "adapter") == {("fetchAdapter", 3), ("xhrAdapter", 5)}
    assert targets(db, "main.js", 4, "anon") == {("default", 3)}
