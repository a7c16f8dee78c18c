"""The command line's output: the chosen rendering, to stdout or to ``--output FILE``.

``--format text|json|markdown|csv|html``
    The rendering (default text; ``--json`` is an alias of ``--format json``).
    ``csv`` is one long table ``section,row,column,value`` with the numbers as
    the text prints them; ``html`` is one self-contained page (no script, no
    network), with ``--scores``/``--proba`` the ROC and precision-recall curves
    and the reliability diagram as inline SVG (``agree`` and ``prevalence``: the tables
    alone). :mod:`clfmetrics.reporting._render` says
    how labels are escaped in each. The text shows a few classes where there are
    many (the lowest F1s, the most common) and says where the full table is.
``--output FILE``
    Write the rendering to ``FILE`` (UTF-8) instead of stdout; stdout stays
    empty and stderr gets a one-line note naming the file. A path that cannot
    be written is refused before any work, in one line, status 2.
"""

from __future__ import annotations

import os
import sys

from ..inference import DEFAULT_SEED
from ._file import InputError


def render(result, fmt: str) -> str:
    """``result`` (a report or a comparison) in ``fmt``, ending with one newline."""
    out = {
        "text": str,
        "json": lambda r: r.to_json(),
        "markdown": lambda r: r.to_markdown(),
        "csv": lambda r: r.to_csv(),
        "html": lambda r: r.to_html(),
    }[fmt](result)
    return out if out.endswith("\n") else out + "\n"


#: The renderings of --format; --json is --format json.
FORMATS = ("text", "json", "markdown", "csv", "html")


def add_output_options(parser, formats=FORMATS) -> None:
    """--format (one of ``formats``), --json and --output on a sub-command's parser."""
    shown = {
        "text": "text (default)",
        "json": "json",
        "markdown": "markdown",
        "csv": "csv (one long table: section,row,column,value)",
        "html": "html (one self-contained file, no script; report's curves as inline SVG)",
    }
    names = [shown[f] for f in formats]
    parser.add_argument(
        "--format", choices=formats, help=", ".join(names[:-1]) + " or " + names[-1]
    )
    parser.add_argument("--json", action="store_true", help="the same as --format json")
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the output to FILE (stdout stays empty; a one-line note on stderr)",
    )


def add_interval_options(parser, size: int) -> None:
    """--level, --size (default ``size`` resamples) and --seed on a sub-command's parser."""
    parser.add_argument("--level", type=float, default=0.95, help="interval level (default 0.95)")
    parser.add_argument("--size", type=int, default=size, help=f"resamples (default {size})")
    parser.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"random seed (default {DEFAULT_SEED}: the same command prints the same numbers)",
    )


def check_output(args) -> str:
    """The format (--json is --format json); a bad --output path is refused before any work."""
    if args.json and args.format not in (None, "json"):
        raise InputError(f"--json is --format json; it contradicts --format {args.format}")
    _check_path(args.output)
    return "json" if args.json else args.format or "text"


def _check_path(path: str | None) -> None:
    if path is None:
        return
    if path == "":
        raise InputError("--output needs a file name")
    if os.path.isdir(path):
        raise InputError(f"--output {path} is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InputError(f"--output {path}: the folder {folder} does not exist")
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise InputError(f"--output {path}: permission denied, cannot write there")


def write(content: str, path: str | None, fmt: str) -> int:
    """Print ``content``, or write it to ``path`` with a one-line note on stderr; the status."""
    if path is None:
        sys.stdout.write(content)
        return 0
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(content)
    except OSError as err:
        print(f"clfmetrics: error: --output {path}: {err.strerror or err}", file=sys.stderr)
        return 2
    size = len(content.encode("utf-8"))
    print(f"clfmetrics: wrote the {fmt} report to {path} ({size:,} bytes)", file=sys.stderr)
    return 0
