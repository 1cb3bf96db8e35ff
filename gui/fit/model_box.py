"""The fit page's "Model" box: search the catalogue, open a file, or type a size."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout,
    QWidget,
)

from services.modelfit.arch import ModelArch
from services.modelfit.catalogue import Catalogue
from services.modelfit.errors import ModelInputError
from services.modelfit.sources import arch_from_param_count


class ModelBox(QGroupBox):
    """Signals:
        model_chosen(object): a ModelArch picked from the list or sized from a parameter count.
        file_chosen(str): a model file picked in the file dialog.
        input_error(str): the typed size could not be read.
    """

    model_chosen = Signal(object)
    file_chosen = Signal(str)
    input_error = Signal(str)

    def __init__(self, catalogue: Catalogue, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Model"))
        self._catalogue = catalogue
        layout = QVBoxLayout(self)
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Search, e.g. qwen 14b"))
        self.search_edit.setClearButtonEnabled(True)
        self.model_list = QListWidget()
        self.model_list.setFixedHeight(100)
        self.model_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.model_list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.model_list.currentItemChanged.connect(self._on_model_picked)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("Open file…"))
        self.open_button.setToolTip(self.tr("config.json, .safetensors (file or folder) or .gguf: only headers are read"))
        self.open_button.clicked.connect(self._on_open_clicked)
        self.params_edit = QLineEdit()
        self.params_edit.setPlaceholderText(self.tr("or size in B params"))
        self.params_edit.editingFinished.connect(self._on_params_entered)
        row.addWidget(self.open_button)
        row.addWidget(self.params_edit, 1)
        self.model_label = QLabel()
        self.model_label.setWordWrap(True)
        self.model_label.setProperty("role", "muted")
        layout.addWidget(self.search_edit)
        layout.addWidget(self.model_list)
        layout.addLayout(row)
        layout.addWidget(self.model_label)

    # ---- Public API
    def fill(self, text: str, current_model_id: str) -> None:
        """List the catalogue entries matching ``text``, the current model selected, without signals."""
        self.model_list.blockSignals(True)
        self.model_list.clear()
        for entry in self._catalogue.search(text):
            item = QListWidgetItem(f"{entry.model_id}  ·  {entry.arch.total_params / 1e9:.1f} B")
            item.setData(Qt.ItemDataRole.UserRole, entry.model_id)
            self.model_list.addItem(item)
            if entry.model_id == current_model_id:
                item.setSelected(True)
                self.model_list.setCurrentItem(item)
        self.model_list.blockSignals(False)

    def show_model(self, arch: ModelArch) -> None:
        lines = [self.tr("{model} · {params:.2f} B parameters").format(model=arch.model_id, params=arch.total_params / 1e9)]
        # What changes the answer, in the reader's language (the catalogue's notes are English data).
        if arch.experts:
            lines.append(self.tr("{n} experts, {k} per token: memory for all, speed for {active:.1f} B active").format(
                n=arch.experts, k=arch.experts_per_token, active=arch.active_params() / 1e9))
        if arch.quant_bits and arch.native_format:
            lines.append(self.tr("Checkpoint stored as {fmt}").format(fmt=arch.native_format.upper()))
        self.model_label.setText("\n".join(lines))
        self.model_label.setToolTip(self.tr("Source: {source}").format(source=arch.source or "–"))

    # ---- slots
    def _on_model_picked(self, current: QListWidgetItem | None, _previous=None) -> None:
        if current is None:
            return
        entry = self._catalogue.get(current.data(Qt.ItemDataRole.UserRole))
        if entry is not None:
            self.params_edit.clear()
            self.model_chosen.emit(entry.arch)

    def _on_open_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open a model file"), "",
                                              self.tr("Model files (*.json *.safetensors *.gguf)"))
        if path:
            self.file_chosen.emit(path)

    def _on_params_entered(self) -> None:
        text = self.params_edit.text().strip().lower().rstrip("b")
        if not text:
            return
        try:
            arch = arch_from_param_count(float(text), self._catalogue)
        except (ValueError, ModelInputError):
            self.input_error.emit(self.tr("Enter a parameter count in billions, e.g. 7 or 13.5"))
            return
        self.model_list.clearSelection()
        self.model_chosen.emit(arch)
