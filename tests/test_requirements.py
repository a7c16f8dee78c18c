"""The pinned requirements files are generated from pyproject.toml and in step with it.

pyproject.toml declares every range once ([project] dependencies, the engines' extras and the
[dependency-groups] reader, book, test); `make requirements` compiles each file from them with
uv. Read here without a network: every declared package is pinned at a version inside its
range, every pin is declared or needed by another pin of the same file, each file holds the
pins of the one it is compiled under, and its header names the command that made it.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import packages_distributions

import pytest
import yaml
from chapter_runner import ROOT, notebook_pages, read_notebook
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@dataclass(frozen=True)
class Compiled:
    """One generated file: the group and extras it is compiled from, the file it sits under."""

    path: str
    group: str
    extras: tuple[str, ...]
    under: str | None


FILES = [
    Compiled("requirements.txt", "reader", ("duckdb",), None),
    Compiled("binder/requirements.txt", "reader", ("duckdb",), None),
    Compiled("requirements-book.txt", "book", ("duckdb",), "requirements.txt"),
    Compiled("requirements-dev.txt", "test", ("duckdb", "spark", "dask"), "requirements-book.txt"),
]
BY_PATH = {f.path: f for f in FILES}


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    requirement: Requirement
    via: tuple[str, ...]


def pins(path: str) -> dict[str, list[Pin]]:
    """The file's pins by package name (a package may have one per environment marker)."""
    found: dict[str, list[Pin]] = {}
    for line in (ROOT / path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        spec, _, comment = line.partition("#")
        requirement = Requirement(spec.strip())
        (version,) = [s.version for s in requirement.specifier if s.operator == "=="]
        via = tuple(v.strip() for v in comment.strip().removeprefix("via ").split(","))
        name = canonicalize_name(requirement.name)
        found.setdefault(name, []).append(Pin(name, version, requirement, via))
    return found


def group(name: str) -> list[Requirement]:
    """A dependency group's requirements, its included groups' too (PEP 735)."""
    out = []
    for entry in PYPROJECT["dependency-groups"][name]:
        if isinstance(entry, dict):
            out += group(entry["include-group"])
        else:
            out.append(Requirement(entry))
    return out


def declared(compiled: Compiled) -> dict[str, list[Requirement]]:
    """The ranges a file is compiled from, by package name."""
    project = PYPROJECT["project"]
    requirements = [Requirement(r) for r in project["dependencies"]]
    for extra in compiled.extras:
        requirements += [Requirement(r) for r in project["optional-dependencies"][extra]]
    requirements += group(compiled.group)
    out: dict[str, list[Requirement]] = {}
    for requirement in requirements:
        out.setdefault(canonicalize_name(requirement.name), []).append(requirement)
    return out


def test_the_groups_and_extras_are_the_ones_the_files_are_compiled_from():
    """No group or extra is declared that no file pins (a range nobody would install)."""
    assert set(PYPROJECT["dependency-groups"]) == {f.group for f in FILES}
    assert set(PYPROJECT["project"]["optional-dependencies"]) == {
        e for f in FILES for e in f.extras
    }


@pytest.mark.parametrize("compiled", FILES, ids=lambda f: f.path)
def test_every_range_is_pinned_inside_it(compiled):
    """Each declared package is pinned, at a version that every range of it accepts."""
    pinned = pins(compiled.path)
    for name, ranges in declared(compiled).items():
        assert name in pinned, f"{compiled.path}: {name} has a range but no pin"
        for pin in pinned[name]:
            for wanted in ranges:
                assert wanted.specifier.contains(pin.version, prereleases=True), (
                    f"{compiled.path}: {name}=={pin.version} is outside {wanted}"
                )


@pytest.mark.parametrize("compiled", FILES, ids=lambda f: f.path)
def test_no_pin_without_a_range(compiled):
    """A pin is there because pyproject.toml declares it or another pin of the file needs it;
    the ones uv says pyproject.toml asked for are exactly the declared ones."""
    pinned = pins(compiled.path)
    ranges = declared(compiled)
    from_pyproject = set()
    for name, entries in pinned.items():
        for pin in entries:
            reasons = [v for v in pin.via if not v.startswith("-c ")]
            assert reasons, f"{compiled.path}: {name} is pinned for no package of this file"
            for reason in reasons:
                if reason.startswith("clfmetrics (pyproject.toml"):
                    from_pyproject.add(name)
                else:
                    assert canonicalize_name(reason) in pinned, (
                        f"{compiled.path}: {name} is pinned for {reason}, which is not pinned"
                    )
    assert from_pyproject == set(ranges)


@pytest.mark.parametrize("compiled", [f for f in FILES if f.under], ids=lambda f: f.path)
def test_each_file_keeps_the_pins_of_the_one_it_is_compiled_under(compiled):
    """requirements-dev.txt extends the book's set-up and the book's the reader's: the same
    versions, so installing the next stage never moves a package of the one before."""
    below = {n: sorted(p.version for p in ps) for n, ps in pins(compiled.under).items()}
    here = {n: sorted(p.version for p in ps) for n, ps in pins(compiled.path).items()}
    assert {n: here.get(n) for n in below} == below


def test_binder_installs_the_reader_pins():
    """Binder's file is the reader's, compiled by the same command into binder/."""
    reader = (ROOT / "requirements.txt").read_text().splitlines()
    binder = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    assert reader[2:] == binder[2:]


def _commands() -> list[str]:
    """The compile commands of `make requirements`, as uv writes them into the headers."""
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "requirements"],
        cwd=ROOT,
        # Not the flags of a `make test` this runs under (its jobserver's, for one).
        env={k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = dry.replace("\\\n", " ").splitlines()
    return [
        " ".join(re.sub(r"^\S*/uv ", "uv ", ln).replace(" --quiet", "").split())
        for ln in lines
        if re.match(r"^\S*/uv pip compile ", ln)
    ]


def test_each_header_names_the_command_of_make_requirements():
    """uv's header of each file is one of `make requirements`' commands, the one that writes
    that file from its group, extras and the file below it, for requires-python's oldest."""
    commands = _commands()
    assert len(commands) == len(FILES)
    oldest = PYPROJECT["project"]["requires-python"].removeprefix(">=")
    for compiled in FILES:
        header = (ROOT / compiled.path).read_text().splitlines()[:2]
        assert header[0] == "# This file was autogenerated by uv via the following command:"
        command = header[1].removeprefix("#").strip()
        assert command in commands, f"{compiled.path}: {command}"
        words = command.split()
        assert words[words.index("-o") + 1] == compiled.path
        assert words[words.index("--group") + 1] == compiled.group
        assert words[words.index("--python-version") + 1] == oldest
        assert "--universal" in words
        assert [words[i + 1] for i, w in enumerate(words) if w == "--extra"] == list(
            compiled.extras
        )
        assert (words[words.index("-c") + 1] if "-c" in words else None) == compiled.under


def _imported(source: str) -> set[str]:
    """The top-level modules a piece of Python imports (IPython's magic lines left out)."""
    code = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.split("\n"))
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module.split(".")[0])
    return found


def test_the_book_stage_pins_what_the_book_imports():
    """`make book` installs requirements-book.txt alone: every module the chapters' code cells,
    the book's apparatus, the coursework tool and the Sphinx extensions import comes from a
    package pinned there (or the standard library, or src/ and _ext/ themselves)."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]
    wanted = {name.split(".")[0] for name in config["extra_extensions"]}
    for page in notebook_pages():
        for cell in read_notebook(page).cells:
            if cell.cell_type == "code":
                wanted |= _imported(cell.source)
    for folder in ("src/clfmetrics", "src/clfbook", "src/clfcourse", "_ext"):
        for path in (ROOT / folder).rglob("*.py"):
            if "node_modules" not in path.parts:  # npm's KaTeX ships its build scripts
                wanted |= _imported(path.read_text())
    own = {"clfmetrics", "clfbook", "clfcourse"} | {p.stem for p in (ROOT / "_ext").glob("*.py")}
    pinned = set(pins("requirements-book.txt"))
    providers = packages_distributions()
    missing = {
        module: providers.get(module)
        for module in wanted - own - set(sys.stdlib_module_names)
        if not {canonicalize_name(d) for d in providers.get(module, [])} & pinned
    }
    # The engines beyond DuckDB are optional and imported only when called (the test stage).
    assert set(missing) <= {"pyspark", "dask"}, missing
