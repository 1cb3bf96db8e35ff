"""The messages users paste most, as they paste them (whole lines from tracebacks, shells and dialogs),
each answered with its own cause, per platform, and with what the doctor sees on this machine now."""
from __future__ import annotations

import re

import pytest

from services.setup.diagnosis import diagnose
from services.setup.doctor import collect_facts
from services.setup.known_errors import known_errors
from services.setup.rules import load_rules
from services.setup.troubleshoot import explain

from .machine import FakeNvml, Machine

RULES = load_rules()

PASTED = [
    ("Windows has stopped this device because it has reported problems. (Code 43)", "code_43"),
    ("(Code 43)", "code_43"),
    ("bash: nvidia-smi: command not found", "smi_not_found"),
    ("Command 'nvidia-smi' not found, but can be installed with:\n\nsudo apt install nvidia-utils-580", "smi_not_found"),
    ("'nvidia-smi' is not recognized as an internal or external command,\noperable program or batch file.", "smi_not_found"),
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non "
     "supported HW", "compat_804"),
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 802: system not yet initialized", "fabric_802"),
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory", "libcudart_missing"),
    ("W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library 'libcudart.so.11.0'; "
     "dlerror: libcudart.so.11.0: cannot open shared object file: No such file or directory", "libcudart_missing"),
    ("OSError: libcuda.so.1: cannot open shared object file: No such file or directory", "libcuda_missing"),
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`", "cublas_init"),
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED", "cudnn_init"),
    ("Failed to initialize NVML: Unknown Error", "nvml_unknown"),
    ('docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].', "docker_no_gpu"),
    ("modprobe: ERROR: could not insert 'nvidia': Key was rejected by service", "key_rejected"),
    ("RuntimeError: CUDA error: the launch timed out and was terminated", "launch_timeout"),
    ('OSError: [WinError 126] The specified module could not be found. Error loading '
     '"C:\\Users\\li\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.', "win_dll_missing"),
    ("ERROR: Could not find a version that satisfies the requirement torch (from versions: none)\n"
     "ERROR: No matching distribution found for torch", "no_torch_wheel"),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_120'", "nvcc_arch"),
    ("RuntimeError: CUDA error: no CUDA-capable device is detected", "no_cuda_device"),
    ("Unable to determine the device handle for GPU0000:01:00.0: Unknown Error", "fell_off_bus"),
]


@pytest.mark.parametrize("text,code", PASTED)
@pytest.mark.parametrize("system", ["linux", "windows"])
def test_each_pasted_message_gets_its_own_answer(text, code, system):
    found = explain(text, system=system)
    assert [d.code for d in found][:1] == [code]
    assert str(found[0].title) and len(str(found[0].cause)) > 60


LINUX_PROGRAMS = ("ldconfig", "systemctl", "mokutil", "nvidia-ctk", "modprobe", "dkms", "lsmod")


@pytest.mark.parametrize("text,code", PASTED)
def test_windows_answers_run_no_linux_programs_and_linux_answers_no_windows_ones(text, code):
    for system, wrong in (("windows", LINUX_PROGRAMS), ("linux", ("pnputil", "winget", "where", "shutdown"))):
        for d in explain(text, system=system):
            programs = {c[0] for f in d.fixes for c in f.commands}
            assert not programs & set(wrong), (system, code, programs)


def test_code_43_is_a_windows_answer_on_windows_and_explained_on_linux():
    windows = explain("(Code 43)", system="windows")[0]
    assert "DDU" in str(windows.cause) and [f.step for f in windows.fixes if f.step] == ["block-driver-updates"]
    linux = explain("(Code 43)", system="linux")[0]
    assert "virtual machine" in str(linux.cause) and not linux.fixes


def test_every_row_is_reached_by_a_pasted_message():
    assert {row.code for row in known_errors()} <= {code for _, code in PASTED}


def test_patterns_do_not_fire_on_ordinary_text():
    harmless = ("Epoch 3/10 loss=0.412 lr=2e-5 step 804/1200", "Saved checkpoint to runs/code43/ckpt.pt",
                "nvidia-smi found 2 GPUs", "torch 2.11.0+cu130 installed")
    for text in harmless:
        assert explain(text) == [], text


def test_a_driver_message_on_a_machine_whose_driver_works_says_so_first(tmp_path):
    m = Machine(tmp_path).distro("ubuntu-24.04").lspci("lspci-4090-nvidia.txt")
    m.loaded("proc-driver-version-open-570.txt", "nvidia_uvm 1 0\nnvidia 2 1\n").modinfo("570.133.07")
    m.secure_boot("mokutil-disabled.txt").smi(0, "570.133.07, NVIDIA GeForce RTX 4090, 00000000:01:00.0\n")
    report = diagnose(collect_facts(m.runner, m.root, nvml_module=FakeNvml(), system="linux"), RULES)
    assert report.has("driver_ok")
    for text in ("bash: nvidia-smi: command not found", "(Code 43)",
                 "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."):
        d = explain(text, report)[0]
        lines = [str(x) for x in d.on_this_machine]
        assert any(re.search(r"Driver 570\.133\.07 is working", x) for x in lines), (text, lines)
    # A message about memory says nothing about the driver working: it is not a driver problem.
    oom = explain("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.", report)[0]
    assert not any("is working" in str(x) for x in oom.on_this_machine)
