"""The mode tools' output is read even when it is not UTF-8 (a Latin-1 locale, a broken tool)."""
from __future__ import annotations

import sys

import pytest

from services.hybrid.system_mode import SubprocessRunner


@pytest.mark.skipif(sys.platform == "win32", reason="uses /bin/sh")
def test_non_utf8_output_does_not_raise(tmp_path):
    tool = tmp_path / "prime-select"
    tool.write_bytes(b"#!/bin/sh\nprintf 'on-demand \\377\\376\\n'\n")
    tool.chmod(0o755)
    result = SubprocessRunner().run([str(tool), "query"], timeout_s=10)
    assert result is not None and result.stdout.startswith("on-demand ")
