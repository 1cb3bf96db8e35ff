"""The Build & PSU page: build list, live totals, the watt bar, inline warnings, comparison, ranking."""
from __future__ import annotations

import argparse

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCompleter

from gui.app import build_context
from gui.psu.page import PsuPage
from services.hardware import detect
from services.nvml_devices import NvmlDevice
from services.telemetry.model import DeviceState, GpuInfo, Snapshot, SourceStatus
from tests.gui.fake_hub import FakeHub


@pytest.fixture
def context(app_paths, monkeypatch):
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: None)  # the test machine's CPU must not matter
    return build_context(argparse.Namespace(demo=False), app_paths)


@pytest.fixture
def page(qtbot, context):
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    widget.resize(1100, 780)
    widget.show()
    return widget


def test_example_build_when_nothing_is_detected(page):
    assert page.gpu_box.gpu_list.count() == 1
    assert page.result is not None
    assert page.results.recommended_card.value.text() == f"{page.result.recommended_psu_w} W"
    assert "example" in page.gpu_box.detected_label.text()


def test_detected_gpu_and_cpu_are_prefilled(qtbot, context, monkeypatch):
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: "AMD Ryzen 9 7950X 16-Core Processor")
    hub = FakeHub()  # the real hub, whose device list comes from its first reading
    hub.push(Snapshot(t=0, status=SourceStatus(DeviceState.OK),
                      gpus=(GpuInfo(index=0, name="NVIDIA GeForce RTX 5090", uuid="GPU-1", pci_device_id=0x2B8510DE),)))
    context.telemetry = hub
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    assert [g.name for g in widget.build().gpus] == ["GeForce RTX 5090"]
    assert widget.build().cpu.name == "Ryzen 9 7950X"
    assert "RTX 5090" in widget.gpu_box.detected_label.text()


def test_add_and_remove_cards_update_the_totals_live(qtbot, page):
    before = page.result.sustained_w
    page.gpu_box.gpu_combo.setEditText("3090")
    with qtbot.waitSignal(page.result_changed) as blocker:
        qtbot.mouseClick(page.gpu_box.add_button, Qt.MouseButton.LeftButton)
    assert page.gpu_box.gpu_list.count() == 2
    assert blocker.args[0].sustained_w == pytest.approx(before + 350)
    assert page.results.sustained_card.value.text() == f"{before + 350:.0f} W"
    gpu_segments = [s for s in page.results.watt_bar.segments() if s.key == "gpu"]
    assert len(gpu_segments) == 2
    page.gpu_box.gpu_list.setCurrentRow(1)
    qtbot.mouseClick(page.gpu_box.remove_button, Qt.MouseButton.LeftButton)
    assert page.gpu_box.gpu_list.count() == 1
    assert page.result.sustained_w == pytest.approx(before)


def test_unknown_card_is_reported_not_added(qtbot, page):
    page.gpu_box.gpu_combo.setEditText("4095")
    qtbot.mouseClick(page.gpu_box.add_button, Qt.MouseButton.LeftButton)
    assert page.gpu_box.gpu_list.count() == 1
    assert "4095" in page.gpu_box.detected_label.text()


def test_small_psu_shows_the_verdict_and_an_inline_warning(qtbot, page):
    page.psu_box.psu_spin.setValue(550)
    assert page.result.verdict.value == "insufficient"
    assert page.results.verdict_label.isVisible()
    names = [label.objectName() for label in page.results.warning_labels]
    assert names[0] == "warning_psu_insufficient"  # problems first
    page.psu_box.psu_spin.setValue(0)
    assert page.result.verdict is None and not page.results.verdict_label.isVisible()


def test_parts_and_usage_change_the_recommendation(page):
    gaming = page.result.recommended_psu_w
    page.psu_box.usage_combo.setCurrentIndex(page.psu_box.usage_combo.findData("training-24x7"))
    assert page.result.recommended_psu_w >= gaming
    hdd_before = page.result.sustained_w
    page.parts_box.spins["hdd"].setValue(4)
    assert page.result.sustained_w == pytest.approx(hdd_before + 32)
    assert "warning_hdd_spinup" in [label.objectName() for label in page.results.warning_labels]


def test_buy_vs_rent_uses_the_dated_cloud_price(page):
    assert page.rent.cloud_spin.value() == pytest.approx(0.34)  # RTX 4090, RunPod snapshot
    assert "2026-09-07" in page.rent.cloud_source_label.text()
    page.rent.cloud_spin.setValue(0.01)
    assert "never" in page.rent.rent_result_label.text()


def test_buy_vs_rent_is_card_by_card(qtbot, page):
    page.add_gpu(page.catalog.gpu("rtx-3090"))
    assert page.rent.rent_card_combo.count() == 2
    text = page.rent.rent_result_label.text()
    # the picked card only (the 4090 pays off against a rented 4090), not every card of the build
    assert "GeForce RTX 4090: Owning pays off" in text and "3090" not in text
    page.rent.rent_card_combo.setCurrentIndex(1)
    # the 3090 has no cloud price on file and says so
    assert "GeForce RTX 3090: no cloud price" in page.rent.rent_result_label.text()
    page.rent.cloud_spin.setValue(0.22)  # the user's price for a rented 3090
    assert "GeForce RTX 3090: Owning pays off" in page.rent.rent_result_label.text()
    page.rent.rent_card_combo.setCurrentIndex(0)
    assert page.rent.cloud_spin.value() == pytest.approx(0.34)  # each card keeps its own figures
    page.add_gpu(page.catalog.gpu("rtx-3090"))  # a second, identical 3090: one entry, one answer
    assert page.rent.rent_card_combo.count() == 2
    page.rent.rent_card_combo.setCurrentIndex(1)
    assert page.rent.rent_result_label.text().count("GeForce RTX 3090") == 1


def test_typed_cpu_counts_and_matches_the_cli(qtbot, page, capsys):
    import json

    import main

    line = page.parts_box.cpu_combo.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, "i9-13900K")
    with qtbot.waitSignal(page.result_changed):
        qtbot.keyClick(line, Qt.Key.Key_Return)
    assert page.build().cpu.name == "Core i9-13900K"
    assert page.parts_box.cpu_combo.completer().completionMode() == QCompleter.CompletionMode.PopupCompletion  # no "KS" filled in
    assert "Core&nbsp;i9-13900K" in page.results.legend_label.text() and "253&nbsp;W" in page.results.legend_label.text()
    assert main.main(["psu", "--gpu", "4090", "--cpu", "i9-13900K", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    r = page.result
    assert r.sustained_w == cli["sustained_w"] and r.recommended_psu_w == cli["recommended_psu_w"] == 1000
    assert round(r.minimum_psu_w, 1) == cli["minimum_psu_w"] and round(r.peak_10ms_w, 1) == cli["peak_transient_w"]
    assert page.results.recommended_card.value.text() == f"{cli['recommended_psu_w']} W"
    assert cli["reason"] in page.results.why_label.text()
    # a name the catalogue does not know is said, and the figures stay as they were
    line.selectAll()
    qtbot.keyClicks(line, "i9-99999Z")
    qtbot.keyClick(line, Qt.Key.Key_Return)
    assert "Unknown CPU" in page.gpu_box.detected_label.text() and page.result.recommended_psu_w == 1000


def test_watt_bar_marks_the_psu_and_the_spikes(page):
    r = page.result
    psu, spike = page.results.watt_bar.marker_positions()
    allowance = r.spike_allowance_10ms_w(r.recommended_psu_w)
    assert allowance == pytest.approx(1.6 * r.recommended_psu_w)  # ATX 3.x with the native lead
    scale = max(r.recommended_psu_w, r.peak_10ms_w, r.sustained_w, allowance) * 1.04
    assert psu == pytest.approx(r.recommended_psu_w / scale)
    assert spike > 0 and (spike > psu) == (r.peak_10ms_w > r.recommended_psu_w)
    # the spike sits left of what ATX 3.x lets the unit carry for 10 ms: within spec, and the bar shows it
    assert spike < page.results.watt_bar.allowance_position() == pytest.approx(allowance / scale)
    assert f"ATX&nbsp;3.x&nbsp;allows&nbsp;{round(allowance)}&nbsp;W&nbsp;for&nbsp;10&nbsp;ms" in page.results.legend_label.text()
    # the Why box names the deciding rule once, then the others
    why = page.results.why_label.text()
    deciding = next(c for c in r.candidates if c.key == r.deciding)
    from gui.i18n import render

    assert why.count(render(deciding.label)) == 1 and "The other rules ask for less" in why
    legend = page.results.legend_label.text()
    assert f"recommended&nbsp;PSU&nbsp;{r.recommended_psu_w}&nbsp;W" in legend
    assert f"GPU&nbsp;spikes&nbsp;(10&nbsp;ms)&nbsp;{round(r.peak_10ms_w)}&nbsp;W" in legend
    assert "bar width" not in legend
    page.psu_box.psu_spin.setValue(850)
    assert "your&nbsp;PSU&nbsp;850&nbsp;W" in page.results.legend_label.text()


def test_chinese_user_sees_cny_by_default_and_can_switch(qtbot, context):
    context.language = "zh_CN"
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    assert widget.psu_box.currency_combo.currentData() == "CNY"
    assert widget.rent.card_price_spin.value() == pytest.approx(12999)  # the dated China launch price of the 4090
    assert widget.rent.card_price_spin.prefix() == "¥" and "CNY/kWh" in widget.psu_box.price_spin.suffix()
    assert widget.psu_box.price_spin.value() == pytest.approx(0.5542, abs=0.001)  # China household average, dated
    assert "China household average" in widget.psu_box.money_note_label.text()
    assert widget.rent.cloud_spin.value() == pytest.approx(1.24) and "算家云" in widget.rent.cloud_source_label.text()
    assert "7.1057" in widget.psu_box.money_note_label.text() and "2025-09-23" in widget.psu_box.money_note_label.text()
    assert "China Foreign Exchange Trade System" in widget.psu_box.money_note_label.toolTip()
    assert "AutoDL" in widget.rent.cloud_source_label.text()
    widget.psu_box.price_spin.setValue(0.56)  # the user's own tariff is kept, with its currency
    assert context.settings_store.settings.power_cost.price_per_kwh == pytest.approx(0.56)
    assert context.settings_store.settings.power_cost.price_currency == "CNY"
    widget.psu_box.currency_combo.setCurrentIndex(widget.psu_box.currency_combo.findData("USD"))
    assert widget.psu_box.price_spin.value() == pytest.approx(0.56 / 7.1057, abs=0.001)
    assert widget.rent.card_price_spin.prefix() == "$"


def test_three_cards_side_by_side(page):
    page.compare.compare_combos[2].setCurrentIndex(page.compare.compare_combos[2].findData("rtx-a6000"))
    assert page.compare.compare_table.columnCount() == 3
    assert page.compare.compare_table.horizontalHeaderItem(2).text() == "RTX A6000"
    rows = [page.compare.compare_table.verticalHeaderItem(i).text() for i in range(page.compare.compare_table.rowCount())]
    memory_row = rows.index("Memory")
    assert page.compare.compare_table.item(memory_row, 2).text() == "48 GB"
    page.compare.compare_combos[1].setCurrentIndex(0)  # "(none)"
    assert page.compare.compare_table.columnCount() == 2


def test_ranking_follows_model_size_budget_and_my_prices(qtbot, page):
    page.compare.params_spin.setValue(13)  # 13B bf16 -> ~29 GiB: only 32 GB cards hold it
    page.compare.budget_spin.setValue(1000)
    assert "cheapest that does is GeForce RTX 5090" in page.compare.need_label.text()
    page.compare.params_spin.setValue(70)
    assert "No single card" in page.compare.need_label.text()
    page.compare.params_spin.setValue(13)
    page.compare.budget_spin.setValue(0)  # no budget
    first = page.compare.rank_table.item(0, 0).text()
    assert page.compare.rank_table.item(0, 3).text() == "yes"
    assert first
    # the user's own price (a used 3090) is taken instead of the launch price
    page.compare.params_spin.setValue(8)
    for row in range(page.compare.rank_table.rowCount()):
        if page.compare.rank_table.item(row, 0).text() == "GeForce RTX 3090":
            page.compare.rank_table.item(row, 1).setText("700")
            break
    assert page.compare.prices["rtx-3090"] == 700
    names = [page.compare.rank_table.item(r, 0).text() for r in range(page.compare.rank_table.rowCount())]
    assert "GeForce RTX 3090" in names


def test_compare_tab_on_its_own_follows_the_currency(qtbot):
    from gui.psu.compare_tab import CompareTab
    from services.hardware import money
    from services.hardware.catalog import load_catalog

    catalog = load_catalog()
    usd, cny = money.currency(catalog, "USD"), money.currency(catalog, "CNY")
    tab = CompareTab(catalog, usd)
    qtbot.addWidget(tab)
    assert tab.budget_spin.value() == 2000 and tab.budget_spin.prefix() == "$"
    tab.set_currency(cny)
    assert tab.budget_spin.value() == round(2000 * cny.per_usd) and tab.budget_spin.prefix() == "¥"
    assert tab.rank_table.horizontalHeaderItem(4).text() == "BF16 TFLOPS per ¥1000"
    row = next(r for r in range(tab.rank_table.rowCount()) if tab.rank_table.item(r, 0).text() == "GeForce RTX 3090")
    tab.rank_table.item(row, 1).setText("¥5,000")  # typed in the display currency, kept in USD
    assert tab.prices["rtx-3090"] == pytest.approx(5000 / cny.per_usd)
    tab.set_currency(usd)
    assert tab.rank_table.horizontalHeaderItem(4).text() == "BF16 TFLOPS per $1000"
    row = next(r for r in range(tab.rank_table.rowCount()) if tab.rank_table.item(r, 0).text() == "GeForce RTX 3090")
    assert tab.rank_table.item(row, 1).text() == usd.fmt(5000 / cny.per_usd)


def test_use_this_pc_button(qtbot, page, monkeypatch):
    monkeypatch.setattr(detect, "nvml_devices", lambda nvml=None: [
        NvmlDevice(0, "NVIDIA GeForce RTX 3090", pci_device_id=0x220410DE, memory_total_mib=24576),
        NvmlDevice(1, "NVIDIA GeForce RTX 3090", pci_device_id=0x220410DE, memory_total_mib=24576)])
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: "AMD Ryzen Threadripper 7960X 24-Cores")
    qtbot.mouseClick(page.gpu_box.detect_button, Qt.MouseButton.LeftButton)
    build = page.build()
    assert [g.name for g in build.gpus] == ["GeForce RTX 3090", "GeForce RTX 3090"]
    assert build.cpu.name == "Ryzen Threadripper 7960X"
    assert page.result.lanes.assignments == ("x16 (CPU)", "x16 (CPU)")
    monkeypatch.setattr(detect, "nvml_devices", lambda nvml=None: [])
    monkeypatch.setattr(detect, "detected_cpu_name", lambda: None)
    assert page.detect_hardware() is False
    assert page.gpu_box.gpu_list.count() == 2  # nothing found: the build is kept


def test_page_in_chinese(qtbot, qapp, context):
    from gui.i18n import TranslatorSet

    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
        qtbot.addWidget(widget)
        assert widget.tabs.tabText(0) == "配置"
        assert widget.results.recommended_card.title.text() == "推荐电源"
        assert "额定功率的 80%" in widget.results.why_label.text()  # a service Msg rendered through Qt's translators
        assert any("12V-2x6" in label.text() and "插头" in label.text() for label in widget.results.warning_labels)
    finally:
        translators.install(qapp, "en")


def test_devices_found_after_start_replace_the_example(qtbot, context):
    hub = FakeHub()
    context.telemetry = hub
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    assert widget.build().gpus[0].name == "GeForce RTX 4090"  # the example
    snapshot = Snapshot(t=0.0, status=SourceStatus(DeviceState.OK), gpus=(
        GpuInfo(index=0, name="NVIDIA GeForce RTX 3090", uuid="GPU-0", pci_device_id=0x220410DE),
        GpuInfo(index=1, name="NVIDIA GeForce RTX 3090", uuid="GPU-1", pci_device_id=0x220410DE)))
    with qtbot.waitSignal(widget.result_changed):
        hub.push(snapshot)  # devices arrive after the page is built
    assert [g.name for g in widget.build().gpus] == ["GeForce RTX 3090"] * 2
    assert not widget.waiting_for_devices()  # one answer is enough


def test_late_devices_do_not_overwrite_the_users_build(qtbot, context):
    hub = FakeHub()
    context.telemetry = hub
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    widget.add_gpu(widget.catalog.gpu("rtx-5080"))
    hub.push(Snapshot(t=0.0, status=SourceStatus(DeviceState.OK),
                      gpus=(GpuInfo(index=0, name="NVIDIA GeForce RTX 3090", uuid="GPU-0"),)))
    qtbot.waitUntil(lambda: not widget.waiting_for_devices())
    assert [g.key for g in widget.build().gpus] == ["rtx-4090", "rtx-5080"]
    widget.shutdown()


def test_rank_by_a_named_model_when_model_fit_is_present(page):
    pytest.importorskip("services.modelfit.estimate")
    index = page.compare.model_combo.findData("Llama-3.1-8B")
    assert not page.compare.model_combo.isHidden() and index > 0
    page.compare.model_combo.setCurrentIndex(index)
    assert not page.compare.params_spin.isEnabled()
    assert "model-fit estimate" in page.compare.need_label.text()
    assert page.compare.rank_table.rowCount() > 0
    page.compare.model_combo.setCurrentIndex(0)
    assert page.compare.params_spin.isEnabled()


def test_the_build_is_remembered_between_sessions(qtbot, page, context):
    assert context.settings_store.settings.psu.gpus == []  # the untouched example is not saved
    page.add_gpu(page.catalog.gpu("rtx-3090"))
    page.parts_box.spins["hdd"].setValue(3)
    page.psu_box.psu_spin.setValue(1000)
    page.psu_box.price_spin.setValue(0.25)
    from services.settings import SettingsStore

    reloaded = SettingsStore(context.settings_store.path)
    reloaded.load()
    assert reloaded.settings.psu.gpus == ["rtx-4090", "rtx-3090"]
    assert reloaded.settings.psu.hdd == 3 and reloaded.settings.psu.psu_w == 1000
    assert reloaded.settings.power_cost.price_per_kwh == pytest.approx(0.25)
    context.settings_store = reloaded
    again = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(again)
    build = again.build()
    assert [g.key for g in build.gpus] == ["rtx-4090", "rtx-3090"]
    assert build.hdd == 3 and build.psu_w == 1000 and build.cpu.name == "Ryzen 9 9950X"


def test_a_saved_build_with_unknown_cards_still_opens(qtbot, context):
    saved = context.settings_store.settings.psu
    saved.gpus, saved.cpu, saved.fans, saved.usage = ["rtx-9999", "rtx-5080"], "Pentium 4", 999, "mining"
    widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
    qtbot.addWidget(widget)
    build = widget.build()
    assert [g.key for g in build.gpus] == ["rtx-5080"]
    assert build.cpu is None and build.fans == 30 and build.usage.value == "gaming"


def test_typed_ambiguous_name_adds_the_pcie_card_and_says_which(qtbot, page):
    page.gpu_box.gpu_combo.setEditText("H100")
    qtbot.mouseClick(page.gpu_box.add_button, Qt.MouseButton.LeftButton)
    assert page.build().gpus[-1].name == "H100 PCIe 80GB"
    assert "H100 SXM5 80GB" in page.gpu_box.detected_label.text() and "H100 PCIe 80GB" in page.gpu_box.detected_label.text()


def test_unknown_typed_card_lists_three_names(qtbot, page):
    page.gpu_box.gpu_combo.setEditText("RTX9999")
    qtbot.mouseClick(page.gpu_box.add_button, Qt.MouseButton.LeftButton)
    assert page.gpu_box.gpu_list.count() == 1
    assert "RTX9999" in page.gpu_box.detected_label.text() and "GeForce RTX 4090" in page.gpu_box.detected_label.text()


def test_card_without_a_vendor_figure_says_so_in_why(qtbot, page):
    page.gpu_box.gpu_list.setCurrentRow(0)
    qtbot.mouseClick(page.gpu_box.remove_button, Qt.MouseButton.LeftButton)
    page.gpu_box.gpu_combo.setEditText("3090 Ti")
    qtbot.mouseClick(page.gpu_box.add_button, Qt.MouseButton.LeftButton)
    assert "sized from the parts" in page.results.why_label.text()


def test_cloud_provider_note_is_translated(qtbot, qapp, context):
    from gui.i18n import TranslatorSet

    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        widget = PsuPage(context.settings_store, context.hubs, context.telemetry_control, context.language)
        qtbot.addWidget(widget)
        text = widget.rent.cloud_source_label.text()
        assert "RunPod" in text and "2026-09-07" in text
        assert "catalogue snapshot" not in text and "价目表快照" in text
    finally:
        translators.install(qapp, "en")
