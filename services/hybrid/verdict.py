"""The verdict per program: which GPU does its 3D/compute work, and the evidence.

Rules (why in brackets):
1. Measured: GPUs whose 3D/graphics/compute engines were busy >= WORK_MIN_PCT for the
   program during the sample. Copy and video engines never count [an offloaded program
   still shows copy work on the integrated GPU, which only passes the picture on].
   A second GPU counts only if its work is at least SECOND_GPU_SHARE of the busiest one.
2. Idle but holding a context: NVML lists it on an NVIDIA GPU, or it holds memory on a GPU.
3. Only libraries/variables: NVIDIA GL/Vulkan/CUDA libraries vs Mesa drivers. When both are
   mapped (the Vulkan loader opens every driver) libraries cannot tell.
"""
from __future__ import annotations

from services.hybrid.model import AdapterUse, Basis, GpuAdapter, GpuKind, Inventory, Placement, Vendor
from services.hybrid.procscan_linux import library_family
from services.i18n import Msg, translate

WORK_MIN_PCT = 1.0
SECOND_GPU_SHARE = 0.10
CONTEXT_MIN_MIB = 1.0


NVML_KINDS = {
    "compute": translate("Hybrid", "compute"),
    "graphics": translate("Hybrid", "graphics"),
    "compute+graphics": translate("Hybrid", "compute and graphics"),
}


def adapter_placement(adapter: GpuAdapter | None) -> Placement:
    if adapter is None:
        return Placement.OTHER
    if adapter.vendor is Vendor.NVIDIA:
        return Placement.NVIDIA
    if adapter.kind is GpuKind.INTEGRATED:
        return Placement.INTEGRATED
    if adapter.kind is GpuKind.UNKNOWN and adapter.vendor is Vendor.INTEL:
        return Placement.INTEGRATED
    return Placement.OTHER


def _combine(placements: list[Placement]) -> Placement:
    unique = list(dict.fromkeys(placements))
    if not unique:
        return Placement.NONE
    if len(unique) == 1:
        return unique[0]
    if Placement.NVIDIA in unique:
        return Placement.BOTH
    return unique[0]  # two non-NVIDIA GPUs: the busiest one (list is sorted by work)


def gpu_label(inventory: Inventory, key: str) -> str:
    adapter = inventory.adapter(key)
    return adapter.name if adapter else key


def _fmt(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


def decide(
    inventory: Inventory,
    uses: list[AdapterUse],
    libraries: set[str] | frozenset[str] = frozenset(),
    offload_env: dict[str, str] | None = None,
    device_nodes: set[str] | frozenset[str] = frozenset(),
    readable: bool = True,
) -> tuple[Placement, Basis, list[Msg]]:
    offload_env = offload_env or {}
    evidence: list[Msg] = []

    for use in uses:
        label = gpu_label(inventory, use.adapter_key)
        if use.source == "nvml" and use.kind:
            evidence.append(translate("Hybrid", "The NVIDIA driver lists it as a {kind} process on {gpu}").format(
                kind=NVML_KINDS.get(use.kind, use.kind), gpu=label))
        for engine in sorted(use.engines, key=lambda e: -e.busy_pct):
            if engine.busy_pct >= 0.05:
                evidence.append(translate("Hybrid", "{engine} engine {pct}% busy on {gpu}").format(
                    engine=engine.engine, pct=_fmt(engine.busy_pct), gpu=label))
        if use.memory_mib is not None and use.memory_mib >= 0.05:
            evidence.append(translate("Hybrid", "Holds {mib} MiB of memory on {gpu}").format(
                mib=_fmt(use.memory_mib), gpu=label))

    # 1. measured work
    working = sorted((u for u in uses if (u.work_pct or 0.0) >= WORK_MIN_PCT), key=lambda u: -(u.work_pct or 0.0))
    placement, basis = Placement.NONE, Basis.NOTHING
    if working:
        top = working[0].work_pct or 0.0
        kept = [u for u in working if (u.work_pct or 0.0) >= top * SECOND_GPU_SHARE]
        placement = _combine([adapter_placement(inventory.adapter(u.adapter_key)) for u in kept])
        basis = Basis.MEASURED
        for use in uses:
            if use not in working and (use.other_pct or 0.0) >= WORK_MIN_PCT:
                evidence.append(translate(
                    "Hybrid", "Only copy/video work on {gpu}: that passes finished pictures on, it is not rendering"
                ).format(gpu=gpu_label(inventory, use.adapter_key)))
    else:
        # 2. an idle context
        contexts = [u for u in uses if u.source == "nvml"]
        with_memory = sorted((u for u in uses if u.source != "nvml" and (u.memory_mib or 0.0) >= CONTEXT_MIN_MIB),
                             key=lambda u: -(u.memory_mib or 0.0))
        if with_memory:
            contexts.append(with_memory[0])
        if contexts:
            placement = _combine([adapter_placement(inventory.adapter(u.adapter_key)) for u in contexts])
            basis = Basis.CONTEXT
            evidence.append(translate("Hybrid", "Idle during the sample: judged by where it holds a GPU context"))

    # 3. libraries and variables
    families = {library_family(lib) for lib in libraries} - {None}
    nvidia_libs = sorted(lib for lib in libraries if library_family(lib) in ("nvidia", "cuda", "nvidia-video"))
    mesa_libs = sorted(lib for lib in libraries if library_family(lib) in ("intel", "amd", "nouveau", "mesa"))
    if nvidia_libs:
        evidence.append(translate("Hybrid", "Loaded NVIDIA driver libraries: {libs}").format(libs=", ".join(nvidia_libs)))
    if "cuda" in families:
        evidence.append(translate("Hybrid", "Uses CUDA: CUDA work always runs on the NVIDIA GPU"))
    if mesa_libs:
        evidence.append(translate("Hybrid", "Loaded Mesa drivers: {libs}").format(libs=", ".join(mesa_libs)))
    if "software" in families and not nvidia_libs and not mesa_libs:
        evidence.append(translate("Hybrid", "Uses software rendering (llvmpipe): no GPU draws for it"))
    if offload_env:
        pairs = " ".join(f"{k}={v}" for k, v in sorted(offload_env.items()))
        evidence.append(translate("Hybrid", "Started with GPU selection variables: {vars}").format(vars=pairs))
    nv_nodes = sorted(n for n in device_nodes if n.startswith("/dev/nvidia"))
    if nv_nodes and not uses:
        evidence.append(translate(
            "Hybrid", "Has NVIDIA device files open ({nodes}); on its own that can be a library probing the GPU"
        ).format(nodes=", ".join(nv_nodes)))
    if placement is Placement.NONE and (nvidia_libs or mesa_libs):
        basis = Basis.LIBRARIES
        if nvidia_libs and mesa_libs:
            evidence.append(translate(
                "Hybrid", "Both NVIDIA and Mesa drivers are loaded (Vulkan loads every driver): libraries alone cannot tell"))
        elif nvidia_libs:
            placement = Placement.NVIDIA
        else:
            placement = _mesa_placement(inventory, mesa_libs)
        if placement is not Placement.NONE:
            evidence.append(translate("Hybrid", "No GPU work seen during the sample: judged by the loaded drivers"))
    if not readable:
        evidence.append(translate("Hybrid", "Another user's program: its files and libraries are hidden from this account"))
    if placement is Placement.NONE and not evidence:
        evidence.append(translate("Hybrid", "No sign of GPU use"))
    return placement, basis, evidence


def _mesa_placement(inventory: Inventory, mesa_libs: list[str]) -> Placement:
    families = {library_family(lib) for lib in mesa_libs}
    vendors = {"intel": Vendor.INTEL, "amd": Vendor.AMD, "nouveau": Vendor.NVIDIA}
    for family in ("amd", "intel", "nouveau"):
        if family in families:
            matches = [a for a in inventory.adapters if a.vendor is vendors[family]]
            if matches:
                return _combine([adapter_placement(a) for a in matches][:1])
            return Placement.INTEGRATED if family == "intel" else Placement.OTHER
    # Only the generic libgallium: the driver inside it cannot be told from the file name.
    integrated = [a for a in inventory.adapters if a.kind is GpuKind.INTEGRATED]
    return Placement.INTEGRATED if integrated else Placement.NONE
