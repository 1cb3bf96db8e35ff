"""``main.py monitor``: JSON snapshot, table, CSV log, exit codes (in-process; signals in a real process)."""
from __future__ import annotations

import argparse
import io
import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from main import build_parser, main
from cli import UsageError
from cli import monitor
from services.i18n import Catalog
from services.telemetry.model import Snapshot, SourceStatus, DeviceState, GpuInfo, GpuSample
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.report import csv_header, render_table
from services.telemetry.simulated import SimulatedSource
from tests.fakes.fake_nvml import NVML_ERROR_DRIVER_NOT_LOADED, NVML_ERROR_LIBRARY_NOT_FOUND, FakeNvml

ROOT = Path(__file__).resolve().parents[2]
REQUIRED_JSON_FIELDS = {"index", "name", "uuid", "state", "temperature_c", "utilization_pct", "memory_used_mib",
                        "memory_total_mib", "power_w", "power_limit_w", "fan_pct", "throttle_reasons",
                        "pcie_gen", "pcie_width", "processes"}


def args_for(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["monitor", *argv])


class ScheduleClock:
    """Monotonic time that only moves when the code sleeps (or a read 'takes' time)."""

    def __init__(self) -> None:
        self.t = 500.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.sleeps.append(seconds)
        self.t += seconds


class SlowSource(NvmlSource):
    """A source whose reads take ``cost`` seconds of the schedule clock."""

    def __init__(self, fake, clock: ScheduleClock, cost: float, sysfs_root) -> None:
        super().__init__(fake, clock=clock, sysfs_root=sysfs_root)
        self.schedule_clock = clock
        self.cost = cost
        self.read_times: list[float] = []

    def read(self, tiers, now):
        self.read_times.append(self.schedule_clock.t)
        self.schedule_clock.t += self.cost
        return super().read(tiers, now)


def run(argv, source, **kwargs):
    out, err = io.StringIO(), io.StringIO()
    code = monitor.run(args_for(*argv), source=source, out=out, err=err, **kwargs)
    return code, out.getvalue(), err.getvalue()


# ---- --once


def test_once_json_has_every_documented_field_and_null_for_unsupported(tmp_path):
    fake = FakeNvml(2)
    fake.gpus[1].unsupported.add("nvmlDeviceGetFanSpeed")
    code, out, err = run(["--once", "--json"], NvmlSource(fake, sysfs_root=tmp_path))
    assert code == 0, err
    doc = json.loads(out)
    assert doc["status"] == {"state": "ok", "message": None}
    assert len(doc["gpus"]) == 2
    for gpu in doc["gpus"]:
        assert REQUIRED_JSON_FIELDS <= gpu.keys()
        assert gpu["state"] == "ok"
    g0, g1 = doc["gpus"]
    assert g0["fan_pct"] == 64 and g1["fan_pct"] is None
    assert g0["throttle_reasons"] == ["power_cap"]
    assert (g0["pcie_gen"], g0["pcie_width"]) == (4, 16)
    assert g0["processes"][0] == {"pid": 4242, "name": g0["processes"][0]["name"], "user": None,
                                  "kind": "compute", "used_mib": 17000.0, "cpu_pct": None,
                                  # NVML kept no utilisation sample for it: it did no work on the SMs
                                  "sm_pct": 0.0, "encoder_pct": 0.0, "decoder_pct": 0.0, "shared_mib": None}
    assert g0["memory_temperature_c"] is None  # GeForce: not reported, so null (not 0)


def test_once_table_is_readable(tmp_path):
    fake = FakeNvml(2)
    fake.gpus[1].name = "NVIDIA GeForce RTX 3060"
    code, out, _ = run(["--once"], NvmlSource(fake, sysfs_root=tmp_path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["GPU", "Name", "State"]
    assert "NVIDIA GeForce RTX 4090" in lines[1] and "71 °C" in lines[1] and "312 / 450 W" in lines[1]
    assert "RTX 3060" in lines[2]
    assert "Power limit" in lines[1]
    at = lines.index("Processes:")
    assert lines[at + 1].split()[:4] == ["PID", "GPU", "Name", "User"]
    assert any(line.split()[:2] == ["4242", "0"] and "17000 MiB" in line for line in lines[at + 2:])


def test_per_process_sm_and_video_come_through_the_nvml_wrapper(tmp_path):
    fake = FakeNvml(2)
    fake.gpus[0].process_util = {4242: (63, 20, 0, 0)}
    fake.gpus[1].process_util = {4243: (5, 1, 40, 12)}
    code, out, err = run(["--once", "--json"], NvmlSource(fake, sysfs_root=tmp_path))
    assert code == 0, err
    g0, g1 = json.loads(out)["gpus"]
    assert (g0["processes"][0]["sm_pct"], g0["processes"][0]["encoder_pct"]) == (63.0, 0.0)
    assert (g1["processes"][0]["sm_pct"], g1["processes"][0]["encoder_pct"], g1["processes"][0]["decoder_pct"]) \
        == (5.0, 40.0, 12.0)
    assert fake.calls["nvmlDeviceGetProcessUtilization"] == 2
    code, out, _ = run(["--once"], NvmlSource(fake, sysfs_root=tmp_path))
    row = next(line for line in out.splitlines() if line.split()[:2] == ["4243", "1"])
    assert "5 %" in row and "enc 40 %" in row and "dec 12 %" in row


def test_a_load_begun_seconds_ago_reads_as_it_is_now_not_as_the_buffers_average(tmp_path):
    """The H200 case: a PyTorch load 4 s old. NVML averages each sample from the timestamp asked for,
    so asking from 0 (what `monitor --once` did) read a fraction of it: 56 % while pmon showed 98 %."""
    now = 1_790_000_000.0
    fake = FakeNvml(1)
    fake.wall_time = lambda: now
    fake.gpus[0].process_util = {4242: (98, 41, 0, 0)}
    fake.gpus[0].process_util_since = {4242: now - 4.0}
    source = NvmlSource(fake, sysfs_root=tmp_path, wall_clock=fake.wall_time)
    code, out, err = run(["--once", "--json"], source)
    assert code == 0, err
    assert json.loads(out)["gpus"][0]["processes"][0]["sm_pct"] == 98.0
    # The same driver asked from 0 answers the buffer's average: the figure the old read showed.
    fake.nvmlInit()
    handle = fake.nvmlDeviceGetHandleByIndex(0)
    buffer_average = max(fake.nvmlDeviceGetProcessUtilization(handle, 0), key=lambda s: s.timeStamp).smUtil
    assert buffer_average < 30


def test_reading_faster_than_the_driver_samples_keeps_the_share(tmp_path):
    """Two reads within one driver sample period: the second still has a sample in its window
    (carrying the newest timestamp forward, as nvtop does, would read the busy process as idle)."""
    now = 1_790_000_000.0
    fake = FakeNvml(1)
    fake.wall_time = lambda: now
    fake.gpus[0].process_util = {4242: (75, 20, 0, 0)}
    source = NvmlSource(fake, sysfs_root=tmp_path, wall_clock=fake.wall_time)
    for _ in range(2):
        code, out, err = run(["--once", "--json"], source)
        assert code == 0, err
        assert json.loads(out)["gpus"][0]["processes"][0]["sm_pct"] == 75.0


def test_windows_counters_fill_what_wddm_leaves_out(tmp_path):
    """Under WDDM NVML lists the process without memory or samples; the GPU counters have them."""
    from services.telemetry.processes import Adapter, AdapterProcess
    from tests.fakes.fake_nvml import FakeProcess

    luid = "0x00000000_0x000095CA"

    class Counters:
        closed = False

        def collect(self):
            return {(4242, luid): AdapterProcess(4242, luid, dedicated_mib=7852.0, shared_mib=2560.0, busy_pct=14.0,
                                                engine_type="Compute_0")}

        def close(self):
            Counters.closed = True

    fake = FakeNvml(1)
    fake.gpus[0].compute = [FakeProcess(4242, None)]  # WDDM: "not available"
    fake.gpus[0].unsupported.add("nvmlDeviceGetProcessUtilization")
    adapters = lambda gpus: [Adapter(luid, "NVIDIA GeForce RTX 4090", False, nvml_uuid=gpus[0].uuid)]
    code, out, err = run(["--once", "--json"], NvmlSource(fake, sysfs_root=tmp_path),
                         process_sources={"counters": Counters(), "adapters": adapters})
    assert code == 0, err
    proc = json.loads(out)["gpus"][0]["processes"][0]
    assert (proc["used_mib"], proc["shared_mib"], proc["sm_pct"]) == (7852.0, 2560.0, 14.0)
    assert Counters.closed
    code, out, _ = run(["--once"], NvmlSource(fake, sysfs_root=tmp_path),
                       process_sources={"counters": Counters(), "adapters": adapters})
    assert "7852 MiB (+2560 MiB shared)" in out


def test_process_utilization_unsupported_is_none_not_zero(tmp_path):
    fake = FakeNvml(1)
    fake.gpus[0].unsupported.add("nvmlDeviceGetProcessUtilization")  # WDDM, older GPUs
    code, out, _ = run(["--once", "--json"], NvmlSource(fake, sysfs_root=tmp_path))
    proc = json.loads(out)["gpus"][0]["processes"][0]
    assert proc["sm_pct"] is None and proc["used_mib"] == 17000.0


def test_table_in_chinese_keeps_columns_aligned():
    catalog = Catalog({("MonitorTable", "Name"): "名称", ("MonitorTable", "State"): "状态",
                       ("DeviceState", "OK"): "正常"})
    info = GpuInfo(index=0, name="NVIDIA GeForce RTX 4090", uuid="GPU-1")
    snap = Snapshot(t=0, status=SourceStatus(DeviceState.OK), gpus=(info,),
                    samples=(GpuSample(t=0, index=0, uuid="GPU-1", temperature_c=50.0),))
    lines = render_table(snap, catalog).splitlines()
    assert "名称" in lines[0] and "正常" in lines[1]
    # "状态" is 4 columns wide on a terminal; the row below lines up under it.
    from services.textwidth import display_width as _width

    head, row = lines[0], lines[1]
    assert _width(head[: head.index("状态")]) == _width(row[: row.index("正常")])


def test_state_detail_is_shown_for_a_lost_gpu(tmp_path):
    fake = FakeNvml(2)
    source = NvmlSource(fake, sysfs_root=tmp_path)
    source.open()
    fake.gpus[1].lost = True
    code, out, _ = run(["--once", "--json"], source)
    doc = json.loads(out)
    assert [g["state"] for g in doc["gpus"]] == ["ok", "lost"]
    assert doc["gpus"][1]["temperature_c"] is None


# ---- exit code 3


@pytest.mark.parametrize("code, state", [(NVML_ERROR_LIBRARY_NOT_FOUND, "no_driver"),
                                         (NVML_ERROR_DRIVER_NOT_LOADED, "driver_not_loaded")])
def test_no_driver_exits_3_with_one_line(tmp_path, code, state):
    rc, out, err = run(["--once"], NvmlSource(FakeNvml(1, init_error=code), sysfs_root=tmp_path))
    assert rc == 3
    assert err.count("\n") == 1 and err.startswith("error: ") and f"[{state}]" in err
    rc, out, err = run(["--once", "--json"], NvmlSource(FakeNvml(1, init_error=code), sysfs_root=tmp_path))
    assert rc == 3 and json.loads(out)["status"]["state"] == state


def test_no_driver_line_is_in_the_users_language_and_json_stays_english(tmp_path, monkeypatch):
    monkeypatch.setattr(monitor, "cli_catalog", lambda: Catalog.load("zh_CN"))
    fake = lambda: NvmlSource(FakeNvml(1, init_error=NVML_ERROR_LIBRARY_NOT_FOUND), sysfs_root=tmp_path)
    rc, _, err = run(["--once"], fake())
    assert rc == 3 and err == "错误：未找到 NVIDIA 驱动（缺少 NVML 库）：请安装 NVIDIA 驱动 [no_driver]\n"
    rc, out, err = run(["--once", "--json"], fake())
    assert json.loads(out)["status"] == {
        "state": "no_driver",
        "message": "NVIDIA driver not found (NVML library missing): install the NVIDIA driver"}
    rc, _, err = run(["--once"], NvmlSource(FakeNvml(0), sysfs_root=tmp_path))
    assert rc == 3 and "未找到 NVIDIA GPU" in err


def test_lost_gpu_detail_in_the_chinese_table(tmp_path):
    fake = FakeNvml(2)
    source = NvmlSource(fake, sysfs_root=tmp_path)
    source.open()
    fake.gpus[1].lost = True
    snap = source.read(monitor.ALL_TIERS, time.time())
    lost = snap.samples[1]
    assert lost.state_detail == "GPU has fallen off the bus (GPU is lost): retrying"
    assert "GPU 1: GPU 已从总线上掉线（GPU 丢失）：正在重试" in render_table(snap, Catalog.load("zh_CN"))


def test_no_gpu_exits_3(tmp_path):
    rc, _, err = run(["--once"], NvmlSource(FakeNvml(0), sysfs_root=tmp_path))
    assert rc == 3 and "no NVIDIA GPU" in err


def test_real_command_never_shows_a_traceback(capsys):
    # This machine's own NVML (or none): whatever it finds is a JSON document or one line, never an exception.
    code = main(["monitor", "--once", "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code in (0, 3)
    if code == 3:  # this machine has no NVIDIA driver
        assert len(err.strip().splitlines()) == 1
    json.loads(out)


# ---- bad usage


@pytest.mark.parametrize("argv, words", [
    (["--interval", "0"], "--interval"),
    (["--interval", "nan"], "--interval"),
    (["--duration", "-1"], "--duration"),
    (["--once", "--duration", "5"], "--once"),
])
def test_bad_usage(argv, words, tmp_path):
    with pytest.raises(UsageError, match=words):
        run(argv, NvmlSource(FakeNvml(1), sysfs_root=tmp_path))


def test_bad_usage_exits_2_through_main(capsys):
    code = main(["monitor", "--interval", "-3"])
    assert code == 2 and capsys.readouterr().err.startswith("error: --interval")


def test_csv_into_a_missing_folder_is_bad_usage(tmp_path):
    with pytest.raises(UsageError, match="does not exist"):
        run(["--csv", str(tmp_path / "nope" / "log.csv")], NvmlSource(FakeNvml(1), sysfs_root=tmp_path))


def test_csv_never_overwrites_someone_elses_file(tmp_path):
    target = tmp_path / "notes.csv"
    target.write_text("name,score\nada,10\n")
    with pytest.raises(UsageError, match="already exists"):
        run(["--csv", str(target), "--duration", "1"], NvmlSource(FakeNvml(1), sysfs_root=tmp_path))
    assert target.read_text() == "name,score\nada,10\n"


def test_demo_source_missing_is_said_plainly(monkeypatch):
    # A build without the simulated source: the import fails (None in sys.modules).
    monkeypatch.setitem(sys.modules, "services.telemetry.simulated", None)
    err = io.StringIO()
    code = monitor.run(args_for("--once", "--source", "demo"), err=err)
    assert code == 1 and "simulated" in err.getvalue()


# ---- CSV log


def test_csv_log_paced_by_the_schedule(tmp_path):
    clock = ScheduleClock()
    source = SlowSource(FakeNvml(2), clock, cost=0.3, sysfs_root=tmp_path)
    target = tmp_path / "run.csv"
    code, out, _ = run(["--interval", "1", "--csv", str(target), "--duration", "4"], source,
                       sleep=clock.sleep, clock=clock)
    assert code == 0 and out == ""
    # Reads start exactly on the 1 s grid despite each taking 0.3 s.
    assert [t - 500.0 for t in source.read_times] == pytest.approx([0, 1, 2, 3])
    assert clock.sleeps == pytest.approx([0.7, 0.7, 0.7])
    lines = target.read_text().splitlines()
    assert lines[0] == csv_header()
    assert len(lines) == 1 + 4 * 2
    header = [h.strip() for h in lines[0].split(",")]
    row = dict(zip(header, (c.strip() for c in lines[1].split(",")), strict=True))
    assert row["utilization.gpu [%]"] == "87"
    assert row["memory.used [MiB]"] == "18000"
    assert row["power.draw [W]"] == "312.45"
    assert row["pstate"] == "P2"
    assert row["clocks_event_reasons.active"] == "0x0000000000000004"
    assert row["temperature.memory"] == "[N/A]"
    assert row["uuid"].startswith("GPU-")


def test_falling_behind_skips_ticks_instead_of_bursting(tmp_path):
    clock = ScheduleClock()
    source = SlowSource(FakeNvml(1), clock, cost=2.5, sysfs_root=tmp_path)
    run(["--interval", "1", "--csv", str(tmp_path / "x.csv"), "--duration", "9"], source,
        sleep=clock.sleep, clock=clock)
    starts = [t - 500.0 for t in source.read_times]
    assert starts == pytest.approx([0, 3, 6])  # on the grid, never back-to-back


def test_slow_tier_every_five_seconds_at_one_hertz(tmp_path):
    clock = ScheduleClock()
    fake = FakeNvml(1)
    source = SlowSource(fake, clock, cost=0.0, sysfs_root=tmp_path)
    run(["--csv", str(tmp_path / "x.csv"), "--duration", "10"], source, sleep=clock.sleep, clock=clock)
    assert fake.calls["nvmlDeviceGetUtilizationRates"] == 10
    assert fake.calls["nvmlDeviceGetFanSpeed"] == 2


def test_csv_rows_between_slow_readings_keep_fan_pstate_pcie(tmp_path):
    # The simulated source (like any source) leaves the slow fields empty on a FAST-only read.
    clock = ScheduleClock()
    target = tmp_path / "run.csv"
    run(["--source", "demo", "--csv", str(target), "--duration", "3"], SimulatedSource(seed=0, gpus=2),
        sleep=clock.sleep, clock=clock, wall_clock=lambda: 1_700_000_000.0 + clock.t)
    header, *rows = [line.split(", ") for line in target.read_text().splitlines()]
    col = {name: i for i, name in enumerate(header)}
    fan = next(i for name, i in col.items() if name.startswith("fan.speed"))
    width = next(i for name, i in col.items() if name.startswith("pcie.link.width.current"))
    assert len(rows) == 6  # 3 ticks x 2 GPUs; only the first tick read the slow tier
    for row in rows[2:]:  # row 2 onwards: FAST-only ticks
        assert "N/A" not in row[fan] and "N/A" not in row[col["pstate"]] and "N/A" not in row[width], row
    assert [r[fan] for r in rows[0::2]] == [rows[0][fan]] * 3


def test_json_lines_carry_slow_fields_between_slow_readings(tmp_path):
    clock = ScheduleClock()
    code, out, _ = run(["--source", "demo", "--json", "--duration", "3"], SimulatedSource(seed=0, gpus=1),
                       sleep=clock.sleep, clock=clock, wall_clock=lambda: 1_700_000_000.0 + clock.t)
    assert code == 0
    gpus = [json.loads(line)["gpus"][0] for line in out.splitlines()]
    assert len(gpus) == 3
    for key in ("fan_pct", "pstate", "pcie_gen", "pcie_width"):
        assert [g[key] for g in gpus] == [gpus[0][key]] * 3 and gpus[0][key] is not None, key
    assert all(g["processes"] == gpus[0]["processes"] for g in gpus)


def test_ctrl_c_ends_cleanly_with_whole_rows(tmp_path):
    clock = ScheduleClock()
    source = SlowSource(FakeNvml(2), clock, cost=0.1, sysfs_root=tmp_path)
    calls = []

    def sleep(seconds):
        calls.append(seconds)
        if len(calls) == 3:
            raise KeyboardInterrupt
        clock.sleep(seconds)

    target = tmp_path / "run.csv"
    code, _, _ = run(["--csv", str(target)], source, sleep=sleep, clock=clock)
    assert code == 0
    text = target.read_text()
    assert text.endswith("\n")
    assert len(text.splitlines()) == 1 + 3 * 2
    assert source.nvml.initialized is False  # closed


def test_appends_to_its_own_log_without_a_second_header(tmp_path):
    target = tmp_path / "run.csv"
    for _ in range(2):
        clock = ScheduleClock()
        run(["--csv", str(target), "--duration", "2"], SlowSource(FakeNvml(1), clock, 0, tmp_path),
            sleep=clock.sleep, clock=clock)
    lines = target.read_text().splitlines()
    assert lines.count(csv_header()) == 1 and len(lines) == 1 + 4


def test_json_lines_when_not_once(tmp_path):
    clock = ScheduleClock()
    code, out, _ = run(["--json", "--duration", "3"], SlowSource(FakeNvml(1), clock, 0, tmp_path),
                       sleep=clock.sleep, clock=clock)
    docs = [json.loads(line) for line in out.splitlines()]
    assert len(docs) == 3 and all(d["gpus"][0]["state"] == "ok" for d in docs)


@pytest.mark.end2end  # a signal to a real process
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_ends_a_real_logging_process_cleanly(tmp_path, sig):
    target = tmp_path / "run.csv"
    script = textwrap.dedent(f"""
        import signal, sys
        # A shell that runs the suite in the background starts its children with SIGINT ignored, and
        # Python then leaves it ignored; a user's Ctrl-C reaches a monitor started in the foreground.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.path.insert(0, {str(ROOT)!r})
        from main import build_parser
        from cli import monitor
        from services.telemetry.nvml_source import NvmlSource
        from tests.fakes.fake_nvml import FakeNvml
        args = build_parser().parse_args(["monitor", "--interval", "0.1", "--csv", {str(target)!r}])
        sys.exit(monitor.run(args, source=NvmlSource(FakeNvml(2), sysfs_root={str(tmp_path)!r})))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if target.exists() and len(target.read_text().splitlines()) >= 7:
                break
            time.sleep(0.05)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    text = target.read_text()
    assert text.endswith("\n")
    lines = text.splitlines()
    assert lines[0] == csv_header()
    assert all(len(line.split(", ")) == len(lines[0].split(", ")) for line in lines)
    assert (len(lines) - 1) % 2 == 0  # both GPUs of every tick


def test_table_uses_the_shipped_chinese_translations(tmp_path):
    fake = FakeNvml(1)
    source = NvmlSource(fake, sysfs_root=tmp_path)
    source.open()
    text = render_table(source.read(monitor.ALL_TIERS, 0.0), Catalog.load("zh_CN"))
    source.close()
    assert "名称" in text and "显存" in text and "功耗墙" in text and "计算" in text


def test_csv_log_reads_back_through_the_replay_source(tmp_path):
    replay = pytest.importorskip("services.telemetry.replay")
    clock = ScheduleClock()
    fake = FakeNvml(2)
    fake.gpus[1].unsupported.add("nvmlDeviceGetFanSpeed")
    target = tmp_path / "run.csv"
    run(["--csv", str(target), "--duration", "3"], SlowSource(fake, clock, 0, tmp_path),
        sleep=clock.sleep, clock=clock)
    source = replay.open_replay(str(target))
    snaps = source.snapshots()
    assert len(snaps) == 3
    last = snaps[-1]
    by_uuid = {s.uuid: s for s in last.samples}
    s0, s1 = by_uuid[fake.gpus[0].uuid], by_uuid[fake.gpus[1].uuid]
    assert (s0.utilization_pct, s0.memory_used_mib, s0.power_w, s0.fan_pct) == (87, 18000, 312.45, 64)
    assert s0.throttle_reasons == frozenset({"power_cap"}) and s0.pstate == 2
    assert s1.fan_pct is None  # [N/A] round-trips as "not reported", not 0
    assert {i.uuid: i.pcie_gen_max for i in source.devices()} == {g.uuid: 4 for g in fake.gpus}


def test_demo_source_once_json():
    pytest.importorskip("services.telemetry.simulated")
    out = io.StringIO()
    code = monitor.run(args_for("--once", "--json", "--source", "demo"), out=out, err=io.StringIO())
    assert code == 0
    doc = json.loads(out.getvalue())
    assert doc["source"] == "demo" and len(doc["gpus"]) >= 1
    assert REQUIRED_JSON_FIELDS <= doc["gpus"][0].keys()


def test_live_table_every_interval(tmp_path):
    clock = ScheduleClock()
    code, out, _ = run(["--duration", "2"], SlowSource(FakeNvml(1), clock, 0, tmp_path),
                       sleep=clock.sleep, clock=clock)
    assert code == 0 and out.count("NVIDIA GeForce RTX 4090") == 2


def test_csv_logging_says_where_and_how_much_on_stderr(tmp_path):
    clock = ScheduleClock()
    target = tmp_path / "run.csv"
    _, out, err = run(["--csv", str(target), "--duration", "3"], SlowSource(FakeNvml(2), clock, 0, tmp_path),
                      sleep=clock.sleep, clock=clock)
    assert out == ""
    assert "logging 2 GPU(s)" in err and "wrote 6 rows" in err


def test_once_on_a_slow_driver_gives_what_it_read_in_time_and_says_so(tmp_path, monkeypatch):
    # Issue 23: 300 ms per NVML call held `monitor --once` for 26 s. NVML's own clock steps 0.3 s a call
    # here; the budget keeps the identity and the readings taken in time and leaves the rest out.
    import types

    import services.telemetry.nvml as nvml_module

    steps = {"t": 0.0}

    def slow_clock() -> float:
        steps["t"] += 0.3
        return steps["t"]

    monkeypatch.setattr(nvml_module, "time", types.SimpleNamespace(monotonic=slow_clock))
    monkeypatch.setattr(monitor.time, "monotonic", lambda: 0.0)  # the budget starts at 0 on the same scale
    code, out, err = run(["--once", "--json"], NvmlSource(FakeNvml(2), sysfs_root=tmp_path))
    assert code == 0, err
    doc = json.loads(out)
    assert [g["name"] for g in doc["gpus"]] == ["NVIDIA GeForce RTX 4090"] * 2  # identity still read
    assert doc["gpus"][1]["temperature_c"] is None  # asked for after the budget: left out, not 0
    assert "answered slowly" in err and "5 s" in err


def test_once_on_a_normal_driver_says_nothing_about_slowness(tmp_path):
    code, out, err = run(["--once"], NvmlSource(FakeNvml(1), sysfs_root=tmp_path))
    assert code == 0 and "slowly" not in err
