"""The doctor's findings about PyTorch in the chosen environment: is it there, built for this GPU
and driver, and does a matrix multiply on the GPU give the right answer? Each with its pip fix."""
from __future__ import annotations

from services.i18n import translate
from services.setup.doctor_report import GpuIdentity, MachineFacts
from services.setup.findings import Finding, Fix
from services.setup.rules import Rules, arch_supported


def pip_install_commands(python: str, index_url: str, replace: bool) -> tuple[tuple[str, ...], ...]:
    install = (python, "-m", "pip", "install", "--upgrade", "torch", "--index-url", index_url)
    if replace:
        return ((python, "-m", "pip", "uninstall", "-y", "torch"), install)
    return (install,)


def torch_findings(facts: MachineFacts, rules: Rules, gpu: GpuIdentity, gen, driver: str | None,
                   driver_ok: bool, os_name: str, python: str) -> list[Finding]:
    probe = facts.torch
    if probe is None:
        return [Finding(
            "no_python_env", "info",
            translate("Doctor", "No Python environment checked"),
            translate("Doctor", "Pick the environment you train in (a venv or conda env) so the doctor can test PyTorch there."),
        )]
    if not probe.ran:
        return [Finding(
            "python_unusable", "error",
            translate("Doctor", "Could not run {python}").format(python=probe.python),
            translate("Doctor", "Reason: {reason}").format(reason=probe.error),
        )]
    choice = rules.recommend_variant(gpu.sm, driver if driver_ok else None, os_name)
    index_fix: tuple[Fix, ...] = ()
    if choice:
        label = translate("Doctor", "Install the {variant} build of PyTorch (add torchvision/torchaudio to the same command if you use them)").format(variant=choice.variant.variant)
        index_fix = (Fix(label, pip_install_commands(python, choice.index_url, replace=probe.has_torch), step="install-pytorch"),)
    if not probe.has_torch:
        return [Finding(
            "torch_missing", "warning",
            translate("Doctor", "PyTorch is not installed in {python}").format(python=probe.python),
            translate("Doctor", "Python {version} answered, but 'import torch' failed: {error}").format(version=probe.python_version, error=probe.torch_error),
            index_fix,
        )]
    if probe.hip:
        return [Finding(
            "torch_rocm_build", "error",
            translate("Doctor", "PyTorch {version} is a ROCm (AMD) build").format(version=probe.torch_version),
            translate("Doctor", "It cannot use an NVIDIA card. Install a CUDA build instead."),
            index_fix,
        )]
    if probe.is_cpu_build:
        return [Finding(
            "torch_cpu_build", "error",
            translate("Doctor", "PyTorch {version} is a CPU-only build").format(version=probe.torch_version),
            translate("Doctor", "torch.version.cuda is None, so torch.cuda.is_available() will always be False. On Windows, plain 'pip install torch' gives this build; a CUDA build comes from PyTorch's own index."),
            index_fix,
        )]
    out: list[Finding] = []
    cuda = probe.cuda_build
    if driver and cuda:
        status = rules.driver_ok_for_cuda(driver, cuda, os_name)
        need = rules.toolkit_min_driver(cuda, os_name) or rules.minor_compat_min_driver(cuda, os_name)
        if status == "too_old":
            out.append(Finding(
                "driver_too_old_for_torch", "error",
                translate("Doctor", "Driver {driver} is too old for this PyTorch (built with CUDA {cuda})").format(driver=driver, cuda=cuda),
                translate("Doctor", "CUDA {cuda} needs driver {need} or newer. Update the driver, or install a PyTorch build for an older CUDA.").format(cuda=cuda, need=need or "?"),
                (Fix(translate("Doctor", "Update the driver (setup wizard)"), step="install-driver"), *index_fix),
            ))
        elif status == "minor_compat":
            out.append(Finding(
                "driver_minor_compat", "warning",
                translate("Doctor", "Driver {driver} is older than CUDA {cuda}'s own driver ({need})").format(driver=driver, cuda=cuda, need=need or "?"),
                translate("Doctor", "PyTorch runs through CUDA's minor-version compatibility, but features that need a newer driver fail with an error. Updating the driver removes the risk."),
                (Fix(translate("Doctor", "Update the driver (setup wizard)"), step="install-driver"),),
            ))
    if gpu.sm and probe.arch_list and not arch_supported(gpu.sm, probe.arch_list):
        out.append(Finding(
            "torch_arch_missing", "error",
            translate("Doctor", "This PyTorch has no kernels for {name} ({sm})").format(name=gpu.name, sm=gpu.sm),
            translate("Doctor", "PyTorch {version} was built for {arches}. Work on the GPU fails with 'no kernel image is available'. RTX 50 cards (sm_120) need torch 2.7 or newer with cu128 or a later CUDA.").format(
                version=probe.torch_version, arches=" ".join(probe.arch_list) or "-"),
            index_fix,
        ))
    if not probe.cuda_available and not out and driver_ok:
        out.append(Finding(
            "torch_no_cuda", "error",
            translate("Doctor", "PyTorch {version} cannot see the GPU").format(version=probe.torch_version),
            translate("Doctor", "torch.cuda.is_available() is False although the driver works. Its reason: {reason}").format(reason=probe.cuda_error or (probe.warnings[0] if probe.warnings else "-")),
            index_fix,
        ))
    elif probe.cuda_available and probe.matmul_ok is False and not any(f.code == "torch_arch_missing" for f in out):
        out.append(Finding(
            "torch_matmul_failed", "error",
            translate("Doctor", "A small matrix multiply on the GPU failed"),
            translate("Doctor", "Error: {error}").format(error=probe.matmul_error or "-"),
            index_fix,
        ))
    elif probe.cuda_available and probe.matmul_ok and not any(f.severity == "error" for f in out):
        out.append(Finding(
            "torch_ok", "ok",
            translate("Doctor", "PyTorch {version} works on {device}").format(version=probe.torch_version, device=probe.device_name or gpu.name),
            translate("Doctor", "CUDA build {cuda}, cuDNN {cudnn}; a matrix multiply on the GPU gave the right answer.").format(cuda=cuda or "-", cudnn=probe.cudnn_text or "-"),
        ))
    return out
