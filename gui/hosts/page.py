"""Other hosts: GPUs of other machines through their exporter or Prometheus,
and the switch that serves this machine's metrics."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QLabel, QLineEdit,
    QListWidget, QListWidgetItem, QPushButton, QScrollArea, QSpinBox, QVBoxLayout, QWidget,
)

from gui.hosts.card import HISTORY_S, RemoteGpuCard
from gui.i18n import render
from gui.widgets.background import BackgroundWork, Job
from gui.widgets.visible_timer import VisibleTimer
from services.exporter.remote import (
    HostKind, HostReading, HostState, RemoteHost, normalize_url,
)
from services.settings import SettingsStore

if TYPE_CHECKING:
    from services.exporter.service import ExporterService

POLL_MS = 5000
WARMUP_MS = 1250  # under a quarter of POLL_MS: the graphs' gap detection sees one steady series
WARMUP_POLLS = 4


class HostsPage(QWidget):
    """Adds hosts by URL and shows their GPUs; never blocks on the network."""

    def __init__(self, settings_store: SettingsStore, exporter: ExporterService | None = None,
                 parent: QWidget | None = None) -> None:
        """``exporter``: the app's exporter service (``gui.app.attach_exporter``); None: not running
        in this session."""
        super().__init__(parent)
        self._exporter = exporter
        self._store = settings_store
        self._hosts: dict[str, RemoteHost] = {}
        self._pending: dict[str, Job] = {}
        self._cards: dict[tuple[str, str], RemoteGpuCard] = {}
        self._host_notes: dict[str, QLabel] = {}
        self._work = BackgroundWork(self, max_threads=4, name="hosts-poll")
        # Polls while the page is shown and has hosts; at once when it is shown again.
        self._timer = VisibleTimer(self, POLL_MS, self._poll_all, should_run=lambda: bool(self._hosts),
                                   fire_on_show=True, name="hosts-poll")
        # A host just added is asked a few times in quick succession, so its graphs have a line
        # within seconds rather than after several POLL_MS (an exporter keeps no history to fill from).
        self._warmup: dict[str, int] = {}
        self._warmup_timer = QTimer(self)
        self._warmup_timer.setInterval(WARMUP_MS)
        self._warmup_timer.timeout.connect(self._on_warmup_timer_timeout)

        self._build()
        self._restore_hosts()

    # ---- layout
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        title = self.tr("Other hosts")
        heading = QLabel(f"<h2>{title}</h2>")
        intro = QLabel(self.tr(
            "Watch the GPUs of other machines. Add the address of a GPU Assistant exporter or an NVIDIA "
            "dcgm-exporter (host:9400), or of a Prometheus server (host:9090) that scrapes them."))
        intro.setWordWrap(True)
        layout.addWidget(heading)
        layout.addWidget(intro)

        layout.addWidget(self._build_this_machine_box())
        layout.addLayout(self._build_add_row())
        self.add_error = QLabel()
        self.add_error.setStyleSheet("color: #c62828")
        self.add_error.hide()
        layout.addWidget(self.add_error)
        layout.addLayout(self._build_host_strip())
        layout.addWidget(self._build_cards_area(), 1)
        self._show_host_strip()

    def _build_add_row(self) -> QHBoxLayout:
        add_row = QHBoxLayout()
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText(self.tr("e.g. 192.168.1.20:9400 or http://prometheus:9090"))
        self.kind_combo = QComboBox()
        self.kind_combo.addItem(self.tr("Detect"), "auto")
        self.kind_combo.addItem(self.tr("Exporter (/metrics)"), HostKind.EXPORTER.value)
        self.kind_combo.addItem(self.tr("Prometheus server"), HostKind.PROMETHEUS.value)
        self.add_button = QPushButton(self.tr("Add host"))
        self.add_button.clicked.connect(self._on_add_clicked)
        self.url_edit.returnPressed.connect(self._on_add_clicked)
        add_row.addWidget(self.url_edit, 1)
        add_row.addWidget(self.kind_combo)
        add_row.addWidget(self.add_button)
        return add_row

    def _build_host_strip(self) -> QHBoxLayout:
        hosts_row = QHBoxLayout()
        self.host_list = QListWidget()
        self.host_list.setFlow(QListWidget.Flow.LeftToRight)
        self.host_list.setWrapping(True)
        self.host_list.setSpacing(4)
        self.host_list.setFixedHeight(64)
        self.remove_button = QPushButton(self.tr("Remove host"))
        self.remove_button.setEnabled(False)
        self.remove_button.clicked.connect(self._on_remove_clicked)
        self.host_list.currentRowChanged.connect(lambda row: self.remove_button.setEnabled(row >= 0))
        hosts_row.addWidget(self.host_list, 1)
        hosts_row.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)
        return hosts_row

    def _build_cards_area(self) -> QScrollArea:
        self.cards_holder = QWidget()
        self.cards_layout = QVBoxLayout(self.cards_holder)
        self.cards_layout.setContentsMargins(0, 0, 0, 0)
        self.empty_label = QLabel(self.tr("No hosts yet. Add one above."))
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.cards_layout.addWidget(self.empty_label)
        self.cards_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.cards_holder)
        return scroll

    def _restore_hosts(self) -> None:
        """The hosts saved in the settings, as "kind|url" (or a bare address from older versions)."""
        for saved in self._store.settings.hosts.urls:
            if not isinstance(saved, str):
                continue
            kind_text, _, url = saved.partition("|")
            if kind_text not in ("exporter", "prometheus"):
                url = saved  # an address without its kind: guess as when it is typed
                kind_text = ""
            try:
                clean, guessed = normalize_url(url)
            except ValueError:
                continue
            kind = HostKind(kind_text) if kind_text else guessed
            if kind == HostKind.PROMETHEUS and clean.endswith("/metrics"):
                clean = clean[: -len("/metrics")]
            self._add_host(clean, kind, save=False)

    # ---- This machine
    def _build_this_machine_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("This computer"))
        row = QHBoxLayout(box)
        settings = self._store.settings.exporter
        self.serve_check = QCheckBox(self.tr("Serve this computer's GPU metrics for Prometheus"))
        self.serve_check.setChecked(settings.run_in_background)
        self.port_spin = QSpinBox()
        self.port_spin.setRange(1, 65535)
        self.port_spin.setValue(settings.port)
        self.port_spin.setPrefix(self.tr("port "))
        self.serve_status = QLabel()
        self.serve_status.setWordWrap(True)
        row.addWidget(self.serve_check)
        row.addWidget(self.port_spin)
        row.addWidget(self.serve_status, 1)
        self.serve_check.toggled.connect(self._on_serve_changed)
        self.port_spin.editingFinished.connect(self._on_serve_changed)
        self._update_serve_status()
        # Settings edits the same exporter switch and port: follow its saves, or this stale box would
        # write the old values back on its next change.
        listener = self._on_settings_saved
        store = self._store
        store.subscribe(listener)
        self.destroyed.connect(lambda *_: store.unsubscribe(listener))
        return box

    def _on_settings_saved(self, settings) -> None:
        exporter = settings.exporter
        check_blocker, port_blocker = QSignalBlocker(self.serve_check), QSignalBlocker(self.port_spin)
        self.serve_check.setChecked(exporter.run_in_background)
        if not self.port_spin.hasFocus():  # never overwrite a port the user is typing
            self.port_spin.setValue(exporter.port)
        del check_blocker, port_blocker
        self._update_serve_status()

    def _on_serve_changed(self, *_args) -> None:
        settings = self._store.settings.exporter
        settings.run_in_background = self.serve_check.isChecked()
        settings.port = self.port_spin.value()
        self._store.save()  # the app's exporter service follows the saved settings
        self._update_serve_status()

    def _update_serve_status(self) -> None:
        service = self._exporter
        if service is None:
            text = self.tr("Needs live monitoring of this computer (not running in this session).") \
                if self.serve_check.isChecked() else ""
        else:
            text = render(service.status())
        self.serve_status.setText(text)

    # ---- Hosts
    def _on_add_clicked(self) -> None:
        text = self.url_edit.text()
        try:
            url, kind = normalize_url(text)
        except ValueError:
            self.add_error.setText(self.tr("That is not a web address: type host:port or http://host:port"))
            self.add_error.show()
            return
        chosen = self.kind_combo.currentData()
        if chosen != "auto":
            kind = HostKind(chosen)
            if kind == HostKind.PROMETHEUS and url.endswith("/metrics"):
                url = url[: -len("/metrics")]
        if url in self._hosts:
            self.add_error.setText(self.tr("That host is already in the list."))
            self.add_error.show()
            return
        self.add_error.hide()
        self.url_edit.clear()
        self._add_host(url, kind, save=True)

    def _add_host(self, url: str, kind: HostKind, save: bool) -> None:
        self._hosts[url] = RemoteHost(url, kind, keep_s=HISTORY_S, poll_s=POLL_MS / 1000)
        waiting = self.tr("waiting for the first answer…")
        item = QListWidgetItem(f"{url}\n{waiting}")
        item.setData(Qt.ItemDataRole.UserRole, url)
        self.host_list.addItem(item)
        if save:
            self._save_hosts()
        self._poll(url)
        self._warmup[url] = WARMUP_POLLS
        if not self._warmup_timer.isActive():
            self._warmup_timer.start()
        self._timer.resume()
        self._show_host_strip()

    def _on_remove_clicked(self) -> None:
        item = self.host_list.currentItem()
        if item is None:
            return
        url = item.data(Qt.ItemDataRole.UserRole)
        self.host_list.takeItem(self.host_list.row(item))
        self._hosts.pop(url, None)
        for key in [k for k in self._cards if k[0] == url]:
            self._cards.pop(key).deleteLater()
        note = self._host_notes.pop(url, None)
        if note is not None:
            note.deleteLater()
        self._save_hosts()
        self._show_host_strip()

    def _show_host_strip(self) -> None:
        """The list of hosts only takes room once there is a host in it."""
        has_hosts = bool(self._hosts)
        self.host_list.setVisible(has_hosts)
        self.remove_button.setVisible(has_hosts)
        self.empty_label.setVisible(not has_hosts)

    def _save_hosts(self) -> None:
        self._store.settings.hosts.urls = [f"{h.kind.value}|{u}" for u, h in self._hosts.items()]
        self._store.save()

    def host_urls(self) -> list[str]:
        return list(self._hosts)

    # ---- Polling (worker threads) and results (GUI thread)
    def _on_warmup_timer_timeout(self) -> None:
        for url in list(self._warmup):
            if url not in self._hosts or self._warmup[url] <= 0:
                self._warmup.pop(url, None)
                continue
            self._warmup[url] -= 1
            self._poll(url)
        if not self._warmup:
            self._warmup_timer.stop()

    def _poll_all(self) -> None:
        for url in list(self._hosts):
            self._poll(url)
        self._update_serve_status()

    def _poll(self, url: str) -> None:
        pending = self._pending.get(url)
        if pending is not None and pending.is_running():
            return  # a slow host gets no second request on top of the first
        host = self._hosts[url]
        # Network and history writes stay off the GUI thread.
        self._pending[url] = self._work.submit(lambda _report: host.poll(),
                                               lambda reading: self._on_reading_ready(url, reading))

    def _on_reading_ready(self, url: str, payload) -> None:
        if url not in self._hosts:
            return  # removed while the request was under way
        self._show_reading(url, payload)

    def _show_reading(self, url: str, reading: HostReading) -> None:
        for row in range(self.host_list.count()):
            item = self.host_list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == url:
                if reading.state == HostState.OK:
                    status = self.tr("{n} GPU(s), updated {time}").format(
                        n=len(reading.gpus), time=time.strftime("%H:%M:%S", time.localtime(reading.t)))
                elif reading.state == HostState.UNREACHABLE:
                    status = self.tr("unreachable")
                else:
                    status = self.tr("not GPU metrics")
                item.setText(f"{url}\n{status}")
                item.setForeground(Qt.GlobalColor.black if reading.state == HostState.OK else Qt.GlobalColor.darkRed)
        note = self._host_notes.get(url)
        if reading.state != HostState.OK:
            if note is None:
                note = QLabel()
                note.setWordWrap(True)
                note.setStyleSheet("color: #c62828; padding: 6px;")
                self.cards_layout.insertWidget(0, note)
                self._host_notes[url] = note
            note.setText(render(reading.message))
            return
        if note is not None:
            self._host_notes.pop(url).deleteLater()
        for gpu in reading.gpus:
            key = (url, gpu.info.uuid)
            card = self._cards.get(key)
            if card is None:
                card = RemoteGpuCard(gpu)
                self._cards[key] = card
                self.cards_layout.insertWidget(self.cards_layout.count() - 1, card)
            host = self._hosts[url]
            card.update_gpu(gpu, host.history, host.slots.get(gpu.info.uuid))

    # ---- Lifecycle
    def shutdown(self) -> None:
        self._timer.stop()
        self._warmup_timer.stop()
        self._warmup.clear()
        self._work.shutdown()
