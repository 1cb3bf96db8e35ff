"""The process view's service: Windows counters, NVML per-process figures, host facts, ended rows,
spill and wrong-GPU alerts, ending a process."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from services.settings import AlertSettings
from services.telemetry.alerts import AlertEngine, Rule
from services.telemetry.model import GpuInfo, GpuSample, ProcessSample, Snapshot, SourceStatus, DeviceState
from services.telemetry.nvml_source import NvmlSource
from services.telemetry.model import Tier
from services.telemetry.processes import (
    FADE_S, Adapter, GpuProcess, HostProcess, ProcessService, PsutilHost, end_process, matches, may_end,
    model_in_command_line, sort_key,
)
from services.hybrid.gpu_counters import parse_get_counter, parse_typeperf_csv, per_process
from tests.fakes.fake_nvml import FakeNvml

DATA = Path(__file__).resolve().parent.parent / "data" / "windows_counters"
NV_LUID, INTEL_LUID = "0x00000000_0x000095CA", "0x00000000_0x0000A18D"
UUID = "GPU-1070"


class ScriptedHost:
    """A HostProbe whose processes are a dict the test edits."""

    def __init__(self, procs: dict[int, HostProcess] | None = None) -> None:
        self.procs = dict(procs or {})
        self.asked: list[set[int]] = []

    def read(self, pids):
        pids = set(pids)
        self.asked.append(pids)
        return {pid: p for pid, p in self.procs.items() if pid in pids}


def host(pid: int, name: str, cmd: str | None = None, user: str = "alice") -> HostProcess:
    return HostProcess(pid=pid, name=name, command_line=cmd, user=user, started_at=1000.0, cpu_pct=12.0,
                       host_mib=2048.0)


def wddm_snapshot(t: float, pids=(7312,), total=8192.0) -> Snapshot:
    """An NVML reading on Windows WDDM: processes listed, their memory and utilisation not reported."""
    procs = tuple(ProcessSample(pid=p, name="ollama.exe", user=None, kind="compute", used_mib=None) for p in pids)
    sample = GpuSample(t=t, index=0, uuid=UUID, memory_total_mib=total, memory_used_mib=7900.0, processes=procs)
    return Snapshot(t=t, status=SourceStatus(DeviceState.OK), gpus=(GpuInfo(0, "NVIDIA GeForce GTX 1070", UUID,
                                                                              memory_total_mib=total),),
                    samples=(sample,))


ADAPTERS = [Adapter(NV_LUID, "NVIDIA GeForce GTX 1070", integrated=False, nvml_uuid=UUID, memory_total_mib=8192.0),
            Adapter(INTEL_LUID, "Intel(R) HD Graphics 630", integrated=True, memory_total_mib=128.0)]


# ---- the counters' text forms

def test_get_counter_output_of_an_intel_and_nvidia_machine_parses():
    samples = parse_get_counter((DATA / "get_counter_intel_nvidia.txt").read_text(encoding="utf-8"))
    assert len(samples) == 2  # -MaxSamples 2: one per timestamp
    first = per_process(samples[0])
    game = first[(9524, NV_LUID)]  # LUIDs come back upper-case whatever the output's case
    assert round(game.dedicated_mib, 1) == 318.3 and round(game.shared_mib, 1) == 139.5
    assert round(game.busy_pct, 1) == 61.3 and game.engine_type == "3d"  # the busiest 3D engine, not copy
    assert round(game.encoder_pct, 1) == 22.7 and game.decoder_pct is None
    assert round(first[(9524, INTEL_LUID)].shared_mib, 1) == 76.5
    video = first[(14904, INTEL_LUID)]
    assert round(video.decoder_pct, 1) == 45.1 and video.busy_pct == 0.0
    wrong = first[(6120, INTEL_LUID)]
    assert round(wrong.busy_pct, 1) == 88.6 and wrong.engine_type == "compute_0"
    second = per_process(samples[1])
    assert round(second[(6120, INTEL_LUID)].busy_pct, 1) == 91.1


def test_typeperf_csv_parses_row_by_row_and_skips_blank_cells():
    rows = parse_typeperf_csv((DATA / "typeperf_spill_gtx1070.csv").read_text(encoding="utf-8"))
    assert len(rows) == 14 and rows[0][0] == "12/04/2026 17:40:00.117"
    first = per_process(rows[0][1])
    assert first[(7312, INTEL_LUID)].shared_mib is None  # " ": the instance did not exist yet
    last = per_process(rows[-1][1])[(7312, NV_LUID)]
    assert (round(last.dedicated_mib), round(last.shared_mib), last.busy_pct) == (7852, 2560, 14.0)


def test_not_a_pdh_log_is_one_clear_error():
    with pytest.raises(ValueError, match="PDH-CSV"):
        parse_typeperf_csv("timestamp,index\n1,2\n")


# ---- the spill rule on a recorded sequence

def test_spill_fires_once_when_shared_memory_climbs_after_dedicated_is_full():
    rows = parse_typeperf_csv((DATA / "typeperf_spill_gtx1070.csv").read_text(encoding="utf-8"))
    service = ProcessService(ScriptedHost({7312: host(
        7312, "ollama.exe", r'"C:\Program Files\Ollama\ollama.exe" run qwen2.5:14b')}), adapters=ADAPTERS)
    engine = AlertEngine(AlertSettings())
    fired = []
    for i, (_stamp, sample) in enumerate(rows):
        table = service.update(wddm_snapshot(1000.0 + i), counters=per_process(sample))
        fired += [(i, a) for a in engine.evaluate_processes(table)]
    assert [(i, a.rule) for i, a in fired] == [(6, Rule.SPILL)]  # 380 - 120 = 260 MiB >= 256 after full
    alert = fired[0][1]
    text = str(alert.message)
    assert "ollama.exe (7312)" in text and "7852 of 8192 MiB" in text and "260 MiB" in text
    assert "Prefer No Sysmem Fallback" in text and "qwen2.5:14b" in text
    assert alert.model == "qwen2.5:14b" and alert.pid == 7312 and alert.to_json()["pid"] == 7312
    row = table.find((7312, UUID))
    assert (round(row.used_mib), round(row.shared_mib)) == (7852, 2560)  # WDDM: memory from the counters


def test_spill_rule_is_off_when_settings_say_so_and_rearms_after_memory_frees():
    rows = parse_typeperf_csv((DATA / "typeperf_spill_gtx1070.csv").read_text(encoding="utf-8"))
    service = ProcessService(ScriptedHost({7312: host(7312, "ollama.exe")}), adapters=ADAPTERS)
    off = AlertEngine(AlertSettings(spill=False))
    on = AlertEngine(AlertSettings())
    counts = {"off": 0, "on": 0}
    for i, (_stamp, sample) in enumerate(rows + rows):  # the sequence twice: loads, spills, frees, again
        table = service.update(wddm_snapshot(1000.0 + i), counters=per_process(sample))
        counts["off"] += len(off.evaluate_processes(table))
        counts["on"] += len(on.evaluate_processes(table))
    assert counts == {"off": 0, "on": 2}


def test_wrong_gpu_fires_for_heavy_compute_on_the_integrated_gpu():
    samples = parse_get_counter((DATA / "get_counter_intel_nvidia.txt").read_text(encoding="utf-8"))
    service = ProcessService(ScriptedHost({6120: host(6120, "python.exe", "python train.py")}), adapters=ADAPTERS)
    engine = AlertEngine(AlertSettings(wrong_gpu_for_s=10.0))
    snap = wddm_snapshot(0.0, pids=())
    first = engine.evaluate_processes(service.update(snap, counters=per_process(samples[0])))
    assert first == []  # busy, but not yet for 10 s
    table = service.update(wddm_snapshot(12.0, pids=()), counters=per_process(samples[1]))
    alerts = engine.evaluate_processes(table)
    assert [a.rule for a in alerts] == [Rule.WRONG_GPU]
    assert "python.exe (6120)" in str(alerts[0].message) and "Intel(R) HD Graphics 630" in str(alerts[0].message)
    assert "Run on the NVIDIA GPU" in str(alerts[0].message)
    row = table.find((6120, f"luid:{INTEL_LUID}"))
    assert row.integrated and row.gpu_index is None and row.engine_type == "compute_0"
    # The video player decoding on the Intel GPU is not "heavy 3D/compute".
    again = service.update(wddm_snapshot(30.0, pids=()), counters=per_process(samples[1]))
    assert engine.evaluate_processes(again) == []


# ---- NVML per-process figures through the real wrapper

def test_linux_rows_take_sm_memory_and_encoder_from_the_nvml_wrapper(tmp_path):
    fake = FakeNvml(2)
    fake.gpus[0].process_util = {4242: (63, 20, 0, 0)}
    fake.gpus[1].process_util = {4243: (7, 1, 35, 0)}
    source = NvmlSource(fake, sysfs_root=tmp_path)
    source.open()
    snapshot = source.read(Tier.FAST | Tier.SLOW | Tier.STATIC, 50.0)
    service = ProcessService(ScriptedHost({4242: host(4242, "python3", "python3 train.py --model "
                                                                        "meta-llama/Llama-3.1-8B")}))
    table = service.update(snapshot)
    by_pid = {r.pid: r for r in table.rows}
    assert (by_pid[4242].sm_pct, by_pid[4242].used_mib, by_pid[4242].gpu_label) == (63.0, 17000.0, "GPU 0")
    assert by_pid[4242].command_line.endswith("meta-llama/Llama-3.1-8B") and by_pid[4242].user == "alice"
    assert (by_pid[4243].sm_pct, by_pid[4243].encoder_pct) == (7.0, 35.0)
    assert by_pid[4243].command_line is None  # the host would not say: None, shown as "not reported"
    source.close()


# ---- ended processes, sorting, filtering

def test_an_ended_process_stays_marked_then_goes():
    probe = ScriptedHost({7312: host(7312, "ollama.exe"), 7400: host(7400, "python.exe")})
    service = ProcessService(probe)
    service.update(wddm_snapshot(100.0, pids=(7312, 7400)))
    table = service.update(wddm_snapshot(101.0, pids=(7312,)))
    gone = table.find((7400, UUID))
    assert gone is not None and gone.ended_at == 101.0 and len(table.live()) == 1
    assert service.update(wddm_snapshot(101.0 + FADE_S - 1, pids=(7312,))).find((7400, UUID)) is not None
    assert service.update(wddm_snapshot(101.0 + FADE_S, pids=(7312,))).find((7400, UUID)) is None


def test_sorting_puts_missing_values_last_and_the_filter_reads_the_command_line():
    rows = [GpuProcess(1, "g", "GPU 0", 0, False, "b", sm_pct=None),
            GpuProcess(2, "g", "GPU 0", 0, False, "A", sm_pct=50.0, command_line="python serve.py --port 1"),
            GpuProcess(3, "g", "GPU 0", 0, False, "c", sm_pct=10.0)]
    assert [r.pid for r in sorted(rows, key=sort_key("sm_pct", 0.0))] == [3, 2, 1]
    assert [r.pid for r in sorted(rows, key=sort_key("name", 0.0))] == [2, 1, 3]
    assert [r.pid for r in rows if matches(r, "serve")] == [2]
    assert [r.pid for r in rows if matches(r, "3")] == [3]


@pytest.mark.parametrize(("cmd", "model"), [
    ("python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct"),
    (r'"C:\llama\llama-server.exe" -m "D:\models\Llama 3 8B Q4_K_M.gguf" -c 8192',
     r"D:\models\Llama 3 8B Q4_K_M.gguf"),
    ("python train.py --model_name_or_path=meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.1-8B"),
    ("ollama run llama3.1:8b", "llama3.1:8b"),
    ("python -m http.server", None),
    (None, None),
])
def test_the_model_a_command_line_names(cmd, model):
    assert model_in_command_line(cmd) == model


# ---- the host, and ending a process

def test_psutil_host_reads_this_process():
    clock = iter([100.0, 101.0, 102.0])
    probe = PsutilHost(clock=lambda: next(clock))
    first = probe.read([os.getpid()])[os.getpid()]
    assert first.command_line and first.user and first.started_at and first.host_mib > 0
    assert first.cpu_pct is None  # the first reading has no CPU baseline
    second = probe.read([os.getpid()])[os.getpid()]
    assert second.cpu_pct is not None and second.cpu_pct >= 0
    assert probe.read([2**22 + 12345]) == {}  # no such process: no row, no exception


@pytest.mark.linux_only
def test_proc_stat_figures_are_psutils():
    from services.telemetry.processes import proc_stat_times

    me = psutil.Process()
    cpu_s, rss_mib = proc_stat_times(os.getpid())
    times = me.cpu_times()
    assert abs(cpu_s - (times.user + times.system)) < 0.2  # clock ticks, and the CPU used in between
    assert abs(rss_mib - me.memory_info().rss / 2**20) < 8  # the interpreter may allocate in between
    assert proc_stat_times(2**22 + 12345) is None


@pytest.mark.linux_only("keeps /proc/PID/stat files open between refreshes")
def test_a_kept_stat_file_goes_with_its_process():
    """The host keeps each process's /proc/PID/stat open between refreshes; when the process ends the
    file answers ESRCH, so the row goes and nothing is read for a new process given the same number."""
    # A child that has run (said so): right after exec a program has no page resident yet, so its
    # resident memory reads 0 until it first touches one.
    child = _child("import time; print('up', flush=True); time.sleep(60)")
    probe = PsutilHost()
    try:
        assert child.stdout.readline().strip() == b"up"
        assert probe.read([child.pid, os.getpid()])[child.pid].host_mib > 0
        kept = set(os.listdir("/proc/self/fd"))
    finally:
        child.kill()
        child.communicate()
    assert child.pid not in probe.read([child.pid, os.getpid()])
    assert len(set(os.listdir("/proc/self/fd")) - kept) == 0 and len(kept - set(os.listdir("/proc/self/fd"))) >= 1
    assert os.getpid() in probe.read([os.getpid()])
    probe.close()
    assert probe.read([]) == {}


def test_another_users_process_is_refused_with_the_reason():
    row = GpuProcess(4242, "g", "GPU 0", 0, False, "python3", user="bob", started_at=1.0)
    reason = may_end(row, user="alice", is_privileged=False)
    assert reason is not None and "belongs to bob" in str(reason) and "administrator" in str(reason)
    assert may_end(row, user="alice", is_privileged=True) is None
    assert may_end(row, user=r"bob", is_privileged=False) is None
    assert may_end(GpuProcess(1, "g", "GPU 0", 0, False, "x", user=None), user="alice",
                   is_privileged=False) is not None


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)


def _row_for(proc: subprocess.Popen) -> GpuProcess:
    p = psutil.Process(proc.pid)
    return GpuProcess(proc.pid, "g", "GPU 0", 0, False, "python", user=p.username(), started_at=p.create_time())


@pytest.mark.linux_only  # SIGTERM, then SIGKILL; Windows has TerminateProcess only (tests/windows)
def test_end_terminates_then_kills_one_that_ignores_the_request():
    polite = _child("import time; print('up', flush=True); time.sleep(60)")
    stubborn = _child("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                      "print('up', flush=True); time.sleep(60)")
    try:
        for child in (polite, stubborn):
            assert child.stdout.readline().strip() == b"up"
        result = end_process(_row_for(polite), grace_s=5.0)
        assert result.ok and "has ended" in str(result.message)
        result = end_process(_row_for(stubborn), grace_s=0.3)
        assert result.ok and "killed" in str(result.message)
        # psutil reaped them (it waits on its own children), so Popen only sees that they are gone.
        assert polite.wait(5) is not None and stubborn.wait(5) is not None
    finally:
        for child in (polite, stubborn):
            if child.poll() is None:
                child.kill()
                child.wait(5)
            child.stdout.close()


def test_end_leaves_a_reused_pid_alone():
    child = _child("import time; print('up', flush=True); time.sleep(60)")
    try:
        child.stdout.readline()
        row = _row_for(child)
        stale = GpuProcess(row.pid, "g", "GPU 0", 0, False, "python", user=row.user, started_at=row.started_at - 60)
        result = end_process(stale)
        assert not result.ok and "another program" in str(result.message)
        assert child.poll() is None
    finally:
        child.kill()
        child.wait(5)
        child.stdout.close()
