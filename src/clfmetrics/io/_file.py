"""Opening the command line's CSV file as it comes: delimiter, encoding, gzip, shape.

- The delimiter is the one of ``,``, ``;``, tab and ``|`` under which the header
  holds every column asked for; where several (or none) do, ``csv.Sniffer``
  decides on the header and the first rows. ``delimiter=`` overrides it.
- The encoding is UTF-8 (a byte-order mark is skipped) unless ``encoding=``
  says otherwise; a byte that does not decode is reported with its line.
- A name ending in ``.gz`` is read through :mod:`gzip` (no DuckDB needed).
- Every row must have as many fields as the header (a ragged row usually means
  an unquoted delimiter inside a value), and no column used may be named twice.

Line numbers are the file's own (blank lines and quoted line breaks counted).
"""

from __future__ import annotations

import codecs
import csv
import gzip

from .._base.numbers import count

#: Tried in this order when the header alone does not decide.
DELIMITERS = (",", ";", "\t", "|")
#: Bytes read to choose the delimiter.
SAMPLE = 64 * 1024
#: Names accepted by --delimiter besides the character itself.
NAMED = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}


class InputError(Exception):
    """A problem with the user's file or arguments, reported in one line."""


def lines_text(lines, most: int = 5, total: int | None = None) -> str:
    """'line 4' or 'lines 3, 7, 9 and 12 more'; ``total``: how many lines ``lines`` begin."""
    lines = [int(x) for x in lines]
    total = len(lines) if total is None else total
    shown = ", ".join(map(str, lines[:most]))
    more = f" and {total - min(most, len(lines))} more" if total > most else ""
    return f"line{'s' if total > 1 else ''} {shown}{more}"


def delimiter_option(value: str | None) -> str | None:
    """``--delimiter`` as one character (``tab``, ``\\t``, ``semicolon``... accepted)."""
    if value is None:
        return None
    value = NAMED.get(value.lower(), value)
    if len(value) != 1 or value in '"\r\n':
        raise InputError(f"--delimiter must be one character (or 'tab'); got {value!r}")
    return value


def _open(path: str, encoding: str):
    opener = gzip.open if path.lower().endswith(".gz") else open
    return opener(path, "rt", newline="", encoding=encoding)


def check_encoding(encoding: str | None) -> str:
    if encoding is None:
        return "utf-8-sig"
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(
            f"--encoding {encoding}: no such encoding (e.g. latin-1, cp1252)"
        ) from None
    return "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding


def _decode_error(path: str, encoding: str, err: UnicodeDecodeError) -> InputError:
    """Find the line of the first byte that does not decode (the file read again as bytes)."""
    opener = gzip.open if path.lower().endswith(".gz") else open
    decoder = codecs.getincrementaldecoder(encoding)()
    line = 1
    with opener(path, "rb") as handle:
        for raw in handle:
            try:
                decoder.decode(raw)
            except UnicodeDecodeError as bad:
                shown = raw[max(bad.start - 10, 0) : bad.end + 10]
                return InputError(
                    f"{path}, line {line}: bytes that are not {encoding.replace('-sig', '')} "
                    f"({shown!r}); pass --encoding with the file's encoding (e.g. --encoding "
                    "latin-1 or cp1252)"
                )
            line += 1
    return InputError(f"cannot read {path}: {err}")


def choose_delimiter(path: str, wanted: list[str], encoding: str) -> str:
    """The delimiter under which the header names every wanted column (see above)."""
    try:
        with _open(path, encoding) as handle:
            sample = handle.read(SAMPLE)
    except UnicodeDecodeError as err:
        raise _decode_error(path, encoding, err) from None
    except (OSError, EOFError) as err:
        raise _unreadable(path, err) from None
    first = sample.splitlines()[0] if sample.strip() else ""
    fields = {d: {c.strip() for c in next(csv.reader([first], delimiter=d))} for d in DELIMITERS}
    fits = [d for d in DELIMITERS if first and set(wanted) <= fields[d]]
    if len(fits) == 1:
        return fits[0]
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters="".join(DELIMITERS)).delimiter
    except csv.Error:
        sniffed = ","
    return sniffed if not fits or sniffed in fits else fits[0]


def _unreadable(path: str, err: Exception) -> InputError:
    if isinstance(err, FileNotFoundError):
        return InputError(f"no such file: {path}")
    if isinstance(err, IsADirectoryError):
        return InputError(f"{path} is a directory, not a CSV file")
    return InputError(f"cannot read {path}: {err}")


def read_batches(path: str, delimiter: str, encoding: str, size: int):
    """Lists of non-blank rows and the line on which each starts, ``size`` rows at a time."""
    rows, lines = [], []
    try:
        with _open(path, encoding) as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            start = 1
            for row in reader:
                if any(cell.strip() for cell in row):
                    rows.append(row)
                    lines.append(start)
                    if len(rows) == size:
                        yield rows, lines
                        rows, lines = [], []
                start = reader.line_num + 1
    except UnicodeDecodeError as err:
        raise _decode_error(path, encoding, err) from None
    except (OSError, EOFError, csv.Error) as err:
        raise _unreadable(path, err) from None
    if rows:
        yield rows, lines


def header_row(path: str, delimiter: str, encoding: str) -> tuple[list[str], int]:
    """The first non-blank row (the header), stripped, and its line."""
    try:
        with _open(path, encoding) as handle:
            reader = csv.reader(handle, delimiter=delimiter)
            for row in reader:
                if any(cell.strip() for cell in row):
                    return [c.strip() for c in row], reader.line_num
    except UnicodeDecodeError as err:
        raise _decode_error(path, encoding, err) from None
    except (OSError, EOFError, csv.Error) as err:
        raise _unreadable(path, err) from None
    return [], 1


def check_shape(path: str, header: list[str], rows, lines, used: list[str], delimiter: str):
    """Refuse ragged rows and a used column named twice in the header."""
    for name in used:
        where = [k + 1 for k, h in enumerate(header) if h == name]
        if len(where) > 1:
            raise InputError(
                f"{path}, line {lines[0]}: the header names column {name!r} "
                f"{len(where)} times (columns {', '.join(map(str, where))}); rename the copies "
                "so that each column used has a name of its own"
            )
    width = len(header)
    ragged = [line for row, line in zip(rows, lines[1:], strict=True) if len(row) != width]
    if ragged:
        k = next(k for k, row in enumerate(rows) if len(row) != width)
        shown = "tab" if delimiter == "\t" else repr(delimiter)
        raise InputError(
            f"{path}: {count(len(ragged), 'row')} ({lines_text(ragged)}) "
            f"{'has' if len(ragged) == 1 else 'have'} a number of fields other than the "
            f"header's {width} (the first has {len(rows[k])}); quote values that contain the "
            f"delimiter {shown} (or pass --delimiter), and give every row one field per column"
        )
