"""Real processes on Linux: the process scan reads the real /proc (only the GPU inventory is faked)."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from services.hybrid.launch import launch_and_check
from services.hybrid.model import Basis, Placement, ProcessReport, ScanResult
from services.hybrid.service import HybridService
from services.i18n import translate
from tests.fakes.hybrid_fakes import INTEL_IGPU, NVIDIA_DGPU, build_sysfs

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

# Maps a file named like NVIDIA's GL core library, as a real GL program loading it would.
CHILD = textwrap.dedent("""
    import mmap, sys
    f = open(sys.argv[1], "rb")
    m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    print("ready", flush=True)
    if len(sys.argv) > 2:
        import time
        time.sleep(float(sys.argv[2]))
    else:
        sys.stdin.read()
""")

# Python and nothing else: no GPU library, no GPU selection variable.
PLAIN_CHILD = 'import sys; print("ready", flush=True); sys.stdin.read()'


def _end(pid: int) -> None:
    import os
    import signal
    try:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


@pytest.fixture
def service(tmp_path):
    root = build_sysfs(tmp_path / "root", [INTEL_IGPU, NVIDIA_DGPU])
    no_nvml = lambda: (None, translate("Hybrid", "NVIDIA driver not reachable: {error}").format(error="test"))
    return HybridService(platform="linux", sysfs_root=root, nvidia_factory=no_nvml, home=tmp_path / "home",
                         backup_dir=tmp_path / "backups")


@pytest.fixture
def fake_gl_library(tmp_path):
    lib = tmp_path / "libnvidia-glcore.so.550.78"
    lib.write_bytes(b"\x7fELF" + b"\0" * 4092)
    return lib


def test_child_process_found_in_the_list_with_its_evidence(service, fake_gl_library):
    env = {"PATH": "/usr/bin:/bin", "__NV_PRIME_RENDER_OFFLOAD": "1", "__GLX_VENDOR_LIBRARY_NAME": "nvidia"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(fake_gl_library)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, env=env, text=True)
    # A process with no GPU evidence at all. Not this test process: on a machine with an NVIDIA GPU
    # it has the NVIDIA libraries loaded (NVML, CUDA), and rightly shows up in the list.
    plain = subprocess.Popen([sys.executable, "-c", PLAIN_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             env={"PATH": "/usr/bin:/bin"}, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        assert plain.stdout.readline().strip() == "ready"
        result = service.scan(interval_s=0.05)
        report = result.process(child.pid)
        assert report is not None, "the child is missing from the list"
        assert report.exe and "python" in report.exe
        assert report.libraries == ("libnvidia-glcore.so.550.78",)
        assert dict(report.offload_env) == {"__NV_PRIME_RENDER_OFFLOAD": "1", "__GLX_VENDOR_LIBRARY_NAME": "nvidia"}
        assert (report.placement, report.basis) == (Placement.NVIDIA, Basis.LIBRARIES)
        evidence = [str(m) for m in report.evidence]
        assert "Loaded NVIDIA driver libraries: libnvidia-glcore.so.550.78" in evidence
        assert any(e.startswith("Started with GPU selection variables: __GLX_VENDOR_LIBRARY_NAME=nvidia") for e in evidence)
        assert str(result.nvidia_status) == "NVIDIA driver not reachable: test"
        assert result.process(plain.pid) is None  # no GPU evidence: not listed
    finally:
        for proc in (child, plain):
            proc.stdin.close()
            proc.wait(timeout=10)
            proc.stdout.close()


# launch_and_check lets the launched program outlive the check (services/hybrid/launch.py, the Popen
# call): dropping its Popen while the program runs is intended, and Python warns about exactly that.
_OUTLIVES_THE_CHECK = pytest.mark.filterwarnings("ignore:Exception ignored in. <function Popen.__del__:pytest.PytestUnraisableExceptionWarning")


@_OUTLIVES_THE_CHECK
def test_launch_applies_offload_variables_and_reports(service, fake_gl_library, tmp_path):
    report = service.launch_and_check([sys.executable, "-c", CHILD, str(fake_gl_library), "30"], timeout_s=1.0, poll_s=0.2)
    try:
        assert report.outcome == "timeout"  # no real GPU here: nothing was measured
        assert report.report is not None and report.report.pid == report.pid
        assert dict(report.report.offload_env)["__NV_PRIME_RENDER_OFFLOAD"] == "1"
        assert report.report.placement is Placement.NVIDIA and report.report.basis is Basis.LIBRARIES
        assert str(report.notes[0]).startswith("Started with __NV_PRIME_RENDER_OFFLOAD=1")
    finally:
        _end(report.pid)


def test_launch_program_that_exits_and_one_that_is_missing(service, tmp_path):
    report = service.launch_and_check([sys.executable, "-c", "pass"], timeout_s=5.0, poll_s=0.1)
    assert report.outcome == "exited" and report.waited_s < 5.0
    from services.hybrid.preference import PlanError
    with pytest.raises(PlanError, match="No program at"):
        service.launch_and_check([str(tmp_path / "nope")], timeout_s=1.0)


@_OUTLIVES_THE_CHECK
def test_launch_stops_polling_once_work_is_measured():
    calls = []

    def scan(pids, interval, stop):
        calls.append(pids[0])
        placement = Placement.NVIDIA if len(calls) >= 2 else Placement.NONE
        basis = Basis.MEASURED if len(calls) >= 2 else Basis.NOTHING
        report = ProcessReport(pids[0], "sleep", None, (), (), placement, basis, ())
        return ScanResult(inventory=None, processes=(report,), interval_s=interval)

    report = launch_and_check(["sleep", "5"], (("__NV_PRIME_RENDER_OFFLOAD", "1"),), scan, timeout_s=5, poll_s=0.01)
    try:
        assert report.outcome == "landed" and len(calls) == 2
        assert report.report.placement is Placement.NVIDIA
    finally:
        _end(report.pid)


def test_windows_launch_warns_when_the_preference_is_not_set(tmp_path):
    from tests.fakes.hybrid_fakes import FakeCounters, laptop_registry

    service = HybridService(platform="win32", registry=laptop_registry(), counters=FakeCounters(),
                            nvidia_factory=lambda: (None, None), backup_dir=tmp_path)
    report = service.launch_and_check([sys.executable, "-c", "pass"], timeout_s=3.0, poll_s=0.05)
    assert report.outcome == "exited"
    assert any("not High performance" in str(n) for n in report.notes)
