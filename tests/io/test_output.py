"""clfmetrics.io._output: the chosen rendering of a report, to stdout or to ``--output``."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics.io._file import InputError
from clfmetrics.io._output import FORMATS, add_output_options, check_output, render, write


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(0)
    y = rng.choice(["cat", "dog"], 200)
    pred = np.where(rng.random(200) < 0.8, y, "cat")
    return cm.report(y, pred, size=200, rng=0)


def _args(*argv):
    parser = argparse.ArgumentParser()
    add_output_options(parser)
    return parser.parse_args(list(argv))


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_is_the_reports_own_rendering_ending_in_one_newline(result, fmt):
    text = render(result, fmt)
    assert text.endswith("\n") and not text.endswith("\n\n")
    own = {"text": str(result), "json": result.to_json(), "csv": result.to_csv()}
    if fmt in own:
        assert text.rstrip("\n") == own[fmt].rstrip("\n")
    if fmt == "json":
        assert isinstance(json.loads(text), dict)
    if fmt == "html":
        assert text.lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize(
    ("argv", "fmt"),
    [
        ((), "text"),
        (("--json",), "json"),
        (("--format", "csv"), "csv"),
        (("--json", "--format", "json"), "json"),
    ],
)
def test_the_format_is_chosen_by_format_or_json(argv, fmt):
    assert check_output(_args(*argv)) == fmt


def test_json_and_another_format_contradict_each_other():
    with pytest.raises(InputError, match="contradicts --format csv"):
        check_output(_args("--json", "--format", "csv"))


def test_a_path_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    for path, message in [
        ("", "needs a file name"),
        (str(tmp_path), "is a folder"),
        (str(tmp_path / "missing" / "r.txt"), "does not exist"),
    ]:
        with pytest.raises(InputError, match=message):
            check_output(_args("--output", path))
    assert check_output(_args("--output", str(tmp_path / "r.txt"))) == "text"


def test_write_to_a_file_leaves_stdout_empty_and_notes_the_file(tmp_path, capsys):
    out = tmp_path / "r.md"
    assert write("é\n", str(out), "markdown") == 0
    captured = capsys.readouterr()
    assert captured.out == "" and out.read_text(encoding="utf-8") == "é\n"
    assert captured.err.strip() == f"clfmetrics: wrote the markdown report to {out} (3 bytes)"
    assert write("plain\n", None, "text") == 0
    assert capsys.readouterr().out == "plain\n"


def test_a_write_that_fails_gives_one_line_and_status_2(tmp_path, capsys):
    assert write("x\n", str(tmp_path), "text") == 2  # a folder, found only at writing
    err = capsys.readouterr().err
    assert err.startswith(f"clfmetrics: error: --output {tmp_path}:") and err.count("\n") == 1
