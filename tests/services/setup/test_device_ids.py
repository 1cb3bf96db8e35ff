"""NVIDIA's device-id list in the rules file and the script that generates it."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from installer import gen_nvidia_device_ids as gen
from services.setup.rules import RULES_FILE, load_rules

RULES = load_rules()
ROOT = Path(__file__).resolve().parents[3]

# The formats as published: NVIDIA/open-gpu-kernel-modules README.md, the driver's
# supported-gpus.json, pciutils' pci.ids.
README = """## Compatible GPUs

The NVIDIA open kernel modules can be used on any Turing or later GPU (see the
table below).

| Product Name                                            | PCI ID         |
| ------------------------------------------------------- | -------------- |
| NVIDIA TITAN RTX                                        | 1E02           |
| NVIDIA GeForce RTX 2080 Ti                              | 1E07           |
| NVIDIA GeForce RTX 4090                                 | 2684           |
| NVIDIA GeForce RTX 5090                                 | 2B85           |
| NVIDIA B300 SXM6 AC                                     | 3182 10DE 20E6 |
| NVIDIA GB10                                             | 2E12           |

## Another section
| Not a GPU | 1234 |
"""
SUPPORTED = json.dumps({"chips": [
    {"devid": "0x1180", "name": "GeForce GTX 680", "legacybranch": "470.xx", "features": []},
    {"devid": "0x13C0", "name": "NVIDIA GeForce GTX 980", "legacybranch": "580.xx", "features": []},
    {"devid": "0x1B80", "name": "NVIDIA GeForce GTX 1080", "legacybranch": "580.xx", "features": []},
    {"devid": "0x1BA1", "subdevid": "0x08A1", "subvendorid": "0x1028", "name": "NVIDIA GeForce GTX 1070 with Max-Q Design",
     "legacybranch": "580.xx", "features": []},
    {"devid": "0x1E07", "name": "GeForce RTX 2080 Ti", "features": ["kernelopen"]},
]})
PCI_IDS = """# comment
10de  NVIDIA Corporation
\t0fb0  GM200 High Definition Audio
\t13c0  GM204 [GeForce GTX 980]
\t1b80  GP104 [GeForce GTX 1080]
\t\t1043 8591  ROG Strix
\t1d81  GV100 [TITAN V]
\t1e07  TU102 [GeForce RTX 2080 Ti Rev. A]
10df  Emulex Corporation
\t1b80  Not NVIDIA
"""


def test_readme_table_is_read_with_the_first_id_only():
    rows = gen.parse_readme(README)
    assert rows == {0x1E02: "TITAN RTX", 0x1E07: "GeForce RTX 2080 Ti", 0x2684: "GeForce RTX 4090",
                    0x2B85: "GeForce RTX 5090", 0x3182: "B300 SXM6 AC", 0x2E12: "GB10"}


def test_pci_ids_keeps_nvidia_gpus_with_their_chip_code():
    rows = gen.parse_pci_ids(PCI_IDS)
    assert rows[0x1B80] == ("GeForce GTX 1080", "GP104")
    assert 0x0FB0 not in rows  # an audio function, not a GPU
    assert set(rows) == {0x13C0, 0x1B80, 0x1D81, 0x1E07}


def test_build_from_readme_and_pci_ids():
    rows, problems = gen.build(gen.parse_readme(README), {}, gen.parse_pci_ids(PCI_IDS))
    assert ["1b80", "GeForce GTX 1080", "Pascal"] in rows and ["1d81", "TITAN V", "Volta"] in rows
    assert ["13c0", "GeForce GTX 980", "Maxwell"] in rows and ["2b85", "GeForce RTX 5090", "Blackwell"] in rows
    assert ["3182", "B300 SXM6 AC", "Blackwell"] in rows  # NVIDIA's own GB110 block
    assert any(p.startswith("2e12 GB10") for p in problems)  # no block: left out, never guessed


def test_build_from_supported_gpus_json_drops_legacy_branches():
    rows, _ = gen.build({}, gen.parse_supported_gpus(SUPPORTED), {})
    assert [r[0] for r in rows] == ["13c0", "1b80", "1ba1", "1e07"]  # Kepler (470.xx) left out
    assert ["1b80", "GeForce GTX 1080", "Pascal"] in rows  # names without the "NVIDIA " prefix, like the README's


def test_a_range_that_disagrees_with_the_chip_code_stops_the_script():
    with pytest.raises(SystemExit, match="pci.ids chip GA102 says Ampere"):
        gen.build({0x1E07: "x"}, {}, {0x1E07: ("x", "GA102")})


def test_ranges_do_not_overlap():
    spans = sorted((lo, hi) for lo, hi, _, _ in gen.RANGES)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))


def test_the_script_runs_as_a_command(tmp_path):
    (tmp_path / "README.md").write_text(README)
    (tmp_path / "pci.ids").write_text(PCI_IDS)
    done = subprocess.run([sys.executable, str(ROOT / "installer" / "gen_nvidia_device_ids.py"), "--readme", str(tmp_path / "README.md"),
                           "--pci-ids", str(tmp_path / "pci.ids")], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0 and "8 device ids" in done.stdout, done.stdout + done.stderr
    bad = subprocess.run([sys.executable, str(ROOT / "installer" / "gen_nvidia_device_ids.py"), "--readme", str(tmp_path / "nope"),
                          "--pci-ids", str(tmp_path / "pci.ids")], capture_output=True, text=True, cwd=ROOT, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


def test_rules_carry_the_generated_list_with_its_source():
    block = json.loads(RULES_FILE.read_text(encoding="utf-8"))["nvidia_device_ids"]
    assert block["source"] and block["date"] and block["generator"] == "installer/gen_nvidia_device_ids.py"
    names = {g.name for g in RULES.generations}
    assert len(block["devices"]) > 400 and all(arch in names for _, _, arch in block["devices"])
    # every device's architecture agrees with the documented id blocks
    assert all(gen.architecture_for(int(did, 16)) == arch for did, _, arch in block["devices"])


@pytest.mark.parametrize("device_id, generation", [
    ("1b80", "Pascal"), ("1e07", "Turing"), ("13c2", "Maxwell"), ("1380", "Maxwell"), ("17c8", "Maxwell"),
    ("1b06", "Pascal"), ("1c03", "Pascal"), ("1d81", "Volta"), ("1f08", "Turing"), ("2182", "Turing"),
    ("2206", "Ampere"), ("2504", "Ampere"), ("20b2", "Ampere"), ("2684", "Ada Lovelace"), ("2782", "Ada Lovelace"),
    ("2330", "Hopper"), ("2b85", "Blackwell"), ("2c02", "Blackwell"), ("2d04", "Blackwell"), ("2f04", "Blackwell"),
])
def test_every_generation_is_known_by_pci_id_alone(device_id, generation):
    assert RULES.identify_gpu(device_id) == (generation, "pci_id")
    assert RULES.identify_gpu("10de:" + device_id.upper())[0] == generation
