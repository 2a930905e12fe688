"""The tree-sitter grammars the index knows, and what it asks each of them.

One grammar per language, from the per-language wheels that ship compiled grammars
(tree-sitter-python, -javascript, -typescript, -go, -java); nothing is downloaded at run time.
Each grammar has two sets of patterns, run together as one query in one pass per file with
tree-sitter's query cursor (its captures; no walking of nodes in Python):

* ``definitions``: ``@def.<kind>`` on the declaration, ``@name``, optionally
  ``@body`` (the signature is the text before it), ``@bases``, ``@receiver`` (Go), and
  ``@doc`` with ``@doc.owner`` for docstrings;
* ``names``: every identifier as ``@ref``, refined by ``@call``, ``@call.member``,
  (``@call.member.of``: the call's callee whose last child is the member name, captured
  whole: a pattern that waits for a child after a deep receiver stays pending down the whole
  chain, quadratic on `a.m().m()...`), ``@member`` (not in Python, whose member names are
  plain identifiers: ``Grammar.member_access``), ``@type``; binding sites as ``@bind``;
  names that are neither (keyword arguments, labels, object keys) as ``@skip``; TS object
  literals' methods whose type is written (a returned literal under the function's return
  type, ``const x: Foo = {...}``) as ``@ctx.member`` with that type as ``@ctx.type``;
  ``@self`` for ``this``; scopes as ``@scope`` and, where a class body's names are not seen
  by the functions inside it (Python), ``@scope.class``;
  import statements as ``@import`` (their names are read by the language's import reader).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import tree_sitter as ts
import tree_sitter_go
import tree_sitter_java
import tree_sitter_javascript
import tree_sitter_python
import tree_sitter_typescript

from reviewbot.index.records import COMMONJS, Import

__all__ = [
    "GRAMMARS",
    "Compiled",
    "Grammar",
    "ImportSite",
    "commonjs_exports",
    "compiled",
    "conditional_default_exports",
    "grammar_for",
    "required",
]


class ImportSite:
    """An import and where its imported name is written (a byte offset, or -1)."""

    __slots__ = ("at", "entry")

    def __init__(self, entry: Import, at: int = -1) -> None:
        self.entry = entry
        self.at = at


ImportReader = Callable[[ts.Node, bytes], list[ImportSite]]


@dataclass(frozen=True)
class Grammar:
    name: str
    load: Callable[[], object]
    definitions: str
    names: str
    read_imports: ImportReader
    self_names: frozenset[str] = frozenset()
    class_scope_hidden: bool = False  # Python: a class body's names are not seen inside methods
    members_visible: bool = False  # Java: a class's members are bare names inside it
    module_variables: bool = True  # top-level bindings are definitions
    type_before_name: bool = False  # Java: `Foo x`; the others: `x: Foo`, `x = Foo()`
    # Python: member names are plain identifiers, the last child of this node (`a.name`)
    member_access: str = ""


class Compiled:
    """A grammar's language, parser and queries, built once per process."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.language = ts.Language(grammar.load())
        self.parser = ts.Parser(self.language)
        # One query, so one pass over the tree: each pass costs about a fifth of the parse.
        both = grammar.definitions + grammar.names
        self.query = ts.QueryCursor(ts.Query(self.language, both))
        self.errors = ts.QueryCursor(ts.Query(self.language, "(ERROR) @error"))


def _text(node: ts.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


# -- Python ---------------------------------------------------------------------------------------

_PY_DEFS = """
(function_definition name: (identifier) @name body: (_) @body) @def.function
(class_definition name: (identifier) @name superclasses: (argument_list)? @bases body: (_) @body)
  @def.class
(module (expression_statement (assignment left: (identifier) @name) @def.variable))
(module (if_statement consequence: (block (expression_statement
  (assignment left: (identifier) @name) @def.variable))))
(class_definition body: (block (expression_statement
  (assignment left: (identifier) @name) @def.field)))
(assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  @def.attribute (#eq? @_self "self"))
(_ body: (block . (expression_statement (string) @doc))) @doc.owner
(module . (expression_statement (string) @doc)) @doc.owner
"""
_PY_NAMES = """
(identifier) @ref
(call function: (identifier) @call)
(call function: (attribute) @call.member.of)
(type (identifier) @type)
(type (generic_type (identifier) @type))
(keyword_argument name: (identifier) @skip)
(global_statement (identifier) @skip)
(nonlocal_statement (identifier) @skip)
(parameters (identifier) @bind)
(lambda_parameters (identifier) @bind)
(default_parameter name: (identifier) @bind)
(typed_parameter (identifier) @bind)
(typed_default_parameter name: (identifier) @bind)
(list_splat_pattern (identifier) @bind)
(dictionary_splat_pattern (identifier) @bind)
(assignment left: (identifier) @bind)
(assignment left: (pattern_list (identifier) @bind))
(assignment left: (tuple_pattern (identifier) @bind))
(assignment left: (list_pattern (identifier) @bind))
(for_statement left: (identifier) @bind)
(for_statement left: (pattern_list (identifier) @bind))
(for_statement left: (tuple_pattern (identifier) @bind))
(for_in_clause left: (identifier) @bind)
(for_in_clause left: (pattern_list (identifier) @bind))
(for_in_clause left: (tuple_pattern (identifier) @bind))
(as_pattern_target (identifier) @bind)
(as_pattern_target (tuple (identifier) @bind))
(named_expression name: (identifier) @bind)
(assignment left: (identifier) @bind.typed right: (call function: [(identifier) (attribute)]
  @typed.call))
(typed_parameter (identifier) @bind.typed type: (type) @typed.type)
(assignment left: (identifier) @bind.typed type: (type) @typed.type)
(typed_default_parameter name: (identifier) @bind.typed type: (type) @typed.type)
(attribute object: (call function: [(identifier) (attribute)]) @recv.obj)
(for_statement left: (identifier) @bind.iter
  right: (call function: [(identifier) (attribute)] @typed.iter))
(for_in_clause left: (identifier) @bind.iter
  right: (call function: [(identifier) (attribute)] @typed.iter))
(with_item value: (as_pattern (call function: [(identifier) (attribute)] @typed.pre)
  alias: (as_pattern_target (identifier) @bind.after)))
(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @attr.typed)
  right: (call function: [(identifier) (attribute)] @typed.call) (#eq? @_o "self"))
(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @attr.typed)
  type: (type) @typed.type (#eq? @_o "self"))
(assignment left: (attribute object: (identifier) @_o attribute: (identifier) @attr.from)
  right: (identifier) @typed.from (#eq? @_o "self"))
(decorator) @decorator
(return_statement (_) @returned)
(yield) @yield
(function_definition) @scope
(lambda) @scope
(list_comprehension) @scope
(set_comprehension) @scope
(dictionary_comprehension) @scope
(generator_expression) @scope
(class_definition) @scope.class
(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import
"""


def _python_imports(stmt: ts.Node, source: bytes) -> list[ImportSite]:
    out: list[ImportSite] = []
    line = stmt.start_point[0] + 1
    if stmt.type == "import_statement":
        for node in stmt.children_by_field_name("name"):
            if node.type == "aliased_import":
                module = _text(node.child_by_field_name("name"))
                alias = _text(node.child_by_field_name("alias"))
                out.append(ImportSite(Import(alias, module, "", line, False)))
            else:
                module = _text(node)
                out.append(ImportSite(Import(module.split(".")[0], module, "", line, False)))
        return out
    if stmt.type != "import_from_statement":
        return out
    module = re.sub(r"\s+", "", _text(stmt.child_by_field_name("module_name")))
    for child in stmt.named_children:
        if child.type == "wildcard_import":
            out.append(ImportSite(Import("", module, "*", line, False)))
    for node in stmt.children_by_field_name("name"):
        if node.type == "aliased_import":
            name_node = node.child_by_field_name("name")
            name = _text(name_node)
            alias = _text(node.child_by_field_name("alias"))
            at = name_node.start_byte if name_node is not None else -1
            out.append(ImportSite(Import(alias, module, name, line, False), at))
        else:
            name = _text(node)
            out.append(ImportSite(Import(name, module, name, line, False), node.start_byte))
    return out


# -- JavaScript and TypeScript -------------------------------------------------------------------

_JS_DEFS_COMMON = """
(function_declaration name: (identifier) @name body: (_) @body) @def.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @def.function
(class_declaration name: (_) @name (class_heritage)? @bases body: (_) @body) @def.class
(method_definition name: (_) @name body: (_) @body) @def.method
(assignment_expression left: (member_expression object: (this) property: (property_identifier)
  @name) @def.attribute)
(variable_declarator name: (identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @def.function
(assignment_expression left: (member_expression)
  right: (class name: (_) @name (class_heritage)? @bases body: (_) @body) @def.class)
(assignment_expression left: (member_expression object: (identifier) @_m
  property: (property_identifier) @_e)
  right: (function_expression name: (identifier) @name body: (_) @body) @def.function
  (#eq? @_m "module") (#eq? @_e "exports"))
(assignment_expression left: (member_expression object: (identifier) @_e
  property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]
  (#eq? @_e "exports")) @def.function
(assignment_expression left: (member_expression object: (member_expression
  object: (identifier) @_m property: (property_identifier) @_e)
  property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]
  (#eq? @_m "module") (#eq? @_e "exports")) @def.function
(assignment_expression left: (member_expression object: (identifier) @_m
  property: (property_identifier) @name)
  right: [(arrow_function body: (_) @body) (function_expression !name body: (_) @body)]
  (#eq? @_m "module") (#eq? @name "exports")) @def.function
(assignment_expression left: (member_expression object: (identifier) @_m
  property: (property_identifier) @name)
  right: (class !name (class_heritage)? @bases body: (_) @body)
  (#eq? @_m "module") (#eq? @name "exports")) @def.class
(assignment_expression left: (member_expression object: (identifier) @_m
  property: (property_identifier) @_e)
  right: (object (pair key: (property_identifier) @name
    value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @def.method)
  (#eq? @_m "module") (#eq? @_e "exports"))
(variable_declarator name: (identifier) @name
  value: (call_expression
    function: [(identifier) @_w (member_expression property: (property_identifier) @_w)]
    arguments: (arguments .
      [(arrow_function body: (_) @body) (function_expression body: (_) @body)]))
  (#match? @_w
    "^(useCallback|use[A-Za-z]*(Callback|Event|Fn)|memo|forwardRef|debounce|throttle|once)$"))
  @def.function
(program (export_statement value: (binary_expression
  right: (function_expression name: (identifier) @name body: (_) @body) @def.function)))
(program (export_statement value: (ternary_expression
  consequence: (function_expression name: (identifier) @name body: (_) @body) @def.function)))
(program (export_statement value: (ternary_expression
  alternative: (function_expression name: (identifier) @name body: (_) @body) @def.function)))
(variable_declarator name: (identifier) @name value: (binary_expression right: [
  (function_expression body: (_) @body) (arrow_function body: (_) @body)
  (parenthesized_expression [(function_expression body: (_) @body)
    (arrow_function body: (_) @body)])])) @def.function
(program (export_statement "default" @name value: [
  (function_expression !name body: (_) @body)
  (arrow_function body: (_) @body)
  (binary_expression right: [
    (function_expression !name body: (_) @body)
    (arrow_function body: (_) @body)
    (parenthesized_expression [(function_expression !name body: (_) @body)
      (arrow_function body: (_) @body)])])
  (ternary_expression consequence: [(function_expression !name body: (_) @body)
    (arrow_function body: (_) @body)])
  (ternary_expression alternative: [(function_expression !name body: (_) @body)
    (arrow_function body: (_) @body)])]) @def.function)
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.variable))
(program (export_statement declaration: (lexical_declaration
  (variable_declarator name: (identifier) @name) @def.variable)))
(program (export_statement declaration: (variable_declaration
  (variable_declarator name: (identifier) @name) @def.variable)))
"""
_TS_DEFS = (
    _JS_DEFS_COMMON
    + """
(abstract_class_declaration name: (_) @name (class_heritage)? @bases body: (_) @body) @def.class
(interface_declaration name: (_) @name (extends_type_clause)? @bases body: (_) @body)
  @def.interface
(type_alias_declaration name: (_) @name value: (_) @body) @def.type
(enum_declaration name: (_) @name body: (_) @body) @def.enum
(method_signature name: (_) @name) @def.method
(abstract_method_signature name: (_) @name) @def.method
(function_signature name: (_) @name) @def.function
(interface_body (property_signature name: (property_identifier) @name) @def.field)
(type_alias_declaration value: (object_type
  (property_signature name: (property_identifier) @name) @def.field))
(class_body (public_field_definition name: (property_identifier) @name) @def.field)
(class_body (public_field_definition name: (property_identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])
  @def.function)
"""
)
_JS_NAMES_COMMON = """
(identifier) @ref
(property_identifier) @member
(shorthand_property_identifier) @ref
(call_expression function: (identifier) @call)
(call_expression function: (member_expression) @call.member.of)
(new_expression constructor: (identifier) @call)
(pair key: (property_identifier) @skip)
(pair_pattern key: (property_identifier) @skip)
(labeled_statement label: (statement_identifier) @skip)
(variable_declarator name: (identifier) @bind)
(variable_declarator name: (identifier) @bind.typed
  value: (new_expression constructor: [(identifier) (member_expression)] @typed.type))
(variable_declarator name: (identifier) @bind.typed value: (this) @typed.type)
(variable_declarator name: (identifier) @bind.typed
  value: (call_expression function: [(identifier) (member_expression)] @typed.call))
(member_expression object: (call_expression function: [(identifier) (member_expression)])
  @recv.obj)
(member_expression object: (new_expression) @recv.obj)
(member_expression object: (parenthesized_expression (ternary_expression)) @recv.obj)
(variable_declarator name: (array_pattern (identifier) @bind))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @bind))
(arrow_function parameter: (identifier) @bind)
(assignment_pattern left: (identifier) @bind)
(rest_pattern (identifier) @bind)
(object_pattern (shorthand_property_identifier_pattern) @bind)
(object_pattern (pair_pattern value: (identifier) @bind))
(array_pattern (identifier) @bind)
(catch_clause parameter: (identifier) @bind)
(for_in_statement left: (identifier) @bind)
(arguments [(arrow_function) (function_expression)]) @cb.args
(return_statement (_) @returned)
(variable_declarator value: (arrow_function
  body: [(call_expression) (new_expression) (identifier) (this) (parenthesized_expression)]
  @returned))
(yield_expression) @yield
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @bind.pick)
  value: (identifier))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @pick.key)
  value: [(identifier) (call_expression) (new_expression)])
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @pick.key))
  value: [(identifier) (call_expression) (new_expression)])
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier)
  value: (identifier) @bind.pick)) value: (identifier))
(function_declaration) @scope
(generator_function_declaration) @scope
(function_expression) @scope
(arrow_function) @scope
(method_definition) @scope
(statement_block) @scope
(for_statement) @scope
(for_in_statement) @scope
(catch_clause) @scope
(class_body) @scope
(import_statement) @import
(program (lexical_declaration (variable_declarator value: [
  (call_expression function: (identifier) @_req arguments: (arguments . (string) .))
  (member_expression object: (call_expression function: (identifier) @_req
    arguments: (arguments . (string) .)) property: (property_identifier))]))
  @import (#eq? @_req "require"))
(program (variable_declaration (variable_declarator value: [
  (call_expression function: (identifier) @_req arguments: (arguments . (string) .))
  (member_expression object: (call_expression function: (identifier) @_req
    arguments: (arguments . (string) .)) property: (property_identifier))]))
  @import (#eq? @_req "require"))
(program (expression_statement (assignment_expression left: (member_expression
  object: (identifier) @_m property: (property_identifier) @_e)) @cjs.export
  (#eq? @_m "module") (#eq? @_e "exports")))
(program (expression_statement (assignment_expression left: (member_expression
  object: (member_expression object: (identifier) @_m property: (property_identifier) @_e)))
  @cjs.export (#eq? @_m "module") (#eq? @_e "exports")))
(program (expression_statement (assignment_expression left: (member_expression
  object: (identifier) @_e)) @cjs.export (#eq? @_e "exports")))
(export_statement source: (_)) @import
(export_statement !source (export_clause)) @import
(program (export_statement value: [(ternary_expression) (binary_expression)]) @export.default)
"""
_TS_NAMES = (
    _JS_NAMES_COMMON
    + """
(type_identifier) @type
(required_parameter pattern: (identifier) @bind)
(optional_parameter pattern: (identifier) @bind)
(required_parameter pattern: (identifier) @bind.typed type: (type_annotation (_) @typed.type))
(optional_parameter pattern: (identifier) @bind.typed type: (type_annotation (_) @typed.type))
(variable_declarator name: (identifier) @bind.typed type: (type_annotation (_) @typed.type))
(type_parameter name: (type_identifier) @typeparam @bind)
(mapped_type_clause name: (type_identifier) @typeparam @bind)
(infer_type . (type_identifier) @bind @infer)
(member_expression object: (parenthesized_expression (as_expression)) @recv.obj)
(public_field_definition name: (property_identifier) @attr.typed
  type: (type_annotation (_) @typed.type))
(required_parameter (accessibility_modifier) pattern: (identifier) @attr.typed
  type: (type_annotation (_) @typed.type))
(required_parameter "readonly" pattern: (identifier) @attr.typed
  type: (type_annotation (_) @typed.type))
(assignment_expression left: (member_expression object: (this)
  property: (property_identifier) @attr.typed)
  right: (new_expression constructor: [(identifier) (member_expression)] @typed.type))
(assignment_expression left: (member_expression object: (this)
  property: (property_identifier) @attr.from) right: (identifier) @typed.from)
(function_declaration return_type: (type_annotation (_) @ctx.type) body: (statement_block
  (return_statement (object (method_definition name: (property_identifier) @ctx.member)))))
(variable_declarator type: (type_annotation (_) @ctx.type)
  value: (object (method_definition name: (property_identifier) @ctx.member)))
(pair key: (property_identifier) @lit.key)
(interface_body) @scope
(property_signature name: (property_identifier) @skip)
(enum_assignment name: (property_identifier) @skip)
(enum_body name: (property_identifier) @skip)
"""
)


def _string_value(node: ts.Node | None) -> str:
    return _text(node).strip("'\"`")


def required(node: ts.Node | None) -> str | None:
    """The module a `require('./m')` call names, or None when ``node`` is no such call."""
    if node is None or node.type != "call_expression":
        return None
    callee = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if callee is None or _text(callee) != "require" or args is None:
        return None
    named = args.named_children
    if len(named) != 1 or named[0].type != "string":
        return None
    return _string_value(named[0])


def _requires(stmt: ts.Node) -> list[ImportSite]:
    """CommonJS imports: `const x = require('./m')` binds x to what m's `module.exports`
    holds; `const { a, b: c } = require('./m')` and `const f = require('./m').f` bind m's
    exports."""
    out: list[ImportSite] = []
    line = stmt.start_point[0] + 1
    for decl in stmt.named_children:
        if decl.type != "variable_declarator":
            continue
        name = decl.child_by_field_name("name")
        value = decl.child_by_field_name("value")
        if name is None or value is None:
            continue
        if value.type == "member_expression":
            prop = value.child_by_field_name("property")
            module = required(value.child_by_field_name("object"))
            if module is None or prop is None or name.type != "identifier":
                continue
            entry = Import(_text(name), module, _text(prop), line, False)
            out.append(ImportSite(entry, prop.start_byte))
            continue
        module = required(value)
        if module is None:
            continue
        if name.type == "identifier":
            out.append(ImportSite(Import(_text(name), module, COMMONJS, line, False)))
            continue
        if name.type != "object_pattern":
            continue
        for part in name.named_children:
            if part.type == "object_assignment_pattern":  # `{ a = 1 }`
                part = part.child_by_field_name("left") or part
            if part.type == "shorthand_property_identifier_pattern":
                entry = Import(_text(part), module, _text(part), line, False)
                out.append(ImportSite(entry, part.start_byte))
            elif part.type == "pair_pattern":
                key = part.child_by_field_name("key")
                local = part.child_by_field_name("value")
                if key is None or local is None or key.type != "property_identifier":
                    continue
                if local.type == "assignment_pattern":  # `{ b: c = 1 }`
                    local = local.child_by_field_name("left")
                if local is None or local.type != "identifier":
                    continue
                entry = Import(_text(local), module, _text(key), line, False)
                out.append(ImportSite(entry, key.start_byte))
    return out


def commonjs_exports(node: ts.Node) -> list[ImportSite]:
    """What a CommonJS module's assignment exports, as entries of an export list (module
    "", the file's own names): `module.exports = App` (a class or function, named or not:
    an anonymous one is the definition named `exports`), `module.exports = { a, b: c }`,
    `exports.b = c`, `module.exports.b = c`; `module.exports = require('./m')` re-exports."""
    left = node.child_by_field_name("left")
    right = node.child_by_field_name("right")
    if left is None or right is None:
        return []
    line = node.start_point[0] + 1
    target = _text(left).replace(" ", "")
    if target == COMMONJS:
        local = COMMONJS
    elif target.startswith(("exports.", COMMONJS + ".")) and target.count(".") <= 2:
        local = target.rsplit(".", 1)[-1]
    else:
        return []
    module = required(right)
    if module is not None:
        return [ImportSite(Import(local, module, COMMONJS, line, True))]
    if right.type == "identifier":
        name = _text(right)
    elif right.type in ("class", "function_expression", "arrow_function") and local == COMMONJS:
        named = right.child_by_field_name("name")
        name = _text(named) if named is not None else "exports"
    elif right.type == "object" and local == COMMONJS:
        out: list[ImportSite] = []
        for pair in right.named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            value = pair.child_by_field_name("value") if pair.type == "pair" else None
            if key is None or value is None or key.type != "property_identifier":
                continue
            module = required(value)
            if module is not None:
                out.append(ImportSite(Import(_text(key), module, COMMONJS, line, True)))
            elif value.type == "identifier" and _text(value) != _text(key):
                out.append(ImportSite(Import(_text(key), "", _text(value), line, True)))
        return out
    else:
        return []
    return [] if name == local else [ImportSite(Import(local, "", name, line, True))]


def conditional_default_exports(stmt: ts.Node) -> list[ImportSite]:
    """What ``export default ok && function httpAdapter(c) {`` or ``export default ok ?
    function fetchAdapter(c) {...} : function xhrAdapter(c) {...}`` exports, as entries of the
    module's export list: each named function is its default export (`export { fetchAdapter as
    default }`); an anonymous one is the definition `default` itself."""
    value = stmt.child_by_field_name("value")
    if value is None:
        return []
    fields = ("consequence", "alternative") if value.type == "ternary_expression" else ("right",)
    out: list[ImportSite] = []
    for field in fields:
        branch = value.child_by_field_name(field)
        named = branch.child_by_field_name("name") if branch is not None else None
        if branch is not None and branch.type == "function_expression" and named is not None:
            line = stmt.start_point[0] + 1
            out.append(ImportSite(Import("default", "", _text(named), line, True)))
    return out


def _es_imports(stmt: ts.Node, source: bytes) -> list[ImportSite]:
    if stmt.type in ("lexical_declaration", "variable_declaration"):
        return _requires(stmt)
    out: list[ImportSite] = []
    line = stmt.start_point[0] + 1
    source_node = stmt.child_by_field_name("source")
    module = _string_value(source_node)
    if stmt.type == "export_statement" and source_node is None:
        # `export { g as h }`: the module's own names (or its imports) exported under others:
        # entries of module "" (this file), never names bound in it.
        for clause in stmt.named_children:
            if clause.type != "export_clause":
                continue
            for spec in clause.named_children:
                name_node = spec.child_by_field_name("name")
                if spec.type != "export_specifier" or name_node is None:
                    continue
                name = _text(name_node)
                alias = _text(spec.child_by_field_name("alias")) or name
                out.append(ImportSite(Import(alias, "", name, line, True), name_node.start_byte))
        return out
    if stmt.type == "export_statement":
        found = False
        for child in stmt.named_children:
            if child.type == "export_clause":
                for spec in child.named_children:
                    if spec.type != "export_specifier":
                        continue
                    name_node = spec.child_by_field_name("name")
                    name = _text(name_node)
                    alias = _text(spec.child_by_field_name("alias")) or name
                    at = name_node.start_byte if name_node is not None else -1
                    out.append(ImportSite(Import(alias, module, name, line, True), at))
                    found = True
            elif child.type == "namespace_export":
                ids = [c for c in child.named_children if c.type in ("identifier", "string")]
                out.append(
                    ImportSite(Import(_string_value(ids[0]) if ids else "", module, "", line, True))
                )
                found = True
        if not found:
            out.append(ImportSite(Import("", module, "*", line, True)))
        return out
    for child in stmt.named_children:
        if child.type == "import_require_clause":
            ids = [c for c in child.named_children if c.type == "identifier"]
            if ids:
                src = child.child_by_field_name("source")
                out.append(ImportSite(Import(_text(ids[0]), _string_value(src), "", line, False)))
        if child.type != "import_clause":
            continue
        for part in child.named_children:
            if part.type == "identifier":
                out.append(ImportSite(Import(_text(part), module, "default", line, False)))
            elif part.type == "namespace_import":
                ids = [c for c in part.named_children if c.type == "identifier"]
                if ids:
                    out.append(ImportSite(Import(_text(ids[0]), module, "", line, False)))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name_node = spec.child_by_field_name("name")
                    name = _text(name_node)
                    alias = _text(spec.child_by_field_name("alias")) or name
                    at = name_node.start_byte if name_node is not None else -1
                    out.append(ImportSite(Import(alias, module, name, line, False), at))
    if not out and module:
        out.append(ImportSite(Import("", module, "", line, False)))  # for its side effects
    return out


# -- Go -------------------------------------------------------------------------------------------

_GO_DEFS = """
(function_declaration name: (identifier) @name body: (_)? @body) @def.function
(method_declaration receiver: (parameter_list (parameter_declaration type: (_) @receiver))
  name: (field_identifier) @name body: (_)? @body) @def.method
(type_spec name: (type_identifier) @name type: (struct_type) @body) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type) @body) @def.interface
(type_spec name: (type_identifier) @name type: (_) @body) @def.type
(type_alias name: (type_identifier) @name) @def.type
(method_elem name: (field_identifier) @name) @def.method
(type_spec type: (struct_type (field_declaration_list
  (field_declaration name: (field_identifier) @name) @def.field)))
(source_file (const_declaration (const_spec name: (identifier) @name) @def.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable)
  (#not-eq? @name "_"))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.variable))
  (#not-eq? @name "_"))
"""
_GO_NAMES = """
(identifier) @ref
(type_identifier) @type
(field_identifier) @member
(package_identifier) @ref
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression) @call.member.of)
(call_expression function: (index_expression operand: (identifier) @call))
(call_expression function: (index_expression operand: (selector_expression) @call.member.of))
(selector_expression operand: (call_expression function: [(identifier) (selector_expression)])
  @recv.obj)
(qualified_type name: (type_identifier) @type)
(keyed_element . (literal_element (identifier) @skip))
(labeled_statement label: (label_name) @skip)
(field_declaration name: (field_identifier) @skip)
(parameter_declaration name: (identifier) @bind)
(variadic_parameter_declaration name: (identifier) @bind)
(short_var_declaration left: (expression_list (identifier) @bind))
(range_clause left: (expression_list (identifier) @bind))
(var_spec name: (identifier) @bind)
(const_spec name: (identifier) @bind)
(type_switch_statement alias: (expression_list (identifier) @bind))
(short_var_declaration left: (expression_list . (identifier) @bind.typed)
  right: (expression_list . [(composite_literal type: [(type_identifier) (qualified_type)]
    @typed.type) (unary_expression operand: (composite_literal
    type: [(type_identifier) (qualified_type)] @typed.type))]))
(var_spec . name: (identifier) @bind.typed
  value: (expression_list . [(composite_literal type: [(type_identifier) (qualified_type)]
    @typed.type) (unary_expression operand: (composite_literal
    type: [(type_identifier) (qualified_type)] @typed.type))]))
(short_var_declaration left: (expression_list . (identifier) @bind.typed)
  right: (expression_list . (call_expression function: [(identifier) (selector_expression)]
    @typed.call)) (#not-eq? @typed.call "new"))
(var_spec . name: (identifier) @bind.typed
  value: (expression_list . (call_expression function: [(identifier) (selector_expression)]
    @typed.call)) (#not-eq? @typed.call "new"))
(short_var_declaration left: (expression_list . (identifier) @bind.typed)
  right: (expression_list . (call_expression function: (identifier) @_new
    arguments: (argument_list . [(type_identifier) (qualified_type)] @typed.type)))
  (#eq? @_new "new"))
(var_spec . name: (identifier) @bind.typed
  value: (expression_list . (call_expression function: (identifier) @_new
    arguments: (argument_list . [(type_identifier) (qualified_type)] @typed.type)))
  (#eq? @_new "new"))
(var_spec name: (identifier) @bind.typed
  type: [(type_identifier) (pointer_type) (qualified_type)] @typed.type)
(short_var_declaration left: (expression_list . (identifier) @bind.typed)
  right: (expression_list . (type_assertion_expression
    type: [(type_identifier) (pointer_type) (qualified_type)] @typed.type)))
(parameter_declaration name: (identifier) @bind.typed
  type: [(type_identifier) (pointer_type) (qualified_type)] @typed.type)
(function_declaration) @scope
(method_declaration) @scope
(func_literal) @scope
(block) @scope
(for_statement) @scope
(if_statement) @scope
(type_switch_statement) @scope
(expression_switch_statement) @scope
(import_declaration) @import
(package_clause) @import
"""


def _go_imports(stmt: ts.Node, source: bytes) -> list[ImportSite]:
    out: list[ImportSite] = []
    if stmt.type != "import_declaration":
        return out
    specs: list[ts.Node] = []
    for child in stmt.named_children:
        if child.type == "import_spec":
            specs.append(child)
        elif child.type == "import_spec_list":
            specs.extend(c for c in child.named_children if c.type == "import_spec")
    for spec in specs:
        path = _string_value(spec.child_by_field_name("path"))
        alias_node = spec.child_by_field_name("name")
        alias = _text(alias_node)
        line = spec.start_point[0] + 1
        if alias == ".":
            out.append(ImportSite(Import("", path, "*", line, False)))
        elif alias == "_":
            out.append(ImportSite(Import("", path, "", line, False)))
        else:
            local = alias or path.rstrip("/").rsplit("/", 1)[-1]
            if not alias and re.fullmatch(r"v\d+", local) and "/" in path:
                local = path.rsplit("/", 2)[-2]  # example.com/x/v2 is package x
            out.append(ImportSite(Import(local, path, "", line, False)))
    return out


# -- Java -----------------------------------------------------------------------------------------

_JAVA_DEFS = """
(class_declaration name: (identifier) @name superclass: (_)? @bases interfaces: (_)? @bases
  body: (_) @body) @def.class
(interface_declaration name: (identifier) @name (extends_interfaces)? @bases body: (_) @body)
  @def.interface
(enum_declaration name: (identifier) @name body: (_) @body) @def.enum
(record_declaration name: (identifier) @name body: (_) @body) @def.class
(annotation_type_declaration name: (identifier) @name body: (_) @body) @def.interface
(method_declaration name: (identifier) @name body: (_)? @body) @def.method
(constructor_declaration name: (identifier) @name body: (_) @body) @def.constructor
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.constant
(enum_constant name: (identifier) @name) @def.constant
"""
_JAVA_NAMES = """
(identifier) @ref
(type_identifier) @type
(method_invocation name: (identifier) @call)
(method_invocation object: (_) name: (identifier) @call.member)
(object_creation_expression type: (type_identifier) @call) @new
(object_creation_expression type: (generic_type (type_identifier) @call)) @new
(object_creation_expression type: (scoped_type_identifier (type_identifier) @call .)) @new
(explicit_constructor_invocation constructor: [(this) (super)]) @new
(field_access field: (identifier) @member)
(method_invocation object: (method_invocation) @recv.obj)
(labeled_statement (identifier) @skip)
(formal_parameter name: (identifier) @bind)
(formal_parameter type: [(type_identifier) (scoped_type_identifier) (generic_type)] @typed.type
  name: (identifier) @bind.typed)
(local_variable_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)]
  @typed.type
  declarator: (variable_declarator name: (identifier) @bind.typed) (#not-eq? @typed.type "var"))
(local_variable_declaration type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @bind.value
    value: (object_creation_expression
      type: [(type_identifier) (scoped_type_identifier) (generic_type)] @typed.value))
  (#eq? @_var "var"))
(local_variable_declaration type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @bind.value
    value: (method_invocation !object) @typed.value.call)
  (#eq? @_var "var"))
(local_variable_declaration type: (type_identifier) @_var
  declarator: (variable_declarator name: (identifier) @bind.value
    value: (method_invocation object: [(identifier) (field_access) (method_invocation) (this)])
      @typed.value.call)
  (#eq? @_var "var"))
(field_declaration type: [(type_identifier) (scoped_type_identifier) (generic_type)] @typed.type
  declarator: (variable_declarator name: (identifier) @attr.typed))
(spread_parameter (variable_declarator name: (identifier) @bind))
(catch_formal_parameter name: (identifier) @bind)
(local_variable_declaration declarator: (variable_declarator name: (identifier) @bind))
(enhanced_for_statement name: (identifier) @bind)
(resource name: (identifier) @bind)
(lambda_expression parameters: (identifier) @bind)
(inferred_parameters (identifier) @bind)
(method_declaration) @scope
(constructor_declaration) @scope
(lambda_expression) @scope
(block) @scope
(for_statement) @scope
(enhanced_for_statement) @scope
(catch_clause) @scope
(try_with_resources_statement) @scope
(import_declaration) @import
(package_declaration) @import
"""
_JAVA_IMPORT = re.compile(r"import\s+(static\s+)?([\w.\s]+?)(\s*\.\s*\*)?\s*;")


def _java_imports(stmt: ts.Node, source: bytes) -> list[ImportSite]:
    if stmt.type != "import_declaration":
        return []
    match = _JAVA_IMPORT.match(_text(stmt))
    if match is None:
        return []
    path = re.sub(r"\s+", "", match.group(2))
    line = stmt.start_point[0] + 1
    if match.group(3):
        return [ImportSite(Import("", path, "*", line, False))]
    module, _, name = path.rpartition(".")
    at = -1
    last = stmt.named_children[-1] if stmt.named_children else None
    if last is not None and last.type == "scoped_identifier":
        name_node = last.child_by_field_name("name")
        at = name_node.start_byte if name_node is not None else -1
    return [ImportSite(Import(name, module, name, line, False), at)]


GRAMMARS: dict[str, Grammar] = {
    "python": Grammar(
        "python",
        tree_sitter_python.language,
        _PY_DEFS,
        _PY_NAMES,
        _python_imports,
        self_names=frozenset({"self", "cls"}),
        class_scope_hidden=True,
        member_access="attribute",
    ),
    "javascript": Grammar(
        "javascript",
        tree_sitter_javascript.language,
        _JS_DEFS_COMMON
        + """(class_body (field_definition property: (property_identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])
  @def.function)
""",
        _JS_NAMES_COMMON + "(formal_parameters (identifier) @bind)\n",
        _es_imports,
        self_names=frozenset({"this"}),
    ),
    "typescript": Grammar(
        "typescript",
        tree_sitter_typescript.language_typescript,
        _TS_DEFS,
        _TS_NAMES,
        _es_imports,
        self_names=frozenset({"this"}),
    ),
    "tsx": Grammar(
        "tsx",
        tree_sitter_typescript.language_tsx,
        _TS_DEFS,
        _TS_NAMES,
        _es_imports,
        self_names=frozenset({"this"}),
    ),
    "go": Grammar("go", tree_sitter_go.language, _GO_DEFS, _GO_NAMES, _go_imports),
    "java": Grammar(
        "java",
        tree_sitter_java.language,
        _JAVA_DEFS,
        _JAVA_NAMES,
        _java_imports,
        self_names=frozenset({"this"}),
        type_before_name=True,
        members_visible=True,
        module_variables=False,
    ),
}


def grammar_for(language: str, path: str) -> Grammar | None:
    """The grammar for a file of an engine language (``.tsx`` files get the TSX grammar)."""
    if language == "typescript" and path.lower().endswith(".tsx"):
        return GRAMMARS["tsx"]
    return GRAMMARS.get(language)


@cache
def compiled(name: str) -> Compiled:
    return Compiled(GRAMMARS[name])
