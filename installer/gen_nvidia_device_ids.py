"""Generate the NVIDIA device-id table in resources/data/setup_rules.json.

Why: on a machine without the system's pci.ids (every Windows, minimal Linux
installs) a card is only a PCI id such as 10de:1b80. The setup plans need its
architecture (Maxwell ... Blackwell) to choose open or proprietary kernel
modules, the driver branch and the PyTorch build. This script writes every
NVIDIA GPU since Maxwell as [device id, product name, architecture].

Inputs (pass the files; the script never downloads anything):

  --readme       README.md of NVIDIA/open-gpu-kernel-modules (its "Compatible
                 GPUs" table: every Turing-or-newer GPU the driver supports,
                 with its PCI device id). NVIDIA's own list.
  --supported-gpus  supported-gpus/supported-gpus.json from an NVIDIA Linux
                 driver package (NVIDIA-Linux-x86_64-<version>.run --extract-only):
                 {"chips": [{"devid": "0x1B80", "name": ..., "legacybranch": ...}]}.
                 NVIDIA's list of every GPU the driver supports, older ones too.
  --pci-ids      pci.ids (pciutils' database, github.com/pciutils/pciids). Used
                 for Maxwell, Pascal and Volta cards when no supported-gpus.json
                 is given (the open-modules README only lists Turing and newer),
                 and to cross-check the architecture of every id.

How the architecture of an id is decided (the documented mapping):

  1. Device-id ranges. NVIDIA gives each GPU chip a block of PCI device ids
     (GB202 = 0x2B80-0x2BFF, GB203 = 0x2C00-0x2C7F, ...). NVIDIA publishes the
     Blackwell blocks itself in NVIDIA/gpu-admin-tools gpu/devid_chips.py; the
     older blocks below are the same scheme, read off the chip code names
     (GM204, GP104, TU102, ...) that pci.ids gives for each id. The chip code's
     letters name the architecture (GM = Maxwell, GP = Pascal, GV = Volta,
     TU = Turing, GA = Ampere, AD = Ada Lovelace, GH = Hopper, GB = Blackwell;
     NVIDIA's product briefs and the CUDA GPUs page use the same names).
  2. Check: when pci.ids names the chip of an id, its architecture must agree
     with the range; the script stops on any disagreement.
  3. Check: supported-gpus.json's "legacybranch" (e.g. "470.xx" for Kepler) must
     not be set on Turing-or-newer ids; ids on a legacy branch older than 580 are
     pre-Maxwell and are left out.

Ids that no range covers are reported and left out (never guessed).

Run:  python installer/gen_nvidia_device_ids.py --readme README.md --pci-ids pci.ids \
          [--supported-gpus supported-gpus.json] --source-note "..." [--write]
Without --write it prints a summary; with it, it replaces the "nvidia_device_ids"
block of resources/data/setup_rules.json.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import re
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "resources" / "data" / "setup_rules.json"

# (first id, last id, architecture, chip). Blackwell rows: NVIDIA/gpu-admin-tools
# gpu/devid_chips.py (@82422cc, 2025-10-21). The others: the id blocks pci.ids
# assigns to each chip code (pciutils/pciids @c1c1254, 2026-08-22), checked by step 2.
RANGES: tuple[tuple[int, int, str, str], ...] = (
    (0x1340, 0x13BF, "Maxwell", "GM107/GM108"),
    (0x13C0, 0x13FF, "Maxwell", "GM204"),
    (0x1400, 0x143F, "Maxwell", "GM206"),
    (0x15F0, 0x15FF, "Pascal", "GP100"),
    (0x1600, 0x167F, "Maxwell", "GM204 (workstation, mobile)"),
    (0x1700, 0x173F, "Pascal", "GP100"),
    (0x1740, 0x17BF, "Maxwell", "GM107/GM108"),
    (0x17C0, 0x17FF, "Maxwell", "GM200"),
    (0x1B00, 0x1B7F, "Pascal", "GP102"),
    (0x1B80, 0x1BFF, "Pascal", "GP104"),
    (0x1C00, 0x1C7F, "Pascal", "GP106"),
    (0x1C80, 0x1CFF, "Pascal", "GP107"),
    (0x1D00, 0x1D7F, "Pascal", "GP108"),
    (0x1D80, 0x1DFF, "Volta", "GV100"),
    (0x1E00, 0x1E7F, "Turing", "TU102"),
    (0x1E80, 0x1EFF, "Turing", "TU104"),
    (0x1F00, 0x1F7F, "Turing", "TU106"),
    (0x1F80, 0x1FFF, "Turing", "TU117"),
    (0x2080, 0x20FF, "Ampere", "GA100"),
    (0x2180, 0x21FF, "Turing", "TU116"),
    (0x2200, 0x227F, "Ampere", "GA102"),
    (0x2300, 0x23FF, "Hopper", "GH100"),
    (0x2400, 0x247F, "Ampere", "GA103/GA104"),
    (0x2480, 0x24FF, "Ampere", "GA104"),
    (0x2500, 0x257F, "Ampere", "GA106"),
    (0x2580, 0x25FF, "Ampere", "GA107"),
    (0x2680, 0x26FF, "Ada Lovelace", "AD102"),
    (0x2700, 0x277F, "Ada Lovelace", "AD103"),
    (0x2780, 0x27FF, "Ada Lovelace", "AD104"),
    (0x2800, 0x287F, "Ada Lovelace", "AD106"),
    (0x2880, 0x28FF, "Ada Lovelace", "AD107"),
    (0x2900, 0x297F, "Blackwell", "GB100"),
    (0x2980, 0x29FF, "Blackwell", "GB102"),
    (0x2B80, 0x2BFF, "Blackwell", "GB202"),
    (0x2C00, 0x2C7F, "Blackwell", "GB203"),
    (0x2D00, 0x2D7F, "Blackwell", "GB206"),
    (0x2D80, 0x2DFF, "Blackwell", "GB207"),
    (0x2F00, 0x2F7F, "Blackwell", "GB205"),
    (0x3180, 0x31FF, "Blackwell", "GB110"),
    (0x3200, 0x327F, "Blackwell", "GB112"),
)
CHIP_PREFIX = {"GM": "Maxwell", "GP": "Pascal", "GV": "Volta", "TU": "Turing", "GA": "Ampere",
               "AD": "Ada Lovelace", "GH": "Hopper", "GB": "Blackwell"}
# pci.ids also lists the audio, USB and switch functions of NVIDIA chips; not GPUs.
NOT_A_GPU = re.compile(r"audio|usb|ucsi|nvswitch|nvlink|bridge|\bsmbus\b|controller$", re.IGNORECASE)
TURING_OR_NEWER = {"Turing", "Ampere", "Ada Lovelace", "Hopper", "Blackwell"}


def architecture_for(device_id: int) -> str | None:
    return next((arch for lo, hi, arch, _ in RANGES if lo <= device_id <= hi), None)


def parse_readme(text: str) -> dict[int, str]:
    """The 'Compatible GPUs' table: '| NVIDIA GeForce RTX 2080 Ti | 1E07 |' (first id only)."""
    out: dict[int, str] = {}
    in_table = False
    for line in text.splitlines():
        if line.startswith("## "):
            in_table = line.strip() == "## Compatible GPUs"
            continue
        if not in_table or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not re.match(r"^[0-9A-Fa-f]{4}\b", cells[1]):
            continue
        did = int(cells[1][:4], 16)
        name = re.sub(r"^NVIDIA\s+", "", cells[0])
        out.setdefault(did, name)
    return out


def parse_supported_gpus(text: str) -> dict[int, tuple[str, str]]:
    """supported-gpus.json -> {devid: (name, legacybranch or '')} (first entry per id)."""
    data = json.loads(text)
    out: dict[int, tuple[str, str]] = {}
    for chip in data.get("chips", []):
        try:
            did = int(str(chip["devid"]), 16)
        except (KeyError, ValueError):
            continue
        name = re.sub(r"^NVIDIA\s+", "", str(chip.get("name", "")).strip())
        out.setdefault(did, (name, str(chip.get("legacybranch", "") or "")))
    return out


def parse_pci_ids(text: str) -> dict[int, tuple[str, str | None]]:
    """NVIDIA (10de) devices in pci.ids -> {devid: (product name, chip code or None)}."""
    out: dict[int, tuple[str, str | None]] = {}
    in_vendor = False
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if not line[0].isspace():
            if in_vendor:
                break
            in_vendor = line.startswith("10de ")
            continue
        if not in_vendor or line.startswith("\t\t"):
            continue
        m = re.match(r"^\t([0-9a-f]{4})\s+(.*)$", line)
        if not m:
            continue
        did, rest = int(m.group(1), 16), m.group(2).strip()
        if NOT_A_GPU.search(rest):
            continue
        chip = re.match(r"^([A-Z]{2}\d+[A-Z]*)\b", rest)
        product = re.search(r"\[([^\]]+)\]\s*$", rest)
        out[did] = (product.group(1) if product else rest, chip.group(1) if chip else None)
    return out


def build(readme: dict[int, str], supported: dict[int, tuple[str, str]],
          pci: dict[int, tuple[str, str | None]]) -> tuple[list[list[str]], list[str]]:
    """Rows [id, name, architecture] since Maxwell, and the problems found."""
    rows: dict[int, list[str]] = {}
    problems: list[str] = []
    candidates: dict[int, str] = {}
    for did, name in readme.items():
        candidates[did] = name
    for did, (name, legacy) in supported.items():
        branch = int(legacy.split(".")[0]) if legacy[:1].isdigit() else None
        if branch is not None and branch < 580:
            continue  # Kepler and older: legacy branches 470 and below
        candidates.setdefault(did, name)
    if not supported:
        for did, (name, chip) in pci.items():
            if chip and CHIP_PREFIX.get(chip[:2]) in ("Maxwell", "Pascal", "Volta"):
                candidates.setdefault(did, name)
    for did, name in sorted(candidates.items()):
        arch = architecture_for(did)
        if arch is None:
            problems.append(f"{did:04x} {name}: no device-id range; left out")
            continue
        chip = pci.get(did, ("", None))[1]
        if chip and CHIP_PREFIX.get(chip[:2]) and CHIP_PREFIX[chip[:2]] != arch:
            raise SystemExit(f"error: {did:04x} {name}: range says {arch}, pci.ids chip {chip} says {CHIP_PREFIX[chip[:2]]}")
        legacy = supported.get(did, ("", ""))[1]
        if legacy and arch in TURING_OR_NEWER:
            raise SystemExit(f"error: {did:04x} {name}: {arch} id on legacy branch {legacy}")
        rows[did] = [f"{did:04x}", name, arch]
    return [rows[k] for k in sorted(rows)], problems


def render_block(rows: list[list[str]], source: str, date: str) -> dict:
    return {
        "source": source,
        "date": date,
        "generator": "installer/gen_nvidia_device_ids.py",
        "mapping": "architecture from NVIDIA's per-chip device-id blocks (NVIDIA/gpu-admin-tools gpu/devid_chips.py for "
                   "Blackwell; older blocks from pci.ids chip codes GM/GP/GV/TU/GA/AD/GH/GB), cross-checked per id; see the generator's docstring",
        "columns": ["device_id", "name", "architecture"],
        "devices": rows,
    }


def write_rules(block: dict, path: Path = RULES) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["nvidia_device_ids"] = block
    text = json.dumps(data, indent=1, ensure_ascii=False)
    # One device per line keeps the file readable and its diffs small.
    text = re.sub(r"\[\n\s+(\"[0-9a-f]{4}\"),\n\s+(\".*?\"),\n\s+(\"[A-Za-z ]+\")\n\s+\]", r"[\1, \2, \3]", text)
    path.write_text(text + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--readme", type=Path, required=True)
    p.add_argument("--supported-gpus", type=Path)
    p.add_argument("--pci-ids", type=Path, required=True)
    p.add_argument("--source-note", default="", help="where the input files came from (versions, commits)")
    p.add_argument("--date", default=_dt.date.today().isoformat())
    p.add_argument("--write", action="store_true")
    args = p.parse_args(argv)
    try:
        readme = parse_readme(args.readme.read_text(encoding="utf-8"))
        supported = parse_supported_gpus(args.supported_gpus.read_text(encoding="utf-8")) if args.supported_gpus else {}
        pci = parse_pci_ids(args.pci_ids.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not readme:
        print("error: no 'Compatible GPUs' table in the README", file=sys.stderr)
        return 2
    rows, problems = build(readme, supported, pci)
    counts: dict[str, int] = {}
    for _, _, arch in rows:
        counts[arch] = counts.get(arch, 0) + 1
    print(f"{len(rows)} device ids: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    for line in problems:
        print("  skipped:", line)
    if args.write:
        write_rules(render_block(rows, args.source_note, args.date))
        print(f"wrote {RULES.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
