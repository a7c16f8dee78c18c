"""Carry a notebook's values out of the student's kernel as data, never as code or pickles.

The grader runs the hidden tests in a clean process against the values a submission computed.
Those values leave the student's kernel as tagged JSON: numbers, strings, containers, numpy
arrays and scalars, fractions, pandas frames, data classes of trusted packages (their fields),
references to public modules of trusted packages and to their functions and classes (resolved
by one ``getattr`` on such a module in the clean process, so a reference can only ever name a
genuine library function, never ``runner.builtins.exec``), and the source of functions the
student defined (run only in a sandboxed worker process, see :mod:`.isolated`). Names and labels
of frames are plain scalars, so pandas never calls one. Nothing is unpickled, nothing the kernel
wrote is evaluated and no method of a decoded value is called in the grading process, so a
kernel that lies can only hand over values, which the tests judge.
"""

from __future__ import annotations

import base64
import dataclasses
import fractions
import importlib
import inspect
import types
from typing import Any

import numpy as np

#: Packages whose modules and functions may be referenced by name: top-level packages, and
#: the parts of the book's apparatus that the chapters' data and tests are made of (its data
#: sources, worked examples, metric properties and derivations: chapter 12's ``table``,
#: chapter 15's ``held``, chapter 10's ``probe_all``, chapter 4's ``supremum``); the rest of
#: ``clfbook`` (its build tooling, widgets and plots) is nothing a test compares with.
TRUSTED = frozenset(
    {
        "clfbook.examples",
        "clfbook.properties",
        "clfbook.sources",
        "clfbook.theory",
        "clfmetrics",
        "collections",
        "fractions",
        "functools",
        "itertools",
        "math",
        "numpy",
        "operator",
        "pandas",
        "random",
        "scipy",
        "sklearn",
        "statistics",
        "sympy",
    }
)
_PLAIN = {bool: "bool", int: "int", float: "float", str: "str"}
_CONTAINERS = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
_MAX_DEPTH = 30


class NotCarried(TypeError):
    """A value of a type that cannot leave the notebook as data."""


def trusted(module: str | None) -> bool:
    """Whether ``module`` is, or lies inside, a package of :data:`TRUSTED`."""
    parts = module.split(".") if module else []
    return any(".".join(parts[:k]) in TRUSTED for k in range(1, len(parts) + 1))


def encode(value: Any, depth: int = 0) -> dict:
    """A JSON-ready, tagged description of ``value``; raises :class:`NotCarried` otherwise."""
    if depth > _MAX_DEPTH:
        raise NotCarried("nested too deeply")
    kind = type(value)
    if value is None:
        return {"t": "none"}
    if kind in _PLAIN:
        return {"t": _PLAIN[kind], "v": value}
    if kind is complex:
        return {"t": "complex", "v": [value.real, value.imag]}
    if kind is fractions.Fraction:
        return {"t": "fraction", "v": [str(value.numerator), str(value.denominator)]}
    if kind in _CONTAINERS:
        return {"t": _CONTAINERS[kind], "v": [encode(x, depth + 1) for x in value]}
    if kind is dict:
        items = [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]
        return {"t": "dict", "v": items}
    if kind is np.ndarray:
        if value.dtype.hasobject:
            return {
                "t": "objarray",
                "shape": list(value.shape),
                "v": [encode(x, depth + 1) for x in value.ravel().tolist()],
            }
        data = base64.b64encode(np.ascontiguousarray(value).tobytes()).decode()
        return {"t": "ndarray", "dtype": value.dtype.str, "shape": list(value.shape), "v": data}
    if isinstance(value, np.generic) and not isinstance(value, np.object_):
        return {"t": "npscalar", "dtype": value.dtype.str, "v": encode(np.asarray(value))}
    if isinstance(value, types.ModuleType):
        if not _allowed(value.__name__):
            raise NotCarried(f"module {value.__name__} is not one the grader imports")
        return {"t": "module", "v": value.__name__}
    if kind.__module__.split(".")[0] == "pandas" and kind.__name__ in ("DataFrame", "Series"):
        frame = value.to_frame("__series__") if kind.__name__ == "Series" else value
        return {
            "t": kind.__name__,
            "name": encode(getattr(value, "name", None), depth + 1),
            "index": encode(frame.index.to_numpy(), depth + 1),
            "columns": encode(frame.columns.to_numpy(), depth + 1),
            "v": [encode(frame[c].to_numpy(), depth + 1) for c in frame.columns],
        }
    if dataclasses.is_dataclass(kind) and _public_name(kind) is not None:
        fields = {}
        for f in dataclasses.fields(kind):
            try:
                fields[f.name] = encode(getattr(value, f.name), depth + 1)
            except NotCarried as exc:  # e.g. a fitted model: the field arrives as None
                fields[f.name] = {"t": "none", "why": str(exc)}
        module, name = _public_name(kind)
        return {"t": "dataclass", "module": module, "v": name, "f": fields}
    found = _public_name(value)
    if found is not None:
        return {"t": "ref", "module": found[0], "v": found[1]}
    module = getattr(value, "__module__", None)
    if isinstance(value, types.FunctionType) and module == "__main__":
        try:
            source = inspect.getsource(value)
        except (OSError, TypeError) as exc:
            raise NotCarried(f"the source of {value.__name__} cannot be read") from exc
        return {"t": "function", "name": value.__name__, "v": source}
    raise NotCarried(f"a {kind.__module__}.{kind.__qualname__} cannot leave the notebook")


def _allowed(module: str) -> bool:
    """A public module of a trusted package, outside the grader itself."""
    parts = module.split(".")
    return (
        trusted(module)
        and all(p.isidentifier() and not p.startswith("_") for p in parts)
        and not module.startswith("clfcourse")
    )


def _resolve(module: str, name: str) -> Any:
    """The function or class ``name`` of an allowed module: one ``getattr``, else None.

    No attribute chain (``runner.builtins.exec``), no private or dunder name, no module, no
    instance: only what a chapter could import by ``from module import name``.
    """
    if not (_allowed(module) and name.isidentifier() and not name.startswith("_")):
        return None
    try:
        obj = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    routine = inspect.isroutine(obj) or isinstance(obj, type | np.ufunc)
    return obj if routine and not isinstance(obj, types.ModuleType) else None


def _public_name(value: Any) -> tuple[str, str] | None:
    """The allowed module and name that :func:`_resolve` turns back into ``value``, if any."""
    name, module = getattr(value, "__name__", None), getattr(value, "__module__", None)
    if not (callable(value) and isinstance(name, str) and isinstance(module, str)):
        return None
    parts = module.split(".")
    for k in range(len(parts), 0, -1):  # numpy.random._generator.default_rng -> numpy.random
        candidate = ".".join(parts[:k])
        if _allowed(candidate) and _resolve(candidate, name) is value:
            return candidate, name
    return None


def _label(value: Any) -> Any:
    """A name or label of a frame: a plain scalar, never something pandas could call."""
    if value is None or type(value) in _PLAIN:
        return value
    raise ValueError("a name or label that is not a plain scalar")


def _array(obj: dict) -> np.ndarray:
    dtype = np.dtype(str(obj["dtype"]))
    if dtype.hasobject:
        raise ValueError("object arrays travel element by element")
    shape = tuple(int(s) for s in obj["shape"])
    return np.frombuffer(base64.b64decode(obj["v"]), dtype=dtype).reshape(shape).copy()


def decode(obj: Any, functions: dict | None = None, depth: int = 0) -> Any:
    """The value :func:`encode` described; refuses anything it did not write.

    A student function becomes ``functions[name]`` (a proxy that runs it elsewhere) when given,
    else a :class:`ValueError` is raised: the grading process never runs student code.
    """
    if depth > _MAX_DEPTH + 5 or not isinstance(obj, dict):
        raise ValueError("not an encoded value")
    tag, v = obj.get("t"), obj.get("v")
    if tag == "none":
        return None
    if tag in ("bool", "int", "float", "str"):
        kind = {"bool": bool, "int": int, "float": float, "str": str}[tag]
        if type(v) is not kind and not (kind is float and type(v) is int):
            raise ValueError(f"a {tag} that is not one")
        return kind(v)
    if tag == "complex":
        return complex(float(v[0]), float(v[1]))
    if tag == "fraction":
        return fractions.Fraction(int(str(v[0])), int(str(v[1])))
    if tag in ("list", "tuple", "set", "frozenset"):
        items = [decode(x, functions, depth + 1) for x in v]
        return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
    if tag == "dict":
        return {decode(k, functions, depth + 1): decode(x, functions, depth + 1) for k, x in v}
    if tag == "ndarray":
        return _array(obj)
    if tag == "objarray":
        items = [decode(x, functions, depth + 1) for x in v]
        out = np.empty(len(items), dtype=object)
        out[:] = items
        return out.reshape(tuple(int(s) for s in obj["shape"]))
    if tag == "npscalar":
        return _array(v)[()]
    if tag == "module":
        if not _allowed(str(v)):
            raise ValueError(f"module {v} is not one the grader imports")
        return importlib.import_module(str(v))
    if tag == "ref":
        module = str(obj.get("module"))
        found = _resolve(module, str(v))
        if found is None:
            raise ValueError(f"{module}.{v} is not a function of a trusted package")
        return found
    if tag == "dataclass":
        module = str(obj.get("module"))
        cls = _resolve(module, str(v))
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise ValueError(f"{module}.{v} is not a data class of a trusted package")
        out = object.__new__(cls)  # the library's class, its fields set without running code
        for f in dataclasses.fields(cls):
            if f.name in obj["f"]:
                object.__setattr__(out, f.name, decode(obj["f"][f.name], functions, depth + 1))
        return out
    if tag in ("DataFrame", "Series"):
        import pandas as pd

        columns, index = (_labels(obj[key], depth) for key in ("columns", "index"))
        data = {c: decode(x, functions, depth + 1) for c, x in zip(columns, v, strict=True)}
        frame = pd.DataFrame(data, index=index, columns=columns)
        if tag == "Series":
            name = _label(decode(obj["name"], None, depth + 1))
            series = frame["__series__"]
            series.name = name  # an attribute set: rename() would call a callable name
            return series
        return frame
    if tag == "function":
        if functions is None or obj.get("name") not in functions:
            raise ValueError("student code is not run in the grading process")
        return functions[obj["name"]]
    raise ValueError(f"unknown tag {tag!r}")


def _labels(obj: Any, depth: int) -> np.ndarray:
    """An index or the columns of a frame: an array of plain scalars only."""
    labels = decode(obj, None, depth + 1)
    if not isinstance(labels, np.ndarray) or labels.ndim != 1:
        raise ValueError("frame labels that are not a flat array")
    if labels.dtype.hasobject:
        for label in labels.tolist():
            _label(label)
    return labels
