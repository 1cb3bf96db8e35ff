"""The fit page: inputs update the answer after a short debounce, files load, no timer leaks."""
from __future__ import annotations

import argparse
import json

import pytest

from gui.app import build_context
from gui.fit.page import DETECTED, FitPage


@pytest.fixture
def page(qtbot, app_paths):
    context = build_context(argparse.Namespace(demo=False), app_paths)
    widget = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(widget)
    widget.resize(1100, 800)
    widget.show()
    yield widget
    widget.shutdown()


def test_first_answer_is_shown_without_a_button(page):
    assert page.last_answer is not None and page.last_error is None
    assert page.last_answer.fits is True  # Llama-3.1-8B bf16 at 4k on a 4090
    assert page.results.bar.segments() and page.results.table.rowCount() >= 3
    assert "tokens" in page.results.max_seq_label.text()


def test_changing_context_updates_after_debounce(qtbot, page):
    before = page.last_answer.estimate.per_gpu_gib
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.workload.seq_spin.setValue(65536)
    assert page.last_answer.estimate.request.seq == 65536
    assert page.last_answer.estimate.per_gpu_gib > before


def test_many_quick_changes_compute_once(qtbot, page):
    calls = []
    page.updated.connect(lambda: calls.append(1))
    for value in (1024, 2048, 3072, 5120):
        page.workload.seq_spin.setValue(value)
    qtbot.waitUntil(lambda: bool(calls), timeout=2000)
    with qtbot.assertNotEmitted(page.updated, wait=250):
        pass
    assert len(calls) == 1 and page.last_answer.estimate.request.seq == 5120


def test_training_that_does_not_fit_offers_suggestions_that_apply(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.gpu_combo, "GeForce RTX 3060 12GB")
        page._set_data(page.workload.task_combo, "train")
        page._set_data(page.workload.method_combo, "full")
        page._set_data(page.workload.weights_combo, "bf16")
    ans = page.last_answer
    assert ans.fits is False and ans.suggestions
    assert page.results.suggestion_list.count() == len(ans.suggestions)
    best = ans.suggestions[0]
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.results.suggestion_list.itemActivated.emit(page.results.suggestion_list.item(0))
    assert page.last_answer.estimate.per_gpu_gib == pytest.approx(best.per_gpu_gib, rel=1e-6)


def test_search_and_pick_a_model(qtbot, page):
    page.model_box.search_edit.setText("gemma 2 9b")
    assert page.model_box.model_list.count() == 1
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.model_box.model_list.setCurrentRow(0)
    assert page.last_answer.estimate.arch.model_id == "google/gemma-2-9b"


def test_open_a_config_file_and_show_bad_files(qtbot, page, tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"model_type": "llama", "num_hidden_layers": 16, "hidden_size": 2048,
                               "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 8192,
                               "vocab_size": 128256, "tie_word_embeddings": True}))
    with qtbot.waitSignal(page.updated, timeout=2000):
        assert page.load_file(cfg)
    assert page.last_answer.estimate.arch.layers == 16
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"nope")
    assert not page.load_file(bad)
    assert page.last_error and "GGUF" in page.last_error


def test_incompatible_choice_shows_a_message_not_a_crash(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "llamacpp")  # switches weights to Q4_K_M itself
    assert page.last_error is None and page.last_answer.estimate.weight_format == "q4_k_m"
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.weights_combo, "nf4")
    assert page.last_error and "llama.cpp" in page.last_error


def test_detected_gpu_without_telemetry_still_answers(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.gpu_combo, DETECTED)
    assert page.last_answer.fits is None and "No GPU detected" in page.results.detail_label.text()


def test_detected_gpu_reads_the_hub_snapshot(qtbot, app_paths):
    from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceStatus
    from tests.gui.fake_hub import FakeHub

    hub = FakeHub()  # the real hub, fed one reading
    hub.push(Snapshot(t=0, status=SourceStatus(DeviceState.OK), gpus=(GpuInfo(0, "NVIDIA GeForce RTX 4090", "u"),),
                      samples=(GpuSample(t=0, index=0, uuid="u", memory_total_mib=24564, memory_used_mib=20000),)))
    context = build_context(argparse.Namespace(demo=False), app_paths)
    context.telemetry = hub
    widget = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.updated, timeout=2000):
        widget._set_data(widget.workload.gpu_combo, DETECTED)
    assert widget.last_answer.budget_gib == pytest.approx((24564 - 20000) / 1024)
    assert widget.last_answer.fits is False
    widget.shutdown()


@pytest.mark.parametrize(("name", "expected"), [("NVIDIA A10G", DETECTED), ("NVIDIA H200", "H200 SXM 141GB")])
def test_default_gpu_is_the_detected_card(qtbot, app_paths, name, expected):
    # The first reading arrives after the page is built; with no card chosen yet the page takes the
    # detected one when shown: its catalogue entry, or "Detected GPU" when the catalogue lacks it.
    from services.telemetry.model import DeviceState, GpuInfo, GpuSample, Snapshot, SourceStatus
    from tests.gui.fake_hub import FakeHub

    hub = FakeHub()
    context = build_context(argparse.Namespace(demo=False), app_paths)
    context.telemetry = hub
    widget = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(widget)
    assert widget.workload.gpu_combo.currentData() == "GeForce RTX 4090"  # nothing detected yet
    hub.push(Snapshot(t=0, status=SourceStatus(DeviceState.OK), gpus=(GpuInfo(0, name, "u"),),
                      samples=(GpuSample(t=0, index=0, uuid="u", memory_total_mib=23028, memory_used_mib=500),)))
    widget.show()
    assert widget.workload.gpu_combo.currentData() == expected
    widget.shutdown()


def test_shutdown_stops_the_debounce_timer(page):
    page.workload.seq_spin.setValue(1234)
    assert page._timer.isActive()
    page.shutdown()
    assert not page._timer.isActive()


def test_choices_are_remembered(qtbot, app_paths):
    context = build_context(argparse.Namespace(demo=False), app_paths)
    first = FitPage(context.settings_store, context.hubs, context.paths.recordings_dir)
    qtbot.addWidget(first)
    first.model_box.search_edit.setText("gemma 2 9b")
    first.model_box.model_list.setCurrentRow(0)
    first._set_data(first.workload.gpu_combo, "GeForce RTX 3060 12GB")
    first._set_data(first.workload.task_combo, "train")
    first.shutdown()
    again = build_context(argparse.Namespace(demo=False), app_paths)
    assert again.settings_store.settings.fit.model == "google/gemma-2-9b"
    second = FitPage(again.settings_store, again.hubs, again.paths.recordings_dir)
    qtbot.addWidget(second)
    assert second.workload.gpu_combo.currentData() == "GeForce RTX 3060 12GB"
    assert second.workload.task_combo.currentData() == "train"
    assert second.last_answer.estimate.arch.model_id == "google/gemma-2-9b"
    assert second.self_test() is None
    second.shutdown()


def test_dropping_a_gguf_switches_to_llamacpp(qtbot, page, tmp_path):
    from tests.services.test_modelfit import _tiny_gguf

    path = tmp_path / "tiny.gguf"
    _tiny_gguf(path)
    with qtbot.waitSignal(page.updated, timeout=2000):
        assert page.load_file(path)
    est = page.last_answer.estimate
    assert est.request.engine == "llamacpp" and est.weight_format == "q4_k_m" and est.arch.layers == 2


def test_tensor_parallel_gpu_count_that_does_not_split_the_heads_shows_the_cli_message(qtbot, page):
    from services.modelfit.catalogue import default_catalogue
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.set_model(default_catalogue().resolve("Qwen/Qwen2.5-14B").arch)
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.workload.gpus_spin.setValue(3)
        page._set_data(page.workload.strategy_combo, "tp")
    assert page.last_error and "3 GPUs" in page.last_error and "2, 4, 8, 40" in page.last_error
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.workload.gpus_spin.setValue(4)
    assert page.last_error is None and page.last_answer.estimate.request.gpus == 4


def test_engine_presets_fill_the_controls_and_reach_the_request(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.task_combo, "train")
        page._set_data(page.workload.engine_combo, "unsloth")
    req = page.last_answer.estimate.request
    assert page.workload.offload_check.isChecked() and page.workload.loss_combo.currentData() == "fused"
    assert req.engine == "unsloth" and req.method == "qlora" and req.activation_offload and req.fused_loss
    assert not req.kbit_fp32_upcast and req.lora_adapter_bytes == 2
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "torchtune")
    req = page.last_answer.estimate.request
    assert req.chunked_loss and not req.fused_loss and not req.activation_offload and req.lora_rank == 8
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.workload.compile_check.setChecked(True)
        page.workload.opt_bwd_check.setChecked(True)
        page.workload.lora_output_check.setChecked(True)
    req = page.last_answer.estimate.request
    assert req.compile and req.optimizer_in_backward and req.lora_on_output


def test_grid_shows_cells_and_a_click_applies_one(qtbot, page):
    grid = page.last_grid
    assert grid is not None and page.results.grid_table.rowCount() == len(grid.rows)
    assert page.results.grid_table.columnCount() == len(grid.contexts)
    # the last row (NF4) at the largest context
    row, col = len(grid.rows) - 1, len(grid.contexts) - 1
    cell = grid.cells[row][col]
    assert page.results.grid_table.item(row, col).text().startswith(f"{cell.per_gpu_gib:.1f}")
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.results.grid_table.cellClicked.emit(row, col)
    req = page.last_answer.estimate.request
    assert req.seq == cell.seq and req.weights == dict(cell.row.changes)["weights"]
    assert page.last_answer.estimate.per_gpu_gib == pytest.approx(cell.per_gpu_gib)


def test_an_error_blanks_the_old_figures_and_offers_valid_values(qtbot, page):
    assert "tokens" in page.results.max_seq_label.text() and page.results.grid_table.rowCount() > 0
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "vllm")
        page.workload.gpus_spin.setValue(3)
        page._set_data(page.workload.strategy_combo, "tp")
    assert page.last_error and page.last_answer is None
    assert page.results.max_seq_label.text() == "–" and page.results.max_batch_label.text() == "–"
    assert page.results.speed_label.text() == "" and page.results.table.rowCount() == 0 and page.results.grid_table.rowCount() == 0
    offered = [page.results.suggestion_list.item(i).data(0x0101) for i in range(page.results.suggestion_list.count())]
    assert offered[:3] == ["2", "4", "8"]
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.results.suggestion_list.itemActivated.emit(page.results.suggestion_list.item(1))
    assert page.last_error is None and page.last_answer.estimate.request.gpus == 4


def test_vllm_and_partial_offload_details(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "vllm")
    # like `vllm serve`, the model's own maximum first: Llama-3.1-8B's 131,072 tokens do not start on a 4090
    assert page.workload.seq_spin.value() == 131072
    assert "does not start" in page.results.headline_label.text() and "at start it takes" in page.results.detail_label.text()
    largest = page.last_answer.max_seq
    assert 8192 < largest < 131072 and f"{largest:,}" in page.results.max_seq_label.text()
    with qtbot.waitSignal(page.updated, timeout=2000):
        page.workload.seq_spin.setValue(largest)
    assert "vLLM starts" in page.results.headline_label.text()
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "ollama")
        page.set_model(page._catalogue.resolve("meta-llama/Llama-3.1-70B").arch)
    assert page.last_answer.offload is not None
    assert "num_gpu" in page.results.detail_label.text() and "system RAM" in page.results.detail_label.text()


def test_remaining_settings_are_controls_too(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "vllm")
        page.workload.max_seqs_spin.setValue(32)
        page.workload.batched_tokens_spin.setValue(4096)
        page.workload.vllm_v0_check.setChecked(True)
        page.workload.context_spin.setValue(1.25)
    req = page.last_answer.estimate.request
    assert (req.vllm_max_seqs, req.vllm_max_batched_tokens, req.vllm_legacy, req.cuda_context_gib) == (32, 4096, True, 1.25)
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.task_combo, "train")
        page._set_data(page.workload.method_combo, "full")
        page._set_data(page.workload.precision_combo, "mixed")
    assert page.last_answer.estimate.request.precision == "mixed"
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.method_combo, "qlora")
        page.workload.double_quant_check.setChecked(False)
    assert page.last_answer.estimate.request.double_quant is False


def _pick(qtbot, page, model: str, gpu: str) -> None:
    from services.modelfit.catalogue import default_catalogue

    with qtbot.waitSignal(page.updated, timeout=3000):
        page._set_data(page.workload.gpu_combo, page._gpus.find(gpu).name)
        page.set_model(default_catalogue().resolve(model).arch)


def test_how_to_run_it_tab_lists_what_fits_best_first_and_copies_it(qtbot, page):
    from PySide6.QtGui import QGuiApplication

    _pick(qtbot, page, "openai/gpt-oss-20b", "RTX 4080")
    view = page.results.plan_view
    assert page.results.tabs.indexOf(view) >= 0
    best = view.plan.options[0]
    assert best.fits and best.tokens_per_s and "-ngl 999" in best.command
    view.copy_button.click()
    assert QGuiApplication.clipboard().text() == best.command
    _pick(qtbot, page, "Qwen/Qwen3-30B-A3B", "RTX 3060")
    assert "--n-cpu-moe" in view.plan.options[0].command or "exps" in view.plan.options[0].command
    text = view.browser.toPlainText()
    assert "tokens/s" in text and view.plan.options[0].command.split()[0] in text
    # a "Copy" link copies that option's command
    from PySide6.QtCore import QUrl
    view.browser.anchorClicked.emit(QUrl("copy:1"))
    assert QGuiApplication.clipboard().text() == view.plan.options[1].command
    # no speed for options that do not fit
    assert all(o.tokens_per_s is None for o in view.plan.options if not o.fits)


def test_how_to_run_it_explains_itself_for_training(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.task_combo, "train")
    view = page.results.plan_view
    assert view.plan is None and not view.copy_button.isEnabled() and "inference" in view.browser.toPlainText()


def test_moe_offload_detail_names_the_experts_not_layers(qtbot, page):
    with qtbot.waitSignal(page.updated, timeout=2000):
        page._set_data(page.workload.engine_combo, "llamacpp")
    _pick(qtbot, page, "openai/gpt-oss-120b", "RTX 4090")
    ans = page.last_answer
    assert ans.offload is not None and ans.offload.cpu_moe_layers > 0
    assert "--n-cpu-moe" in page.results.detail_label.text()
