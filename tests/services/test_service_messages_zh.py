"""Errors raised by the service packages (model-fit, exporter, setup rules and PCI ids, unsafe
paths) reach a Chinese user in Chinese, not as an English sentence inside a Chinese frame.

Each exception keeps ``str(exc)`` as the English sentence it always had (the English run is
unchanged, byte for byte) and carries the same sentence as a translatable ``Msg`` in ``.message``,
which the CLI and the GUI render in the user's language.
"""
from __future__ import annotations

import errno
import io
import json
import os
import re
import socket
import sys

import pytest

from tests.cli_helpers import CJK, english_system, run  # noqa: F401 - english_system is a fixture

from services.i18n import Catalog
from tests.fakes.fake_nvml import FakeNvml, make_gpu, scenario

pytestmark = pytest.mark.usefixtures("english_system")



def both(argv: list[str], capsys) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    return run(["--lang", "zh_CN", *argv], capsys), run(["--lang", "en", *argv], capsys)


def assert_chinese_line(err: str, *, starts: str) -> None:
    assert err.startswith("错误：" + starts), err
    assert CJK.search(err) and "error:" not in err and "Traceback" not in err
    assert err.count("\n") == 1


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX only")


# --- UnsafePathError (services/paths.py) ---------------------------------------------------

@needs_fifo
def test_a_fifo_given_to_a_path_option_is_refused_in_chinese(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (code_zh, out_zh, err_zh), (code_en, out_en, err_en) = both(["monitor", "--once", "--csv", str(fifo)], capsys)
    assert code_zh == code_en == 2 and out_zh == out_en == ""
    assert_chinese_line(err_zh, starts=f"--csv {fifo} 是命名管道（FIFO），不是普通文件；拒绝使用")
    assert err_en == f"error: --csv {fifo} is a named pipe (FIFO), not a regular file; refusing to use it\n"


@needs_fifo
def test_a_fifo_as_output_file_is_refused_in_chinese(capsys, tmp_path):
    """``check_output_file`` (the screenshot path of the app) goes through the same message."""
    fifo = tmp_path / "shot.png"
    os.mkfifo(fifo)
    (code_zh, _, err_zh), (code_en, _, err_en) = both(["--screenshot", str(fifo)], capsys)
    assert code_zh == code_en == 2
    assert_chinese_line(err_zh, starts=f"--screenshot {fifo} 是命名管道（FIFO）")
    assert err_en == f"error: --screenshot {fifo} is a named pipe (FIFO), not a regular file; refusing to use it\n"


def test_unsafe_path_error_keeps_its_english_and_carries_a_msg(tmp_path):
    from services.paths import UnsafePathError, check_regular_file

    zh = Catalog.load("zh_CN")
    cases = [
        (("",), {}, "needs a file name, not an empty string", "需要文件名，而不是空字符串"),
        (("",), {"option": "--csv"}, "--csv needs a file name, not an empty string", "--csv 需要文件名，而不是空字符串"),
        ((str(tmp_path / "gone"),), {}, f"{tmp_path / 'gone'}: no such file", f"{tmp_path / 'gone'}：没有这个文件"),
        ((str(tmp_path),), {"may_be_folder": False}, f"{tmp_path} is a folder; give a file name",
         f"{tmp_path} 是文件夹；请给出文件名"),
        ((" " + str(tmp_path / "gone"),), {}, f"{tmp_path / 'gone'}: no such file", f"{tmp_path / 'gone'}：没有这个文件"),
    ]
    if sys.platform != "win32":
        (tmp_path / "file").write_text("x")
        cases.append(((str(tmp_path / "file" / "x"),), {"option": "--csv", "may_be_missing": True},
                      f"--csv {tmp_path / 'file' / 'x'}: a part of the path is a file, not a folder",
                      f"--csv {tmp_path / 'file' / 'x'}：路径中的某一部分是文件，而不是文件夹"))
    if os.path.exists("/dev/null"):
        cases.append((("/dev/null", "--model-config"), {},
                      "--model-config /dev/null is a character device, not a regular file; refusing to use it",
                      "--model-config /dev/null 是字符设备，不是普通文件；拒绝使用"))
    for args, kwargs, english, chinese in cases:
        with pytest.raises(UnsafePathError) as info:
            check_regular_file(*args, **kwargs)
        assert str(info.value) == english
        assert str(info.value.message) == english
        assert zh.render(info.value.message) == chinese


# --- NoGpuError and the model-file errors (services/modelfit) --------------------------------

def _nvml(monkeypatch, fake) -> None:
    """``live_gpu_from_nvml`` lists the devices through this fake pynvml."""
    from services import nvml_devices
    from services.modelfit import gpus

    monkeypatch.setattr(gpus, "list_devices", lambda module=None: nvml_devices.list_devices(fake))


def test_no_gpu_found_is_chinese(capsys, monkeypatch):
    _nvml(monkeypatch, FakeNvml([]))
    (code_zh, out_zh, err_zh), (code_en, _, err_en) = both(["fit", "--gpu", "detected", "--params-b", "7"], capsys)
    assert code_zh == code_en == 3 and out_zh == ""
    assert err_zh == "错误：未找到 NVIDIA 显卡（可用 --gpu NAME 从目录中选一张显卡）\n"
    assert err_en == "error: no NVIDIA GPU found (use --gpu NAME to pick one from the catalogue)\n"


def test_no_driver_is_chinese_including_the_drivers_reason(capsys, monkeypatch):
    from services.nvml_devices import list_devices

    inventory = list_devices(scenario("no_driver"))
    assert not inventory.ok and inventory.error and inventory.error_text is not None
    _nvml(monkeypatch, scenario("no_driver"))
    (code_zh, _, err_zh), (code_en, _, err_en) = both(["fit", "--gpu", "detected", "--params-b", "7"], capsys)
    assert code_zh == code_en == 3
    assert_chinese_line(err_zh, starts="NVML 不可用：")
    assert inventory.error not in err_zh, err_zh  # the driver's reason is translated as well
    assert err_en == (f"error: NVML is not available: {inventory.error} "
                      "(use --gpu NAME to pick one from the catalogue)\n")


def test_no_memory_figures_keeps_its_english(monkeypatch):
    from services.modelfit.gpus import NoGpuError, live_gpu_from_nvml

    _nvml(monkeypatch, FakeNvml([make_gpu(0, name="NVIDIA GeForce RTX 4090", unsupported={"nvmlDeviceGetMemoryInfo"})]))
    with pytest.raises(NoGpuError) as info:
        live_gpu_from_nvml()
    assert str(info.value) == "NVML reports no memory figures for NVIDIA GeForce RTX 4090"
    assert Catalog.load("zh_CN").render(info.value.message) == "NVML 没有报告 NVIDIA GeForce RTX 4090 的显存数据"


def test_a_damaged_gguf_file_is_explained_in_chinese(capsys, tmp_path):
    model = tmp_path / "model.gguf"
    model.write_bytes(b"NOPE" + bytes(60))
    (code_zh, _, err_zh), (code_en, _, err_en) = both(["fit", "--model", str(model)], capsys)
    assert code_zh == code_en == 2
    assert err_zh == "错误：model.gguf：不是 GGUF 文件（文件标识不对）\n"
    assert err_en == "error: model.gguf: not a GGUF file (bad magic)\n"

    model.write_bytes(b"GGUF" + (1).to_bytes(4, "little") + bytes(16))
    (_, _, err_zh), (_, _, err_en) = both(["fit", "--model", str(model)], capsys)
    assert err_zh == "错误：model.gguf：不支持 GGUF 第 1 版（请用新版 llama.cpp 重新转换）\n"
    assert err_en == "error: model.gguf: GGUF version 1 is not supported (re-convert with a current llama.cpp)\n"


def test_gguf_error_keeps_its_english():
    from services.modelfit import gguf

    with pytest.raises(gguf.GgufError) as info:
        gguf.parse(io.BytesIO(b"GGUF" + (7).to_bytes(4, "little")))
    assert str(info.value) == "unsupported GGUF version 7 (big-endian or damaged file?)"
    assert Catalog.load("zh_CN").render(info.value.message) == "不支持的 GGUF 版本 7（大端格式或文件已损坏？）"


def test_psu_model_errors_with_closest_names_are_chinese(capsys):
    """The PSU calculator's model-fit adapter keeps the translatable sentence (it used to re-raise
    a plain English ValueError)."""
    (code_zh, _, err_zh), (code_en, _, err_en) = both(["psu", "--model", "no-such-model-zz"], capsys)
    assert code_zh == code_en == 2
    assert_chinese_line(err_zh, starts="未知模型“no-such-model-zz”；最接近的：")
    assert "closest" not in err_zh and "Unknown" not in err_zh
    assert err_en.startswith("error: Unknown model 'no-such-model-zz'; closest: ") and err_en.count("\n") == 1


def test_the_workload_adapter_keeps_english_str_and_choices():
    from services.hardware.compare import Task
    from services.modelfit.errors import ModelInputError
    from services.modelfit.workload import estimate_with_modelfit

    with pytest.raises(ModelInputError) as info:
        estimate_with_modelfit("no-such-model-zz", None, "bf16", Task.INFERENCE, 4096)
    names = ", ".join(info.value.choices[:3])
    assert info.value.choices and str(info.value) == f"Unknown model 'no-such-model-zz'; closest: {names}"
    assert isinstance(info.value, ValueError)


# --- ExporterError (services/exporter) ------------------------------------------------------

def _busy_port() -> tuple[socket.socket, int]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock, sock.getsockname()[1]


@pytest.mark.skipif(sys.platform == "win32", reason="Windows lets a second socket share the port")
def test_a_busy_port_is_reported_in_chinese(capsys):
    sock, port = _busy_port()
    try:
        (code_zh, out_zh, err_zh), (code_en, _, err_en) = both(
            ["--demo", "exporter", "--host", "127.0.0.1", "--port", str(port)], capsys)
    finally:
        sock.close()
    assert code_zh == code_en == 1 and out_zh == ""
    assert_chinese_line(err_zh, starts=f"无法在 127.0.0.1:{port} 上监听：")
    assert err_en == f"error: cannot listen on 127.0.0.1:{port}: {os.strerror(errno.EADDRINUSE)}\n"


@pytest.mark.skipif(sys.platform == "win32", reason="Windows lets a second socket share the port")
def test_the_exporter_service_status_is_chinese():
    """The GUI shows ``ExporterService.status()``: the server's sentence inside it is translated too."""
    from services.exporter.server import ExporterError, ExporterServer
    from services.exporter.service import ExporterService
    from services.settings import ExporterSettings

    sock, port = _busy_port()
    try:
        service = ExporterService(lambda: _EmptyCollector())
        service.apply(ExporterSettings(run_in_background=True, host="127.0.0.1", port=port))
        with pytest.raises(ExporterError) as info:
            ExporterServer(_EmptyCollector(), "127.0.0.1", port).start()
    finally:
        sock.close()
    english = f"cannot listen on 127.0.0.1:{port}: {os.strerror(errno.EADDRINUSE)}"
    assert str(info.value) == english
    status = service.status()
    assert str(status) == f"The metrics endpoint could not start: {english}"
    chinese = Catalog.load("zh_CN").render(status)
    assert f"无法在 127.0.0.1:{port} 上监听：" in chinese and "cannot listen" not in chinese


class _EmptyCollector:
    def collect(self):
        return iter(())


# --- RulesError and PCI ids (services/setup) -----------------------------------------------

def test_a_bad_pci_id_is_chinese(capsys):
    (code_zh, _, err_zh), (code_en, _, err_en) = both(["setup", "--plan", "--gpu", "zz"], capsys)
    assert code_zh == code_en == 2
    assert err_zh == "错误：既不是 GPU 助手认识的显卡，也不是 PCI ID（应类似 10de:2684）：'zz'\n"
    assert err_en == "error: not a card GPU Assistant knows or a PCI id (like 10de:2684): 'zz'\n"


def test_resolve_card_keeps_a_value_error_with_english_text():
    from services.setup.card_lookup import PciIdError, resolve_card
    from services.setup.rules import load_rules

    with pytest.raises(ValueError) as info:
        resolve_card(load_rules(), "no such card zz")
    assert isinstance(info.value, PciIdError)
    assert str(info.value) == "not a card GPU Assistant knows or a PCI id (like 10de:2684): 'no such card zz'"
    assert Catalog.load("zh_CN").render(info.value.message) == \
        "既不是 GPU 助手认识的显卡，也不是 PCI ID（应类似 10de:2684）：'no such card zz'"


@pytest.mark.parametrize("command", [["setup", "--plan"], ["doctor"]])
def test_a_broken_rules_file_is_chinese(command, capsys, monkeypatch, tmp_path):
    from services.setup import rules

    bad = tmp_path / "rules.json"
    bad.write_text("{ not json", encoding="utf-8")
    monkeypatch.setattr(rules, "RULES_FILE", bad)
    (code_zh, out_zh, err_zh), (code_en, _, err_en) = both(command, capsys)
    assert code_zh == code_en == 2 and out_zh == ""
    assert err_zh == f"错误：规则文件 {bad} 不是有效的 JSON（第 1 行）\n"
    assert err_en == f"error: the rules file {bad} is not valid JSON (line 1)\n"


def test_rules_errors_keep_their_english(tmp_path):
    from services.setup.rules import RulesError, load_rules

    zh = Catalog.load("zh_CN")
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"schema": 2}), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert str(info.value) == f"the rules file {path} has an unknown schema"
    assert zh.render(info.value.message) == f"规则文件 {path} 的格式版本未知"

    path.write_text(json.dumps({"schema": 1}), encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert str(info.value) == f"the rules file {path} is malformed: rules file lacks 'version'"
    assert zh.render(info.value.message) == f"规则文件 {path} 格式有误：规则文件里没有 “version”"

    with pytest.raises(RulesError) as info:
        load_rules(tmp_path / "missing.json")
    assert str(info.value).startswith(f"cannot read the rules file {tmp_path / 'missing.json'}: ")
    assert zh.render(info.value.message).startswith(f"无法读取规则文件 {tmp_path / 'missing.json'}：")


# --- every new sentence has its Chinese --------------------------------------------------

def test_every_service_error_sentence_is_translated():
    zh = Catalog.load("zh_CN")
    sentences = [
        ("FitErrors", "no NVIDIA GPU found"), ("FitErrors", "NVML is not available: {reason}"),
        ("FitErrors", "not a GGUF file (bad magic)"), ("FitErrors", "{message}; closest: {names}"),
        ("Exporter", "cannot listen on {host}:{port}: {reason}"),
        ("Setup", "rules file lacks '{key}'"), ("Setup", "not an NVIDIA PCI id: {text} (expected something like 10de:2684)"),
        ("Paths", "{option}{path} is {kind}, not a regular file; refusing to use it"), ("Paths", "a socket"),
    ]
    for context, text in sentences:
        chinese = zh.tr(context, text)
        assert chinese != text and CJK.search(chinese), (context, text)
        assert sorted(re.findall(r"\{\w+\}", chinese)) == sorted(re.findall(r"\{\w+\}", text))


# --- the settings file refused or unreadable (services/settings.py) ------------------------

@needs_fifo
def test_a_fifo_settings_file_is_explained_in_chinese(tmp_path):
    from services.settings import SettingsStore

    path = tmp_path / "settings.json"
    os.mkfifo(path)
    store = SettingsStore(path)
    store.load()
    assert store.load_problem == (f"{path} is a named pipe (FIFO), not a regular file; refusing to use it; "
                                  "using the default settings")
    assert str(store.load_problem_text) == store.load_problem
    assert Catalog.load("zh_CN").render(store.load_problem_text) == \
        f"{path} 是命名管道（FIFO），不是普通文件；拒绝使用；改用默认设置"


def test_a_broken_settings_file_is_explained_in_chinese(tmp_path):
    from services.settings import SettingsStore

    path = tmp_path / "settings.json"
    path.write_bytes(b"{ broken")
    store = SettingsStore(path)
    store.load()
    kept = next(tmp_path.glob("settings.json.broken-*")).name
    assert store.load_problem == f"settings.json was unreadable; kept it as {kept}"
    assert Catalog.load("zh_CN").render(store.load_problem_text) == f"settings.json 无法读取；已将其保留为 {kept}"
    store.load()  # a good (now missing) file: no problem left over
    assert store.load_problem is None and store.load_problem_text is None
