"""The API reference's constants get the ``#:`` comment written where they are defined.

``.. autodata:: clfmetrics.metrics.METRICS`` documents the name where readers import it,
but autodoc looks for a ``#:`` comment in ``clfmetrics/metrics/__init__.py`` only, which
merely re-exports it, and, finding none, shows the docstring of ``dict`` itself. The comment
is in the private module that defines the constant (``clfmetrics/metrics/_registry.py``):
this reads it there, so it is written once, beside the value. A constant with no such
comment stops the build.
"""

from __future__ import annotations

import sys

from sphinx.errors import ExtensionError, PycodeError
from sphinx.pycode import ModuleAnalyzer


def defining_comment(name: str, obj) -> list[str] | None:
    """The ``#:`` comment of ``package.ATTR`` in the module of ``package`` that defines it."""
    package, _, attr = name.rpartition(".")
    for modname in sorted(sys.modules):
        module = sys.modules[modname]
        if not modname.startswith(f"{package}.") or getattr(module, attr, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except PycodeError:
            continue
        if ("", attr) in docs:
            return list(docs[("", attr)])
    return None


def _comment_as_docstring(app, what, name, obj, options, lines) -> None:
    if what != "data":
        return
    comment = defining_comment(name, obj)
    if comment is None:
        raise ExtensionError(f"{name}: no '#:' comment where it is defined")
    lines[:] = comment


def setup(app):
    app.connect("autodoc-process-docstring", _comment_as_docstring)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
