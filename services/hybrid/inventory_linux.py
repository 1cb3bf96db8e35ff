"""Linux GPU inventory from sysfs: /sys/class/drm and the PCI bus.

``root`` is injectable so tests build a fake sysfs tree in a temporary folder.
Every display-class PCI device is listed, including an NVIDIA GPU whose driver
exposes no DRM card (nvidia-drm not loaded) and a GPU with no driver at all.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from services.hybrid.model import VENDOR_NAMES, GpuAdapter, GpuKind, Inventory, Vendor, normalize_pci, vendor_of
from services.i18n import Msg, translate

_CARD = re.compile(r"^card(\d+)$")
_CONNECTOR = re.compile(r"^(card\d+)-(.+)$")
PCI_IDS_CANDIDATES = ("usr/share/hwdata/pci.ids", "usr/share/misc/pci.ids", "usr/share/pci.ids")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def _hex(text: str | None) -> int | None:
    if not text:
        return None
    try:
        return int(text, 16)
    except ValueError:
        return None


def _driver(device: Path) -> str | None:
    try:
        return os.path.basename(os.readlink(device / "driver"))
    except OSError:
        return None


def _pci_address(device: Path) -> str | None:
    uevent = _read(device / "uevent") or ""
    for line in uevent.splitlines():
        if line.startswith("PCI_SLOT_NAME="):
            return normalize_pci(line.split("=", 1)[1])
    try:
        name = os.path.basename(os.path.realpath(device))
    except OSError:
        return None
    return normalize_pci(name) if re.match(r"^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d$", name) else None


class PciNames:
    """Vendor/device names from the pci.ids database, read once on demand."""

    def __init__(self, root: Path) -> None:
        self._path = next((root / p for p in PCI_IDS_CANDIDATES if (root / p).is_file()), None)
        self._cache: dict[tuple[int, int], str | None] = {}

    def name(self, vendor_id: int, device_id: int) -> str | None:
        key = (vendor_id, device_id)
        if key not in self._cache:
            self._cache[key] = self._lookup(vendor_id, device_id)
        return self._cache[key]

    def _lookup(self, vendor_id: int, device_id: int) -> str | None:
        if self._path is None:
            return None
        vendor_tag, device_tag = f"{vendor_id:04x}", f"\t{device_id:04x}  "
        in_vendor = False
        try:
            with self._path.open(encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if not line or line[0] == "#":
                        continue
                    if line[0] != "\t":
                        if in_vendor:
                            return None
                        in_vendor = line.startswith(vendor_tag + "  ")
                    elif in_vendor and line.startswith(device_tag):
                        return line[len(device_tag):].strip()
        except OSError:
            return None
        return None


def _kind(vendor: Vendor, address: str | None, root: Path) -> tuple[GpuKind, Msg]:
    if vendor is Vendor.NVIDIA:
        return GpuKind.DISCRETE, translate("Hybrid", "NVIDIA GPUs in PCs are discrete")
    bus = address.rsplit(":", 1)[0] if address else None
    if vendor is Vendor.INTEL and bus:
        # Intel integrated graphics always sits on the root bus (00:02.0); Arc cards sit behind a bridge.
        if bus.endswith(":00"):
            return GpuKind.INTEGRATED, translate("Hybrid", "Intel GPU on the processor's root bus")
        return GpuKind.DISCRETE, translate("Hybrid", "Intel GPU behind a PCIe bridge (Arc card)")
    if vendor is Vendor.AMD and bus:
        # An APU's GPU shares its PCI bus with AMD processor functions (vendor 0x1022: PSP, USB, audio
        # co-processor); a Radeon card's bus holds only its own 0x1002 functions.
        neighbours = _bus_vendors(root, bus, exclude=address)
        if 0x1022 in neighbours:
            return GpuKind.INTEGRATED, translate("Hybrid", "AMD GPU that shares its bus with processor functions")
        if neighbours or (root / "sys/bus/pci/devices").is_dir():
            return GpuKind.DISCRETE, translate("Hybrid", "AMD GPU on its own PCIe bus")
    return GpuKind.UNKNOWN, translate("Hybrid", "Not enough information to tell")


def _bus_vendors(root: Path, bus: str, exclude: str | None) -> set[int]:
    devices = root / "sys/bus/pci/devices"
    found: set[int] = set()
    try:
        entries = list(devices.iterdir())
    except OSError:
        return found
    for entry in entries:
        name = normalize_pci(entry.name)
        if name == exclude or name.rsplit(":", 1)[0] != bus:
            continue
        vendor = _hex(_read(entry / "vendor"))
        if vendor is not None:
            found.add(vendor)
    return found


def read_linux_inventory(root: Path | str = "/") -> Inventory:
    root = Path(root)
    drm = root / "sys/class/drm"
    checked: list[Msg] = [translate("Hybrid", "Read {path}").format(path="/sys/class/drm")]
    problems: list[Msg] = []
    names = PciNames(root)
    by_address: dict[str, dict] = {}
    order: list[str] = []
    connectors: dict[str, list[str]] = {}

    try:
        entries = sorted(drm.iterdir(), key=lambda p: p.name)
    except OSError:
        entries = []
        problems.append(translate("Hybrid", "{path} does not exist: no kernel graphics driver is loaded").format(
            path="/sys/class/drm"))
    for entry in entries:
        conn = _CONNECTOR.match(entry.name)
        if conn:
            if _read(entry / "status") == "connected":
                connectors.setdefault(conn.group(1), []).append(conn.group(2))
            continue
        if not (_CARD.match(entry.name) or entry.name.startswith("renderD")):
            continue
        device = entry / "device"
        address = _pci_address(device)
        key = address or f"drm:{entry.name}"
        info = by_address.get(key)
        if info is None:
            info = {"device": device, "address": address, "cards": []}
            by_address[key] = info
            order.append(key)
        info["cards"].append(entry.name)

    # Display-class PCI devices without a DRM node (e.g. NVIDIA without nvidia-drm, or no driver).
    pci = root / "sys/bus/pci/devices"
    if pci.is_dir():
        checked.append(translate("Hybrid", "Read {path}").format(path="/sys/bus/pci/devices"))
        for entry in sorted(pci.iterdir(), key=lambda p: p.name):
            cls = _hex(_read(entry / "class"))
            if cls is None or (cls >> 16) != 0x03:  # PCI base class 03: display controller
                continue
            address = normalize_pci(entry.name)
            if address not in by_address:
                by_address[address] = {"device": entry, "address": address, "cards": []}
                order.append(address)

    adapters: list[GpuAdapter] = []
    any_connector_info = bool(connectors)
    for key in order:
        info = by_address[key]
        device = info["device"]
        vendor_id = _hex(_read(device / "vendor"))
        device_id = _hex(_read(device / "device"))
        vendor = vendor_of(vendor_id)
        boot_vga_text = _read(device / "boot_vga")
        boot_vga = None if boot_vga_text is None else boot_vga_text == "1"
        outputs = tuple(o for card in info["cards"] for o in connectors.get(card, []))
        if any_connector_info:
            drives: bool | None = bool(outputs)
        else:
            drives = boot_vga  # no connector information (e.g. headless or fake root): firmware's primary
        name = None
        if vendor_id is not None and device_id is not None:
            name = names.name(vendor_id, device_id)
        if not name:
            ids = f"[{vendor_id or 0:04x}:{device_id or 0:04x}]"
            name = f"{VENDOR_NAMES[vendor]} {ids}"
        kind, reason = _kind(vendor, info["address"], root)
        adapters.append(GpuAdapter(
            key=f"pci:{info['address']}" if info["address"] else key,
            vendor=vendor, name=name, kind=kind, kind_reason=reason,
            vendor_id=vendor_id, device_id=device_id, pci_address=info["address"],
            driver=_driver(device), drm_cards=tuple(info["cards"]), boot_vga=boot_vga,
            connected_outputs=outputs, drives_display=drives,
        ))
    return Inventory(adapters=tuple(adapters), platform="linux", checked=tuple(checked), problems=tuple(problems))
