"""Java member lookup by the reference's shape: a call means a method, a read a field (a
class's field does not hide its base's method of that name); fully qualified types; the
element types of the library's containers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.index.support import build, targets


def _vias(database: Path, path: str, line: int, name: str) -> set[tuple[str, float, str]]:
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute(
            "SELECT d.qualified, e.confidence, e.via FROM edges e JOIN refs r ON r.id = e.ref_id "
            "JOIN files rf ON rf.id = r.file_id JOIN defs d ON d.id = e.def_id "
            "WHERE rf.path = ? AND r.line = ? AND r.name = ?",
            (path, line, name),
        ).fetchall()
    finally:
        conn.close()
    return {(q, round(c, 4), v) for q, c, v in rows}


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
    assert _vias(db, path, 5, "childNodes") == {("Node.childNodes", 1.0, "instance")}
    assert _vias(db, path, 6, "childNodes") == {("Node.childNodes", 1.0, "instance")}
    assert targets(db, path, 7, "size") == {("Node.size", 7)}
    assert targets(db, path, 9, "size") == {("Element.size", 7)}
    assert _vias(db, path, 8, "childNodes") == {("Node.childNodes", 1.0, "instance")}
