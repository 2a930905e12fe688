"""ES/TypeScript, Go and Java scoping rules on small real-shaped examples."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reviewbot.index import query
from tests.index.support import build, links, targets


def test_es_named_default_namespace_imports_and_reexports(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/shapes.ts": (
                "export class Circle {\n"
                "  area(): number { return this.radius(); }\n"
                "  radius(): number { return 1; }\n"
                "}\n"
                "export class Square {\n"
                "  area(): number { return 4; }\n"
                "}\n"
                "export function make(): Circle { return new Circle(); }\n"
            ),
            "src/index.ts": "export { make as build, Circle } from './shapes';\n",
            "src/app.ts": (
                "import { build, Circle } from './index';\n"
                "import * as S from './shapes';\n"
                "function make() { return 0; }\n"
                "const c: Circle = build();\n"
                "S.make();\n"
                "make();\n"
                "function local(make: number) { return make; }\n"
                "c.area();\n"
                "function use(s: any, t) { s.area(); t.area(); }\n"
            ),
        },
    )
    assert targets(db, "src/shapes.ts", 2, "radius") == {("Circle.radius", 3)}  # this.radius()
    assert targets(db, "src/app.ts", 4, "build") == {("make", 8)}  # re-exported under an alias
    assert targets(db, "src/app.ts", 4, "Circle") == {("Circle", 1)}
    assert targets(db, "src/app.ts", 5, "make") == {("make", 8)}  # a namespace import
    assert targets(db, "src/app.ts", 6, "make") == {("make", 3)}  # the file's own make
    assert targets(db, "src/app.ts", 7, "make") == set()  # a parameter shadows it
    # A receiver typed by its annotation: that class's method only.
    assert targets(db, "src/app.ts", 8, "area") == {("Circle.area", 2)}
    # Unknown receivers (`any`, no annotation): both area methods, half sure each.
    both = {("Circle.area", 2), ("Square.area", 6)}
    assert targets(db, "src/app.ts", 9, "area") == both


def test_go_packages_imports_and_receivers(repo: Path) -> None:
    db = build(
        repo,
        {
            "go.mod": "module example.com/shop\n\ngo 1.21\n",
            "store/store.go": (
                "package store\n\n"
                "type Store struct{ n int }\n\n"
                "func (s *Store) Add() int { return s.count() }\n\n"
                "func (s *Store) count() int { return s.n }\n\n"
                "func New() *Store { return &Store{} }\n"
            ),
            "store/helpers.go": "package store\n\nfunc Fresh() *Store { return New() }\n",
            "main.go": (
                "package main\n\n"
                'import st "example.com/shop/store"\n\n'
                "func main() {\n"
                "\tx := st.New()\n"
                "\tx.Add()\n"
                "\tNew := 3\n"
                "\t_ = New\n"
                "}\n"
            ),
        },
    )
    assert targets(db, "store/store.go", 5, "count") == {("Store.count", 7)}  # receiver
    assert targets(db, "store/helpers.go", 3, "New") == {("New", 9)}  # same package
    assert targets(db, "main.go", 6, "New") == {("New", 9)}  # through go.mod's module path
    assert targets(db, "main.go", 9, "New") == set()  # a local variable
    assert targets(db, "main.go", 7, "Add") == {("Store.Add", 5)}
    # A Go struct is a struct, not a class (gin's impact JSON said "class Context").
    conn = sqlite3.connect(db)
    try:
        kinds = dict(conn.execute("SELECT qualified, kind FROM defs WHERE name = 'Store'"))
    finally:
        conn.close()
    assert kinds == {"Store": "struct"}


def test_java_imports_packages_and_members(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/com/acme/model/Base.java": (
                "package com.acme.model;\n\n"
                "public class Base {\n"
                "    public int id() { return 1; }\n"
                "}\n"
            ),
            "src/com/acme/model/Order.java": (
                "package com.acme.model;\n\n"
                "public class Order extends Base {\n"
                "    int total() { return id() + this.id(); }\n"
                "    static Order make() { return new Order(); }\n"
                "}\n"
            ),
            "src/com/acme/app/App.java": (
                "package com.acme.app;\n\n"
                "import com.acme.model.Order;\n\n"
                "class App {\n"
                "    void run() { Order o = Order.make(); o.total(); }\n"
                "    int id() { return 0; }\n"
                "}\n"
            ),
        },
    )
    order = "src/com/acme/model/Order.java"
    assert targets(db, order, 4, "id") == {("Base.id", 4)}  # bare member, inherited
    assert targets(db, order, 5, "Order") == {("Order", 3)}  # same package, same file
    app = "src/com/acme/app/App.java"
    assert targets(db, app, 6, "Order") == {("Order", 3)}  # a single-type import
    assert targets(db, app, 6, "make") == {("Order.make", 5)}
    assert targets(db, app, 6, "total") == {("Order.total", 4)}


def test_languages_without_a_grammar_link_by_name_only(repo: Path) -> None:
    db = build(
        repo,
        {
            "lib/note.rb": "class Note\n  def show\n    render\n  end\nend\n",
            "app/run.rb": "def main\n  note = Note.new\n  note.show\nend\n",
            "app/other.py": "def show():\n    pass\n",
        },
    )
    # By name, within the language: the Python `show` is not a candidate.
    assert targets(db, "app/run.rb", 3, "show") == {("Note.show", 2)}
    assert targets(db, "app/run.rb", 2, "Note") == {("Note", 1)}


def test_ts_written_types_pick_the_method_of_that_class(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/sets.ts": (
                "export class DraftSet<T> {\n"
                "  add(v: T): this { return this; }\n"
                "}\n"
                "export class DraftMap {\n"
                "  add(k: string): void {}\n"
                "}\n"
                "export function fresh(): DraftSet<number> | undefined { return new DraftSet(); }\n"
            ),
            "src/use.ts": (
                "import { DraftSet, DraftMap, fresh } from './sets';\n"
                "class Owner {\n"
                "  private field: DraftSet<string> | null = null;\n"
                "  made: DraftMap;\n"
                "  constructor(private kept: DraftMap, readonly other: DraftSet<number>) {\n"
                "    this.made = new DraftMap();\n"
                "  }\n"
                "  run(arg?: DraftMap, loose?: any) {\n"
                "    this.field.add('a');\n"
                "    this.kept.add('b');\n"
                "    this.other.add(1);\n"
                "    this.made.add('c');\n"
                "    arg.add('d');\n"
                "    const got = fresh();\n"
                "    got.add(2);\n"
                "    const text: string = 'x';\n"
                "    text.add(3);\n"
                "    loose.add(4);\n"
                "  }\n"
                "}\n"
                "function generic<Shape extends DraftMap>(x: Shape) { x.add(5); }\n"
            ),
        },
    )
    draft_set, draft_map = {("DraftSet.add", 2)}, {("DraftMap.add", 5)}
    assert targets(db, "src/use.ts", 9, "add") == draft_set  # a field, generics and null off
    assert targets(db, "src/use.ts", 10, "add") == draft_map  # a constructor parameter property
    assert targets(db, "src/use.ts", 11, "add") == draft_set  # a readonly one
    assert targets(db, "src/use.ts", 12, "add") == draft_map  # a field `x: Foo`
    assert targets(db, "src/use.ts", 13, "add") == draft_map  # an optional parameter
    assert targets(db, "src/use.ts", 15, "add") == draft_set  # what the function returns
    assert targets(db, "src/use.ts", 17, "add") == set()  # a primitive's methods
    assert targets(db, "src/use.ts", 18, "add") == draft_set | draft_map  # `any`: a guess
    assert targets(db, "src/use.ts", 21, "add") == draft_set | draft_map  # a type parameter


def test_ts_a_typed_call_also_means_the_overrides_and_the_overridden(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/shapes.ts": (
                "export abstract class Shape {\n"
                "  abstract area(): number;\n"
                "  describe(): string { return String(this.area()); }\n"
                "}\n"
                "export class Circle extends Shape {\n"
                "  area(): number { return 3; }\n"
                "}\n"
                "export class Plot {\n"
                "  area(): number { return 0; }\n"
                "}\n"
            ),
            "src/use.ts": (
                "import { Circle, Shape } from './shapes';\n"
                "export function size(c: Circle, s: Shape): number {\n"
                "  return c.area() + s.area();\n"
                "}\n"
            ),
        },
    )
    edges = {(p, ln, d, c) for p, ln, n, d, _, c in links(db) if n == "area"}
    # `this.area()` in Shape: Shape's for sure, and Circle's override may run instead.
    assert {(d, c) for p, ln, d, c in edges if (p, ln) == ("src/shapes.ts", 3)} == {
        ("Shape.area", 1.0),
        ("Circle.area", 0.5),
    }
    # Never the unrelated Plot.area.
    assert not {e for e in edges if e[2] == "Plot.area" and e[0] == "src/use.ts"}
    assert ("src/use.ts", 3, "Circle.area", 1.0) in edges
    assert ("src/use.ts", 3, "Shape.area", 0.5) in edges


def test_ts_a_method_of_an_outside_class_may_run_a_repository_override(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/sets.ts": (
                "export class DraftSet extends Set<number> {\n"
                "  add(v: number): this { return super.add(v); }\n"
                "}\n"
                "export class Other {\n"
                "  add(v: number): void {}\n"
                "}\n"
            ),
            "src/use.ts": (
                "export function fill(s: Set<number>, m: Map<string, number>): void {\n"
                "  s.add(1);\n"
                "  m.set('a', 1);\n"
                "  const t = new Set<string>();\n"
                "  t.add('x');\n"
                "}\n"
            ),
        },
    )
    edges = {(p, ln, d, c) for p, ln, n, d, _, c in links(db) if p == "src/use.ts"}
    # A Set's add may be DraftSet's override (half sure); never Other.add.
    assert ("src/use.ts", 2, "DraftSet.add", 0.5) in edges
    assert ("src/use.ts", 5, "DraftSet.add", 0.5) in edges
    assert not {e for e in edges if e[2] == "Other.add"}


def test_go_and_java_written_types_pick_the_method_of_that_type(repo: Path) -> None:
    db = build(
        repo,
        {
            "go.mod": "module example.com/shop\n\ngo 1.21\n",
            "shop/kinds.go": (
                "package shop\n\n"
                "type Cart struct{}\n\n"
                "func (c *Cart) Add() {}\n\n"
                "type Bag struct{}\n\n"
                "func (b Bag) Add() {}\n\n"
                "func NewCart() (*Cart, error) { return &Cart{}, nil }\n"
            ),
            "shop/use.go": (
                "package shop\n\n"
                "func fill(b *Bag, x interface{ Add() }) {\n"
                "\tc := &Cart{}\n"
                "\tc.Add()\n"
                "\tb.Add()\n"
                "\td, _ := NewCart()\n"
                "\td.Add()\n"
                "\tvar e Bag\n"
                "\te.Add()\n"
                "\tx.Add()\n"
                "\tif f, ok := x.(*Bag); ok {\n"
                "\t\tf.Add()\n"
                "\t}\n"
                "\tg, _ := x.(interface{ Add() })\n"
                "\tg.Add()\n"
                "}\n"
            ),
            "shop/flush.go": (
                'package shop\n\nimport "net/http"\n\n'
                "type Writer struct{ R http.ResponseWriter }\n\n"
                "func (w *Writer) Flush() {\n"
                "\tif f, ok := w.R.(http.Flusher); ok {\n"
                "\t\tf.Flush()\n"
                "\t}\n"
                "}\n"
            ),
            "src/p/Cart.java": "package p;\n\nclass Cart {\n  void add() {}\n}\n",
            "src/p/Bag.java": "package p;\n\nclass Bag {\n  void add() {}\n}\n",
            "src/p/Shop.java": (
                "package p;\n\n"
                "class Shop {\n"
                "  private Cart cart;\n"
                "  void run(Bag bag) {\n"
                "    cart.add();\n"
                "    this.cart.add();\n"
                "    bag.add();\n"
                "  }\n"
                "}\n"
            ),
        },
    )
    cart, bag = {("Cart.Add", 5)}, {("Bag.Add", 9)}
    assert targets(db, "shop/use.go", 5, "Add") == cart  # c := &Cart{}
    assert targets(db, "shop/use.go", 6, "Add") == bag  # a parameter `b *Bag`
    assert targets(db, "shop/use.go", 8, "Add") == cart  # what NewCart returns
    assert targets(db, "shop/use.go", 10, "Add") == bag  # var e Bag
    assert targets(db, "shop/use.go", 11, "Add") == cart | bag  # an interface value: a guess
    # A type assertion's value has the asserted type: gin's `f, ok :=
    # w.ResponseWriter.(http.Flusher); f.Flush()` called the library's Flush, not its own
    # (a lone guess, at 1.0); an interface written in place is still a guess.
    assert targets(db, "shop/use.go", 13, "Add") == bag
    assert targets(db, "shop/use.go", 16, "Add") == cart | bag
    assert targets(db, "shop/flush.go", 9, "Flush") == set()
    assert targets(db, "src/p/Shop.java", 6, "add") == {("Cart.add", 4)}  # a field
    assert targets(db, "src/p/Shop.java", 7, "add") == {("Cart.add", 4)}  # this.field
    assert targets(db, "src/p/Shop.java", 8, "add") == {("Bag.add", 4)}  # a parameter


def test_java_constants_by_their_own_modifiers_and_in_interfaces(repo: Path) -> None:
    db = build(
        repo,
        {
            "src/com/acme/Names.java": (
                "package com.acme;\n\n"
                "public class Names {\n"
                "    final String name;\n"
                "    private static final class Inner {}\n"
                "    static final int LIMIT = 3;\n"
                "    static int counter;\n"
                "}\n"
            ),
            "src/com/acme/Keys.java": (
                "package com.acme;\n\n"
                "public interface Keys {\n"
                '    String HOME = "home";\n'
                "    int size();\n"
                "}\n"
            ),
            "src/com/acme/Home.java": (
                "package com.acme;\n\n"
                "class Home implements Keys {\n"
                "    public int size() { return HOME.length() + Keys.HOME.length(); }\n"
                "}\n"
            ),
        },
    )
    home = "src/com/acme/Home.java"
    assert targets(db, home, 4, "HOME") == {("Keys.HOME", 4)}  # inherited, and qualified
    conn = sqlite3.connect(db)
    try:
        kinds = dict(
            conn.execute("SELECT qualified, kind FROM defs WHERE kind IN ('field', 'constant')")
        )
    finally:
        conn.close()
    # `name` sits above a `static final` class, which is no modifier of its own.
    assert kinds == {
        "Names.name": "field",
        "Names.LIMIT": "constant",
        "Names.counter": "field",
        "Keys.HOME": "constant",  # an interface's fields are static and final
    }


def test_ts_signatures_without_a_body_are_whole_past_their_braces(repo: Path) -> None:
    # pinia's `defineStore` overloads: `S extends StateTree = {}` cut the stored signature at
    # its `{`, before the parameters a re-sign would change.
    db = build(
        repo,
        {
            "src/store.ts": (
                "export function defineStore<Id extends string, S = {}>(id: Id, o: { s: S }): Id\n"
                "export function defineStore(id: any, o?: any): any {\n"
                "  return id\n"
                "}\n"
                "interface Opts {\n"
                "  run(cb: (x: { a: 1 }) => void): { c: 3 };\n"
                "}\n"
                "type Props = { a: string }\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT qualified, line, signature FROM defs").fetchall()
    finally:
        conn.close()
    signatures = {(q, line): s for q, line, s in rows}
    assert signatures[("defineStore", 1)] == (
        "function defineStore<Id extends string, S = {}>(id: Id, o: { s: S }): Id"
    )
    assert signatures[("Opts.run", 6)] == "run(cb: (x: { a: 1 }) => void): { c: 3 }"
    assert signatures[("Props", 8)] == "type Props"  # a type's body stays out


def test_ts_infer_declares_a_type_variable_of_its_conditional_s_true_branch(repo: Path) -> None:
    # zustand's `S extends { setState: infer SetState } ? SetState extends ...`: the SetState
    # of the `extends` clause and of the true branch is the one `infer` declares, no use of
    # the module's `type SetState`; the false branch's is the module's.
    db = build(
        repo,
        {
            "src/types.ts": (
                "export type SetState = { a: number }\n"
                "export type A1 = number\n"
                "type X<S> = S extends { setState: infer SetState }\n"
                "  ? SetState extends { (...args: infer A1): void }\n"
                "    ? [SetState, A1]\n"
                "    : SetState\n"
                "  : SetState\n"
                "type Y<S> = S extends { k: infer SetState extends A1 } ? { v: SetState } : A1\n"
                "type Z<S> = S extends (infer SetState)[] ? SetState : A1\n"
                "type W<S> = S extends [infer A1] ? A1 : S extends A1 ? SetState : never\n"
            ),
        },
    )
    set_state, a1 = ("SetState", 1), ("A1", 2)
    assert {(ln, n) for p, ln, n, *_ in links(db)} == {
        (7, "SetState"),  # the outer false branch
        (8, "A1"),  # `infer X extends A1`: a constraint; the false branch
        (9, "A1"),
        (10, "A1"),  # a conditional in a false branch: none of the outer `infer`'s
        (10, "SetState"),
    }
    assert targets(db, "src/types.ts", 7, "SetState") == {set_state}
    assert targets(db, "src/types.ts", 10, "A1") == {a1}


def test_ts_type_parameters_shadow_the_module_s_types_where_they_are_declared(
    repo: Path,
) -> None:
    # `<Input>` of a function, an arrow, a class, a method, an interface, its method
    # signature, a type alias, an overload signature, and a mapped type's `[K in ...]`: each
    # `Input` (or `K`) there is the parameter, no use of the module's `type Input`; the
    # module's is used only where no parameter of that name is declared around it.
    db = build(
        repo,
        {
            "src/types.ts": (
                "export type Input = { a: number }\n"
                "export type K = string\n"
                "export function f<Input>(x: Input): Input { return x }\n"
                "export const g = <Input,>(y: Input): Input => y\n"
                "export class Box<Input> extends Array<Input> {\n"
                "  value!: Input\n"
                "  get<Out extends Input>(o: Out): Input { return o }\n"
                "  put(v: Input): void {}\n"
                "}\n"
                "interface I<Input> { one: Input; two<Z>(z: Input): Z }\n"
                "interface J { three<Input>(i: Input): Input; four(i: Input): K }\n"
                "type F<Input> = Input[]\n"
                "export function h<Input>(x: Input): Input\n"
                "type M<T> = { [K in keyof T]: K }\n"
                "let z: Input\n"
                "let k: K\n"
            ),
        },
    )
    used = {(ln, n) for p, ln, n, *_ in links(db)}
    assert used == {(11, "Input"), (11, "K"), (15, "Input"), (16, "K")}
    assert targets(db, "src/types.ts", 15, "Input") == {("Input", 1)}


def test_a_receiver_typed_by_a_class_declared_in_a_function_means_its_members(repo: Path) -> None:
    # echo's benchmarks: `type Opts struct { Param int64 }` declared in the function, then
    # `&dest.Param` with `var dest Opts`: a field of Opts, never the package's method
    # `Context.Param` (linked at confidence 1: the resolver, knowing only a file's top-level
    # types, took Opts for unknown and guessed by name).
    db = build(
        repo,
        {
            "go.mod": "module example.com/m\n\ngo 1.21\n",
            "ctx.go": (
                "package m\n\n"
                "type Context struct{ n int }\n\n"
                "func (c *Context) Param(name string) string { return name }\n\n"
                "func Use(p *int64) {}\n\n"
                "func Bench() {\n"
                "\ttype Opts struct {\n"
                "\t\tParam int64\n"
                "\t}\n"
                "\tvar dest Opts\n"
                "\tUse(&dest.Param)\n"
                "\td2 := Opts{}\n"
                "\td2.Param = 2\n"
                "\tvar c Context\n"
                '\t_ = c.Param("x")\n'
                "}\n"
            ),
            "src/shapes.ts": (
                "export class Other { m(): number { return 1 } n(): number { return 2 } }\n"
                "export function f(): number {\n"
                "  class Local { m(): number { return 3 } }\n"
                "  const l = new Local()\n"
                "  l.n()\n"
                "  return l.m()\n"
                "}\n"
            ),
        },
    )
    # (the field itself: a struct's fields are definitions)
    assert targets(db, "ctx.go", 14, "Param") == {("Bench.Opts.Param", 11)}
    assert targets(db, "ctx.go", 16, "Param") == {("Bench.Opts.Param", 11)}
    assert targets(db, "ctx.go", 18, "Param") == {("Context.Param", 5)}
    # A TS class declared in a function: its own members (none was linked), or nothing.
    assert targets(db, "src/shapes.ts", 5, "n") == set()
    assert targets(db, "src/shapes.ts", 6, "m") == {("f.Local.m", 3)}


def test_a_go_call_chain_is_typed_through_the_return_type_written(repo: Path) -> None:
    """mux: `r.NewRoute().Name(name)` (r a `*Router`, NewRoute declared `*Route`) was a
    guess by name (`Router.Name` or `Route.Name`), so no RB106 when `Route.Name` was
    re-signed: 26 `.Name(…)` calls "not checked". A chain's head, a method's receiver or a
    local, is typed, and each call by the type its method's header writes."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/shop\n\ngo 1.21\n",
            "shop/shop.go": (
                "package shop\n\n"
                "type Cart struct{}\n\n"
                "type Bag struct{}\n\n"
                "func NewCart() *Cart { return &Cart{} }\n\n"
                "func (c *Cart) Bag() *Bag { return &Bag{} }\n\n"
                "func (c *Cart) Add() {}\n\n"
                "func (b *Bag) Add() {}\n\n"
                "func (c *Cart) Fill() {\n"
                "\tc.Bag().Add()\n"
                "}\n\n"
                "func use() {\n"
                "\tcart := NewCart()\n"
                "\tcart.Bag().Add()\n"
                "}\n"
            ),
        },
    )
    bag = {("Bag.Add", 13)}
    assert targets(db, "shop/shop.go", 16, "Add") == bag  # through the receiver c *Cart
    assert targets(db, "shop/shop.go", 21, "Add") == bag  # through a local


def test_go_an_unexported_member_is_its_own_packages_and_a_comment_dot_is_no_receiver(
    repo: Path,
) -> None:
    # logrus: `tc.log(...)` in package `logrus_test` (a test table's func field) was a sure
    # call of the unexported `Entry.log`; and `entry.log(msg)` under a line comment ending
    # with a dot (`// ... adds its own.`) read its receiver as `own.entry`: a guess.
    db = build(
        repo,
        {
            "go.mod": "module example.com/logrus\n\ngo 1.21\n",
            "entry.go": (
                "package logrus\n\ntype Entry struct{}\n\n"
                "func (entry *Entry) log(msg string) {}\n\n"
                "func (entry *Entry) logln(msg string) {\n"
                "\tmsg = msg[:1] // logging adds its own.\n"
                "\tentry.log(msg)\n}\n"
            ),
            "entry_test.go": (
                "package logrus_test\n\nfunc TestLog(t *testing.T) {\n"
                '\ttc := struct{ log func(string) }{}\n\ttc.log("x")\n}\n'
            ),
            "inner_test.go": 'package logrus\n\nfunc helper(e *Entry, x any) {\n\tx.log("y")\n}\n',
        },
    )
    assert targets(db, "entry.go", 9, "log") == {("Entry.log", 5)}
    conn = sqlite3.connect(db)
    try:
        (how,) = conn.execute(
            "SELECT r.how FROM refs r JOIN files f ON f.id = r.file_id "
            "WHERE f.path = 'entry.go' AND r.line = 9 AND r.lookup = 'log'"
        ).fetchone()
        # `tc.log` of another package is no reference left unchecked either.
        symbol = query.Symbol(0, "log", "Entry.log", "method", "entry.go", 5, 5, "")
        assert query.unlinked(conn, symbol) == 0
    finally:
        conn.close()
    assert how == "self"  # (the receiver, not a guess by the name alone)
    assert targets(db, "entry_test.go", 5, "log") == set()
    # In the package itself an untyped `x.log` may still be it.
    assert targets(db, "inner_test.go", 4, "log") == {("Entry.log", 5)}


def test_go_struct_fields_type_the_chains_through_them(repo: Path) -> None:
    """logrus: `t.mu.Lock()` (mu a `sync.RWMutex`) was a sure link to the repository's own
    `mutexWrap.Lock`, `entry.Time.Format(...)` (Time a `time.Time`) a guess among the five
    formatters' `Format`, and `formatter := &logrus.JSONFormatter{}` left `formatter.Format()`
    a guess: struct fields were no definitions and had no type."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/logrus\n\ngo 1.21\n",
            "entry.go": (
                'package logrus\n\nimport (\n\t"sync"\n\t"time"\n)\n\n'
                "type Entry struct {\n"
                "\tLogger *Logger\n"
                "\tTime   time.Time\n"
                '\tmu, other sync.Mutex `json:"-"`\n'
                "}\n\n"
                "type Logger struct {\n\tFormatter *JSONFormatter\n\tmu MutexWrap\n}\n\n"
                "type MutexWrap struct{}\n\n"
                "func (m *MutexWrap) Lock() {}\n\n"
                "type JSONFormatter struct{}\n\n"
                "func (f *JSONFormatter) Format(e *Entry) string {\n"
                '\treturn e.Time.Format("x")\n'
                "}\n\n"
                "func (e *Entry) log() {\n"
                "\te.mu.Lock()\n"
                "\te.Logger.mu.Lock()\n"
                "\t_ = e.Logger.Formatter.Format(e)\n"
                "}\n"
            ),
            "entry_test.go": (
                'package logrus_test\n\nimport "example.com/logrus"\n\n'
                "func TestFormat(x interface{ Format(*logrus.Entry) string }) {\n"
                "\tformatter := &logrus.JSONFormatter{}\n"
                "\tformatter.Format(nil)\n"
                "\tvar other = logrus.Entry{}\n"
                "\t_ = other.Logger\n"
                "\tx.Format(nil)\n"
                "}\n"
            ),
        },
    )
    fmt_, lock = {("JSONFormatter.Format", 25)}, {("MutexWrap.Lock", 21)}
    assert targets(db, "entry.go", 26, "Format") == set()  # time.Time's own method
    assert targets(db, "entry.go", 30, "Lock") == set()  # sync.Mutex's own method
    assert targets(db, "entry.go", 31, "Lock") == lock  # Logger.mu is a MutexWrap
    assert targets(db, "entry.go", 32, "Format") == fmt_  # Logger.Formatter
    assert targets(db, "entry.go", 32, "Formatter") == {("Logger.Formatter", 15)}
    assert targets(db, "entry.go", 30, "mu") == {("Entry.mu", 11)}  # one of two names
    assert targets(db, "entry_test.go", 7, "Format") == fmt_  # &pkg.Type{}
    assert targets(db, "entry_test.go", 9, "Logger") == {("Entry.Logger", 9)}  # var x = T{}
    # A field is never a guess for a receiver nobody can type (a method may be).
    assert targets(db, "entry_test.go", 10, "Format") == fmt_
    conn = sqlite3.connect(db)
    try:
        fields = conn.execute(
            "SELECT qualified, signature FROM defs WHERE kind = 'field' ORDER BY line"
        ).fetchall()
    finally:
        conn.close()
    assert fields[:4] == [
        ("Entry.Logger", "Logger *Logger"),
        ("Entry.Time", "Time time.Time"),
        ("Entry.mu", 'mu, other sync.Mutex `json:"-"`'),
        ("Entry.other", 'mu, other sync.Mutex `json:"-"`'),
    ]


def test_every_name_of_a_declaration_of_several_is_a_definition(repo: Path) -> None:
    """`var a, b = 1, 2` (Go) and `int a, b;` (Java) declared only their first name: a
    reference to the second meant nothing, and deleting it was no deletion of a definition."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/m\n\ngo 1.21\n",
            "m/vars.go": "package m\n\nvar first, second = 1, 2\n\nconst low, high = 0, 9\n",
            "m/use.go": "package m\n\nfunc use() int {\n\treturn second + high\n}\n",
            "src/p/Box.java": (
                "package p;\n\nclass Box {\n  int width = 1, height;\n"
                "  int area() { return width * height; }\n}\n"
            ),
        },
    )
    assert targets(db, "m/use.go", 4, "second") == {("second", 3)}
    assert targets(db, "m/use.go", 4, "high") == {("high", 5)}
    assert targets(db, "src/p/Box.java", 5, "height") == {("Box.height", 4)}
    assert targets(db, "src/p/Box.java", 5, "width") == {("Box.width", 4)}


def test_go_embedded_types_lend_their_methods(repo: Path) -> None:
    """gin: `router := New(); router.GET(...)` (Engine embeds RouterGroup) linked nothing, so
    re-signing `RouterGroup.GET` checked 19 of its 164 calls (16 of them guesses); an
    interface embedding another declares that one's methods too."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/gin\n\ngo 1.21\n",
            "group.go": (
                "package gin\n\n"
                "type RouterGroup struct{ base string }\n\n"
                "func (g *RouterGroup) GET(path string) {}\n\n"
                "type Base struct{}\n\n"
                "func (b *Base) Use() {}\n"
            ),
            "kit/kit.go": "package kit\n\ntype Tool struct{}\n\nfunc (t Tool) Fix() {}\n",
            "gin.go": (
                'package gin\n\nimport (\n\t"io"\n\n\t"example.com/gin/kit"\n)\n\n'
                "type Engine struct {\n\tRouterGroup\n\t*Base\n\tkit.Tool\n\tname string\n}\n\n"
                "func New() *Engine { return &Engine{} }\n\n"
                "type Closer interface{ Close() error }\n\n"
                "type Stream interface {\n\tCloser\n\tio.Reader\n}\n\n"
                "type file struct{}\n\n"
                "func (f file) Read(p []byte) (int, error) { return 0, nil }\n\n"
                "func use(s Stream) {\n"
                "\trouter := New()\n"
                '\trouter.GET("/")\n'
                "\trouter.Use()\n"
                "\trouter.Fix()\n"
                "\t_ = router.base\n"
                "\ts.Close()\n"
                "\ts.Read(nil)\n"
                "}\n"
            ),
        },
    )
    assert targets(db, "gin.go", 31, "GET") == {("RouterGroup.GET", 5)}
    assert targets(db, "gin.go", 32, "Use") == {("Base.Use", 9)}  # `*Base`
    assert targets(db, "gin.go", 33, "Fix") == {("Tool.Fix", 5)}  # another package's
    assert targets(db, "gin.go", 34, "base") == {("RouterGroup.base", 3)}  # a promoted field
    assert targets(db, "gin.go", 35, "Close") == {("Closer.Close", 18)}
    assert targets(db, "gin.go", 36, "Read") == set()  # io.Reader's: not the repository's


def test_go_receivers_and_new_reach_the_methods_of_embedded_types(repo: Path) -> None:
    """testify: `suite.T()` in a method of `SuiteTester` (which embeds `Suite`, in a _test.go
    file) linked nothing and was counted nowhere: `refs Suite.T` listed 2 of its 17 calls (a
    receiver's type was read for its own methods only); `t.Called()` through `mock.Mock`, of
    another package, likewise; `var m = new(Impl)` had no type, so `m.On()` was a guess at 0.5
    among every `On`; `args := t.Called()` then `args.Get()` a guess among every `Get`."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/kit\n\ngo 1.21\n",
            "suite/suite.go": (
                "package suite\n\n"
                "type Suite struct{ name string }\n\n"
                "func (suite *Suite) T() int { return 0 }\n"
            ),
            "suite/suite_test.go": (
                "package suite\n\n"
                "type SuiteTester struct {\n\tSuite\n\tcount int\n}\n\n"
                "func (suite *SuiteTester) TestOne() {\n"
                "\tsuite.T()\n"
                "\t_ = suite.name\n"
                "}\n"
            ),
            "mock/mock.go": (
                "package mock\n\n"
                "type Mock struct{}\n\n"
                "func (m *Mock) Called() Arguments { return nil }\n\n"
                "func (m *Mock) On(name string) {}\n\n"
                "type Other struct{}\n\n"
                "func (o *Other) On(name string) {}\n\n"
                "func (o *Other) Get() {}\n\n"
                "type Arguments []int\n\n"
                "func (a Arguments) Get() {}\n"
            ),
            "http/tripper.go": (
                'package http\n\nimport "example.com/kit/mock"\n\n'
                "type Tripper struct {\n\tmock.Mock\n}\n\n"
                "func (t *Tripper) Trip() {\n\tt.Called()\n"
                "\targs := t.Called()\n\targs.Get()\n}\n\n"
                "func use() {\n"
                "\tvar a = new(Tripper)\n"
                '\ta.On("x")\n'
                "\tb := new(mock.Mock)\n"
                '\tb.On("y")\n'
                "}\n"
            ),
        },
    )
    assert targets(db, "suite/suite_test.go", 9, "T") == {("Suite.T", 5)}
    assert targets(db, "suite/suite_test.go", 10, "name") == {("Suite.name", 3)}
    assert targets(db, "http/tripper.go", 10, "Called") == {("Mock.Called", 5)}
    assert targets(db, "http/tripper.go", 11, "Called") == {("Mock.Called", 5)}
    assert targets(db, "http/tripper.go", 12, "Get") == {("Arguments.Get", 17)}
    assert targets(db, "http/tripper.go", 17, "On") == {("Mock.On", 7)}
    assert targets(db, "http/tripper.go", 19, "On") == {("Mock.On", 7)}


def test_a_java_call_chain_is_typed_through_the_return_type_written(repo: Path) -> None:
    """retrofit: `call.execute().isSuccessful()` and `subscriber.assertValue("Hi")
    .assertComplete()` were guesses among every method of the name (a Java method's return
    type was never read); `call.request().tag(...)` (okhttp's Request) a sure link to the
    repository's one `tag`."""
    db = build(
        repo,
        {
            "src/p/Response.java": (
                "package p;\n\npublic final class Response<T> {\n"
                "  public boolean isSuccessful() { return true; }\n}\n"
            ),
            "src/p/Other.java": (
                "package p;\n\nclass Other {\n  boolean isSuccessful() { return false; }\n"
                "  Other tag(Object o) { return this; }\n}\n"
            ),
            "src/p/Call.java": (
                "package p;\n\nimport okhttp3.Request;\n\npublic interface Call<T> {\n"
                '  @Deprecated @SuppressWarnings("x") Response<T> execute() throws Exception;\n'
                "  Request request();\n"
                "  <R> Call<R> map(R r);\n"
                "  Call<T> self();\n}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\nclass Use {\n"
                "  boolean run(Call<String> call) throws Exception {\n"
                "    call.request().tag(null);\n"
                "    call.self().self().execute().isSuccessful();\n"
                "    return call.execute().isSuccessful();\n"
                "  }\n}\n"
            ),
        },
    )
    ok = {("Response.isSuccessful", 4)}
    assert targets(db, "src/p/Use.java", 7, "isSuccessful") == ok
    assert targets(db, "src/p/Use.java", 6, "isSuccessful") == ok  # through two calls
    assert targets(db, "src/p/Use.java", 5, "tag") == set()  # okhttp3.Request's


def test_a_java_method_returning_a_nested_class_means_that_class(repo: Path) -> None:
    """commons-cli: `CommandLine.builder().setDeprecatedHandler(h)`: `builder()` returns
    `Builder`, CommandLine's nested class; jsoup's `req.method().hasBody()`: `Method` is a
    member type of the interface the class implements; `req` a `HttpConnection.Request`."""
    db = build(
        repo,
        {
            "src/p/Connection.java": (
                "package p;\n\npublic interface Connection {\n"
                "  enum Method { GET; public boolean hasBody() { return false; } }\n"
                "  interface Base { Method method(); }\n}\n"
            ),
            "src/p/HttpConnection.java": (
                "package p;\n\npublic class HttpConnection implements Connection {\n"
                "  public static class Request implements Connection.Base {\n"
                "    public Method method() { return Method.GET; }\n  }\n"
                "  public static Builder builder() { return new Builder(); }\n"
                "  public static final class Builder {\n"
                "    public Builder setHandler(Object h) { return this; }\n"
                "    public HttpConnection get() { return null; }\n  }\n"
                "  boolean hasBody() { return true; }\n"
                "  Builder setHandler(Object h) { return null; }\n}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\nclass Use {\n"
                "  void run(HttpConnection.Request req) {\n"
                "    req.method().hasBody();\n"
                "    HttpConnection.builder().setHandler(null).setHandler(null).get();\n"
                "  }\n}\n"
            ),
        },
    )
    assert targets(db, "src/p/Use.java", 5, "hasBody") == {("Connection.Method.hasBody", 4)}
    assert targets(db, "src/p/Use.java", 6, "setHandler") == {
        ("HttpConnection.Builder.setHandler", 9)
    }
    assert targets(db, "src/p/Use.java", 6, "get") == {("HttpConnection.Builder.get", 10)}


def test_a_java_library_generic_returned_with_our_class_stays_a_guess(repo: Path) -> None:
    """jsoup: `attributes.asList().get(0).getKey()` (`asList()` returns `List<Attribute>`)
    was a sure link to `Attribute.getKey`, the one `getKey`; typing the chain through `List`
    (a library's class: none of ours) lost it. A library's generic written with our class
    hands it out: the member stays a guess, as before; `Request` without arguments is none."""
    db = build(
        repo,
        {
            "src/p/Attribute.java": (
                "package p;\n\npublic class Attribute {\n"
                "  public String getKey() { return null; }\n}\n"
            ),
            "src/p/Attributes.java": (
                "package p;\n\nimport java.util.List;\nimport okhttp3.Request;\n\n"
                "public class Attributes {\n"
                "  public List<Attribute> asList() { return null; }\n"
                "  public Request request() { return null; }\n}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\nclass Use {\n  void run(Attributes attributes) {\n"
                "    attributes.asList().get(0).getKey();\n"
                "    attributes.request().getKey();\n  }\n}\n"
            ),
        },
    )
    assert targets(db, "src/p/Use.java", 5, "getKey") == {("Attribute.getKey", 4)}
    assert targets(db, "src/p/Use.java", 6, "getKey") == set()


def test_a_go_type_s_signature_says_its_kind(repo: Path) -> None:
    """cli: `rb map` printed `23  Command` and the prompt `signature: SchemaTyper`, where a
    Java class shows `public class Foo`: a Go type says `type Command struct`."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/a\n",
            "a.go": (
                "package a\n\n"
                "type Command struct {\n\tName string\n}\n\n"
                "type SchemaTyper interface {\n\tSchemaType() string\n}\n\n"
                "type Box[T any] struct{ v T }\n\n"
                "type Names []string\n"
            ),
        },
    )
    conn = sqlite3.connect(db)
    try:
        signatures = dict(conn.execute("SELECT name, signature FROM defs WHERE parent_id IS NULL"))
    finally:
        conn.close()
    assert signatures == {
        "Command": "type Command struct",
        "SchemaTyper": "type SchemaTyper interface",
        "Box": "type Box[T any] struct",
        "Names": "type Names",
    }


def test_java_a_method_call_goes_to_the_overloads_of_its_arity(repo: Path) -> None:
    """commons-lang: every call of `ArrayUtils.add` was a sure link to each of its 19
    overloads (126 sure references of `add(T[], T)`, 4-argument calls of the private
    `add(Object, int, Object, Class)` among them). A call goes to the overloads taking as many
    arguments (a variadic one: as many or more), at 1/their number when several do."""
    db = build(
        repo,
        {
            "src/p/Arrays.java": (
                "package p;\n\n"
                "public class Arrays {\n"
                "    public static int[] add(int[] a, int e) { return add(a, 0, e, null); }\n"
                "    public static long[] add(long[] a, long e) { return null; }\n"
                "    private static Object add(Object a, int i, Object e, Class<?> c) {\n"
                "        return a;\n"
                "    }\n"
                "    public static String join(String... parts) { return null; }\n"
                "    public static String join(int n) { return null; }\n"
                "}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\n"
                "class Use {\n"
                "    void use() {\n"
                "        Arrays.add(new int[0], 1);\n"
                '        Arrays.join("a", "b");\n'
                "    }\n"
                "}\n"
            ),
        },
    )
    got = {(d, c) for p, ln, n, d, dl, c in links(db) if n in ("add", "join")}
    assert got == {
        ("Arrays.add", 1.0),  # line 4's 4-argument call: the private one only
        ("Arrays.add", 0.5),  # Use's 2-argument call: either of two
        ("Arrays.join", 1.0),  # two arguments: the variadic one
    }, got
    line4 = {
        (dl, c) for p, ln, n, d, dl, c in links(db) if (p, ln, n) == ("src/p/Arrays.java", 4, "add")
    }
    assert line4 == {(6, 1.0)}, line4
    use = {
        (dl, c) for p, ln, n, d, dl, c in links(db) if (p, ln, n) == ("src/p/Use.java", 5, "add")
    }
    assert use == {(4, 0.5), (5, 0.5)}, use
    assert targets(db, "src/p/Use.java", 6, "join") == {("Arrays.join", 9)}


def test_go_var_declarations_are_typed_as_short_ones(repo: Path) -> None:
    """`var a = t.NewT()` (in a function, at the package's level, in `var ( ... )`) left a
    untyped while `e := t.NewT()` was typed through NewT's written return type: `a.M()` was a
    guess at 1/3 among every `M`; a package variable used in another file of the package was
    untyped even when its type was written. A second name (`var p, q = t.U{}, t.NewT()`) is
    typed by no value (which one is its own is not read): no guess presented as sure."""
    db = build(
        repo,
        {
            "go.mod": "module example.com/kit\n\ngo 1.21\n",
            "t/t.go": (
                "package t\n\n"
                "type T struct{}\n\n"
                "func NewT() *T { return nil }\n\n"
                "func (x *T) M() {}\n\n"
                "type U struct{}\n\n"
                "func (u U) M() {}\n\n"
                "type Conv int\n\n"
                "func (c Conv) M() {}\n"
            ),
            "use/use.go": (
                'package use\n\nimport "example.com/kit/t"\n\n'
                "var top = t.NewT()\n"
                "var (\n\tgrouped = t.NewT()\n\tconverted = t.Conv(1)\n)\n\n"
                "func f() {\n"
                "\tvar a = t.NewT()\n"
                "\ta.M()\n"
                "\tvar (\n\t\tc = t.NewT()\n\t\td = t.Conv(2)\n\t)\n"
                "\tc.M()\n"
                "\td.M()\n"
                "\ttop.M()\n"
                "\tgrouped.M()\n"
                "\tconverted.M()\n"
                "\tvar p, q = t.U{}, t.NewT()\n"
                "\tp.M()\n"
                "\tq.M()\n"
                "}\n"
            ),
            "use/other.go": (
                "package use\n\n"
                "func g() {\n\ttop.M()\n\tgrouped.M()\n\tconverted.M()\n\tloose.M()\n"
                "\t_ = top\n}\n\n"
                "var loose = 3\n\nvar (\n\t_ = loose\n)\n"
            ),
        },
    )
    # in the package's other files (grouped ones were no definitions at all)
    assert targets(db, "use/other.go", 4, "M") == {("T.M", 7)}
    assert targets(db, "use/other.go", 5, "M") == {("T.M", 7)}
    assert targets(db, "use/other.go", 6, "M") == {("Conv.M", 15)}
    assert len(targets(db, "use/other.go", 7, "M")) == 3  # untyped: a guess, as before
    assert targets(db, "use/other.go", 8, "_") == set()  # the blank identifier: no variable
    sure_t = {("T.M", 7)}
    assert targets(db, "use/use.go", 13, "M") == sure_t  # var a = t.NewT()
    assert targets(db, "use/use.go", 18, "M") == sure_t  # var ( c = t.NewT() )
    assert targets(db, "use/use.go", 19, "M") == {("Conv.M", 15)}  # a conversion
    assert targets(db, "use/use.go", 20, "M") == sure_t  # package level
    assert targets(db, "use/use.go", 21, "M") == sure_t  # package level, grouped
    assert targets(db, "use/use.go", 22, "M") == {("Conv.M", 15)}
    assert targets(db, "use/use.go", 24, "M") == {("U.M", 11)}
    assert targets(db, "use/use.go", 25, "M") != {("U.M", 11)}  # q: never U's value's


def test_a_java_var_local_is_typed_by_its_value(repo: Path) -> None:
    """Java 10's `var a = nodes.get(0);` was a local of the type `var`, a class nobody
    defines: `a.m()` linked nothing at all (no caller of Foo.m found), as did `var b = new
    Foo()`, `var c = make()` and `var d = bar.n()`. They are typed as an explicit type would
    be; a value that says nothing (`var f = bar`) leaves a guess, as before."""
    db = build(
        repo,
        {
            "src/p/Foo.java": (
                "package p;\n\npublic class Foo {\n  public void m() {}\n"
                "  public Foo n() { return this; }\n}\n"
            ),
            "src/p/Bar.java": (
                "package p;\n\npublic class Bar {\n  public void m() {}\n"
                "  public Bar n() { return this; }\n}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\nimport java.util.List;\n\nclass Use {\n"
                "  static Foo make() { return new Foo(); }\n"
                "  void run(List<Foo> nodes, Bar bar) {\n"
                "    var a = nodes.get(0);\n"
                "    a.m();\n"
                "    var b = new Foo();\n"
                "    b.m();\n"
                "    var c = make();\n"
                "    c.m();\n"
                "    var d = bar.n();\n"
                "    d.m();\n"
                "    var f = bar;\n"
                "    f.m();\n"
                "  }\n}\n"
            ),
        },
    )
    foo, bar = {("Foo.m", 4)}, {("Bar.m", 4)}
    assert targets(db, "src/p/Use.java", 9, "m") == foo  # a List<Foo>'s element
    assert targets(db, "src/p/Use.java", 11, "m") == foo
    assert targets(db, "src/p/Use.java", 13, "m") == foo  # what the class's make returns
    assert targets(db, "src/p/Use.java", 15, "m") == bar
    assert targets(db, "src/p/Use.java", 17, "m") == foo | bar  # untyped: a guess


def test_a_java_call_chain_follows_the_overload_its_arguments_pick(repo: Path) -> None:
    """`api.m(1).n()` with `Foo m(int)` and `Bar m(int, int)`: the chain went through both
    overloads (`n` a union of Foo's and Bar's at 1/2 each), though a call's argument count
    already picks the overload it calls (``ARGUMENTS``). Each call of the receiver's chain
    counts its arguments too; the chain goes through the overloads taking as many."""
    db = build(
        repo,
        {
            "src/p/Foo.java": "package p;\n\npublic class Foo {\n  public void n() {}\n}\n",
            "src/p/Bar.java": "package p;\n\npublic class Bar {\n  public void n() {}\n}\n",
            "src/p/Api.java": (
                "package p;\n\npublic class Api {\n"
                "  public Foo m(int x) { return null; }\n"
                "  public Bar m(int x, int y) { return null; }\n"
                "  public Api same() { return this; }\n"
                "  public Api same(int k) { return this; }\n"
                "  public Foo same(String a, String b) { return null; }\n"
                "  static Api make(int a) { return null; }\n"
                "  static Bar make() { return null; }\n}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\nclass Use {\n"
                "  void run(Api api) {\n"
                "    api.m(1).n();\n"
                "    api.m(1, 2).n();\n"
                "    api.same(3).m(1).n();\n"
                '    api.same("a, b").m(f(1, 2), 3).n();\n'
                "    make().n();\n"
                "  }\n"
                "  int f(int a, int b) { return 0; }\n"
                "  static Bar make() { return null; }\n"
                "  static Api make(int a) { return null; }\n}\n"
            ),
        },
    )
    foo, bar = {("Foo.n", 4)}, {("Bar.n", 4)}
    assert targets(db, "src/p/Use.java", 5, "n") == foo
    assert targets(db, "src/p/Use.java", 6, "n") == bar
    assert targets(db, "src/p/Use.java", 7, "n") == foo  # through same(int): an Api
    assert targets(db, "src/p/Use.java", 8, "n") == bar  # one argument, then two
    assert targets(db, "src/p/Use.java", 9, "n") == bar  # the class's make()


def test_a_java_nested_type_extends_a_sibling_and_a_superclass_comes_first(repo: Path) -> None:
    """jsoup: `interface Request extends Base<Request>`, both nested in `Connection`: the
    base `Base` was looked for among the file's top-level names only, so `con.request().url()`
    found no `url` in Request (it went to Connection's own `url` overloads, a wrong link) and
    a nested class's fields and `super(...)` inherited from a sibling linked nothing. A Java
    class's superclass has the member a call runs before an interface it implements. A local
    or parameter of a nested class of the file written by its simple name is of that class."""
    db = build(
        repo,
        {
            "src/p/Conn.java": (
                "package p;\n\npublic interface Conn {\n"
                "  interface Base<T extends Base<T>> {\n    String url();\n  }\n"
                "  interface Request extends Base<Request> {\n    int timeout();\n  }\n"
                "  Request request();\n"
                "  Conn request(Request r);\n"
                "  Conn url(String u);\n}\n"
            ),
            "src/p/Impl.java": (
                "package p;\n\npublic class Impl {\n"
                "  abstract static class Base<T extends Conn.Base<T>> implements Conn.Base<T> {\n"
                "    public String url() { return null; }\n  }\n"
                "  static class Req extends Base<Conn.Request> implements Conn.Request {\n"
                "    public int timeout() { return 0; }\n"
                "    String go() { return url(); }\n  }\n"
                "  void run(Conn con, Impl.Req r, Req q) {\n"
                "    con.request().url();\n"
                "    r.url();\n"
                "    q.url();\n"
                "  }\n}\n"
            ),
        },
    )
    assert targets(db, "src/p/Impl.java", 12, "url") == {("Conn.Base.url", 5)}
    assert targets(db, "src/p/Impl.java", 13, "url") == {("Impl.Base.url", 5)}
    assert targets(db, "src/p/Impl.java", 9, "url") == {("Impl.Base.url", 5)}
    # `Req q`, the file's nested class by its simple name: it linked nothing (jsoup: 192
    # such references, commons-io 381)
    assert targets(db, "src/p/Impl.java", 14, "url") == {("Impl.Base.url", 5)}
