"""CommonJS modules (koa's): a class or functions assigned to `module.exports` are declarations
like any other, and what `require` binds is resolved as an ES import is."""

from __future__ import annotations

from pathlib import Path

from reviewbot.engine import open_index
from reviewbot.index.extract import extract
from reviewbot.index.grammars import compiled
from tests.analysis.test_repo_impact import codes, review, setup

APP = """const Emitter = require('events')

module.exports = class Application extends Emitter {
  constructor () {
    super()
    this.x = 1
  }

  createContext (req) {
    return { req }
  }

  handle (req) {
    const c = this.createContext(req)
    return c
  }
}
"""


def test_a_class_assigned_to_module_exports_holds_its_methods() -> None:
    # koa's lib/application.js: `module.exports = class Application extends Emitter {`.
    units = [(u.kind, u.name, u.parent) for u in open_index("a.js", APP).structure.units]
    assert units == [
        ("class", "Application", -1),
        ("method", "constructor", 0),
        ("method", "createContext", 0),
        ("method", "handle", 0),
    ]
    facts = extract(compiled("javascript"), APP)
    assert facts is not None
    assert [(d.kind, d.qualified) for d in facts.definitions] == [
        ("class", "Application"),
        ("method", "Application.constructor"),
        ("field", "Application.x"),
        ("method", "Application.createContext"),
        ("method", "Application.handle"),
    ]


def test_functions_and_classes_exported_by_assignment_are_declarations() -> None:
    text = (
        "exports.Foo = class Foo {\n  m () {\n    return 1\n  }\n}\n"
        "module.exports.f = function (a) {\n  return a\n}\n"
        "exports.g = (x) => x\n"
        "module.exports = function make (opts) {\n  return opts\n}\n"
        "module.exports = {\n  a () {\n    return 1\n  },\n  b: function () {\n"
        "    return 2\n  },\n}\n"
        "res.send = function send (body) {\n  return body\n}\n"
    )
    facts = extract(compiled("javascript"), text)
    assert facts is not None
    assert [(d.kind, d.qualified, d.line) for d in facts.definitions] == [
        ("class", "Foo", 1),
        ("method", "Foo.m", 2),
        ("function", "f", 6),
        ("function", "g", 9),
        ("function", "make", 10),
        ("method", "a", 14),
        ("method", "b", 17),
    ]
    units = [(u.kind, u.name, u.start + 1) for u in open_index("a.js", text).structure.units]
    assert units == [
        ("class", "Foo", 1),
        ("method", "m", 2),
        ("function", "f", 6),
        ("function", "g", 9),
        ("function", "make", 10),
        ("method", "a", 14),
        ("method", "b", 17),
        ("function", "send", 21),
    ]


def test_a_method_of_a_class_assigned_to_module_exports_is_reviewed(repo: Path) -> None:
    setup(
        repo,
        {"lib/app.js": APP},
        {"lib/app.js": APP.replace("  createContext (req) {\n    return { req }\n  }\n\n", "")},
    )
    doc = review(repo)
    (deleted,) = codes(doc, "RB105")
    assert "Application.createContext" in deleted["message"]
    assert "lib/app.js:10 (method Application.handle)" in deleted["message"]


def test_a_deleted_module_still_required_is_reported(repo: Path) -> None:
    # koa: `git rm lib/is-stream.js`, required by lib/response.js and called there.
    setup(
        repo,
        {
            "lib/is-stream.js": "module.exports = (stream) => {\n  return !!stream.pipe\n}\n",
            "lib/response.js": (
                "const isStream = require('./is-stream.js')\n\n"
                "exports.body = function (val) {\n  return isStream(val)\n}\n"
            ),
        },
        {"lib/is-stream.js": None},
    )
    doc = review(repo)
    (deleted,) = codes(doc, "RB105")
    assert "function exports (was lib/is-stream.js:1-3)" in deleted["message"]
    assert "lib/response.js:4" in deleted["message"]


def test_a_function_assigned_to_exports_is_re_signed(repo: Path) -> None:
    # `exports.f = function (a) {` (and `const f = function (a) {`): its parameters are read
    # after the `function` keyword, so its callers are checked (RB106).
    lib = "exports.scale = function (n) {\n  return n * 2\n}\n"
    setup(
        repo,
        {"lib.js": lib, "app.js": "const lib = require('./lib')\n\nlib.scale(3)\n"},
        {"lib.js": lib.replace("(n)", "(n, factor)")},
    )
    doc = review(repo)
    (stale,) = codes(doc, "RB106")
    assert "app.js:3" in stale["message"]
