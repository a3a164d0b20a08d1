"""Names typed by a user (mechanisms, regimes, costs, quantities): resolved forgivingly.

A name is accepted exactly, through a documented alias, or case-insensitively when that
identifies one entry; anything else is a :class:`~dpsym.errors.DomainError` that says
*did you mean ...?* (the closest valid name, :func:`difflib.get_close_matches`) and
lists the valid names.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from dpsym.errors import DomainError

#: The longest part of a user's text quoted back in an error.
SHOWN = 40


def suggestion(name: str, valid: Iterable[str]) -> str | None:
    """The valid name closest to ``name`` (case-insensitive), if one is close enough."""
    by_fold: dict[str, str] = {}
    for v in valid:
        by_fold.setdefault(v.casefold(), v)
    found = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=0.6)
    return by_fold[found[0]] if found else None


def redirection_hint(name: object, valid: Iterable[str]) -> str | None:
    """Advice for a name a shell cut at ``>``: an unquoted ``eps->0`` reaches the program
    as ``eps-`` (the shell reads ``>0`` as a redirection to a file named ``0``). ``None``
    unless ``name`` ends with ``-`` and a valid name continues it with ``>``."""
    if not isinstance(name, str) or not name.strip().endswith("-"):
        return None
    head = name.strip().casefold() + ">"
    whole = [v for v in valid if v.casefold().startswith(head)]
    if not whole:
        return None
    quoted = " or ".join(f"'{v}'" for v in whole)
    return (f"a shell reads '>' as a redirection (an unquoted {whole[0]} leaves a file "
            f"named {whole[0].split('>', 1)[1]!r} behind): quote the argument, {quoted}")


def unknown(kind: str, what: str, name: object, valid: Iterable[str],
            listing: str | None = None) -> DomainError:
    """The error for an unknown ``name``: what it is, a suggestion (or, for a name a
    shell cut at ``>``, the advice to quote it: :func:`redirection_hint`), the valid
    names."""
    valid = list(valid)
    shown = str(name)[:SHOWN]
    near = suggestion(shown, valid) if isinstance(name, str) else None
    hint = f"did you mean {near!r}? " if near else ""
    quote = redirection_hint(name, valid)
    if quote is not None:
        hint = f"{quote}; "
    return DomainError(kind, f"unknown {what} {shown!r}; {hint}valid: "
                             f"{listing if listing is not None else ', '.join(valid)}")


def resolve(kind: str, what: str, name: object, valid: Iterable[str],
            aliases: Mapping[str, str] | None = None, listing: str | None = None) -> str:
    """The canonical name ``name`` stands for.

    Parameters
    ----------
    kind : str
        The parameter the name was given as (named by the error).
    what : str
        What the names are (``mechanism``, ``regime``...), for the error.
    name : object
        The user's text.
    valid : iterable of str
        The canonical names.
    aliases : mapping of str to str, optional
        Other accepted spellings (matched case-insensitively) and the canonical names
        they stand for.
    listing : str, optional
        The list of valid names printed by the error (default: ``valid``).

    Raises
    ------
    DomainError
        If ``name`` is not a string, or matches no name, or matches several names that
        differ only in case.
    """
    valid = list(valid)
    if isinstance(name, str):
        text = name.strip()
        if text in valid:
            return text
        fold = text.casefold()
        for alias, canonical in (aliases or {}).items():
            if alias.casefold() == fold:
                return canonical
        matches = [v for v in valid if v.casefold() == fold]
        if len(matches) == 1:
            return matches[0]
    raise unknown(kind, what, name, [*valid, *(aliases or {})], listing)
