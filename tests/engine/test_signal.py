"""Line scoring: strings, comments, block comments, docstrings, decorators (engine.md s. 2)."""

from __future__ import annotations

import os

import pytest

from reviewbot.engine import get_profile, open_index
from reviewbot.engine.languages import default_registry, file_name
from reviewbot.engine.signal import line_signal, mask_strings, split_lines

REG = default_registry()


def score(path: str, text: str, *, docstrings_in_strings: bool = False) -> list[float]:
    language = REG.detect(path)
    values = line_signal(split_lines(text), language, docstrings_in_strings=docstrings_in_strings)
    return [round(v, 6) for v in values.tolist()]


def test_split_lines_only_on_newline() -> None:
    assert split_lines("") == []
    assert split_lines("a\n") == ["a"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("a\x0cb\u2028c\rd\ne") == ["a\x0cb\u2028c\rd", "e"]


def test_documented_examples() -> None:
    assert score("a.ts", "export class FileContext {") == [1.65]
    assert score("a.py", "def foo():") == [0.95]
    assert score("a.py", "\n# comment\n   \n") == [0.0, 0.0, 0.0]


def test_depth_divides_and_tabs_count_four_columns() -> None:
    spaces, tab, half = score("a.py", "    return 1\n\treturn 1\n  return 1")
    assert spaces == tab == round(0.25 / 1.15, 6)
    assert half == round(0.25 / 1.075, 6)


def test_score_is_capped_at_two() -> None:
    assert score("a.ts", "export export export class function interface") == [2.0]


def test_strings_do_not_score_or_start_comments() -> None:
    lang = REG.get("python")
    assert mask_strings('x = "class # def"', lang) == 'x = "           "'
    assert mask_strings("s = 'it\\'s' + x", lang) == "s = '     ' + x"
    assert mask_strings('u = "open to the end', lang) == 'u = "               '
    assert score("a.py", 'x = "class def import"') == [0.05]
    assert score("a.py", 'url = "http://x#y"  # class') == [0.05]


def test_rust_and_lisps_mask_only_double_quotes() -> None:
    rust = REG.get("rust")
    assert mask_strings("fn f<'a>(x: &'a str) -> \"s\"", rust) == "fn f<'a>(x: &'a str) -> \" \""
    clj = REG.get("clojure")
    assert mask_strings('(str \\" "a\\"b")', clj) == '(str    "    ")'


def test_trailing_comment_is_cut() -> None:
    assert score("a.go", "x := 1 // func struct") == [0.05]
    assert score("a.go", "// func struct") == [0.0]


def test_hash_bracket_is_not_a_comment() -> None:
    # Rust attributes score the decorator weight; PHP `#[` likewise, `#` alone is a comment.
    assert score("a.rs", "#[derive(Debug)]") == [round(0.4 + 0.05, 6)]
    assert score("a.php", "# class\n#[Attr] class A") == [0.0, round(0.4 + 1.0 + 0.05, 6)]


def test_block_comments_across_lines() -> None:
    text = "x = 1 /* class\nfunction\n*/ class A {\n/* a */ let b /* c */"
    assert score("a.ts", text) == [0.05, 0.0, 1.05, 0.25]


def test_line_comment_before_opener_wins() -> None:
    assert score("a.ts", "// x /* y\nclass A") == [0.0, 1.05]


def test_nested_lisp_block_comments() -> None:
    text = "#| outer #| inner |# still |#\n(defun f ())"
    assert score("a.lisp", text) == [0.0, round(0.9 + 0.05, 6)]
    text = "#| a #| b |#\n(defun hidden)\n|# (defun shown)"
    assert score("a.scm", text.replace("defun", "define")) == [0.0, 0.0, 0.95]


def test_elisp_hash_bar_is_inert() -> None:
    assert score("a.el", "#| (defun f) |#") == [0.95]


def test_clojure_comment_form_closes_by_paren_depth() -> None:
    text = "(comment\n  (defn a [] (b))\n) (defn c [])\n(defn d [])"
    assert score("a.clj", text) == [0.0, 0.0, 0.95, 0.95]
    assert score("a.clj", "(commentary (defn x))") == [0.95]


def test_ruby_begin_only_at_line_start() -> None:
    # Not at the start: `=begin` is code there, and `begin` a keyword.
    text = "=begin\ndef hidden\n=end\ndef shown\nx = 1 =begin\nclass A"
    assert score("a.rb", text) == [0.0, 0.0, 0.0, 0.95, 0.35, 1.05]


def test_python_docstrings() -> None:
    text = 'def f():\n    """Doc with class\n    def inside\n    """\n    return 1'
    got = score("a.py", text)
    assert got[0] == 0.95 and got[1:4] == [0.0, 0.0, 0.0] and got[4] > 0
    assert score("a.py", 'x = 1; """class def"""') == [0.05]
    assert score("a.js", '"""class"""') == [0.05]  # no docstrings outside Python


def test_triple_quote_inside_a_string_opens_a_docstring_only_in_wavescope() -> None:
    # docstrings_in_strings (the wavescope profile), as WaveScope does: the delimiter is searched
    # in the unmasked code part, so a string holding a triple quote (CPython's Lib/ast.py:
    # `_MULTI_QUOTES = ('"""', "'''")`) opens a docstring that the next triple quote closes.
    # A triple quote in a trailing comment does not.
    text = 'Q = (\'"""\', 1)\ndef hidden():\n"""\ndef shown():'
    assert score("a.py", text, docstrings_in_strings=True) == [0.05, 0.0, 0.0, 0.95]
    one_line = 'x = \'"""\' + def + \'"""\''
    assert score("a.py", one_line, docstrings_in_strings=True) == [0.05]  # `def` is "inside"
    assert score("a.py", 'x = 1  # """\ndef f():', docstrings_in_strings=True) == [0.05, 0.95]
    # Off (the default, the review profile): the delimiter is searched in masked code, where the
    # literal is blanked, so the next lines are code; the lone `"""` then opens a real docstring.
    assert score("a.py", text) == [0.05, 0.95, 0.0, 0.0]
    assert score("a.py", one_line) == [0.95]  # `def` is code
    assert score("a.py", 'x = 1  # """\ndef f():') == [0.05, 0.95]
    # Lib/ast.py's lines 680-683, the line after `_MULTI_QUOTES` and the class scored as code:
    multi = "\n".join(
        [
            "_MULTI_QUOTES = ('\"\"\"', \"'''\")",
            "_ALL_QUOTES = (*_SINGLE_QUOTES, *_MULTI_QUOTES)",
            "",
            "class _Unparser(NodeVisitor):",
        ]
    )
    assert score("a.py", multi) == [0.05, 0.05, 0.0, 1.05]
    assert score("a.py", multi, docstrings_in_strings=True) == [0.05, 0.0, 0.0, 0.0]


def test_profiles_choose_the_docstring_reading() -> None:
    # The option reaches the scorer through FileIndex: wavescope on, review off.
    text = 'Q = (\'"""\', 1)\ndef hidden():\n"""\ndef shown():'
    assert get_profile("wavescope").docstrings_in_strings
    assert not get_profile("review").docstrings_in_strings
    wavescope = open_index("a.py", text, profile=get_profile("wavescope"))
    review = open_index("a.py", text, profile=get_profile("review"))
    assert [round(v, 6) for v in wavescope.signal.tolist()] == [0.05, 0.0, 0.0, 0.95]
    assert [round(v, 6) for v in review.signal.tolist()] == [0.05, 0.95, 0.0, 0.0]
    assert [u.label for u in review.structure.units] == ["def hidden"]


def test_decorators() -> None:
    assert score("a.py", "@dataclass") == [0.55]
    assert score("a.java", "public @Nullable String f()") == [round(0.3 + 0.5 + 0.05, 6)]
    assert score("a.go", "@x") == [0.05]  # decorator weight 0 in Go
    assert score("a.py", 'x = "@decorated"') == [0.05]


@pytest.mark.parametrize(
    "name,lang",
    [
        ("Rakefile", "ruby"),
        ("Gemfile", "ruby"),
        ("x.TSX", "typescript"),
        ("a.cljs", "clojure"),
        ("notes.txt", "generic"),
        ("Makefile", "generic"),
        ("x.el", "elisp"),
        ("x.sld", "scheme"),
    ],
)
def test_detection(name: str, lang: str) -> None:
    assert REG.detect(f"some/dir/{name}").name == lang


def test_a_backslash_is_part_of_a_posix_name() -> None:
    # Found by tests/doors/test_name_properties.py: `\\.py` (a file git stores) was taken for
    # `.py` in a folder, so reviewed as generic text, and its spike was not reported.
    assert file_name("a\\b/c\\.go", "/") == "c\\.go"  # POSIX: `/` only
    assert file_name("a\\b/c\\.go", "\\/") == ".go"  # Windows: both separate folders
    assert file_name("plain.py", "/") == "plain.py"
    # detect splits as this system does: on Windows both names are a bare extension.
    posix = os.sep == "/"
    assert REG.detect("\\.py").name == ("python" if posix else "generic")
    assert REG.detect("a\\b/c\\.go").name == ("go" if posix else "generic")


def test_all_sixteen_languages_are_there() -> None:
    assert len(REG.names()) == 16


def test_generic_table_uses_hash_and_block_comments() -> None:
    assert score("x.unknown", "# c\n/* b */ @x\nplain") == [0.0, round(0.35, 6), 0.05]


def test_multi_line_template_strings_do_not_end_a_class() -> None:
    from reviewbot.engine import open_index

    text = (
        "class Command {\n  help() {\n    return `Usage:\nflush left inside the string\n"
        "  more`;\n  }\n\n  run() {\n    if (x) { y(); }\n  }\n}\n"
    )
    index = open_index("a.js", text)
    units = [(u.label, u.start + 1, u.end + 1) for u in index.structure.units]
    assert units == [("class Command", 1, 11), ("help()", 2, 6), ("run()", 8, 10)]
    assert index.signal[3] == 0.05  # the signal still scores the line (WaveScope's semantics)


def _units(path: str, text: str) -> list[tuple[str, int, int]]:
    index = open_index(path, text)
    return [(u.label, u.start + 1, u.end + 1) for u in index.structure.units]


def test_a_backtick_in_a_regular_expression_opens_no_template() -> None:
    # axios lib/core/AxiosHeaders.js:32, `/^[-_a-zA-Z0-9^`|~,!#$%&'*+.]+$/`: the backtick was
    # taken for a template's start, and class AxiosHeaders (lines 74-302) was no unit.
    text = (
        "const valid = (s) => /^[-_a-z^`|~,!#$%&'*+.]+$/.test(s.trim());\n"
        "function a(x) {\n  return x / 2 / 3;\n}\n"
        "function b(y) {\n  if (/[/`]/.test(y)) {\n    return `${y}`;\n  }\n  return 2;\n}\n"
        "const c = (z) => `a ${z.map((w) => `${w}`).join('`')} b\n"
        "still inside`;\n"
        "// a comment's `\n"
        "/* a block comment's `\n   over lines */\n"
        "class D {\n  m() {\n    return 1;\n  }\n}\n"
    )
    assert _units("a.js", text) == [
        ("function valid", 1, 1),
        ("function a", 2, 4),
        ("function b", 5, 10),
        ("function c", 11, 11),  # (an arrow without braces: its first line)
        ("class D", 16, 20),
        ("m()", 17, 19),
    ]
    assert _units("a.ts", text) == _units("a.js", text)


def test_backticks_in_a_go_string_open_no_raw_string() -> None:
    # urfave/cli command_test.go: `Usage` + "```" + `...` hid every unit from line 122 on
    # (6,476 lines); a rune '`' and a comment's backtick open nothing either.
    text = (
        'package a\n\nfunc A() string {\n\treturn `\nUsage\n` + "```" + `\nend\n`\n}\n\n'
        "func B(x int) int {\n\tif x > 1 {\n\t\treturn 2\n\t}\n\treturn 3\n}\n\n"
        "func C() rune {\n\t// a `\n\treturn '`'\n}\n\n"
        "func D() string {\n\treturn `a\\`\n}\n\nfunc E() {\n}\n"
    )
    assert _units("a.go", text) == [
        ("func A", 3, 9),
        ("func B", 11, 16),
        ("func C", 18, 21),
        ("func D", 23, 25),
        ("func E", 27, 28),
    ]


def test_a_default_export_behind_a_condition_is_a_unit() -> None:
    # axios lib/adapters: `export default isHttpAdapterSupported && function httpAdapter(` was
    # no unit (695 lines of the file's top); xhr.js's and fetch.js's are anonymous.
    text = (
        "export default ok && function httpAdapter(config) {\n  if (a) {\n    b();\n  }\n}\n"
        "export default ok && function (config) {\n  return 1;\n}\n"
        "export default isFetchSupported && (async (config) => {\n  return 2;\n});\n"
        "export default (config) => {\n  return 3;\n};\n"
        "export default {\n  a: 1,\n};\n"
        "module.exports = ok && function handler(req) {\n  return req;\n};\n"
        "const httpAdapter = ok && function httpAdapter(config) {\n  return 4;\n};\n"
        "const both = a || b;\n"
    )
    assert _units("a.js", text) == [
        ("function httpAdapter", 1, 5),
        ("function default", 6, 8),
        ("function default", 9, 11),
        ("function default", 12, 14),
        ("function handler", 18, 20),
        ("function httpAdapter", 21, 23),
    ]


def test_interface_methods_with_default_type_parameters_and_function_types_are_units() -> None:
    # formik f075a0cf: `remove<T>(index)` became `remove<X extends T[number] = T[number]>(index)`
    # and was "removed" (the `=` of a default type parameter read as an assignment);
    # `push: (obj: T) => void` became `push<X = T[number]>(obj: X): void`, a method both times.
    text = (
        "export interface ArrayHelpers<T extends any[] = any[]> {\n"
        "  push: (obj: T) => void;\n"
        "  remove<X extends T[number] = T[number]>(index: number): X | undefined;\n"
        "  readonly handle?: <X>(x: X) => () => void;\n"
        "  name: string;\n"
        "  map<U extends (a: T) => R = (a: T) => R>(fn: U): void;\n"
        "}\n"
    )
    assert _units("a.ts", text) == [
        ("interface ArrayHelpers", 1, 7),
        ("push()", 2, 2),
        ("remove()", 3, 3),
        ("handle()", 4, 4),
        ("map()", 6, 6),
    ]


def test_a_go_method_is_named_by_its_receivers_type() -> None:
    # gin 074b669a: `func (w *nonFlusherWriter) Header()` was the unit `func Header`, the same
    # label as any other type's Header; generic receivers lose their type parameters.
    text = (
        "package p\n\n"
        "func (w *nonFlusherWriter) Header() http.Header { return w.header }\n\n"
        "func (m *Map[K, V]) Put(k K, v V) {\n\tm.items[k] = v\n}\n\n"
        "func (Store) Len() int {\n\treturn 0\n}\n\n"
        "func main() {\n\tf := func(x int) {\n\t\tprintln(x)\n\t}\n\tf(1)\n}\n"
    )
    index = open_index("a.go", text)
    labels = [u.label for u in index.structure.units]
    assert labels == [
        "func nonFlusherWriter.Header",
        "func Map.Put",
        "func Store.Len",
        "func main",
    ]


def test_a_call_bound_to_a_name_and_wrapped_over_lines_names_its_function() -> None:
    # zod: 38 of schemas.ts's 75 `$constructor(` calls wrap their arguments; their callbacks,
    # opening on a line of their own (with a return type or not), were no unit at all. A
    # wrapped call with no function argument stays no unit.
    text = (
        'import * as core from "./core.js";\n\n'
        "export const $ZodUnion: core.$constructor<$ZodUnion> = /*@__PURE__*/ core.$constructor(\n"
        '  "$ZodUnion",\n'
        "  (inst, def): void => {\n"
        "    inst.parse = 1;\n"
        "  }\n"
        ");\n\n"
        "export const config = createConfig(\n"
        "  { a: 1 },\n"
        "  { b: 2 }\n"
        ");\n"
    )
    index = open_index("a.ts", text)
    units = [(u.label, u.start + 1, u.end + 1) for u in index.structure.units]
    assert units == [("function $ZodUnion", 3, 8)]


def test_a_decorators_call_in_a_python_class_is_no_member() -> None:
    # structlog 3763c62: `@pytest.mark.parametrize("proto", range(...))` in a test class was
    # read as a keyword-less method `range` (and the bundle "defines range"); a Python
    # member is a `def`. A TS class's keyword-less member is still one.
    text = (
        "class TestPickle:\n"
        '    @pytest.mark.parametrize("proto", range(pickle.HIGHEST_PROTOCOL + 1))\n'
        "    def test_pickle(self, proto):\n"
        "        assert pickle.loads(pickle.dumps(1, proto)) == 1\n"
    )
    labels = [u.label for u in open_index("t.py", text).structure.units]
    assert labels == ["class TestPickle", "def test_pickle"]
    ts = "class A {\n  @Input()\n  range(n: number) {\n    return n;\n  }\n}\n"
    assert [u.label for u in open_index("a.ts", ts).structure.units] == ["class A", "range()"]


def test_a_function_bound_on_the_line_below_its_name_is_a_unit() -> None:
    # zustand's middleware: `const devtoolsImpl: DevtoolsImpl =` with its arrows on the lines
    # below was no unit (the hotspot file's central function never measured); a value that
    # is no function (an object, a call) stays none.
    text = (
        "const devtoolsImpl: DevtoolsImpl =\n"
        "  (fn, devtoolsOptions = {}) =>\n"
        "  (set, get, api) => {\n"
        "    if (devtoolsOptions.enabled) {\n      return fn(set, get, api)\n    }\n"
        "    return api\n"
        "  }\n"
        "const options: Options =\n  {\n    name: 'x',\n  }\n"
        "export const store =\n  createStore(() => ({ a: 1 }))\n"
    )
    units = [(u.label, u.start + 1, u.end + 1) for u in open_index("d.ts", text).structure.units]
    assert units[0] == ("function devtoolsImpl", 1, 8), units
    assert not [u for u in units if u[0].endswith(("options", "store"))], units


def test_a_fallback_arrow_wrapped_below_its_binding_is_a_unit() -> None:
    # jotai 543f064c~1, buildStore: prettier wraps `const recomputeInvalidatedAtoms =
    # buildingBlockFunctions[2] || (() => {...})` over three lines; the function was no unit
    # (its body counted in buildStore's), while the one-line form already was one. A fallback
    # that is no function stays none.
    text = (
        "export function build(blocks: any[]) {\n"
        "  const ensure =\n"
        "    blocks[0] ||\n"
        "    ((atom: any) => {\n"
        "      if (!atom) {\n"
        "        throw new Error('y')\n"
        "      }\n"
        "      return atom\n"
        "    })\n"
        "  const flush =\n"
        "    blocks[1] ?? (() => {\n"
        "      if (a) {\n        b()\n      }\n"
        "    })\n"
        "  const other = blocks[2] || ((x: number) => {\n"
        "    return x > 0 ? 4 : 3\n"
        "  })\n"
        "  const size =\n"
        "    blocks.length ||\n"
        "    defaultSize(1)\n"
        "  return [ensure, flush, other, size]\n"
        "}\n"
    )
    assert _units("a.ts", text) == [
        ("function build", 1, 23),
        ("function ensure", 2, 9),
        ("function flush", 10, 15),
        ("function other", 16, 18),
    ]


def test_a_try_with_resources_is_no_anonymous_class() -> None:
    # commons-io 25114c8c5: `try (IORandomAccessFile raf = new IORandomAccessFile(file, "rw"))
    # {` was read as an anonymous class, its `assertEquals(...)` calls as its methods (and the
    # bundle "defines clear, assertArrayEquals, assertEquals, assertSame"). An anonymous
    # class's methods, as an argument or returned, stay units.
    text = (
        "class T {\n"
        "  void testClear() throws IOException {\n"
        '    try (IORandomAccessFile raf = new IORandomAccessFile(file, "rw")) {\n'
        "      assertEquals(data.length, raf.length());\n"
        "      assertSame(raf, raf.clear());\n"
        "    }\n"
        "  }\n"
        "  Comparator<String> order() {\n"
        "    return new Comparator<String>() {\n"
        "      public int compare(String a, String b) {\n"
        "        return a.length() - b.length();\n"
        "      }\n"
        "    };\n"
        "  }\n"
        "  void run() {\n"
        "    pool.submit(new Task(queue, 2) {\n"
        "      void step() {\n"
        "        go();\n"
        "      }\n"
        "    });\n"
        "  }\n"
        "}\n"
    )
    assert [label for label, _, _ in _units("T.java", text)] == [
        "class T",
        "testClear()",
        "order()",
        "compare()",
        "run()",
        "step()",
    ]
