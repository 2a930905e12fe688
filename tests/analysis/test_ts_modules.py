"""TypeScript's modules as TypeScript reads them: a specifier's extension names the typed file
of its flavour (`./index.cjs` is index.d.cts), and a name an `export { X } from './m'` list
re-exports is m's, never a reference to a declaration of the file that lists it."""

from __future__ import annotations

from pathlib import Path

from tests.analysis.test_repo_impact import codes, review, setup

TYPES = (
    "export type HeaderValue = string | number;\n\n"
    "export declare class Headers {\n  constructor(init?: string);\n\n"
    "  get(name: string): HeaderValue;\n}\n"
)


def test_types_re_exported_from_the_cjs_flavour_are_not_deleted(repo: Path) -> None:
    # axios c71811b0: index.d.ts's declarations became `export { ... } from './index.cjs'`
    # (index.d.cts holds them): four RB105 named the export list's own lines and the
    # consumers' `new AxiosHeaders(...)` as references to the deleted ones.
    app = (
        "import { Headers, HeaderValue } from './index.js';\n\n"
        "export function make(): HeaderValue {\n  const h = new Headers('x');\n"
        "  return h.get('a');\n}\n"
    )
    setup(
        repo,
        {"index.d.ts": TYPES, "index.d.cts": TYPES, "app.ts": app},
        {"index.d.ts": "export {\n  HeaderValue,\n  Headers,\n} from './index.cjs';\n"},
    )
    doc = review(repo)
    assert codes(doc, "RB105") == []
    # (the method's call is listed: it now reaches index.d.cts's; the class's construction
    # builds index.d.cts's class, no longer the deleted one)
    referenced = {i["unit"]: i["now"] for i in doc["impact"] if i["total"]}
    assert referenced == {"method Headers.get": "method Headers.get at index.d.cts:6"}


def test_a_name_re_exported_from_elsewhere_is_no_reference_to_the_deleted_one(repo: Path) -> None:
    # The module the list names is not the repository's (or not resolved): its `V` is still
    # no reference to the `V` this file deleted.
    setup(
        repo,
        {"types.ts": "export type V = string | number;\n"},
        {"types.ts": "export { V } from 'some-lib';\n"},
    )
    assert codes(review(repo), "RB105") == []
