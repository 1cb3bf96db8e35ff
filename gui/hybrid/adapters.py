"""The hybrid page's top: a card per graphics adapter, the "no GPU" explanation, and the
system's own graphics mode."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from gui.hybrid.details import MUTED, esc
from gui.i18n import render
from gui.widgets.gpu_card import GpuCardFrame
from services.hybrid.model import GpuAdapter, GpuKind, Inventory, Vendor

VENDOR_COLOURS = {Vendor.NVIDIA: "#76b900", Vendor.INTEL: "#0071c5", Vendor.AMD: "#ed1c24", Vendor.OTHER: "#808080"}


class AdapterCard(GpuCardFrame):
    """One graphics adapter as the system lists it: its name, integrated or discrete, the display
    it drives and its driver. No live values: those are the dashboard's."""

    def __init__(self, adapter: GpuAdapter, parent: QWidget | None = None) -> None:
        colour = VENDOR_COLOURS[adapter.vendor]
        super().__init__(parent, accent=colour)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(2)
        kinds = {GpuKind.INTEGRATED: self.tr("Integrated"), GpuKind.DISCRETE: self.tr("Discrete"),
                 GpuKind.UNKNOWN: self.tr("Integrated or discrete: unknown")}
        name = QLabel(f"<b>{esc(adapter.name)}</b>")
        name.setWordWrap(True)
        layout.addWidget(name)
        kind = QLabel(f"<span style='color:{colour}'>●</span> {kinds[adapter.kind]}")
        if adapter.kind_reason is not None:
            kind.setToolTip(render(adapter.kind_reason))
        layout.addWidget(kind)
        if adapter.drives_display:
            outputs = ", ".join(adapter.connected_outputs)
            layout.addWidget(QLabel(self.tr("Drives the display") + (f" ({outputs})" if outputs else "")))
        elif adapter.drives_display is False:
            layout.addWidget(QLabel(self.tr("No display connected")))
        # None (Windows, from the registry alone): say nothing rather than guess
        details = " · ".join(x for x in (adapter.driver, adapter.pci_address, adapter.luid and "LUID " + adapter.luid) if x)
        if details:
            small = QLabel(f"<span style='color:{MUTED}'>{esc(details)}</span>")
            small.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(small)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)


class InventoryPanel(QWidget):
    """The adapters as cards, or why there is no GPU; under them the system's graphics mode."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._inventory_key: tuple | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(10)
        self.inventory_box = QWidget()
        self.inventory_layout = QHBoxLayout(self.inventory_box)
        self.inventory_layout.setContentsMargins(0, 0, 0, 0)
        self.inventory_layout.setSpacing(10)
        layout.addWidget(self.inventory_box)
        self.no_gpu_box = QFrame()
        self.no_gpu_box.setObjectName("noGpu")
        self.no_gpu_box.setStyleSheet(
            "#noGpu { border: 1px solid #d9a400; border-left: 5px solid #d9a400; border-radius: 6px;"
            " background: rgba(217, 164, 0, 28); }")
        no_gpu_layout = QVBoxLayout(self.no_gpu_box)
        no_gpu_layout.setContentsMargins(14, 10, 14, 10)
        no_gpu_text = self.tr("No GPU found on this computer")
        self.no_gpu_title = QLabel(f"<b>{no_gpu_text}</b>")
        self.no_gpu_text = QLabel()
        self.no_gpu_text.setWordWrap(True)
        self.no_gpu_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        no_gpu_layout.addWidget(self.no_gpu_title)
        no_gpu_layout.addWidget(self.no_gpu_text)
        self.no_gpu_box.hide()
        layout.addWidget(self.no_gpu_box)
        self.mode_label = QLabel()
        self.mode_label.setWordWrap(True)
        self.mode_label.setProperty("role", "muted")
        layout.addWidget(self.mode_label)

    def show_inventory(self, inventory: Inventory) -> bool:
        """Cards for ``inventory``; False (nothing redrawn) when it has not changed."""
        key = tuple((a.key, a.name, a.drives_display) for a in inventory.adapters) + (len(inventory.problems),)
        if key == self._inventory_key:
            return False
        self._inventory_key = key
        while self.inventory_layout.count():
            item = self.inventory_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        for adapter in inventory.adapters:
            self.inventory_layout.addWidget(AdapterCard(adapter, self.inventory_box), 1)
        if inventory.adapters:
            self.inventory_layout.addStretch(0 if len(inventory.adapters) > 2 else 1)
        self.inventory_box.setVisible(bool(inventory.adapters))
        self.no_gpu_box.setVisible(not inventory.has_gpu)
        if not inventory.has_gpu:
            self.no_gpu_text.setText("<br>".join(self._no_gpu_lines(inventory)))
        return True

    def show_modes(self, modes) -> None:  # services.hybrid's SystemModes or None
        parts = []
        if modes is not None:
            for mode in modes.modes:
                parts.append(self.tr("System mode ({tool}): {mode}").format(tool=mode.tool, mode=mode.mode or mode.output))
            if modes.switcheroo is not None:
                parts.append(self.tr("switcheroo-control is running ({count} GPUs)").format(count=len(modes.switcheroo)))
        if parts:
            parts.append(self.tr("GPU Assistant reports the system mode but never switches it."))
        self.mode_label.setText(" · ".join(parts))
        self.mode_label.setVisible(bool(parts))

    def _no_gpu_lines(self, inventory: Inventory) -> list[str]:
        lines = [self.tr("Neither the kernel nor the NVIDIA driver reports a graphics adapter, so no program "
                         "can be using one. This happens in virtual machines and containers without GPU "
                         "passthrough, and when the graphics driver is not installed or not loaded.")]
        lines.append(self.tr("What was checked: {checks}").format(
            checks=" · ".join(esc(render(m)) for m in inventory.checked)))
        lines += ["• " + esc(render(m)) for m in inventory.problems]
        lines.append(self.tr("The list below still shows what each program loads; the Setup page helps "
                             "install the NVIDIA driver."))
        return lines
