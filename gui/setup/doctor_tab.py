"""The setup page's Doctor tab: the Python environment to check, the facts found and a card per finding."""
from __future__ import annotations

from pathlib import Path
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Signal, Qt
from PySide6.QtWidgets import (
    QComboBox, QFileDialog, QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter, QVBoxLayout,
    QWidget,
)

from gui.i18n import render
from gui.setup.cards import clear_cards, finding_card
from services.setup.doctor_report import DoctorReport
from services.setup.findings import Finding
from services.setup.python_env import find_python_envs


class DoctorTab(QWidget):
    """What the doctor found; the page runs the doctor when the tab asks (``check_requested``)."""

    check_requested = Signal()

    def __init__(self, demo_python: str | None, home: Path | None, windows: bool,
                 open_step: Callable[[str], None], parent: QWidget | None = None, active=None) -> None:
        super().__init__(parent)
        self.demo_python = demo_python
        self.active = active  # services.setup.machine.ActivePython: the interpreter the user is in
        self.home = home
        self._windows = windows
        self._open_step = open_step
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel(QCoreApplication.translate("SetupPage", "Python environment:")))
        self.env_combo = QComboBox()
        self.env_combo.setMinimumWidth(220)
        self.env_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.fill_envs()
        row.addWidget(self.env_combo, 1)
        self.browse_button = QPushButton(QCoreApplication.translate("SetupPage", "Browse…"))
        self.browse_button.clicked.connect(self._on_browse_clicked)
        row.addWidget(self.browse_button)
        self.check_button = QPushButton(QCoreApplication.translate("SetupPage", "Run checks"))
        self.check_button.clicked.connect(lambda: self.check_requested.emit())
        self.check_button.setDefault(True)
        self.check_button.setProperty("primary", True)
        row.addWidget(self.check_button)
        lay.addLayout(row)
        self.doctor_status = QLabel("")
        self.doctor_status.setProperty("role", "muted")
        lay.addWidget(self.doctor_status)

        split = QSplitter(Qt.Orientation.Horizontal)
        facts_box = QFrame()
        facts_box.setObjectName("facts")
        self.facts_form = QFormLayout(facts_box)
        self.facts_form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.fact_labels: dict[str, QLabel] = {}
        for key, label in (("os", QCoreApplication.translate("SetupPage", "System")), ("gpu", QCoreApplication.translate("SetupPage", "GPU")), ("driver", QCoreApplication.translate("SetupPage", "Driver")),
                           ("module", QCoreApplication.translate("SetupPage", "Kernel module")), ("secure_boot", QCoreApplication.translate("SetupPage", "Secure Boot")),
                           ("cuda", QCoreApplication.translate("SetupPage", "Highest CUDA")), ("python", QCoreApplication.translate("SetupPage", "Python")), ("torch", QCoreApplication.translate("SetupPage", "PyTorch"))):
            value = QLabel("—")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.fact_labels[key] = value
            self.facts_form.addRow(label, value)
        facts_box.setMinimumWidth(240)
        facts_box.setMaximumWidth(360)
        split.addWidget(facts_box)
        self.findings_area = QScrollArea()
        self.findings_area.setWidgetResizable(True)
        self.findings_host = QWidget()
        self.findings_layout = QVBoxLayout(self.findings_host)
        self.findings_layout.addStretch(1)
        self.findings_area.setWidget(self.findings_host)
        split.addWidget(self.findings_area)
        split.setStretchFactor(1, 1)
        lay.addWidget(split, 1)


    def fill_envs(self) -> None:
        self.env_combo.clear()
        self.env_combo.addItem(QCoreApplication.translate("SetupPage", "None (check the driver only)"), None)
        if self.demo_python:
            self.env_combo.addItem(f"comfyui  —  {self.demo_python}", self.demo_python)
            self.env_combo.setCurrentIndex(1)
            return
        if self.active is not None:  # checked first and by default
            label = {"venv": QCoreApplication.translate("SetupPage", "active virtual environment"),
                     "conda": QCoreApplication.translate("SetupPage", "active conda environment")}.get(
                self.active.how, QCoreApplication.translate("SetupPage", "on PATH"))
            self.env_combo.addItem(f"{label}  —  {self.active.path}", self.active.path)
        if self.home is not None:
            for env in find_python_envs(Path(self.home)):
                if self.env_combo.findData(env.python) < 0:
                    self.env_combo.addItem(f"{env.name}  —  {env.python}", env.python)
        if self.env_combo.count() > 1:
            self.env_combo.setCurrentIndex(1)

    def python_how(self, python: str | None) -> str:
        """How ``python`` was chosen, for the machine model: the active one, or picked here."""
        if python and self.active is not None and python == self.active.path:
            return self.active.how
        return "given" if python else ""

    def _on_browse_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, QCoreApplication.translate("SetupPage", "Choose the environment's python"), str(self.home or ""))
        if path:
            self.select_python(path)

    def select_python(self, path: str) -> None:
        index = self.env_combo.findData(path)
        if index < 0:
            self.env_combo.addItem(path, path)
            index = self.env_combo.count() - 1
        self.env_combo.setCurrentIndex(index)

    def show_report(self, report: DoctorReport) -> None:
        f = report.facts
        self.doctor_status.setText(self._summary_text(report))
        set_ = lambda k, v: self.fact_labels[k].setText(v or "—")
        set_("os", f"{f.os.pretty_name} {f.os.kernel}".strip() if f.os else "")
        if report.gpu:
            g = report.gpu
            generation = g.generation or QCoreApplication.translate("SetupPage", "unknown generation")
            text = f"{g.name}  [{g.pci.pci_id}]\n{generation}  {g.sm or ''}"
            # every card of the machine, not only the one the plan is for (the demo has two)
            others = [m.name for m in (report.machine.gpus if report.machine else ())
                      if m.pci.address != g.pci.address or m.name != g.name]
            if others:
                text += "\n" + QCoreApplication.translate("SetupPage", "also: {names}").format(names=", ".join(others))
            set_("gpu", text)
        else:
            set_("gpu", QCoreApplication.translate("SetupPage", "no NVIDIA GPU found"))
        set_("driver", f.driver_version or QCoreApplication.translate("SetupPage", "not working"))
        km = f.kernel_module
        if km is not None:
            if km.loaded_version:
                flavor = QCoreApplication.translate("SetupPage", "open") if km.loaded_flavor == "open" else QCoreApplication.translate("SetupPage", "proprietary")
                set_("module", f"{flavor} {km.loaded_version}")
            elif km.nouveau_loaded:
                set_("module", "nouveau")
            elif report.has("driver_from_host"):  # WSL2, a container: the driver is the host's
                set_("module", QCoreApplication.translate("SetupPage", "on the host"))
            else:
                set_("module", QCoreApplication.translate("SetupPage", "not loaded"))
        else:
            set_("module", QCoreApplication.translate("SetupPage", "n/a on Windows"))
        sb = {"enabled": QCoreApplication.translate("SetupPage", "on"), "disabled": QCoreApplication.translate("SetupPage", "off"), "not_uefi": QCoreApplication.translate("SetupPage", "legacy BIOS boot"),
              "unknown": QCoreApplication.translate("SetupPage", "unknown")}
        set_("secure_boot", sb.get(f.secure_boot, f.secure_boot))
        set_("cuda", f.nvml.cuda_version if f.nvml and f.nvml.cuda_version else "")
        if f.torch is None:
            set_("python", QCoreApplication.translate("SetupPage", "none chosen"))
            set_("torch", "")
        else:
            set_("python", f"{f.torch.python_version}  {f.torch.python}" if f.torch.ran else f.torch.python)
            if f.torch.torch_version:
                build = f.torch.cuda_build and f"CUDA {f.torch.cuda_build}" or QCoreApplication.translate("SetupPage", "CPU only")
                cudnn = f", cuDNN {f.torch.cudnn_text}" if f.torch.cudnn_text else ""
                set_("torch", f"{f.torch.torch_version} ({build}{cudnn})")
            else:
                set_("torch", QCoreApplication.translate("SetupPage", "not installed"))
        clear_cards(self.findings_layout)
        for finding in report.findings:
            self.findings_layout.insertWidget(self.findings_layout.count() - 1, self._finding_card(finding))

    def _summary_text(self, report: DoctorReport) -> str:
        errors = sum(1 for x in report.findings if x.severity == "error")
        warnings = sum(1 for x in report.findings if x.severity == "warning")
        if errors or warnings:
            return QCoreApplication.translate("SetupPage", "Problems: {errors}. Warnings: {warnings}. Each card says what to do.").format(errors=errors, warnings=warnings)
        return QCoreApplication.translate("SetupPage", "Everything checked works.")

    def _finding_card(self, finding: Finding) -> QFrame:
        return finding_card(finding.severity, render(finding.title), render(finding.detail), finding.fixes, (),
                            self._windows, self._open_step)
