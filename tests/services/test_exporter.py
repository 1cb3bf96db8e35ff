from __future__ import annotations

import dataclasses
import socket
import time
import urllib.request

import pytest

from services.exporter.metrics import TelemetryCollector, render_text
from services.exporter.remote import HostKind, HostState, normalize_url, parse_metrics_text, read_exporter
from services.exporter.server import ExporterError, ExporterServer
from services.exporter.service import ExporterService
from services.settings import ExporterSettings
from services.telemetry.model import DeviceState, GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus

INFO = GpuInfo(0, "NVIDIA GeForce RTX 4090", "GPU-1111", pci_bus_id="00000000:01:00.0", driver_version="560.35.03",
               temp_slowdown_c=87, pcie_gen_max=4, pcie_width_max=16)
INFO1 = dataclasses.replace(INFO, index=1, uuid="GPU-2222", name="NVIDIA GeForce RTX 3090", pci_bus_id="00000000:02:00.0")


def _snapshot(**overrides) -> Snapshot:
    sample = GpuSample(t=1000.0, index=0, uuid="GPU-1111", utilization_pct=97.0, memory_used_mib=20000.0,
                       memory_total_mib=24564.0, temperature_c=71.0, power_w=402.5, power_limit_w=450.0,
                       energy_j=5000.0, sm_clock_mhz=2520.0, mem_clock_mhz=10501.0, fan_pct=None,
                       throttle_reasons=frozenset({"power_cap"}), pcie_gen=4, pcie_width=16,
                       processes=(ProcessSample(4242, "python train.py", "ann", "compute", 19000.0),))
    sample = dataclasses.replace(sample, **overrides)
    lost = GpuSample(t=1000.0, index=1, uuid="GPU-2222", state=DeviceState.LOST)
    return Snapshot(t=1000.0, status=SourceStatus(DeviceState.OK), gpus=(INFO, INFO1), samples=(sample, lost))


def _text(snapshot, seconds=None) -> str:
    collector = TelemetryCollector(lambda: snapshot, (lambda i: seconds or {}), hostname="lab-box")
    return render_text(collector.collect()).decode()


def test_dcgm_names_and_labels():
    text = _text(_snapshot())
    line = next(ln for ln in text.splitlines() if ln.startswith("DCGM_FI_DEV_GPU_TEMP{"))
    for label in ('gpu="0"', 'UUID="GPU-1111"', 'pci_bus_id="00000000:01:00.0"', 'device="nvidia0"',
                  'modelName="NVIDIA GeForce RTX 4090"', 'Hostname="lab-box"', 'hostname="lab-box"',
                  'DCGM_FI_DRIVER_VERSION="560.35.03"'):
        assert label in line
    assert line.endswith(" 71.0")
    assert "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter" in text
    assert any(ln.startswith("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{") and ln.endswith(" 5000000.0")
               for ln in text.splitlines())  # joules -> mJ, bare counter name as dcgm-exporter
    assert "DCGM_FI_DEV_FB_FREE{" in text and " 4564.0" in text


def test_unsupported_and_lost_series_are_left_out_not_zero():
    text = _text(_snapshot(fan_pct=None, memory_temperature_c=None))
    assert "DCGM_FI_DEV_FAN_SPEED" not in text
    assert "DCGM_FI_DEV_MEMORY_TEMP" not in text
    assert 'UUID="GPU-2222"' in text  # the lost GPU appears only in our state metric
    assert not any('UUID="GPU-2222"' in ln for ln in text.splitlines() if ln.startswith("DCGM_FI_"))
    assert 'gpu_assistant_device_state{' in text and 'state="lost"} 1.0' in text


def test_extras_under_our_prefix():
    text = _text(_snapshot(), seconds={"power_cap": 12.5, "sw_thermal": 3.0})
    assert 'clock_event="power_cap"} 12.5' in text
    assert any(ln.startswith("gpu_assistant_clock_event_active{") and 'clock_event="power_cap"' in ln
               and ln.endswith(" 1.0") for ln in text.splitlines())
    assert 'gpu_assistant_process_gpu_memory_bytes{' in text and 'pid="4242"' in text


def test_round_trip_through_the_parser():
    gpus = parse_metrics_text(_text(_snapshot()), "fallback")
    assert len(gpus) == 1
    gpu = gpus[0]
    assert gpu.host == "lab-box" and gpu.info.name == "NVIDIA GeForce RTX 4090"
    assert gpu.sample.temperature_c == 71.0 and gpu.sample.power_w == 402.5
    assert gpu.sample.memory_total_mib == 24564.0 and gpu.sample.energy_j == pytest.approx(5000.0)
    assert gpu.sample.fan_pct is None


def test_reads_a_real_dcgm_exporter_page():
    # Format of dcgm-exporter 3.x output (labels as render_metrics.go writes them).
    text = (
        "# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).\n"
        "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n"
        'DCGM_FI_DEV_GPU_TEMP{gpu="0",UUID="GPU-9f3c",pci_bus_id="00000000:3B:00.0",device="nvidia0",'
        'modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx-01",DCGM_FI_DRIVER_VERSION="535.104.05"} 34\n'
        "# HELP DCGM_FI_DEV_FB_USED Framebuffer memory used (in MiB).\n"
        "# TYPE DCGM_FI_DEV_FB_USED gauge\n"
        'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-9f3c",pci_bus_id="00000000:3B:00.0",device="nvidia0",'
        'modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx-01",DCGM_FI_DRIVER_VERSION="535.104.05"} 1024\n'
        "# HELP DCGM_FI_DEV_FB_FREE Framebuffer memory free (in MiB).\n"
        "# TYPE DCGM_FI_DEV_FB_FREE gauge\n"
        'DCGM_FI_DEV_FB_FREE{gpu="0",UUID="GPU-9f3c",pci_bus_id="00000000:3B:00.0",device="nvidia0",'
        'modelName="NVIDIA A100-SXM4-80GB",Hostname="dgx-01",DCGM_FI_DRIVER_VERSION="535.104.05"} 80000\n'
    )
    (gpu,) = parse_metrics_text(text, "x")
    assert gpu.host == "dgx-01" and gpu.info.uuid == "GPU-9f3c"
    assert gpu.sample.memory_total_mib == 81024 and gpu.sample.temperature_c == 34


def test_server_serves_and_stops():
    server = ExporterServer(TelemetryCollector(lambda: _snapshot(), hostname="h"), "127.0.0.1", 0)
    server.start()
    try:
        with urllib.request.urlopen(server.url, timeout=5) as response:
            assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
            assert b"DCGM_FI_DEV_POWER_USAGE" in response.read()
        reading = read_exporter(server.url)
        assert reading.state == HostState.OK and reading.gpus[0].sample.power_w == 402.5
    finally:
        server.stop()
    assert not server.running


def test_port_in_use_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(ExporterError, match="cannot listen"):
            ExporterServer(TelemetryCollector(lambda: None), "127.0.0.1", port).start()


def test_service_follows_settings():
    service = ExporterService(lambda: TelemetryCollector(lambda: _snapshot(), hostname="h"))
    settings = ExporterSettings(run_in_background=True, host="127.0.0.1", port=0)
    service.apply(settings)
    try:
        assert service.server is not None and "Serving" in str(service.status())
        service.apply(ExporterSettings(run_in_background=False, host="127.0.0.1", port=0))
        assert service.server is None and "off" in str(service.status())
    finally:
        service.stop()


def test_unreachable_host_is_reported_quickly():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nothing listens
    started = time.monotonic()
    reading = read_exporter(f"http://127.0.0.1:{port}/metrics", timeout=2)
    assert reading.state == HostState.UNREACHABLE
    assert time.monotonic() - started < 3
    assert "Cannot reach" in str(reading.message)


@pytest.mark.parametrize("typed, url, kind", [
    ("10.0.0.5:9400", "http://10.0.0.5:9400/metrics", HostKind.EXPORTER),
    ("http://box:9400/metrics/", "http://box:9400/metrics", HostKind.EXPORTER),
    ("prom.lan:9090", "http://prom.lan:9090", HostKind.PROMETHEUS),
    ("https://prom.example/api/v1/query", "https://prom.example", HostKind.PROMETHEUS),
])
def test_normalize_url(typed, url, kind):
    assert normalize_url(typed) == (url, kind)


@pytest.mark.parametrize("bad", ["", "ftp://x", "http://"])
def test_normalize_url_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        normalize_url(bad)


def test_exporter_cli_speaks_the_users_language(tmp_path, monkeypatch, capsys):
    import json

    from main import main

    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"general": {"language": "zh_CN"}}))
    monkeypatch.setenv("GPU_ASSISTANT_HOME", str(tmp_path))
    code = main(["exporter", "--demo", "--port", "0", "--duration", "0.1", "--no-record"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "正在" in out and "/metrics" in out
