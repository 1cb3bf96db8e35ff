"""NvmlSource against the fake nvidia-ml-py: every scenario the issue lists."""
from __future__ import annotations

import os

import pytest

from services.telemetry.model import DeviceState, Tier
from services.telemetry.nvml_source import NvmlSource
from tests.fakes.fake_nvml import (
    NOT_AVAILABLE_UINT, NOT_AVAILABLE_ULONGLONG, NVML_ERROR_DRIVER_NOT_LOADED, NVML_ERROR_GPU_IS_LOST,
    NVML_ERROR_INSUFFICIENT_POWER, NVML_ERROR_LIB_RM_VERSION_MISMATCH, NVML_ERROR_LIBRARY_NOT_FOUND,
    NVML_ERROR_NO_DATA, NVML_ERROR_NO_PERMISSION, NVML_ERROR_NOT_SUPPORTED, NVML_ERROR_UNKNOWN,
    OLD_DRIVER_MISSING, FakeNvml, FakeProcess, make_gpu,
)

ALL = Tier.FAST | Tier.SLOW | Tier.STATIC
MIB = 2**20


class ManualClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def make_source(tmp_path, clock):
    sources = []

    def make(fake: FakeNvml, **kwargs) -> NvmlSource:
        kwargs.setdefault("sysfs_root", tmp_path)
        kwargs.setdefault("runtime_pm", True)
        source = NvmlSource(fake, clock=clock, **kwargs)
        sources.append(source)
        return source

    yield make
    for source in sources:
        source.close()


def read(source: NvmlSource, tiers: Tier = ALL, t: float = 1_700_000_000.0):
    return source.read(tiers, t)


# ---- normal operation


def test_two_gpus_every_field_in_app_units(make_source):
    fake = FakeNvml(2)
    fake.gpus[0].graphics = [FakeProcess(4242, 100 * MIB)]  # same pid in both lists
    source = make_source(fake)
    status = source.open()
    assert status.state is DeviceState.OK and status.message is None

    infos = source.devices()
    assert [i.index for i in infos] == [0, 1]
    info = infos[0]
    assert info.name == "NVIDIA GeForce RTX 4090"
    assert info.uuid == fake.gpus[0].uuid
    assert info.pci_bus_id == "00000000:01:00.0"
    assert info.pci_device_id == 0x268410DE
    assert info.driver_version == "560.35.03"
    assert info.cuda_driver_version == "12.6"
    assert info.memory_total_mib == 24564
    assert info.temp_slowdown_c == 87 and info.temp_shutdown_c == 92
    assert info.sm_clock_max_mhz == 3105 and info.mem_clock_max_mhz == 10501
    assert info.pcie_gen_max == 4 and info.pcie_width_max == 16
    assert info.power_limit_default_w == 450
    assert info.ecc_supported is False  # GeForce: NOT_SUPPORTED

    snap = read(source)
    assert snap.status.state is DeviceState.OK
    s = snap.samples[0]
    assert s.state is DeviceState.OK and s.uuid == fake.gpus[0].uuid
    assert (s.utilization_pct, s.memory_utilization_pct) == (87, 41)
    assert s.memory_used_mib == 18000 and s.memory_total_mib == 24564
    assert s.temperature_c == 71 and s.memory_temperature_c is None
    assert s.power_w == pytest.approx(312.45) and s.power_limit_w == 450
    assert s.energy_j == pytest.approx(987654.321)
    assert (s.sm_clock_mhz, s.mem_clock_mhz, s.fan_pct, s.pstate) == (2520, 10501, 64, 2)
    assert (s.pcie_gen, s.pcie_width) == (4, 16)
    assert (s.encoder_pct, s.decoder_pct) == (0, 3)
    assert s.throttle_reasons == frozenset({"power_cap"})
    assert s.ecc_corrected is None and s.ecc_uncorrected is None
    assert [(p.pid, p.kind, p.used_mib) for p in s.processes] == [(4242, "compute+graphics", 17000)]
    assert snap.samples[1].processes[0].pid == 4243
    assert snap.system is not None and snap.system.ram_total_mib > 0


def test_memory_temperature_and_ecc_where_the_gpu_reports_them(make_source):
    fake = FakeNvml([make_gpu(0, mem_temperature=84, ecc_mode=1, ecc_corrected=3, ecc_uncorrected=1)])
    source = make_source(fake)
    source.open()
    s = read(source).samples[0]
    assert s.memory_temperature_c == 84
    assert (s.ecc_corrected, s.ecc_uncorrected) == (3, 1)
    assert source.devices()[0].ecc_supported is True


def test_ecc_disabled_is_not_polled(make_source):
    fake = FakeNvml([make_gpu(0, ecc_mode=0)])
    source = make_source(fake)
    source.open()
    for _ in range(3):
        s = read(source).samples[0]
    assert s.ecc_corrected is None
    assert fake.calls["nvmlDeviceGetTotalEccErrors"] == 0


def test_throttle_reasons_are_anded_with_the_supported_mask(make_source):
    # 0x20 (sw thermal) is set but this GPU does not claim to support it.
    fake = FakeNvml([make_gpu(0, throttle_mask=0x4 | 0x20, supported_throttle_mask=0x1 | 0x4)])
    source = make_source(fake)
    source.open()
    assert read(source).samples[0].throttle_reasons == frozenset({"power_cap"})


def test_tiers_read_only_what_is_asked_and_leave_the_other_tier_empty(make_source):
    fake = FakeNvml(1)
    source = make_source(fake)
    source.open()
    read(source, ALL)
    fan_calls = fake.calls["nvmlDeviceGetFanSpeed"]
    proc_calls = fake.calls["nvmlDeviceGetComputeRunningProcesses_v3"]
    util_calls = fake.calls["nvmlDeviceGetUtilizationRates"]
    fake.gpus[0].fan = 90
    s = read(source, Tier.FAST).samples[0]
    assert fake.calls["nvmlDeviceGetFanSpeed"] == fan_calls
    assert fake.calls["nvmlDeviceGetComputeRunningProcesses_v3"] == proc_calls
    assert fake.calls["nvmlDeviceGetUtilizationRates"] == util_calls + 1
    # Not read on this tick: None here; carry.SlowFieldCarry (hub, monitor) fills it, once, for every source.
    assert s.fan_pct is None and s.processes is None
    assert s.pstate is not None  # P-state is a FAST field
    assert read(source, Tier.SLOW).samples[0].fan_pct == 90


def test_no_gpu_found_is_ok_but_says_so(make_source):
    source = make_source(FakeNvml(0))
    status = source.open()
    assert status.state is DeviceState.OK
    assert "no NVIDIA GPU" in status.message
    assert source.devices() == ()
    assert read(source).samples == ()


# ---- NOT_SUPPORTED, sentinels, transient errors


def test_not_supported_field_is_none_and_never_polled_again(make_source):
    fake = FakeNvml(2)
    fake.gpus[0].unsupported.update({"nvmlDeviceGetFanSpeed", "nvmlDeviceGetPowerUsage"})
    source = make_source(fake)
    source.open()
    for _ in range(4):
        snap = read(source)
    s0, s1 = snap.samples
    assert s0.fan_pct is None and s0.power_w is None
    assert s0.state is DeviceState.OK  # the rest of the GPU still works
    assert s1.fan_pct == 64 and s1.power_w == pytest.approx(312.45)
    # GPU 0 was asked once; GPU 1 every time.
    assert fake.calls["nvmlDeviceGetFanSpeed"] == 1 + 4
    assert fake.calls["nvmlDeviceGetPowerUsage"] == 1 + 4
    assert {"fan", "power"} <= set(source.unsupported_metrics(fake.gpus[0].uuid))
    assert "fan" not in source.unsupported_metrics(fake.gpus[1].uuid)


def test_not_available_sentinels_become_none_never_zero(make_source):
    fake = FakeNvml([make_gpu(0, fan=NOT_AVAILABLE_UINT, power_mw=NOT_AVAILABLE_UINT,
                              pcie_gen_max=NOT_AVAILABLE_UINT, sm_clock_max=NOT_AVAILABLE_UINT,
                              energy_mj=NOT_AVAILABLE_ULONGLONG, pstate=32,
                              compute=[FakeProcess(4242, None)])])
    source = make_source(fake)
    source.open()
    s = read(source).samples[0]
    assert s.fan_pct is None
    assert s.power_w is None
    assert s.energy_j is None
    assert s.pstate is None  # NVML_PSTATE_UNKNOWN
    assert s.processes[0].used_mib is None  # WDDM-style "not available"
    info = source.devices()[0]
    assert info.pcie_gen_max is None and info.sm_clock_max_mhz is None


def test_transient_no_data_keeps_polling(make_source):
    fake = FakeNvml(1)
    fake.gpus[0].errors["nvmlDeviceGetPowerUsage"] = NVML_ERROR_NO_DATA
    source = make_source(fake)
    source.open()
    assert read(source).samples[0].power_w is None
    del fake.gpus[0].errors["nvmlDeviceGetPowerUsage"]
    assert read(source).samples[0].power_w == pytest.approx(312.45)


def test_a_metric_that_worked_is_not_dropped_for_one_odd_answer(make_source):
    fake = FakeNvml(1)
    source = make_source(fake)
    source.open()
    read(source)
    fake.gpus[0].unsupported.add("nvmlDeviceGetFanSpeed")
    assert read(source).samples[0].fan_pct is None
    fake.gpus[0].unsupported.clear()
    assert read(source).samples[0].fan_pct == 64


# ---- old drivers and old bindings


def test_old_driver_without_newer_entry_points_uses_the_older_ones(make_source):
    fake = FakeNvml(2, missing=OLD_DRIVER_MISSING)
    fake.gpus[0].graphics = [FakeProcess(777, 50 * MIB)]
    source = make_source(fake)
    assert source.open().state is DeviceState.OK
    for _ in range(3):
        snap = read(source)
    s = snap.samples[0]
    assert s.temperature_c == 71  # nvmlDeviceGetTemperature
    assert s.memory_used_mib == 18000 + 318  # v1 memory info counts the reserved part as used
    assert s.throttle_reasons == frozenset({"power_cap"})  # ...ClocksThrottleReasons
    assert s.pstate == 2  # nvmlDeviceGetPowerState
    assert {(p.pid, p.kind, p.used_mib) for p in s.processes} == {(4242, "compute", 17000), (777, "graphics", 50)}
    assert source.devices()[0].cuda_driver_version == "12.6"
    # Each missing newer entry point was tried once per GPU, not once per tick.
    assert fake.calls["nvmlDeviceGetTemperatureV"] == 2
    assert fake.calls["nvmlDeviceGetCurrentClocksEventReasons"] == 2
    assert fake.calls["nvmlDeviceGetComputeRunningProcesses_v3"] == 2
    assert fake.calls["nvmlDeviceGetComputeRunningProcesses_v2"] == 2
    assert fake.calls["nvmlDeviceGetComputeRunningProcesses"] == 3 * 2  # the v1 symbol, every slow tick


def test_old_driver_v1_process_list_maps_the_sentinel_to_none(make_source):
    fake = FakeNvml([make_gpu(0, compute=[FakeProcess(11, None), FakeProcess(12, 2048 * MIB)])],
                    missing=OLD_DRIVER_MISSING)
    source = make_source(fake)
    source.open()
    procs = read(source).samples[0].processes
    assert [(p.pid, p.used_mib) for p in procs] == [(11, None), (12, 2048)]


def test_old_binding_without_the_python_wrappers_falls_back(make_source):
    fake = FakeNvml(1, absent={"nvmlDeviceGetTemperatureV", "nvmlDeviceGetCurrentClocksEventReasons",
                               "nvmlDeviceGetComputeRunningProcesses_v3"})
    source = make_source(fake)
    source.open()
    s = read(source).samples[0]
    assert s.temperature_c == 71
    assert s.throttle_reasons == frozenset({"power_cap"})
    assert s.processes[0].pid == 4242


# ---- whole-library states


@pytest.mark.parametrize("code, state, words", [
    (NVML_ERROR_LIBRARY_NOT_FOUND, DeviceState.NO_DRIVER, "driver not found"),
    (NVML_ERROR_DRIVER_NOT_LOADED, DeviceState.DRIVER_NOT_LOADED, "not loaded"),
    (NVML_ERROR_LIB_RM_VERSION_MISMATCH, DeviceState.VERSION_MISMATCH, "reboot"),
    (NVML_ERROR_NO_PERMISSION, DeviceState.NO_PERMISSION, "permission"),
    (NVML_ERROR_UNKNOWN, DeviceState.ERROR, "999"),
])
def test_init_failures_become_states_not_exceptions(make_source, code, state, words):
    source = make_source(FakeNvml(2, init_error=code))
    status = source.open()
    assert status.state is state
    assert words in status.message
    assert "\n" not in status.message
    assert source.devices() == ()
    snap = read(source)
    assert snap.status.state is state and snap.samples == ()


def test_driver_loaded_later_is_picked_up_after_backoff(make_source, clock):
    fake = FakeNvml(1, init_error=NVML_ERROR_DRIVER_NOT_LOADED)
    source = make_source(fake)
    source.open()
    fake.init_error = None
    assert read(source).status.state is DeviceState.DRIVER_NOT_LOADED  # still backing off
    clock.advance(2.5)
    snap = read(source)
    assert snap.status.state is DeviceState.OK
    assert snap.samples[0].utilization_pct == 87


def test_missing_nvidia_ml_py_is_no_driver(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "pynvml", None)  # import pynvml -> ImportError
    source = NvmlSource(sysfs_root=tmp_path)
    status = source.open()
    assert status.state is DeviceState.NO_DRIVER
    assert "nvidia-ml-py" in status.message
    source.close()


def test_a_shadowing_pynvml_package_is_reported(tmp_path):
    class NotTheOfficialBinding:
        NVMLError = Exception

    source = NvmlSource(NotTheOfficialBinding(), sysfs_root=tmp_path)
    status = source.open()
    assert status.state is DeviceState.ERROR
    assert "nvidia-ml-py" in status.message


# ---- one GPU failing, and recovering


def test_gpu_lost_mid_run_and_back_keeps_the_other_gpu_working(make_source, clock):
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    read(source)
    fake.gpus[1].lost = True
    snap = read(source)
    assert snap.samples[0].state is DeviceState.OK
    lost = snap.samples[1]
    assert lost.state is DeviceState.LOST and lost.uuid == fake.gpus[1].uuid
    assert lost.utilization_pct is None and "lost" in lost.state_detail
    inits = fake.calls["nvmlInitWithFlags"]
    # While backing off, the lost GPU is not asked again.
    util_calls = fake.calls["nvmlDeviceGetUtilizationRates"]
    assert read(source).samples[1].state is DeviceState.LOST
    assert fake.calls["nvmlDeviceGetUtilizationRates"] == util_calls + 1
    fake.gpus[1].lost = False
    clock.advance(2.5)
    snap = read(source)
    assert fake.calls["nvmlInitWithFlags"] == inits + 1  # recovered through a full re-init
    assert [s.state for s in snap.samples] == [DeviceState.OK, DeviceState.OK]
    assert snap.samples[1].utilization_pct == 87


def test_retry_backoff_grows_while_the_gpu_stays_lost(make_source, clock):
    fake = FakeNvml(1)
    source = make_source(fake)
    source.open()
    fake.gpus[0].lost = True
    read(source)
    inits = [fake.calls["nvmlInitWithFlags"]]
    for _ in range(32):
        clock.advance(1.0)
        read(source)
        inits.append(fake.calls["nvmlInitWithFlags"])
    retry_times = [i for i in range(1, len(inits)) if inits[i] > inits[i - 1]]
    gaps = [b - a for a, b in zip(retry_times, retry_times[1:], strict=False)]
    assert retry_times == [2, 6, 14, 30]  # 2 s, then doubling
    assert gaps == [4, 8, 16]


def test_unknown_error_after_resume_recovers_with_reinit_and_new_indexes(make_source, clock):
    fake = FakeNvml(2)
    uuids = [g.uuid for g in fake.gpus]
    source = make_source(fake)
    source.open()
    read(source)
    fake.fail_until_reinit = True  # what NVML does after a suspend/resume
    snap = read(source)
    assert [s.state for s in snap.samples] == [DeviceState.ERROR, DeviceState.ERROR]
    fake.gpus.reverse()  # after the resume the driver enumerates them the other way round
    clock.advance(2.5)
    snap = read(source)
    assert [s.state for s in snap.samples] == [DeviceState.OK, DeviceState.OK]
    by_uuid = {s.uuid: s.index for s in snap.samples}
    assert by_uuid == {uuids[0]: 1, uuids[1]: 0}
    assert {i.uuid: i.index for i in source.devices()} == by_uuid
    # Unsupported-metric knowledge survives the re-init (keyed by UUID).
    assert "memory_temperature" in source.unsupported_metrics(uuids[0])


def test_gpu_missing_after_reinit_stays_lost_with_its_identity(make_source, clock):
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    gone = fake.gpus[1]
    fake.gpus[1].lost = True
    read(source)
    fake.gpus.remove(gone)  # fell off the bus for good
    clock.advance(2.5)
    snap = read(source)
    states = {s.uuid: s.state for s in snap.samples}
    assert states[fake.gpus[0].uuid] is DeviceState.OK
    assert states[gone.uuid] is DeviceState.LOST


def test_device_level_error_on_one_field_marks_only_that_gpu(make_source):
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    fake.gpus[0].errors["nvmlDeviceGetPowerUsage"] = NVML_ERROR_INSUFFICIENT_POWER
    snap = read(source)
    assert snap.samples[0].state is DeviceState.ERROR
    assert "power cables" in snap.samples[0].state_detail
    assert snap.samples[1].state is DeviceState.OK


def test_handle_failure_at_open_gives_a_placeholder_not_a_crash(make_source, clock):
    fake = FakeNvml(2)
    fake.gpus[0].lost = True
    source = make_source(fake)
    assert source.open().state is DeviceState.OK
    snap = read(source)
    assert snap.samples[0].state is DeviceState.LOST
    assert snap.samples[1].state is DeviceState.OK
    fake.gpus[0].lost = False
    clock.advance(2.5)
    snap = read(source)
    assert [s.state for s in snap.samples] == [DeviceState.OK, DeviceState.OK]
    assert snap.samples[0].uuid == fake.gpus[0].uuid


def test_driver_unloaded_mid_run_keeps_gpu_identities(make_source, clock):
    fake = FakeNvml(1)
    source = make_source(fake)
    source.open()
    read(source)
    fake.fail_until_reinit = True
    fake.init_error = NVML_ERROR_DRIVER_NOT_LOADED
    read(source)
    clock.advance(2.5)
    snap = read(source)
    assert snap.status.state is DeviceState.DRIVER_NOT_LOADED
    assert [s.uuid for s in snap.samples] == [fake.gpus[0].uuid]
    assert snap.samples[0].state is DeviceState.DRIVER_NOT_LOADED
    fake.init_error = None
    clock.advance(5)
    snap = read(source)
    assert snap.status.state is DeviceState.OK
    assert snap.samples[0].state is DeviceState.OK


# ---- runtime-suspended laptop GPUs


def _runtime_status(root, bus_id: str, value: str) -> None:
    folder = root / "sys" / "bus" / "pci" / "devices" / bus_id / "power"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "runtime_status").write_text(value + "\n")


def test_suspended_gpu_is_sleeping_and_not_touched(make_source, tmp_path):
    fake = FakeNvml(2)
    _runtime_status(tmp_path, "0000:01:00.0", "suspended")
    _runtime_status(tmp_path, "0000:02:00.0", "active")
    source = make_source(fake)
    source.open()
    before = sum(fake.calls.values())
    snap = read(source)
    assert snap.samples[0].state is DeviceState.SLEEPING
    assert snap.samples[0].utilization_pct is None
    assert snap.samples[1].state is DeviceState.OK
    # Only GPU 1 was asked anything: one call per metric, not two.
    assert fake.calls["nvmlDeviceGetUtilizationRates"] == 1
    assert sum(fake.calls.values()) - before < 40
    # It wakes up: readings resume.
    _runtime_status(tmp_path, "0000:01:00.0", "active")
    snap = read(source)
    assert snap.samples[0].state is DeviceState.OK
    assert snap.samples[0].utilization_pct == 87
    assert source.devices()[0].temp_slowdown_c == 87  # static facts read once awake


def test_sleeping_at_open_defers_static_facts(make_source, tmp_path):
    fake = FakeNvml(1)
    _runtime_status(tmp_path, "0000:01:00.0", "suspended")
    source = make_source(fake)
    source.open()
    assert fake.calls["nvmlDeviceGetTemperatureThreshold"] == 0
    assert source.devices()[0].name == "NVIDIA GeForce RTX 4090"


def test_runtime_pm_check_can_be_off(make_source, tmp_path):
    _runtime_status(tmp_path, "0000:01:00.0", "suspended")
    source = make_source(FakeNvml(1), runtime_pm=False)
    source.open()
    assert read(source).samples[0].state is DeviceState.OK


# ---- processes


@pytest.mark.wine_limit("psutil reads no process name or exe there: its NtQuerySystemInformation call fails with WinError 87 under Wine 8")
def test_process_names_users_and_cpu_from_psutil(make_source):
    pid = os.getpid()
    fake = FakeNvml([make_gpu(0, compute=[FakeProcess(pid, 512 * MIB)])])
    source = make_source(fake)
    source.open()
    first = read(source).samples[0].processes[0]
    assert first.name and first.name != "?"
    assert first.user
    assert first.cpu_pct is None  # no baseline yet
    sum(i * i for i in range(200_000))  # burn a little CPU between the readings
    second = read(source, Tier.SLOW).samples[0].processes[0]
    assert second.cpu_pct is not None and second.cpu_pct >= 0


def test_process_not_visible_here_falls_back_to_nvml_name(make_source):
    ghost = 2**22 + 12345  # above the usual pid_max, so no such process here
    fake = FakeNvml([make_gpu(0, compute=[FakeProcess(ghost, 1024 * MIB)])],
                    process_names={ghost: "/usr/bin/python3.11"})
    source = make_source(fake)
    source.open()
    proc = read(source).samples[0].processes[0]
    assert (proc.pid, proc.name, proc.user, proc.cpu_pct) == (ghost, "python3.11", None, None)


def test_process_list_not_supported_is_none_not_empty(make_source):
    fake = FakeNvml(1)
    fake.gpus[0].unsupported.update({"nvmlDeviceGetComputeRunningProcesses_v3",
                                     "nvmlDeviceGetComputeRunningProcesses_v2",
                                     "nvmlDeviceGetGraphicsRunningProcesses_v3",
                                     "nvmlDeviceGetGraphicsRunningProcesses_v2"})
    fake.missing.update({"nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"})
    source = make_source(fake)
    source.open()
    assert read(source).samples[0].processes is None


def test_read_never_raises_even_if_the_binding_misbehaves(make_source):
    fake = FakeNvml(1)
    source = make_source(fake)
    source.open()

    def broken(handle):
        raise RuntimeError("binding bug")

    fake.nvmlDeviceGetUtilizationRates = broken
    snap = read(source)
    assert snap.status.state is DeviceState.ERROR
    assert "binding bug" in snap.status.message


def test_not_supported_code_matches_the_binding():
    assert NVML_ERROR_NOT_SUPPORTED == 3 and NVML_ERROR_GPU_IS_LOST == 15


def test_an_unknown_error_on_one_metric_is_only_that_metric(make_source, clock):
    # Issue 16: an unknown error on one reading used to put the GPU in "error" and re-init NVML.
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    fake.gpus[0].errors["nvmlDeviceGetUtilizationRates"] = NVML_ERROR_UNKNOWN
    inits = fake.calls["nvmlInitWithFlags"]
    for _ in range(5):
        clock.advance(1.0)
        snap = read(source)
        assert snap.samples[0].state is DeviceState.OK and snap.samples[0].utilization_pct is None
        assert snap.samples[0].temperature_c is not None
    assert fake.calls["nvmlInitWithFlags"] == inits


# An error about the whole GPU (insufficient power) on the first metric read still backs off.
@pytest.mark.parametrize("code, retry_call", [(NVML_ERROR_INSUFFICIENT_POWER, "nvmlDeviceGetHandleByUUID")])
def test_backoff_grows_when_the_gpu_fails_again_right_after_recovery(make_source, clock, code, retry_call):
    # Enumeration works, but every reading fails: the retry must not hammer at 2 s forever.
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    fake.gpus[0].errors["nvmlDeviceGetUtilizationRates"] = code
    read(source)
    counts = [fake.calls[retry_call]]
    for _ in range(32):
        clock.advance(1.0)
        snap = read(source)
        counts.append(fake.calls[retry_call])
        assert snap.samples[1].state is DeviceState.OK or snap.samples[1].uuid != fake.gpus[1].uuid
    retry_times = [i for i in range(1, len(counts)) if counts[i] > counts[i - 1]]
    assert retry_times == [2, 6, 14, 30]
    del fake.gpus[0].errors["nvmlDeviceGetUtilizationRates"]
    clock.advance(40)
    assert read(source).samples[0].state is DeviceState.OK


def test_garbled_v3_process_list_falls_back_to_v2_for_good(make_source):
    # An R535-style struct mismatch: the second entry is shifted into nonsense.
    fake = FakeNvml([make_gpu(0, compute=[FakeProcess(4242, 100 * MIB), FakeProcess(7, 200 * MIB)])])
    good_v2 = fake.nvmlDeviceGetComputeRunningProcesses_v2

    def garbled_v3(handle):
        procs = good_v2(handle)
        fake.calls["nvmlDeviceGetComputeRunningProcesses_v3"] += 1
        procs[1].pid, procs[1].usedGpuMemory = 0, 2**60
        return procs

    fake.nvmlDeviceGetComputeRunningProcesses_v3 = garbled_v3
    source = make_source(fake)
    source.open()
    for _ in range(3):
        procs = read(source).samples[0].processes
    assert [(p.pid, p.used_mib) for p in procs] == [(7, 200), (4242, 100)]
    assert fake.calls["nvmlDeviceGetComputeRunningProcesses_v3"] == 1


def _pci_device(root, bdf: str, vendor: str, pci_class: str, device: str, status: str | None) -> None:
    folder = root / "sys" / "bus" / "pci" / "devices" / bdf
    (folder / "power").mkdir(parents=True, exist_ok=True)
    (folder / "vendor").write_text(vendor + "\n")
    (folder / "class").write_text(pci_class + "\n")
    (folder / "device").write_text(device + "\n")
    if status is not None:
        (folder / "power" / "runtime_status").write_text(status + "\n")


def test_every_nvidia_gpu_asleep_nvml_is_not_even_started(make_source, tmp_path):
    # A hybrid laptop: Intel iGPU awake, the RTX GPU and its HDMI audio function asleep.
    _pci_device(tmp_path, "0000:00:02.0", "0x8086", "0x030000", "0xa7a0", "active")
    _pci_device(tmp_path, "0000:01:00.0", "0x10de", "0x030000", "0x2684", "suspended")
    _pci_device(tmp_path, "0000:01:00.1", "0x10de", "0x040300", "0x22ba", "active")
    fake = FakeNvml(1)
    source = make_source(fake)
    status = source.open()
    assert status.state is DeviceState.OK and "asleep" in status.message
    info = source.devices()[0]
    assert (info.pci_bus_id, info.pci_device_id) == ("00000000:01:00.0", 0x268410DE)
    for _ in range(3):
        snap = read(source)
    assert [s.state for s in snap.samples] == [DeviceState.SLEEPING]
    assert sum(fake.calls.values()) == 0  # not a single NVML call
    # The GPU wakes up (a game or a CUDA job started): NVML starts and the real identity appears.
    (tmp_path / "sys/bus/pci/devices/0000:01:00.0/power/runtime_status").write_text("active\n")
    snap = read(source)
    assert fake.calls["nvmlInitWithFlags"] == 1
    assert [(s.uuid, s.state) for s in snap.samples] == [(fake.gpus[0].uuid, DeviceState.OK)]
    assert source.devices()[0].uuid == fake.gpus[0].uuid


def test_one_gpu_awake_starts_nvml_and_gates_only_the_sleeping_one(make_source, tmp_path):
    _pci_device(tmp_path, "0000:01:00.0", "0x10de", "0x030000", "0x2684", "suspended")
    _pci_device(tmp_path, "0000:02:00.0", "0x10de", "0x030200", "0x2330", "active")
    fake = FakeNvml(2)
    source = make_source(fake)
    source.open()
    assert fake.calls["nvmlInitWithFlags"] == 1
    assert [s.state for s in read(source).samples] == [DeviceState.SLEEPING, DeviceState.OK]


@pytest.mark.parametrize("name, state", [
    ("desktop", DeviceState.OK), ("laptop", DeviceState.OK), ("server", DeviceState.OK),
    ("old_driver", DeviceState.OK), ("no_driver", DeviceState.NO_DRIVER),
    ("driver_not_loaded", DeviceState.DRIVER_NOT_LOADED), ("version_mismatch", DeviceState.VERSION_MISMATCH),
])
def test_ready_made_scenarios(make_source, name, state):
    from tests.fakes.fake_nvml import scenario

    source = make_source(scenario(name))
    assert source.open().state is state
    snap = read(source)
    if state is DeviceState.OK:
        assert snap.samples and all(s.state is DeviceState.OK for s in snap.samples)
    if name == "laptop":
        assert snap.samples[0].fan_pct is None and snap.samples[0].pcie_width == 8
    if name == "server":
        s = snap.samples[0]
        assert s.memory_temperature_c == 52 and s.ecc_uncorrected == 0
