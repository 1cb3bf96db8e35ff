"""One GPU of another host on the other-hosts page: its latest values and the dashboard's graphs."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from gui.widgets.gpu_card import GpuCardFrame
from services.exporter.remote import RemoteGpu

HISTORY_S = 1800.0  # how far back a remote host is kept, and the widest the graphs grow


class RemoteGpuCard(GpuCardFrame):
    """One remote GPU: its values and the dashboard's graphs over the host's history."""

    def __init__(self, gpu: RemoteGpu, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.values = QLabel()
        self.values.setWordWrap(True)
        self.values.setProperty("role", "muted")
        layout.addWidget(self.title)
        layout.addWidget(self.values)
        # pyqtgraph is imported with the first card, not with the page: the window paints sooner
        from gui.monitor.graphs import GpuGraphs

        self.graphs = self.add_graphs(GpuGraphs)
        self.graphs.setMinimumHeight(170)
        layout.addWidget(self.graphs)
        self.update_gpu(gpu)

    def update_gpu(self, gpu: RemoteGpu, history=None, slot: int | None = None) -> None:
        s = gpu.sample
        self.title.setText(f"<b>{gpu.host}</b> · GPU {gpu.info.index} · {gpu.info.name}")
        parts = []
        if s.utilization_pct is not None:
            parts.append(self.tr("{v:.0f}% busy").format(v=s.utilization_pct))
        if s.temperature_c is not None:
            parts.append(self.tr("{v:.0f} °C").format(v=s.temperature_c))
        if s.power_w is not None:
            limit = f" / {s.power_limit_w:.0f}" if s.power_limit_w else ""
            parts.append(self.tr("{v:.0f}{limit} W").format(v=s.power_w, limit=limit))
        if s.memory_used_mib is not None:
            total = f" / {s.memory_total_mib / 1024:.1f}" if s.memory_total_mib else ""
            parts.append(self.tr("{v:.1f}{total} GiB").format(v=s.memory_used_mib / 1024, total=total))
        self.values.setText("   ·   ".join(parts) or self.tr("No readings"))
        if history is None or slot is None:
            return
        t1 = s.t
        span = history.time_range()
        # Show what is there: the graphs grow to HISTORY_S as polls come in.
        t0 = t1 - min(HISTORY_S, max(120.0, t1 - span[0])) if span else t1 - 120.0
        self.draw_graphs(gpu.info, s, history, slot, t0, t1)
