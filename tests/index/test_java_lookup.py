"""Java member lookup by the reference's shape: a call means a method, a read a field (a
class's field does not hide its base's method of that name); fully qualified types; the
element types of the library's containers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index.support import build, targets, vias

_NODES = {
    "src/p/Node.java": (
        "package p;\n\n"
        "import java.util.List;\n\n"
        "public abstract class Node {\n"
        "    public List<Node> childNodes() { return null; }\n"
        "    public int size;\n"
        "}\n"
    ),
    "src/p/Element.java": (
        "package p;\n\n"
        "import java.util.List;\n\n"
        "public class Element extends Node {\n"
        "    List<Node> childNodes;\n"
        "    public int size() { return 0; }\n"
        "    public Element body() { return this; }\n"
        "}\n"
    ),
}


def test_a_java_field_does_not_hide_a_base_method_of_its_name(repo: Path) -> None:
    # jsoup: Element has a field `childNodes`, Node the method `childNodes()`; a call
    # `doc.body().childNodes()` can only mean the method, a read `e.size` the field.
    db = build(
        repo,
        {
            **_NODES,
            "src/p/Use.java": (
                "package p;\n\n"
                "class Use {\n"
                "    int run(Element doc) {\n"
                "        doc.body().childNodes();\n"
                "        doc.childNodes();\n"
                "        int n = doc.size;\n"
                "        doc.body().childNodes().size();\n"
                "        return n + doc.size();\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    path = "src/p/Use.java"
    assert vias(db, path, 5, "childNodes") == {("Node.childNodes", 1.0, "instance")}
    assert vias(db, path, 6, "childNodes") == {("Node.childNodes", 1.0, "instance")}
    assert targets(db, path, 7, "size") == {("Node.size", 7)}
    assert targets(db, path, 9, "size") == {("Element.size", 7)}
    assert vias(db, path, 8, "childNodes") == {("Node.childNodes", 1.0, "instance")}


def test_java_fully_qualified_types(repo: Path) -> None:
    # jsoup's W3CDomTest: `org.jsoup.nodes.Document doc = Jsoup.parse(html);` next to the
    # imported w3c `Document`, `new org.jsoup.helper.W3CDom()`: a qualified name is the class
    # of that package (its segments are no references), in a local's, a field's, a
    # parameter's and a return type, after `new` and before a static member.
    db = build(
        repo,
        {
            "src/org/acme/nodes/Element.java": (
                "package org.acme.nodes;\n\n"
                "public class Element {\n"
                "    public Element() {}\n"
                "    public String text() { return null; }\n"
                "    public static Element parse(String s) { return null; }\n"
                "    public static class Settings { public int indent() { return 0; } }\n"
                "}\n"
            ),
            "src/org/acme/app/Other.java": (
                "package org.acme.app;\n\n"
                "class Other {\n"
                "    int nodes;\n"
                "    static final int MAX = 1;\n"
                "    String text() { return null; }\n"
                "    int indent() { return 0; }\n"
                "}\n"
            ),
            "src/org/acme/app/Use.java": (
                "package org.acme.app;\n\n"
                "class Use {\n"
                "    org.acme.nodes.Element field; Other other;\n"
                "    org.acme.nodes.Element make() { return new org.acme.nodes.Element(); }\n"
                "    String run(org.acme.nodes.Element param) {\n"
                '        org.acme.nodes.Element local = org.acme.nodes.Element.parse("x");\n'
                "        org.acme.nodes.Element.Settings settings = null;\n"
                "        settings.indent();\n"
                "        local.text();\n"
                "        param.text();\n"
                "        field.text();\n"
                "        int max = this.other.MAX;\n"
                "        return make().text();\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    path = "src/org/acme/app/Use.java"
    for line in (4, 6, 7):
        assert targets(db, path, line, "Element") == {("Element", 3)}, line
    assert targets(db, path, 5, "Element") == {("Element", 3), ("Element.Element", 4)}
    assert targets(db, path, 7, "parse") == {("Element.parse", 6)}
    assert targets(db, path, 8, "Settings") == {("Element.Settings", 7)}
    assert vias(db, path, 9, "indent") == {("Element.Settings.indent", 1.0, "instance")}
    for line in (10, 11, 12, 14):
        assert vias(db, path, line, "text") == {("Element.text", 1.0, "instance")}, line
    for segment in ("org", "acme", "nodes"):
        assert all(targets(db, path, line, segment) == set() for line in range(4, 9))
    # (`this.other.MAX`: a field's, never a package `this.other`)
    assert targets(db, path, 13, "other") == {("Use.other", 4)}


def test_java_library_containers_hand_out_their_type_arguments(repo: Path) -> None:
    # jsoup's ElementTest: `List<DataNode> scriptData = script.dataNodes();` then
    # `scriptData.get(0).getWholeData()`: the element is a DataNode (a guess among every
    # `getWholeData` before). Only the library's containers and their methods that return an
    # element exactly; a class of the repository named `Box` keeps its own methods.
    db = build(
        repo,
        {
            "src/p/DataNode.java": (
                "package p;\n\n"
                "public class DataNode {\n"
                "    public String getWholeData() { return null; }\n"
                "}\n"
            ),
            "src/p/TextNode.java": (
                "package p;\n\n"
                "public class TextNode {\n"
                "    public String getWholeData() { return null; }\n"
                "}\n"
            ),
            "src/p/Box.java": (
                "package p;\n\n"
                "public class Box<T> {\n"
                "    public TextNode get(int i) { return null; }\n"
                "}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\n"
                "import java.util.Iterator;\n"
                "import java.util.List;\n"
                "import java.util.Map;\n"
                "import java.util.Optional;\n\n"
                "class Use {\n"
                "    Map<String, DataNode> byName;\n"
                "    void run(List<DataNode> nodes, Optional<? extends DataNode> first) {\n"
                "        nodes.get(0).getWholeData();\n"
                "        nodes.iterator().next().getWholeData();\n"
                '        byName.get("a").getWholeData();\n'
                "        first.get().getWholeData();\n"
                "        Box<DataNode> box = new Box<>();\n"
                "        box.get(0).getWholeData();\n"
                "        List<String> names = null;\n"
                "        names.get(0).getWholeData();\n"
                "        nodes.stream().getWholeData();\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    path = "src/p/Use.java"
    for line in (11, 12, 13, 14):
        assert vias(db, path, line, "getWholeData") == {
            ("DataNode.getWholeData", 1.0, "instance")
        }, line
    assert vias(db, path, 16, "getWholeData") == {("TextNode.getWholeData", 1.0, "instance")}
    # A String is the library's: none of ours; what `stream()` gives is not in the table.
    assert targets(db, path, 18, "getWholeData") == set()
    assert len(targets(db, path, 19, "getWholeData")) == 2


def test_a_java_type_imported_on_demand_types_a_local(repo: Path) -> None:
    # jsoup's XmlTreeBuilderTest: `import org.jsoup.nodes.*;` then `List<Node> nodes = ...;
    # nodes.get(0).absUrl("src")` and `Node n; n.absUrl(...)`: Node of the package imported.
    db = build(
        repo,
        {
            "src/org/acme/nodes/Node.java": (
                "package org.acme.nodes;\n\n"
                "public class Node {\n"
                "    public String absUrl(String key) { return null; }\n"
                "}\n"
            ),
            "src/org/acme/nodes/Other.java": (
                "package org.acme.nodes;\n\n"
                "public class Other {\n"
                "    public String absUrl(String key) { return null; }\n"
                "}\n"
            ),
            "src/org/acme/parser/Use.java": (
                "package org.acme.parser;\n\n"
                "import java.util.List;\n"
                "import org.acme.nodes.*;\n\n"
                "class Use {\n"
                "    void run(List<Node> nodes, Node n) {\n"
                '        nodes.get(0).absUrl("src");\n'
                '        n.absUrl("src");\n'
                "    }\n"
                "}\n"
            ),
        },
    )
    path = "src/org/acme/parser/Use.java"
    for line in (8, 9):
        assert vias(db, path, line, "absUrl") == {("Node.absUrl", 1.0, "instance")}, line


def test_a_java_on_demand_import_is_not_passed_on(repo: Path) -> None:
    # Java's `import q.*;` brings q's own top-level types, not what q's files import on demand
    # in turn (following those made the JDK's link phase exponential: its packages import each
    # other so). r.Hidden reaches p only through q's file's own `import r.*;`.
    db = build(
        repo,
        {
            "src/r/Hidden.java": (
                "package r;\n\npublic class Hidden {\n    public void go() {}\n}\n"
            ),
            "src/q/Shown.java": (
                "package q;\n\n"
                "import r.*;\n\n"
                "public class Shown {\n"
                "    public void go() {}\n"
                "    Hidden keep() { return new Hidden(); }\n"
                "}\n"
            ),
            "src/p/Use.java": (
                "package p;\n\n"
                "import q.*;\n\n"
                "class Use {\n"
                "    void run(Shown s, Hidden h) {\n"
                "        new Shown();\n"
                "        new Hidden();\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    use = "src/p/Use.java"
    assert targets(db, use, 7, "Shown") == {("Shown", 5)}
    assert targets(db, use, 8, "Hidden") == set()
    assert targets(db, "src/q/Shown.java", 7, "Hidden") == {("Hidden", 3)}


def test_java_lang_is_imported_on_demand_by_every_file(repo: Path) -> None:
    # The JDK's own sources: java.util's `String s; s.length()` means java.lang.String, which
    # no file imports (Java imports java.lang.* implicitly); a type of the file's own package
    # comes first.
    db = build(
        repo,
        {
            "src/java/lang/String.java": (
                "package java.lang;\n\n"
                "public final class String {\n"
                "    public int length() { return 0; }\n"
                "}\n"
            ),
            "src/java/lang/Error.java": ("package java.lang;\n\npublic class Error {}\n"),
            "src/java/util/Error.java": ("package java.util;\n\nclass Error {}\n"),
            "src/java/util/Scanner.java": (
                "package java.util;\n\n"
                "public class Scanner {\n"
                "    int run(String s) {\n"
                "        Error e = new Error();\n"
                "        return s.length();\n"
                "    }\n"
                "}\n"
            ),
        },
    )
    path = "src/java/util/Scanner.java"
    assert targets(db, path, 4, "String") == {("String", 3)}
    assert vias(db, path, 6, "length") == {("String.length", 1.0, "instance")}
    assert _homes(db, path, 5, "Error") == {"src/java/util/Error.java"}


def _homes(database: Path, path: str, line: int, name: str) -> set[str]:
    """The files of the definitions the reference ``name`` on ``path:line`` means."""
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT df.path FROM edges e JOIN refs r ON r.id = e.ref_id "
            "JOIN files rf ON rf.id = r.file_id JOIN defs d ON d.id = e.def_id "
            "JOIN files df ON df.id = d.file_id WHERE rf.path = ? AND r.line = ? AND r.name = ?",
            (path, line, name),
        ).fetchall()
    finally:
        conn.close()
    return {p for (p,) in rows}
