"""Sentences of ``python main.py hybrid``, kept here so they are translated with the hybrid tool."""
from __future__ import annotations

from services.i18n import Msg, translate

CLI_TEXT: dict[str, Msg] = {m.text: m for m in (
    translate("HybridCli", "NVIDIA GPU"),
    translate("HybridCli", "integrated GPU"),
    translate("HybridCli", "another GPU"),
    translate("HybridCli", "both GPUs"),
    translate("HybridCli", "no GPU"),
    translate("HybridCli", "measured"),
    translate("HybridCli", "idle, holds a context"),
    translate("HybridCli", "from loaded drivers"),
    translate("HybridCli", "no evidence"),
    translate("HybridCli", "integrated"),
    translate("HybridCli", "discrete"),
    translate("HybridCli", "integrated or discrete: unknown"),
    translate("HybridCli", "drives the display"),
    translate("HybridCli", "No GPU found on this computer"),
    translate("HybridCli", "GPUs"),
    translate("HybridCli", "System mode ({tool}): {mode}"),
    translate("HybridCli", "switcheroo-control is running ({count} GPUs)"),
    translate("HybridCli", "Programs using a GPU (sampled over {seconds} s)"),
    translate("HybridCli", "No program is using a GPU right now"),
    translate("HybridCli", "Verdict: {verdict}"),
    translate("HybridCli", "This will change:"),
    translate("HybridCli", "Already set: nothing to change"),
    translate("HybridCli", "Dry run: nothing was changed"),
    translate("HybridCli", "Done. Backup: {path}"),
    translate("HybridCli", "Undo with: {command}"),
    translate("HybridCli", "Undone: {path}"),
    translate("HybridCli", "Starting {program} {env}"),
    translate("HybridCli", "Landed on: {verdict}"),
    translate("HybridCli", "The program ended after {seconds} s before it used a GPU"),
    translate("HybridCli", "No GPU work seen within {seconds} s"),
    translate("HybridCli", "{message} ({reasons})"),
    translate("HybridCli", "; "),
)}


def t(text: str) -> Msg:
    """The translatable message for one of the CLI's English sentences."""
    return CLI_TEXT[text]
