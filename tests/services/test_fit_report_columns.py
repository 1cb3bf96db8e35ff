"""The fit CLI's breakdown lines up in a terminal in Chinese too (CJK characters are two columns)."""
from __future__ import annotations

import json
import re
import unicodedata

from main import main


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def test_breakdown_numbers_line_up_in_chinese(app_paths, capsys):
    app_paths.config_dir.mkdir(parents=True, exist_ok=True)
    app_paths.settings_file.write_text(json.dumps({"general": {"language": "zh_CN"}}))
    assert main(["fit", "--model", "meta-llama/Llama-3.1-8B", "--task", "train", "--gpu", "4090"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if re.search(r"\d+\.\d\d GiB$", line)
            and line.startswith("  ")]
    assert len(rows) >= 5 and any("权重" in r for r in rows)
    assert len({_columns(r) for r in rows}) == 1, rows  # every row ends in the same column
