"""Names for PCI ids from the system's pci.ids database (the file lspci reads).

Only used to name a card the rules file does not list by id: the name
("GP104 [GeForce GTX 1080]") carries the chip code and the product, which the
rules' name patterns map to a generation.
"""
from __future__ import annotations

from services.setup.system import SystemRoot

# Debian/Ubuntu/Arch ship it as /usr/share/misc/pci.ids (pciutils); Fedora as
# /usr/share/hwdata/pci.ids (hwdata). Format: pciutils' pci.ids header comment.
PCI_IDS_PATHS = ("/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids")
NVIDIA_VENDOR = "10de"


def parse_device_name(text: str, vendor: str, device: str) -> str | None:
    """The device line's name under ``vendor`` ('1b80' -> 'GP104 [GeForce GTX 1080]')."""
    vendor, device = vendor.lower(), device.lower()
    in_vendor = False
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if not line[0].isspace():  # a vendor line (or the class list at the end)
            if in_vendor:
                return None
            in_vendor = line[:4].lower() == vendor and line[4:5].isspace()
            continue
        if in_vendor and line.startswith("\t") and not line.startswith("\t\t"):
            entry = line[1:]
            if entry[:4].lower() == device and entry[4:5].isspace():
                return entry[4:].strip() or None
    return None


def lookup_device_name(root: SystemRoot, device_id: str, vendor: str = NVIDIA_VENDOR) -> str | None:
    for path in PCI_IDS_PATHS:
        text = root.read_text(path, limit=8_000_000)
        if text:
            name = parse_device_name(text, vendor, device_id)
            if name:
                return name
    return None
