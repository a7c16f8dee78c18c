"""What a class hands in, read as data: submitted files and every string derived from them.

A submissions folder comes from students (a GitHub Classroom clone, an archive the teacher
unpacked, a shared folder), so nothing in it is followed or trusted:

- :func:`collect` reads every file once, into bytes, with a size cap: a symbolic link, a FIFO,
  a device or anything else that is not a regular file is refused (``O_NOFOLLOW`` and
  ``fstat`` on the open file, so a link swapped in after the walk is refused too), as is a file
  whose resolved path leaves the folder. The grader copies those bytes into its scratch
  folders and never opens the student's path again.
- :func:`text` makes any string a student controls (file names, ids, values' reasons,
  errors) printable and encodable: undecodable bytes and lone surrogates become backslash
  escapes, ANSI escape sequences and control characters go. :func:`cell` also keeps a
  spreadsheet from reading a cell as a formula; :func:`file_name` makes one safe, short
  file name of it.
- :func:`remove_tree` deletes a scratch folder without recursion, however deep its folders.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import NamedTuple

#: A submitted file larger than this is refused unread (a notebook of the book is under 1 MB).
MAX_FILE_MB = 32

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def text(value: object, limit: int | None = None, lines: bool = False) -> str:
    """``value`` as a string that any file, terminal or CSV reader takes as plain text.

    Lone surrogates (what ``os.fsdecode`` makes of a file name's undecodable bytes, or a
    crafted string) become ``\\udcff``-style escapes, so writing it as UTF-8 cannot fail; ANSI
    escape sequences and other control characters (bidirectional overrides included) are
    removed; line breaks become spaces unless ``lines``. Cut to ``limit`` characters.
    """
    if isinstance(value, bytes):
        value = value.decode("utf-8", "backslashreplace")
    string = str(value).encode("utf-8", "backslashreplace").decode("utf-8")
    string = _ANSI.sub("", string)
    if not lines:
        string = re.sub(r"[\r\n\t]+", " ", string)
    string = _CONTROL.sub("", string.replace("\r\n", "\n"))
    if limit is not None and len(string) > limit:
        string = string[: max(limit - 3, 0)] + "..."
    return string


def cell(value: object) -> str:
    """``value`` as a CSV cell: :func:`text`, and a leading ``=``, ``+``, ``-`` or ``@`` (a
    formula to a spreadsheet) escaped with a ``'``."""
    string = text(value, lines=True)
    return f"'{string}" if string[:1] in ("=", "+", "-", "@") else string


def file_name(value: object, limit: int = 80) -> str:
    """One safe file name for ``value``: letters, digits and ``.@+-_`` only, never hidden or
    empty, at most ``limit`` characters (a longer one is cut and ends with a hash of the whole,
    so that two long names stay apart)."""
    string = text(value)
    safe = re.sub(r"[^\w.@+-]+", "_", string, flags=re.ASCII).strip("._") or "unknown"
    if len(safe) > limit:
        digest = hashlib.sha256(string.encode()).hexdigest()[:12]
        safe = f"{safe[: limit - 13]}-{digest}"
    return safe


class Submitted(NamedTuple):
    """One entry of a submissions folder: its name (relative, ``/``-separated, as
    :func:`text`), its bytes or None, its modification time, and why it was refused."""

    name: str
    data: bytes | None
    mtime_ns: int
    problem: str | None = None


def read_regular(path: Path | str, cap: int) -> tuple[bytes, int]:
    """The bytes of a regular file and its modification time; ``ValueError`` saying why not.

    Opened without following a link and without waiting on a FIFO; the checks are made on
    the open file, so what is read is what was checked.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        if os.path.islink(path):
            raise ValueError("a symbolic link: not followed, not graded") from None
        raise ValueError(f"could not be read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError("not a regular file: not read, not graded")
        if st.st_size > cap:
            raise ValueError(f"larger than {cap / 2**20:g} MB: not read, not graded")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:  # grew while it was read
            raise ValueError(f"larger than {cap / 2**20:g} MB: not read, not graded")
        return b"".join(chunks), st.st_mtime_ns
    finally:
        os.close(fd)


def collect(submissions: Path | str, max_mb: float = MAX_FILE_MB) -> list[Submitted]:
    """Every entry of ``submissions`` (a folder, searched without following links, or one
    file), hidden files and folders skipped, sorted by name: each read as bytes, or refused
    with a reason (:func:`read_regular`)."""
    root = Path(submissions)
    cap = int(max_mb * 2**20)
    if not root.is_dir():
        try:
            data, mtime = read_regular(root, cap)
        except ValueError as exc:
            return [Submitted(text(root.name), None, 0, str(exc))]
        return [Submitted(text(root.name), data, mtime)]
    top = os.path.realpath(root)
    found = []
    for folder, dirs, files in os.walk(top, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            if name.startswith("."):
                continue
            path = os.path.join(folder, name)
            shown = text(Path(os.path.relpath(path, top)).as_posix())
            real = os.path.realpath(path)
            try:
                if os.path.islink(path):
                    raise ValueError("a symbolic link: not followed, not graded")
                if os.path.commonpath([top, real]) != top:
                    raise ValueError("outside the submissions folder: not read, not graded")
                data, mtime = read_regular(path, cap)
            except ValueError as exc:
                found.append(Submitted(shown, None, 0, str(exc)))
                continue
            found.append(Submitted(shown, data, mtime))
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
    return sorted(found, key=lambda s: s.name)


def remove_tree(path: Path | str) -> None:
    """Delete ``path`` and everything below it, without recursion and without following links.

    Each folder is opened relative to its parent's descriptor, so neither the depth of a chain
    of folders (``shutil.rmtree`` raises ``RecursionError`` near a thousand) nor the length of
    its path stops it. What cannot be removed is left, never an error.
    """
    path = os.fspath(path)
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        top = os.open(path, flags)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    stuck: set[tuple[int, int]] = set()  # folders that could not be removed: not entered again
    stack = [(top, None, None)]  # (folder's fd, its parent's fd, its name in the parent)
    while stack:
        fd, parent, name = stack[-1]
        child = None
        try:
            with os.scandir(fd) as entries:
                for entry in entries:
                    if not entry.is_dir(follow_symlinks=False):
                        with contextlib.suppress(OSError):
                            os.unlink(entry.name, dir_fd=fd)
                        continue
                    with contextlib.suppress(OSError):
                        st = entry.stat(follow_symlinks=False)
                        if (st.st_dev, st.st_ino) not in stuck:
                            child = (os.open(entry.name, flags, dir_fd=fd), fd, entry.name)
                            break
        except OSError:
            pass
        if child is not None:
            stack.append(child)
            continue
        stack.pop()
        st = os.fstat(fd)
        os.close(fd)
        if parent is not None:
            try:
                os.rmdir(name, dir_fd=parent)
            except OSError:
                stuck.add((st.st_dev, st.st_ino))
    with contextlib.suppress(OSError):
        os.rmdir(path)
