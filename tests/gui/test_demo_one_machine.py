"""--demo is one machine: the dashboard's simulation, Setup's recorded doctor run and Hybrid's
inventory name the same cards (resources/data/demo_machine.json)."""
from __future__ import annotations

import argparse

import gui.hybrid.page as hybrid_page
from gui.app import build_context
from gui.pages import hybrid_service
from gui.setup.page import SetupPage
from services.demo_machine import demo_machine_spec
from services.telemetry.model import Tier
from services.telemetry.simulated import SimulatedSource

EXPECTED = ("NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090")


def test_the_description_holds_the_cards_with_sources():
    spec = demo_machine_spec()
    assert spec.gpu_names == EXPECTED
    assert all(g.source for g in spec.gpus)
    assert [g.boot_vga for g in spec.gpus] == [True, False]


def test_dashboard_simulation_names_the_described_cards():
    source = SimulatedSource(seed=1, gpus=2, start_wall=1000.0)
    snap = source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, 1200.0)
    spec = demo_machine_spec()
    assert tuple(g.name for g in snap.gpus) == EXPECTED
    assert [g.pci_bus_id for g in snap.gpus] == [g.pci_bus_id for g in spec.gpus]
    assert {g.driver_version for g in snap.gpus} == {spec.driver_version}


def test_setup_demo_names_the_same_cards(qtbot, app_paths):
    context = build_context(argparse.Namespace(demo=True), app_paths)
    page = SetupPage(context.paths, context.setup_machine, context.demo)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: page.report is not None and not page.busy(), timeout=5000)
    machine = page.report.machine
    assert tuple(g.name for g in machine.gpus) == EXPECTED
    assert machine.driver.version == demo_machine_spec().driver_version
    shown = page.doctor_tab.fact_labels["gpu"].text()  # both cards on the page, not only the first
    assert "RTX 4090" in shown and "RTX 3090" in shown
    page.shutdown()


def test_hybrid_demo_names_the_same_cards(qtbot, app_paths, monkeypatch):
    monkeypatch.setattr(hybrid_page, "FIRST_INTERVAL_S", 0.01)
    monkeypatch.setattr(hybrid_page, "INTERVAL_S", 0.01)
    context = build_context(argparse.Namespace(demo=True), app_paths)
    page = hybrid_page.HybridPage(hybrid_service(context))  # as the window builds it
    qtbot.addWidget(page)
    page.resize(1100, 800)
    with qtbot.waitSignal(page.scan_done, timeout=10000):
        page.show()
    inventory = page.result.inventory
    assert tuple(a.name for a in inventory.adapters) == EXPECTED
    assert [a.drives_display for a in inventory.adapters] == [True, False]
    assert not page.inventory.no_gpu_box.isVisible()
    page.shutdown()
