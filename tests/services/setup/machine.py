"""A fake machine for setup tests: a temporary root, recorded command output
and a fake NVML module at the nvidia-ml-py function level."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

# Imported before any test patches services.setup.system.SystemRoot for the CLI (which imports it
# when it runs): a module first imported under that patch would keep the fake root for good.
import services.setup.target_systems  # noqa: F401
from services.setup.python_env import PROBE_MARK
from services.setup.system import FakeRunner, SystemRoot
from tests.fakes.fake_nvml import FakeNvml as RealFakeNvml
from tests.fakes.fake_nvml import make_gpu

# Tests of Linux itself: conftest.py skips them on Windows, giving these reasons.
RUNS_LINUX_COMMANDS = pytest.mark.linux_only("runs a Linux step's own commands (install, rm) on a temporary root")
LINUX_DOCTOR = pytest.mark.linux_only(
    "this machine's doctor is Linux's here (os-release, lspci, /proc, mokutil); on Windows `doctor` and "
    "`setup` examine Windows, as tests/services/setup/test_windows.py shows")
SYSFS_SYMLINKS = pytest.mark.linux_only("builds a sysfs tree with symbolic links")

DATA = Path(__file__).resolve().parents[2] / "data" / "setup"


def recorded(name: str) -> str:
    return (DATA / "recorded" / name).read_text(encoding="utf-8")


def os_release(name: str) -> str:
    return (DATA / "os-release" / name).read_text(encoding="utf-8")


def FakeNvml(driver: str = "570.133.07", cuda: int = 12080,  # reads like the class it builds
             names: tuple[str, ...] = ("NVIDIA GeForce RTX 4090",),
             capability: tuple[int, int] | None = (8, 9),
             init_error: tuple[int, str] | None = None) -> RealFakeNvml:
    """The shared function-level fake (tests/fakes/fake_nvml.py) set up as the doctor's machine."""
    gpus = [make_gpu(i, name=name) for i, name in enumerate(names)]
    for gpu in gpus:
        if capability is None:
            gpu.unsupported.add("nvmlDeviceGetCudaComputeCapability")
        else:
            gpu.capability = capability
    fake = RealFakeNvml(gpus, init_error=init_error[0] if init_error else None,
                        driver_version=driver, cuda_version=cuda)
    fake.driver = driver  # what the tests compare nvidia-smi's answer with
    return fake


NO_NVML = FakeNvml(init_error=(12, "NVML Shared Library Not Found"))


@dataclass
class Machine:
    root_dir: Path
    runner: FakeRunner = field(default_factory=FakeRunner)

    @property
    def root(self) -> SystemRoot:
        return SystemRoot(self.root_dir)

    def write(self, system_path: str, text: str | bytes) -> Path:
        p = self.root(system_path)
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return p

    def distro(self, name: str) -> "Machine":
        self.write("/etc/os-release", os_release(name))
        self.runner.add(["uname", "-r"], 0, "6.8.0-45-generic\n")
        return self

    def lspci(self, name: str) -> "Machine":
        self.runner.add(["lspci", "-nnk"], 0, recorded(name))
        return self

    def loaded(self, proc_version_file: str | None, modules: str = "") -> "Machine":
        if proc_version_file:
            self.write("/proc/driver/nvidia/version", recorded(proc_version_file))
        self.write("/proc/modules", modules)
        return self

    def modinfo(self, version: str | None) -> "Machine":
        if version is None:
            self.runner.add(["modinfo", "-F", "version", "nvidia"], 1, "", "modinfo: ERROR: Module nvidia not found.\n")
        else:
            self.runner.add(["modinfo", "-F", "version", "nvidia"], 0, version + "\n")
        return self

    def secure_boot(self, recorded_file: str) -> "Machine":
        self.runner.add(["mokutil", "--sb-state"], 0, recorded(recorded_file))
        return self

    def smi(self, exit_code: int, out: str) -> "Machine":
        self.runner.add(["nvidia-smi"], exit_code, out)
        return self

    def python(self, path: str, probe_json: str | None) -> "Machine":
        if probe_json is None:
            return self
        self.runner.add([path, "-c"], 0, PROBE_MARK + json.dumps(json.loads(recorded(probe_json))) + "\n")
        return self
