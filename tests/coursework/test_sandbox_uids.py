"""Graders running at once never hand the same user id to two submissions.

Picking the first id no process runs as was check-then-use: two graders (``make test`` grades
on two workers) could both see an id free and both run a submission as it, so each counted the
other's processes against its cap and could signal them. An id is now claimed with an
exclusive lock (:func:`.sandbox.claim_uid`) before it is checked.
"""

import os
import subprocess
import sys
import textwrap
import time

import pytest

from clfcourse import sandbox

pytestmark = pytest.mark.sandbox

#: Takes an id, says which, and holds it until its standard input closes.
HOLD = textwrap.dedent(
    """
    import sys
    from clfcourse import sandbox
    with sandbox._USERS.take() as uid:
        print(uid, flush=True)
        sys.stdin.read()
    """
)


def _holders(count: int) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", HOLD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for _ in range(count)
    ]


def test_graders_started_at_once_take_different_user_ids():
    """Six processes take an id at the same moment and hold it: six different ids."""
    holders = _holders(6)
    try:
        uids = [int(p.stdout.readline()) for p in holders]
        with sandbox._USERS.take() as mine:  # and this process, while they hold theirs
            assert mine not in uids
    finally:
        for p in holders:
            p.stdin.close()
            p.wait(timeout=60)
    assert len(set(uids)) == len(uids), uids
    assert min(uids) > sandbox.FIRST_UID  # the probe's id is never handed out


def test_an_id_is_free_again_once_its_holder_ends():
    """The kernel lets a claim go when its process ends, even killed: no stale lock files."""
    (holder,) = _holders(1)
    uid = int(holder.stdout.readline())
    assert sandbox.claim_uid(uid) is None  # held by the other process
    holder.kill()
    holder.wait(timeout=60)
    for _ in range(50):
        claim = sandbox.claim_uid(uid)
        if claim is not None:
            break
        time.sleep(0.1)
    assert claim is not None, f"{uid} still claimed after its holder was killed"
    try:
        assert sandbox.claim_uid(uid) is None  # a second claim in this process is refused too
    finally:
        os.close(claim)
