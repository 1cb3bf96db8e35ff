"""installer/check_imports.py over a made-up project tree, and over this one."""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("check_imports", ROOT / "installer" / "check_imports.py")
check_imports = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("check_imports", check_imports)  # dataclasses look their module up
_spec.loader.exec_module(check_imports)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


CLEAN = {
    "main.py": "from gui import app\nfrom cli import run\n",
    "gui/__init__.py": "",
    "gui/app.py": "from PySide6.QtWidgets import QWidget\nfrom services.nvml_devices import list_devices\n",
    "services/__init__.py": "",
    "cli/__init__.py": "from services.nvml_devices import list_devices\ndef run(): ...\n",
    "services/nvml_devices.py": "from services.telemetry.nvml import Nvml\n",
    "services/telemetry/__init__.py": "",
    "services/telemetry/nvml.py": "def load():\n    import pynvml\n    return pynvml\n",
}


def test_a_clean_tree_passes(tmp_path, capsys):
    root = _tree(tmp_path, CLEAN)
    problems, files, count = check_imports.check(root)
    assert problems == [] and files == 8 and count == 7
    assert check_imports.main(["--root", str(root)]) == 0
    assert "0 problem(s)" in capsys.readouterr().out


def test_each_rule_is_reported_with_file_and_line(tmp_path):
    root = _tree(tmp_path, {
        **CLEAN,
        "gui/page.py": "from cli import run, other\n",  # one line, not one per name
        "services/a.py": "x = 1\nfrom . import b\n",  # relative import, resolved
        "services/b.py": "def f():\n    from services.a import x  # function-level: still a cycle\n",
        "services/qt_user.py": "import pyqtgraph\n",
        "services/modelfit/__init__.py": "",
        "services/modelfit/gpus.py": "try:\n    import pynvml\nexcept ImportError:\n    pynvml = None\n",
        "services/typed.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from PySide6.QtCore import QObject\n"
                              "    from services.typed_peer import Peer\n"),
        "services/typed_peer.py": "from services.typed import TYPE_CHECKING\n",
    })
    problems, _, _ = check_imports.check(root)
    assert problems == [
        "gui/page.py:1: gui imports the command-line front end (cli.run)",
        "services/qt_user.py:1: services import Qt (pyqtgraph)",
        "services/modelfit/gpus.py:2: imports pynvml; only services.telemetry.nvml may (use services.nvml_devices)",
        "import cycle between services.a, services.b: services.a:2 -> services.b; services.b:2 -> services.a",
    ]
    assert check_imports.main(["--root", str(root)]) == 1


def test_a_three_file_cycle_is_one_finding(tmp_path):
    root = _tree(tmp_path, {**CLEAN, "services/x.py": "import services.y\n", "services/y.py": "import services.z\n",
                            "services/z.py": "from services import x\n"})
    problems, _, _ = check_imports.check(root)
    assert problems == ["import cycle between services.x, services.y, services.z: "
                        "services.x:1 -> services.y; services.y:1 -> services.z; services.z:1 -> services.x"]


def test_bad_root_and_broken_file_are_one_line_errors(tmp_path, capsys):
    assert check_imports.main(["--root", str(tmp_path / "nowhere")]) == 2
    root = _tree(tmp_path / "p", {**CLEAN, "services/broken.py": "def (:\n"})
    assert check_imports.main(["--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "no services/ folder" in err and "broken.py" in err and "Traceback" not in err


def test_this_project_keeps_every_rule():
    # No cycles between files, one NVML importer, Qt-free services, a GUI apart from the CLI.
    problems, files, imports = check_imports.check(ROOT)
    assert problems == [] and files > 100 and imports > 1000
