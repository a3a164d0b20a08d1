"""Sphinx extension: the Python domain's "fuzzy" look-up of a reference through an index.

A reference Sphinx cannot resolve by its exact name (on the API pages: the types of the
"Parameters" fields written by napoleon and by ``autodoc_typehints = "description"``,
``float``, ``int``, ``numbers.Real``, ...) is looked up by
:meth:`sphinx.domains.python.PythonDomain.find_obj` (search mode 1) among every documented
object whose name ends with ``.<name>``: a scan of all of them, for each such reference,
a tenth of the build.

Once the documents are read (``env-updated``), this extension indexes the documented objects
by the last component of their name, and the fuzzy look-up scans only the objects whose
name ends with the same component: ``X.endswith(".a.b")`` implies that ``X``'s last
component is ``b``. The candidates are filtered by the same test as Sphinx's, in the same
order (that of the domain's objects), so the references resolve to the same targets (and an
ambiguous one warns the same way). The index answers only while the objects are those it
was built from (the same dictionary, the same number of entries); otherwise, or in search
mode 0, Sphinx's own look-up answers.
"""

from __future__ import annotations

from typing import Any

from sphinx.domains.python import PythonDomain

_find_obj = PythonDomain.find_obj

#: ``id`` of the domain's objects -> (their number, names by last component).
_INDEXES: dict[int, tuple[int, dict[str, list[str]]]] = {}


def _index(objects: dict[str, Any]) -> dict[str, list[str]]:
    by_last: dict[str, list[str]] = {}
    for oname in objects:
        by_last.setdefault(oname.rpartition(".")[2], []).append(oname)
    return by_last


def find_obj(self: PythonDomain, env, modname: str, classname: str, name: str,
             type: str | None, searchmode: int = 0) -> list[tuple[str, Any]]:
    """:meth:`PythonDomain.find_obj`, its fuzzy search through the index."""
    objects = self.objects
    indexed = _INDEXES.get(id(objects))
    if searchmode != 1 or indexed is None or indexed[0] != len(objects):
        return _find_obj(self, env, modname, classname, name, type, searchmode)
    name = name.removesuffix("()")
    if not name:
        return []
    objtypes = list(self.object_types) if type is None else self.objtypes_for_role(type)
    if objtypes is None:
        return []
    candidates = []
    if modname and classname:
        candidates.append(f"{modname}.{classname}.{name}")
    if modname:
        candidates.append(f"{modname}.{name}")
    candidates.append(name)
    for candidate in candidates:
        if candidate in objects and objects[candidate].objtype in objtypes:
            return [(candidate, objects[candidate])]
    suffix = f".{name}"
    return [(oname, objects[oname])
            for oname in indexed[1].get(name.rpartition(".")[2], ())
            if oname.endswith(suffix) and objects[oname].objtype in objtypes]


def build_index(app, env) -> list[str]:
    """``env-updated``: index the Python domain's objects by last name component."""
    objects = env.domains["py"].objects
    _INDEXES.clear()
    _INDEXES[id(objects)] = (len(objects), _index(objects))
    return []


def drop_index(app, env, docnames) -> None:
    """``env-before-read-docs``: objects change while documents are read."""
    _INDEXES.clear()


def setup(app):
    PythonDomain.find_obj = find_obj
    app.connect("env-before-read-docs", drop_index)
    app.connect("env-updated", build_index)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
