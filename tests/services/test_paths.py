"""Where resources/ is found: in a checkout and in a PyInstaller bundle."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from services.paths import RESOURCES_DIR, find_resources_dir, resource_path

ROOT = Path(__file__).resolve().parents[2]


def test_checkout_layout_is_beside_services():
    module = ROOT / "services" / "paths.py"
    assert find_resources_dir(False, None, str(module)) == ROOT / "resources"


def test_frozen_bundle_uses_the_bundle_folder(tmp_path):
    bundle = tmp_path / "gpu-assistant" / "_internal"
    # Where a frozen module claims to live does not matter: the bundle folder wins.
    got = find_resources_dir(True, str(bundle), str(tmp_path / "elsewhere" / "services" / "paths.pyc"))
    assert got == bundle / "resources"


def test_frozen_without_bundle_folder_falls_back_to_the_module(tmp_path):
    module = tmp_path / "app" / "services" / "paths.py"
    assert find_resources_dir(True, None, str(module)) == tmp_path / "app" / "resources"


def test_resource_path_in_this_checkout():
    assert RESOURCES_DIR == ROOT / "resources"
    assert resource_path("translations").is_dir()
    assert resource_path("icons", "gpu-assistant.svg").is_file()


def test_a_frozen_process_reads_resources_from_meipass(tmp_path):
    """What PyInstaller's bootloader sets (sys.frozen, sys._MEIPASS) decides, at import time."""
    bundle = tmp_path / "_internal"
    (bundle / "resources" / "translations").mkdir(parents=True)
    code = (
        "import sys; sys.frozen = True; sys._MEIPASS = sys.argv[1]\n"
        "from services.paths import resource_path\n"
        "from services.i18n import TRANSLATIONS_DIR\n"
        "print(resource_path('icons', 'x.svg')); print(TRANSLATIONS_DIR)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(bundle)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    icon, translations = result.stdout.splitlines()
    assert Path(icon) == bundle / "resources" / "icons" / "x.svg"
    assert Path(translations) == bundle / "resources" / "translations"


def test_check_regular_file_refuses_empty_names_fifos_and_devices(tmp_path):
    import os

    import pytest

    from services.paths import UnsafePathError, check_regular_file

    with pytest.raises(UnsafePathError, match="--csv needs a file name"):
        check_regular_file("", "--csv")
    check_regular_file(tmp_path / "missing.csv", may_be_missing=True)
    with pytest.raises(UnsafePathError, match="no such file"):
        check_regular_file(tmp_path / "missing.csv")
    check_regular_file(tmp_path)  # a folder is the caller's to judge
    with pytest.raises(UnsafePathError, match="folder"):
        check_regular_file(tmp_path, may_be_folder=False)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        with pytest.raises(UnsafePathError, match="FIFO"):
            check_regular_file(tmp_path / "pipe", "--replay")
    if os.path.exists("/dev/null"):
        with pytest.raises(UnsafePathError, match="device"):
            check_regular_file("/dev/null")
