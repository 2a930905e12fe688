"""CommonJS `require` resolved as ES imports are: what a module's `module.exports` holds (a
function, a class, an object of its functions) and its `exports.f`; nothing outside the
repository."""

from __future__ import annotations

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
