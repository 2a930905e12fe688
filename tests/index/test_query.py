"""The pure parts of the queries: PageRank, personalisation, identifier words."""

from __future__ import annotations

import pytest

from reviewbot.index.query import pagerank
from reviewbot.index.store import split_words


def test_pagerank_ranks_the_most_referenced_node_first_and_sums_to_one() -> None:
    # 1 and 2 both reference 3; 3 references 1.
    ranks = pagerank([1, 2, 3], [(1, 3, 1.0), (2, 3, 1.0), (3, 1, 1.0)])
    assert max(ranks, key=lambda n: ranks[n]) == 3
    assert sum(ranks.values()) == pytest.approx(1.0)


def test_personalisation_moves_rank_towards_the_focus() -> None:
    links = [(1, 2, 1.0), (2, 1, 1.0), (3, 4, 1.0), (4, 3, 1.0)]
    plain = pagerank([1, 2, 3, 4], links)
    focused = pagerank([1, 2, 3, 4], links, {3: 1.0})
    assert plain[3] == pytest.approx(0.25)
    assert focused[3] + focused[4] == pytest.approx(1.0)
    assert focused[1] == pytest.approx(0.0)


def test_identifiers_split_at_camel_case_and_underscores() -> None:
    assert split_words("parseHTTPRequest") == "parse http request parsehttprequest"
    assert split_words("get_queryset") == "get queryset get_queryset"
    assert split_words("Model.save") == "model save"
    # A lone capital starts the word after it (starlette's `GZipMiddleware` for "gzip").
    assert split_words("GZipMiddleware") == "g zip middleware gzip gzipmiddleware"
    assert split_words("ETag") == "e tag etag"
