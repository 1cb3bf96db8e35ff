"""What every GPU card has, on the dashboard, the other-hosts page and the hybrid page: the
card frame (the theme's white, rounded card, with an optional accent on its left edge) and, for
the cards that graph a GPU's history, the graphs and how they are drawn over a time window."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtWidgets import QFrame, QWidget

if TYPE_CHECKING:
    from services.telemetry.model import GpuInfo, GpuSample


class CardGraphs(Protocol):
    """What a card asks of its graphs (``gui.monitor.graphs.GpuGraphs``): the widgets package
    does not import a page's package, so the card's owner hands the graphs' class in."""

    def apply_limits(self, info: GpuInfo | None, sample: GpuSample | None) -> None: ...

    def set_x_range(self, t0: float, t1: float) -> None: ...

    def refresh(self, history: Any, slot: int, t0: float, t1: float) -> None: ...

    def master_plot(self) -> Any: ...


class GpuCardFrame(QFrame):
    """A card for one GPU; subclasses lay out their own content.

    ``accent``: a colour for a thick left edge (the hybrid page marks each vendor so).
    """

    def __init__(self, parent: QWidget | None = None, accent: str | None = None) -> None:
        super().__init__(parent)
        self.setProperty("card", True)  # the look comes from the theme's QFrame[card="true"]
        if accent is not None:
            self.setObjectName("accentCard")
            self.setStyleSheet(f"#accentCard {{ border-left: 5px solid {accent}; }}")
        self.graphs: Any = None  # the CardGraphs made by add_graphs
        self.graphs_view: tuple[float, float] | None = None  # the time range the graphs last drew

    def add_graphs(self, make: Callable[[QWidget], Any]) -> Any:
        """The graphs of one GPU, made here by ``make`` (``GpuGraphs``; the caller places them)."""
        self.graphs = make(self)
        return self.graphs

    def draw_graphs(self, info: GpuInfo | None, sample: GpuSample | None, history: Any, slot: int,
                    t0: float, t1: float) -> None:
        """Limits and threshold lines from ``info``/``sample``, the window ``t0``..``t1``, and the
        curves of GPU ``slot`` in ``history`` (a History; None draws no curves)."""
        graphs = self.graphs
        if graphs is None:
            raise RuntimeError("draw_graphs() before add_graphs()")
        graphs.apply_limits(info, sample)
        graphs.set_x_range(t0, t1)
        if history is not None:
            graphs.refresh(history, slot, t0, t1)
        self.graphs_view = (t0, t1)

    def graphs_due(self, t0: float, t1: float) -> bool:
        """True when the graphs would look different: the view moved by a pixel or more.

        A 10-minute window on a plot about 190 px wide moves one pixel every 3 s, a
        24-hour one every 7 minutes; redrawing more often costs CPU and shows nothing new.
        """
        if self.graphs_view is None or self.graphs is None:
            return True
        width_px = max(50, int(self.graphs.master_plot().vb.width()))
        seconds_per_px = (t1 - t0) / width_px
        last0, last1 = self.graphs_view
        return abs(t1 - last1) >= seconds_per_px or abs(t0 - last0) >= seconds_per_px
