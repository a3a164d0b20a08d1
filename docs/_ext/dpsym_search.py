"""Sphinx extension: the search index's stemming, each word stemmed once.

Sphinx's English search index (:class:`sphinx.search.en.SearchEnglish`) reduces every word
of every page to its stem with the Snowball stemmer, one word at a time: the same words
again and again (tens of thousands of calls for a few thousand words), a twentieth of the
build. The stem of a word depends on the word alone, so this extension keeps the stem of
each word the first time it is computed and answers from it after: the same stems, so the
same index.
"""

from __future__ import annotations

from sphinx.search.en import SearchEnglish

_stem = SearchEnglish.stem


def stem(self: SearchEnglish, word: str) -> str:
    """:meth:`SearchEnglish.stem`, each word computed once per language object."""
    try:
        stems = self.dpsym_stems
    except AttributeError:
        stems = self.dpsym_stems = {}
    try:
        return stems[word]
    except KeyError:
        stems[word] = result = _stem(self, word)
        return result


def setup(app):
    SearchEnglish.stem = stem
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
