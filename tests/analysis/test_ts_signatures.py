"""What a TypeScript re-sign changed, said in a few words: type parameters and an arrow's
parameter written without its type are types, not calls."""

from __future__ import annotations

import pytest

from reviewbot.analysis.signatures import header_change


@pytest.mark.parametrize(
    ("name", "old", "new", "said"),
    [
        # formik 96280d38: both read a bare "(signature)"
        (
            "renderFormik",
            "function renderFormik<V = Values>(props?: Partial<FormikConfig<V>>)",
            "function renderFormik<V extends FormikValues = Values>(\n  props?: Partial<C<V>>\n)",
            "types or defaults only",
        ),
        (
            "C",
            "const C: React.FC<OuterProps> = (props: OuterProps) =>",
            "const C: React.FC<OuterProps> = props =>",
            "types or defaults only",
        ),
        ("f", "const f = x =>", "const f = (x: number) =>", "types or defaults only"),
        ("f", "const f = x =>", "const f = (x, y) =>", "added y (required)"),
        ("f", "function f<T>(a: T)", "async function f<T>(a: T)", "now async"),
    ],
)
def test_a_ts_re_sign_of_types_only_says_so(name: str, old: str, new: str, said: str) -> None:
    assert header_change((name, old), (name, new), "typescript", False) == said
