"""The ten attacks of issue 24 on local grading: submissions in one `make grade` batch.

The shared batch (``coursework_batch``) grades, side by side, an honest notebook (the
teacher's: full points; eve's in the gradebook), a blank one (the student's: zero) and six
hostile notebooks of the mini chapter (``coursework_mini.OVER``: given data ``m``, an answer
``over`` that the hidden test compares with the library), whose code is in
``coursework_attack_code``: attacks 1 and 2 share a notebook, 4, 5, 6 and 9 another, 3 shares
one with issue 19's fake ``bias`` and 10 with issue 19's object equal to everything (none of a
notebook's attacks can stop or mask another, and each alone gives points or leaves a trace
that its test reads).
Before the sandbox, every attack below gave unearned points, crashed the batch or harmed other
submissions or the machine; each test says what it did. The batch runs once per test run,
with a process cap of 45, and the tests read its rows.
"""

from __future__ import annotations

import json

import pytest
from coursework_attack_code import ATTACKS
from coursework_batch import mini_batch

from clfcourse import sandbox
from clfcourse.__main__ import main

#: The grader's tests that read the mini chapter's shared batch share a worker with it.
pytestmark = pytest.mark.sandbox

#: The notebook of attacks 4, 5, 6 and 9.
ZIP_YAML_DAEMON = "4-daemon-5-zip-6-yaml-9-outlive"


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    return mini_batch(tmp_path_factory)


def _row(batch, name) -> dict:
    return batch["rows"][name]


def test_honest_notebook_keeps_full_points_and_blank_scores_zero(batch):
    assert (_row(batch, "eve")["points"], _row(batch, "eve")["message"]) == ("2", "ok")
    blank = _row(batch, "blank")
    assert blank["points"] == "0" and "NameError" in blank["message"], blank


#: The notebook of attacks 1 and 2 (forged values).
FORGED = "1-series-name-2-shadowed-abs"


def test_1_a_callable_series_name_runs_nothing_in_the_scorer(batch):
    """Was: the name resolved to builtins.exec through runner.builtins; pandas called it (its
    code passed every test, which would give attack 2's wrong answer full points here)."""
    row = _row(batch, FORGED)
    assert row["points"] == "0" and "bias: unreadable (ValueError)" in row["message"], row


def test_2_builtins_are_never_bound_from_the_students_values(batch):
    """Was: an exported `abs` = operator.not_ passed `abs(sum) < 1e-9` for a wrong answer."""
    row = _row(batch, FORGED)
    assert row["points"] == "0" and "test 2: AssertionError" in row["message"], row


def test_3_redefined_given_data_earns_nothing(batch):
    """Was: `m = np.eye(3)` made `over = 0` right; `m` now comes from the teacher's run."""
    row = _row(batch, "3-given-data-fake-bias")
    assert row["points"] == "0" and "test 2: AssertionError" in row["message"], row


def test_4_a_daemon_cannot_rewrite_the_score(batch):
    """Was: a double-forked daemon wrote full points into score.json after the scorer."""
    row = _row(batch, ZIP_YAML_DAEMON)
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_5_the_grader_and_its_zip_are_out_of_sight(batch):
    """Was: found through /proc and /tmp, the zip gave the expected value."""
    row = _row(batch, ZIP_YAML_DAEMON)
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_6_the_venv_is_read_only(batch):
    """Was: a line appended to yaml/__init__.py ran in every later scorer: full points."""
    assert not batch["yaml_damaged"], "the venv's yaml/__init__.py changed (restored)"
    row = _row(batch, ZIP_YAML_DAEMON)
    assert row["points"] == "0" and "NameError" in row["message"], row


def test_7_a_sabotaged_values_file_is_that_submissions_row(batch):
    """Was: a folder .values.json crashed the whole run, with no grades.csv for anyone."""
    row = _row(batch, "7-values-sabotage")
    assert row["points"] == "0" and ".values.json is not a regular file" in row["message"], row


def test_8_a_notebook_cannot_kill_the_grader_or_other_kernels(batch):
    """Was: killing the grader's process tree cost everyone their grades."""
    row = _row(batch, "8-kill")
    assert row["points"] == "0" and "killed" in row["message"], row
    # every submission graded, the honest one in full
    assert {r["file"] for r in batch["details"].values()} == set(batch["files"])
    assert {"eve", "blank", *ATTACKS} <= set(batch["rows"])


def test_9_nothing_outlives_the_run(batch):
    """Was: a double-forked process outlived `make grade`."""
    assert not batch["survivors"], batch["survivors"]
    assert _row(batch, ZIP_YAML_DAEMON)["points"] == "0"


def test_10_the_process_cap_binds(batch):
    """Was: as root, RLIMIT_NPROC never bound, so 40 forks got through (and the answer)."""
    row = _row(batch, "10-forks-liar")  # `over` stays the object that cannot leave the kernel
    assert row["points"] == "0" and "cannot leave the notebook" in row["message"], row


def test_grading_refuses_without_a_sandbox_unless_told(monkeypatch, tmp_path, capsys):
    """No sandbox: exit 2 and a message naming the flag, before any notebook runs."""
    monkeypatch.setattr(sandbox, "probe", lambda: "bubblewrap (bwrap) is not installed")
    (tmp_path / "assignments").mkdir()
    (tmp_path / "assignments" / "manifest.json").write_text(json.dumps({"chapters": []}))
    (tmp_path / "subs").mkdir()
    args = ["grade", str(tmp_path / "subs"), "--assignments", str(tmp_path / "assignments")]
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bwrap" in err and sandbox.UNSAFE_FLAG in err, err
    assert main([*args, "--out", str(tmp_path / "out"), sandbox.UNSAFE_FLAG]) == 0
