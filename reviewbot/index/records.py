"""The index's records: what one file contributes (definitions, imports, references), before
any other file is known. Plain tuples, so that worker processes send them back cheaply.

Lines are 1-based; indexes (``parent``, ``unit``, ``target``) point into the same file's tuples,
-1 meaning none. A reference says *how* it is to be resolved (``how``), which the global pass
(``reviewbot.index.resolve``) turns into edges to definitions anywhere in the repository:

* ``def``: a definition of this file (``target``), found by the language's scoping rules;
* ``import``: the name an import of this file binds (``target``: the import);
* ``module``: ``x.name`` where ``x`` is bound by an import (``target``) and ``qualifier`` is the
  receiver as written (``a.b`` for ``a.b.name``);
* ``class``: ``C.name`` where ``C`` is a class of this file (``target``);
* ``self``: ``self.name`` / ``this.name`` in a class (``target``: the class; Go: ``qualifier``
  names the receiver's type);
* ``super``: ``super().name`` in a class (``target``);
* ``instance``: ``x.name`` where the receiver's class is written (the local ``x = Foo()``,
  ``x: Foo``, ``Foo x``, ``with Foo() as x``; ``self.x`` set or annotated so in the class or a
  base of this file; ``Foo().name``): ``qualifier`` is that class as written, or a call
  ``make()`` / ``self.make()`` whose written return type is the class (``target``: the
  enclosing class for ``self.``);
* ``member``: ``obj.name`` with a receiver nobody can type statically;
* ``literal``: ``"...".name``: a method of the language's strings, never the repository's;
* ``free``: a name no scope of the file binds (a builtin, a global, the same package's,
  a member of the enclosing class in Java: ``target`` is that class, or -1);
* ``name``: a language without a grammar: linked by name only.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "COMMONJS",
    "HOW",
    "REFERENCE_KINDS",
    "Definition",
    "FileFacts",
    "Import",
    "Reference",
]

REFERENCE_KINDS = ("call", "attribute", "type", "import", "other")
HOW = (
    "def",
    "import",
    "module",
    "class",
    "self",
    "super",
    "instance",
    "member",
    "literal",
    "free",
    "name",
)


class Definition(NamedTuple):
    kind: str  # function method class interface type enum constant variable field constructor
    name: str
    qualified: str  # "Class.method"
    signature: str  # the header up to the body, whitespace collapsed
    line: int
    end_line: int
    parent: int  # index of the enclosing definition, -1 at the top
    container: str  # qualified name of the class or type it is a member of, "" when none
    doc: str  # docstring or leading comment, for search
    # classes: the bases as written ("Base", "models.Model"); a TS object literal's method: the
    # type names written over the literal (whose member it is)
    bases: tuple[str, ...]
    # a function's or method's return type inferred from its body when none is written: the
    # one qualifier its `return` statements agree on (``Foo``, ``self``, ``make()``,
    # ``self.m()``, a local's type), read by the global pass as a written one; "" when unknown
    returned: str = ""


# What a CommonJS module assigns to `module.exports`: the name an `Import` of it has
# (`const x = require('./m')`: local x, name COMMONJS), and the local of the module's own
# entry that says what it is (`module.exports = App`: local COMMONJS, module "", name App).
COMMONJS = "module.exports"


class Import(NamedTuple):
    local: str  # the name bound in the file; "" binds nothing (star, side effect)
    module: str  # as written: "a.b", ".x", "./b", "fmt", "java.util"
    # the imported name; "" = the module itself, "*" = everything, COMMONJS = what a CommonJS
    # module's `module.exports` holds (the module's exports, or one function or class)
    name: str
    line: int
    export: bool  # re-exported to importers of this file (`export {x} from './y'`)


class Reference(NamedTuple):
    name: str  # the identifier as written
    line: int
    column: int  # 0-based byte column
    kind: str  # one of REFERENCE_KINDS
    unit: int  # the enclosing definition, -1 at the top
    how: str  # one of HOW
    target: int  # a definition or import index of this file, per ``how``; -1 when none
    qualifier: str  # the receiver as written, for ``module`` and ``self`` (Go)
    lookup: str  # the name of the definition it means (an aliased import's original name)


class FileFacts(NamedTuple):
    language: str
    parser: str  # "tree-sitter" or "outline" (the engine's language-agnostic outliner)
    package: str  # the package the file declares (Go, Java), "" otherwise
    lines: int
    definitions: tuple[Definition, ...]
    imports: tuple[Import, ...]
    references: tuple[Reference, ...]
    note: str = ""  # why the outliner was used, when a grammar exists
