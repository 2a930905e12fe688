"""What a unit's label says: its own name as the source writes it, never a look-alike of a
call, a receiver's type, or quotes the source did not use."""

from __future__ import annotations

from reviewbot.engine import open_index
from reviewbot.model import is_callback_label, qualified_label
from reviewbot.render.style import cut_label

ACCESSORS = """\
module.exports = {
  get status () {
    return this.res.statusCode
  },

  set status (code) {
    this.res.statusCode = code
  },

  get (field) {
    return this.header[field]
  },
}

class Box {
  static get #size(): number {
    return 1
  }
}
"""


def test_javascript_getters_and_setters_are_labelled_get_and_set() -> None:
    """koa lib/response.js: `get status ()` and `set status (code)` both read `status()` (two
    findings titled alike, told apart by their lines), a setter like a call."""
    for path in ("a.js", "a.ts"):
        labels = [u.label for u in open_index(path, ACCESSORS).structure.units]
        assert labels[:3] == ["get status", "set status", "get()"], (path, labels)
        assert labels[-1] == "get #size", (path, labels)


KOTLIN = """\
inline fun <reified T : Any> Retrofit.create(): T = create(T::class.java)

suspend fun <T : Any> Call<T?>.await(): T? {
  return null
}

suspend fun <T> Call<T>.awaitResponse(): Response<T> {
  return execute()
}

fun String?.orBlank(): String {
  return this ?: ""
}

fun plain(x: Int): Int {
  return x
}
"""


def test_kotlin_extension_functions_are_named_by_receiver_and_name() -> None:
    """retrofit KotlinExtensions.kt: `await` (three overloads) and `awaitResponse` all read
    `fun Call`, `Retrofit.create` `fun Retrofit`: the receiver's type, not the function."""
    labels = [u.label for u in open_index("a.kt", KOTLIN).structure.units]
    assert labels == [
        "fun Retrofit.create",
        "fun Call.await",
        "fun Call.awaitResponse",
        "fun String.orBlank",
        "fun plain",
    ], labels


QUOTED = """\
describe('with "back"', () => {
  it('should emit "error" on the app', () => {
    emit()
  })
  it("plain", () => {
    go()
  })
})
"""


def test_a_callbacks_label_keeps_the_quotes_of_its_source() -> None:
    """koa d601d7b and 9057541: `describe("with "back"")`, `it("should emit "error" on the
    app")`: the source's single quotes became double quotes around double quotes."""
    units = open_index("a.test.js", QUOTED).structure.units
    assert [u.label for u in units] == [
        "describe('with \"back\"')",
        "it('should emit \"error\" on the app')",
        'it("plain")',
    ]
    assert all(map(is_callback_label, (u.label for u in units)))
    assert qualified_label(" > ".join(u.label for u in units[:2])) == units[1].label
    cut = cut_label("it('should emit \"error\" on the app')", 30)
    assert cut == "it('…\"error\" on the app')", cut


def test_a_callbacks_label_keeps_its_whole_text_and_a_cut_shows_its_last_words() -> None:
    """jotai atomWithObservable.test.tsx: `it('should throw error when writing to non-s…')`:
    the unit kept 40 characters of its text, so the outputs, which keep a callback's last
    words when they cut, showed a middle fragment (`it('…en writing to non-s…')`). The unit
    keeps the text (up to 200 characters: a longer one its start and its end)."""
    words = "should throw error when writing to non-subject observable"
    long = "x" * 150 + " middle " + "y" * 150
    code = f"it('{words}', () => {{\n  run()\n}})\nit('{long}', () => {{\n  run()\n}})\n"
    labels = [u.label for u in open_index("a.test.tsx", code).structure.units]
    assert labels[0] == f"it('{words}')", labels
    assert labels[1] == f"it('{'x' * 100}…{'y' * 99}')", labels
    assert cut_label(labels[0], 40) == "it('…to non-subject observable')"


RUST = """\
struct ErrorVTable {
    object_drop: unsafe fn(Own<ErrorImpl>),
    #[cfg(all(
        not(error_generic_member_access),
        any(std_backtrace, feature = "backtrace")
    ))]
    object_backtrace: unsafe fn(Ref<ErrorImpl>) -> Option<&Backtrace>,
}

// Safety: requires layout of *e to match ErrorImpl<ContextError<C, E>>.
#[cfg(any(feature = "std", not(anyhow_no_core_error)))]
unsafe fn context_downcast<C, E>(e: Ref<ErrorImpl>, target: TypeId) -> Option<Ref<()>>
where
    C: 'static,
    E: 'static,
{
    if TypeId::of::<C>() == target {
        Some(e)
    } else {
        None
    }
}

impl<C, E> Debug for ContextError<C, E>
where
    C: Display,
    E: Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("Error").finish()
    }
}

fn plain(x: u8) -> u8 {
    x
}
"""


def test_rust_where_clauses_and_attributes() -> None:
    """anyhow src/error.rs: a function or impl whose `where` clause stands at its own
    indentation is one unit from its header to its closing brace (was: a one-line unit, its
    body a block of the `where` line, so an edit in it touched no unit); a multi-line
    `#[cfg(all(` attribute in a struct is no member named `cfg`."""
    units = open_index("a.rs", RUST).structure.units
    got = [(u.label, u.start + 1, u.end + 1) for u in units]
    assert got == [
        ("struct ErrorVTable", 1, 8),
        ("fn context_downcast", 12, 22),
        ("impl Debug for ContextError", 24, 32),
        ("fn fmt", 29, 31),
        ("fn plain", 34, 36),
    ], got


def test_a_name_starting_with_end_closes_no_block() -> None:
    """Ruby's `end` closes a block at its opener's indentation; a module-level `endpoint = 2`
    after a function is not part of it (the word, not the prefix)."""
    py = "def f():\n    return 1\nendpoint = 2\n\n\ndef g():\n    return 2\n"
    got = [(u.label, u.start + 1, u.end + 1) for u in open_index("a.py", py).structure.units]
    assert got == [("def f", 1, 2), ("def g", 6, 7)], got
    php = "<?php\nfunction f($x) {\n    if ($x):\n        echo 1;\n    endif;\n    return 2;\n}\n"
    got = [(u.label, u.start + 1, u.end + 1) for u in open_index("a.php", php).structure.units]
    assert got == [("function f", 2, 7)], got  # (PHP's `endif;` still closes its `if`)
    rb = "class A\n  def f\n    1\n  end\nend\nendpoint = 2\n"
    got = [(u.label, u.start + 1, u.end + 1) for u in open_index("a.rb", rb).structure.units]
    assert got == [("class A", 1, 5), ("def f", 2, 4)], got


def test_ruby_singleton_methods_are_named_by_their_method() -> None:
    """`def self.q_values(h)` defines `q_values` on the module (was a unit named `self`, so
    every class method of a file had one name); `def Util.parse` names its receiver."""
    rb = (
        "module Util\n  def self.q_values(h)\n    h\n  end\n\n"
        "  def Util.parse(s)\n    s\n  end\nend\n"
    )
    got = [(u.label, u.start + 1, u.end + 1) for u in open_index("a.rb", rb).structure.units]
    assert got == [("module Util", 1, 9), ("def q_values", 2, 4), ("def Util.parse", 6, 8)], got
