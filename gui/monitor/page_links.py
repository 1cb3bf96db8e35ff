"""The Dashboard's links to other pages: the Setup page, a process on the Hybrid page, a model on
the Model fit page. Each asks the main window (``show_page``) and does nothing without one."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget


def show_setup(window: QWidget) -> None:
    show_page = getattr(window, "show_page", None)
    if callable(show_page):
        show_page("setup")


def show_pid_in_hybrid(window: QWidget, pid: int) -> None:
    show_page = getattr(window, "show_page", None)
    if callable(show_page):
        page = show_page("hybrid")
        select = getattr(page, "select_pid", None)
        if callable(select):
            select(pid)  # found once its scan lists the program; the filter shows it meanwhile
        programs = getattr(page, "programs", None)
        if programs is not None:
            programs.filter_edit.setText(str(pid))


def show_model_in_fit(window: QWidget, model: str) -> None:
    """``model``: a model file the command line names, a Hugging Face id or an Ollama tag."""
    show_page = getattr(window, "show_page", None)
    if not callable(show_page):
        return
    page = show_page("fit")
    if Path(model).suffix.lower() in (".gguf", ".safetensors", ".json") and Path(model).is_file():
        page.load_file(model)  # the model file the command line names, with its real shapes
        return
    box = getattr(page, "model_box", None)
    if box is not None:
        # A Hugging Face id or an Ollama tag: the catalogue's search shows the matching entries.
        box.search_edit.setText(model.split(":")[0].replace("/", " ").replace("-", " "))
        if box.model_list.count():
            box.model_list.setCurrentRow(0)
