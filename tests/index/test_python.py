"""Python's scoping rules, on small real-shaped packages."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index.support import build, links, targets

MODELS = """\
class Base:
    def save(self):
        return self.clean()

    def clean(self):
        return 1


class Order(Base):
    def clean(self):
        return super().clean() + 1

    def total(self):
        return self.save()


class Invoice:
    def clean(self):
        return 0


def make():
    return Order()
"""

SERVICE = """\
from .models import Order as O, make
from . import models
import shop.util as u


def handle(order, make=None):
    make()
    order.clean()
    models.make()
    u.helper()
    return O()


def run():
    make()
    clean = 3
    return clean
"""

UTIL = """\
def helper():
    pass
"""


def _repo(repo: Path) -> Path:
    return build(
        repo,
        {
            "shop/__init__.py": "from .models import Order\n",
            "shop/models.py": MODELS,
            "shop/service.py": SERVICE,
            "shop/util.py": UTIL,
            "app.py": "from shop import Order\n\nOrder().total()\n",
        },
    )


def test_self_and_super_follow_the_class_and_its_bases(repo: Path) -> None:
    db = _repo(repo)
    # Base.save's self.clean() may be Base.clean: the class's own member, by the rules.
    assert targets(db, "shop/models.py", 3, "clean") == {("Base.clean", 5)}
    # super().clean() in Order skips Order.clean and finds Base.clean.
    assert targets(db, "shop/models.py", 11, "clean") == {("Base.clean", 5)}
    # self.save() in Order is inherited from Base.
    assert targets(db, "shop/models.py", 14, "save") == {("Base.save", 2)}


def test_unknown_receiver_links_every_method_of_that_name_with_shared_confidence(
    repo: Path,
) -> None:
    db = _repo(repo)
    found = targets(db, "shop/service.py", 8, "clean")
    assert found == {("Base.clean", 5), ("Order.clean", 10), ("Invoice.clean", 18)}


def test_parameters_shadow_imports_and_imports_resolve_with_aliases(repo: Path) -> None:
    db = _repo(repo)
    assert targets(db, "shop/service.py", 7, "make") == set()  # the parameter, not the import
    assert targets(db, "shop/service.py", 15, "make") == {("make", 22)}
    assert targets(db, "shop/service.py", 9, "make") == {("make", 22)}  # models.make()
    assert targets(db, "shop/service.py", 10, "helper") == {("helper", 1)}  # u.helper()
    assert targets(db, "shop/service.py", 11, "O") == {("Order", 9)}  # an aliased class
    assert targets(db, "shop/service.py", 17, "clean") == set()  # a local variable


def test_package_reexports_resolve_to_the_defining_module(repo: Path) -> None:
    db = _repo(repo)
    assert targets(db, "app.py", 3, "Order") == {("Order", 9)}
    assert targets(db, "app.py", 3, "total") == {("Order.total", 13)}


def test_locals_and_parameters_with_a_written_class_resolve_to_its_members(repo: Path) -> None:
    db = build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/models.py": MODELS,
            "shop/run.py": (
                "from shop.models import Order, Invoice\n"
                "import shop.models as m\n\n\n"
                "def f(o: Order, i: m.Invoice):\n"
                "    x = Invoice()\n"
                "    x.clean()\n"
                "    o.clean()\n"
                "    i.clean()\n"
                "    o.save()\n"
            ),
        },
    )
    assert targets(db, "shop/run.py", 7, "clean") == {("Invoice.clean", 18)}
    assert targets(db, "shop/run.py", 8, "clean") == {("Order.clean", 10)}
    assert targets(db, "shop/run.py", 9, "clean") == {("Invoice.clean", 18)}
    assert targets(db, "shop/run.py", 10, "save") == {("Base.save", 2)}  # inherited


def test_attributes_set_on_self_and_class_attributes_are_fields(repo: Path) -> None:
    db = build(
        repo,
        {
            "box.py": (
                "class Box:\n"
                "    LIMIT = 3\n\n"
                "    def __init__(self, size):\n"
                "        self.size = size\n\n"
                "    def fits(self, size):\n"
                "        return size <= self.size <= self.LIMIT\n"
            ),
        },
    )
    assert targets(db, "box.py", 8, "size") == {("Box.size", 5)}  # not the parameter
    assert targets(db, "box.py", 8, "LIMIT") == {("Box.LIMIT", 2)}


def test_folders_without_init_resolve_as_namespace_packages(repo: Path) -> None:
    """PEP 420 namespace packages (`ns/plugins/` without `__init__.py`) and script folders
    (`tests/`) are modules by their dotted path from a folder above them; of two files with
    that path the one nearer the importing file is meant; relative imports follow the
    importing file's folder."""
    db = build(
        repo,
        {
            "ns/plugins/csv.py": "def load():\n    return 1\n",
            "ns/plugins/extra/more.py": "def load():\n    return 2\n",
            "app.py": (
                "from ns.plugins.csv import load\n"
                "import ns.plugins.extra.more as more\n\n"
                "load()\n"
                "more.load()\n"
            ),
            "tests/helpers.py": "def make():\n    return 3\n",
            "tests/test_a.py": (
                "from tests.helpers import make\n"
                "from .helpers import make as again\n\n"
                "make()\n"
                "again()\n"
            ),
            "other/tests/helpers.py": "def make():\n    return 4\n",
            "other/tests/test_b.py": "from tests.helpers import make\n\nmake()\n",
            "django/json.py": "def dumps():\n    return 5\n",
            "django/__init__.py": "",
            "uses_stdlib.py": "import json\n\njson.dumps()\n",
        },
    )
    assert targets(db, "app.py", 4, "load") == {("load", 1)}
    assert {p for p, *_ in _edges_at(db, "app.py", 4)} == {"ns/plugins/csv.py"}
    assert {p for p, *_ in _edges_at(db, "app.py", 5)} == {"ns/plugins/extra/more.py"}
    assert {p for p, *_ in _edges_at(db, "tests/test_a.py", 4)} == {"tests/helpers.py"}
    assert {p for p, *_ in _edges_at(db, "tests/test_a.py", 5)} == {"tests/helpers.py"}
    assert {p for p, *_ in _edges_at(db, "other/tests/test_b.py", 3)} == {"other/tests/helpers.py"}
    # A module inside a regular package is never a top-level module (`json` is the stdlib's).
    assert _edges_at(db, "uses_stdlib.py", 3) == set()


def _edges_at(db: Path, path: str, line: int) -> set[tuple[str, str]]:
    """(defining file, qualified name) of every edge from a reference on ``path:line``."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT df.path, d.qualified FROM edges e JOIN refs r ON r.id = e.ref_id "
            "JOIN files rf ON rf.id = r.file_id JOIN defs d ON d.id = e.def_id "
            "JOIN files df ON df.id = d.file_id WHERE rf.path = ? AND r.line = ?",
            (path, line),
        ).fetchall()
    finally:
        conn.close()
    return {(a, b) for a, b in rows}


TYPED = """\
from __future__ import annotations

from typing import Optional

from shop.models import Invoice, Order


class Desk:
    ledger: "Invoice"

    def __init__(self, order: Optional[Order] = None, spare: Invoice | None = None):
        self.order = order
        self.bill: Invoice = fresh()
        self.copy = Invoice()
        self.spare = spare

    def run(self, other: "Order", anything):
        self.order.clean()
        self.bill.clean()
        self.copy.clean()
        self.ledger.clean()
        self.spare.clean()
        other.clean()
        anything.clean()
        made = fresh()
        made.clean()
        mine = self.own()
        mine.clean()
        with Order() as held:
            held.clean()
        text: str = ""
        text.clean()

    def own(self) -> Order:
        return Order()


def fresh() -> Invoice:
    return Invoice()
"""


def test_written_types_pick_the_method_of_that_class(repo: Path) -> None:
    db = build(
        repo,
        {"shop/__init__.py": "", "shop/models.py": MODELS, "shop/desk.py": TYPED},
    )
    order, invoice = {("Order.clean", 10)}, {("Invoice.clean", 18)}
    # Each form of a written type: one method of the two named `clean`, for sure.
    assert targets(db, "shop/desk.py", 18, "clean") == order  # self.x = a typed parameter
    assert targets(db, "shop/desk.py", 19, "clean") == invoice  # self.x: Foo = ...
    assert targets(db, "shop/desk.py", 20, "clean") == invoice  # self.x = Foo()
    assert targets(db, "shop/desk.py", 21, "clean") == invoice  # class body `x: "Foo"`
    assert targets(db, "shop/desk.py", 22, "clean") == invoice  # `Foo | None`
    assert targets(db, "shop/desk.py", 23, "clean") == order  # a string annotation
    assert targets(db, "shop/desk.py", 26, "clean") == invoice  # x = f() with f() -> Foo
    assert targets(db, "shop/desk.py", 28, "clean") == order  # x = self.f() with -> Foo
    assert targets(db, "shop/desk.py", 30, "clean") == order  # with Foo() as x
    # A builtin type's methods are never the repository's.
    assert targets(db, "shop/desk.py", 32, "clean") == set()
    # An unknown receiver stays a guess: every `clean`, each at a third.
    guesses = {
        (d, c) for p, ln, n, d, _, c in links(db) if (p, ln, n) == ("shop/desk.py", 24, "clean")
    }
    assert guesses == {("Base.clean", 0.3333), ("Order.clean", 0.3333), ("Invoice.clean", 0.3333)}


def test_call_receivers_inherited_attributes_and_lone_guesses(repo: Path) -> None:
    db = build(
        repo,
        {
            "shop/__init__.py": "",
            "shop/models.py": MODELS,
            "shop/calls.py": (
                "import json\n"
                "from shop.models import Invoice, Order, make\n\n\n"
                "class Holder:\n"
                "    def __init__(self, order: Order):\n"
                "        self.order = order\n\n\n"
                "class Child(Holder):\n"
                "    def run(self, loose):\n"
                "        self.order.clean()\n"
                "        Invoice().clean()\n"
                "        json.loads('1').clean()\n"
                "        loose.total()\n"
            ),
        },
    )
    assert targets(db, "shop/calls.py", 12, "clean") == {("Order.clean", 10)}  # the base's
    assert targets(db, "shop/calls.py", 13, "clean") == {("Invoice.clean", 18)}  # Foo().m()
    assert targets(db, "shop/calls.py", 14, "clean") == set()  # what a library returns
    # The only `total` there is, through a receiver nobody typed: a guess, 1/candidates.
    total = {
        (d, c) for p, ln, n, d, _, c in links(db) if (p, ln, n) == ("shop/calls.py", 15, "total")
    }
    assert total == {("Order.total", 1.0)}


def test_a_comment_after_the_header_is_no_part_of_the_signature(repo: Path) -> None:
    """`def f(x):  # note` and a comment line above the body: the signature is the header
    (real code does this often; the comment used to run into `defs`, `map` and the pack)."""
    source = (
        "class A:\n"
        "    def f(self, x):  # note here\n"
        "        # more\n"
        "        return x\n"
        "\n"
        "    def g(self) -> int:\n"
        "        return 1\n"
    )
    db = build(
        repo, {"a.py": source, "b.ts": "function m(x: number): number // why\n{\n  return x;\n}\n"}
    )
    with sqlite3.connect(db) as conn:
        found = dict(conn.execute("SELECT qualified, signature FROM defs"))
    assert found["A.f"] == "def f(self, x)"
    assert found["A.g"] == "def g(self) -> int"
    assert found["m"] == "function m(x: number): number"


def test_a_comment_inside_the_parameter_list_is_no_part_of_the_signature(repo: Path) -> None:
    """starlette's `def get(  # type: ignore[override]` showed the comment in `map` and the
    pack; quoted `#` and `//` (a default) stay, and a TS private `#name` is no comment."""
    source = (
        "class Client:\n"
        "    def get(  # type: ignore[override]\n"
        "        self,\n"
        "        url: str,  # the address\n"
        "        sep: str = '#',\n"
        "    ) -> str:\n"
        "        return url + sep\n"
    )
    ts = (
        "export class Box {\n"
        "  #open(at: string = 'http://x' /* base */, n: number // how many\n"
        "  ): number {\n    return n;\n  }\n"
        "}\n"
    )
    db = build(repo, {"c.py": source, "b.ts": ts})
    with sqlite3.connect(db) as conn:
        found = dict(conn.execute("SELECT qualified, signature FROM defs"))
    assert found["Client.get"] == "def get(self, url: str, sep: str = '#') -> str"
    assert found["Box.#open"] == "#open(at: string = 'http://x', n: number): number"


def test_a_header_over_several_lines_reads_as_one(repo: Path) -> None:
    """Black and Prettier write long headers one parameter per line; the signature shown in
    `defs`, `map` and the pack reads as the header written on one line (no `( a` or `, )`),
    and a tuple default keeps its comma."""
    source = "def f(\n    a,\n    b=(1,),\n) -> list[\n    int\n]:\n    return [a]\n"
    ts = "function g(\n  a: number,\n  b: string,\n): void {\n}\n"
    db = build(repo, {"a.py": source, "b.ts": ts})
    with sqlite3.connect(db) as conn:
        found = dict(conn.execute("SELECT qualified, signature FROM defs"))
    assert found["f"] == "def f(a, b=(1,)) -> list[int]"
    assert found["g"] == "function g(a: number, b: string): void"


def test_an_untyped_receiver_links_to_five_members_at_most(repo: Path) -> None:
    """`obj.run()` nobody can type: each of up to 5 `run` methods in reach at 1/5; with a
    sixth in reach, none (a guess of 1 in 6 tells a reader nothing)."""
    classes = "".join(
        f"class K{k}:\n    def run(self):\n        return {k}\n\n\n" for k in range(6)
    )
    caller = "from pkg import kinds\n\n\ndef go(obj):\n    return obj.run()\n"
    five = classes.split("class K5")[0]

    def guesses(kinds: str) -> set[tuple[str, float]]:
        db = build(repo, {"pkg/__init__.py": "", "pkg/kinds.py": kinds, "pkg/use.py": caller})
        return {(d, c) for p, ln, n, d, _, c in links(db) if (p, ln, n) == ("pkg/use.py", 5, "run")}

    assert guesses(five) == {(f"K{k}.run", 0.2) for k in range(5)}
    assert guesses(classes) == set()


HANDLE = (
    "def handle(obj, natural):\n"
    "    if natural:\n"
    "        def iterate(o):\n"
    "            return o.natural()\n"
    "    else:\n"
    "        def iterate(o):\n"
    "            return o.pk\n"
    "    return iterate(obj)\n"
)


def test_a_local_function_defined_in_both_branches_means_both(repo: Path) -> None:
    """Django's xml serializer defines `queryset_iterator` in each branch of an `if` inside a
    method and calls it after: the call meant the first definition only (jedi: both), so a
    re-signed second one had no caller. Module-level ones already meant both."""
    db = build(
        repo,
        {
            "ser.py": (
                HANDLE + "\n"
                "\n"
                "def other(obj):\n"
                "    def iterate(o):\n"
                "        return o\n"
                "    return iterate(obj)\n"
            )
        },
    )
    assert targets(db, "ser.py", 8, "iterate") == {("handle.iterate", 3), ("handle.iterate", 6)}
    assert targets(db, "ser.py", 14, "iterate") == {("other.iterate", 12)}  # its own only


def test_local_namesakes_survive_an_update(repo: Path) -> None:
    files = {
        "ser.py": HANDLE,
        "use.py": "from ser import handle\n",
    }
    db = build(repo, files)
    # A commit that touches the file: its references are resolved again, on their own.
    db = build(repo, {"ser.py": "# the serializer\n" + files["ser.py"]}, db=db)
    assert targets(db, "ser.py", 9, "iterate") == {("handle.iterate", 4), ("handle.iterate", 7)}
