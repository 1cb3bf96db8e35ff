"""A fake machine for setup tests: a temporary root, recorded command output
and a fake NVML module at the nvidia-ml-py function level."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from services.setup.probes import PROBE_MARK
from services.setup.system import FakeRunner, SystemRoot

DATA = Path(__file__).resolve().parents[2] / "data" / "setup"


def recorded(name: str) -> str:
    return (DATA / "recorded" / name).read_text(encoding="utf-8")


def os_release(name: str) -> str:
    return (DATA / "os-release" / name).read_text(encoding="utf-8")


class NVMLError(Exception):
    def __init__(self, value: int, text: str) -> None:
        super().__init__(text)
        self.value = value


class _PciInfo:
    def __init__(self, bus: str) -> None:
        self.busId = bus.encode()


@dataclass
class FakeNvml:
    """Mimics the ``pynvml`` functions the doctor calls."""

    driver: str = "570.133.07"
    cuda: int = 12080
    names: tuple[str, ...] = ("NVIDIA GeForce RTX 4090",)
    capability: tuple[int, int] | None = (8, 9)
    init_error: tuple[int, str] | None = None
    calls: list[str] = field(default_factory=list)

    def nvmlInit(self):
        self.calls.append("init")
        if self.init_error:
            raise NVMLError(*self.init_error)

    def nvmlShutdown(self):
        self.calls.append("shutdown")

    def nvmlSystemGetDriverVersion(self):
        return self.driver

    def nvmlSystemGetCudaDriverVersion_v2(self):
        return self.cuda

    def nvmlDeviceGetCount(self):
        return len(self.names)

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetName(self, h):
        return self.names[h]

    def nvmlDeviceGetCudaComputeCapability(self, h):
        if self.capability is None:
            raise NVMLError(3, "Not Supported")
        return self.capability

    def nvmlDeviceGetPciInfo(self, h):
        return _PciInfo(f"00000000:0{h + 1}:00.0")


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

    def modinfo(self, version: str | None, license_: str = "Dual MIT/GPL") -> "Machine":
        if version is None:
            self.runner.add(["modinfo", "-F", "version", "nvidia"], 1, "", "modinfo: ERROR: Module nvidia not found.\n")
        else:
            self.runner.add(["modinfo", "-F", "version", "nvidia"], 0, version + "\n")
            self.runner.add(["modinfo", "-F", "license", "nvidia"], 0, license_ + "\n")
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
