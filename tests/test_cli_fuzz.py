"""A bounded sample of the CLI fuzz (tests/fuzz_cli.py): hostile files, arguments and app folders,
each case a real process with a time limit; no traceback and no hang anywhere."""
from __future__ import annotations

import os

import pytest

from tests.fuzz_cli import fuzz

pytestmark = [pytest.mark.end2end, pytest.mark.slow]

# 24 cases, 2 at a time; GPU_ASSISTANT_FUZZ_SEED picks another sample (it is in the failure message).
SEED = int(os.environ.get("GPU_ASSISTANT_FUZZ_SEED", "23"))


def test_hostile_cli_cases_give_no_traceback_and_no_hang(tmp_path):
    results = fuzz(24, SEED, timeout=60.0, jobs=2, work=tmp_path)
    assert len(results) == 24
    bad = [(r.case, "hang" if r.hung else "traceback", r.tail[-600:]) for r in results if r.hung or r.traceback]
    assert not bad, (SEED, bad)
