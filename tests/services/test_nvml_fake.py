"""The fake must not drift from nvidia-ml-py: same names, codes and argument shapes."""
from __future__ import annotations

import inspect

import pytest

from tests.fakes import fake_nvml
from tests.fakes.fake_nvml import FakeNvml

pynvml = pytest.importorskip("pynvml")


def _fake_functions() -> list[str]:
    return [name for name, _ in inspect.getmembers(FakeNvml, inspect.isfunction)
            if name.startswith("nvml") or name == "_nvmlGetFunctionPointer"]


def test_every_fake_function_exists_in_the_binding_with_compatible_parameters():
    names = _fake_functions()
    assert len(names) > 40
    for name in names:
        real = getattr(pynvml, name, None)
        assert callable(real), f"{name} is not in nvidia-ml-py"
        real_params = [p for p in inspect.signature(real).parameters.values()]
        fake_params = list(inspect.signature(getattr(FakeNvml, name)).parameters.values())[1:]
        assert len(fake_params) == len(real_params), name
        for real_p, fake_p in zip(real_params, fake_params, strict=True):
            assert (real_p.default is inspect.Parameter.empty) == (fake_p.default is inspect.Parameter.empty), name


def test_constants_and_error_codes_match_the_binding():
    for name, value in vars(fake_nvml).items():
        if name.startswith("NVML_") or name in ("nvmlMemory_v2", "nvmlTemperature_v1"):
            assert getattr(pynvml, name) == value, name


def test_error_class_names_match_the_binding():
    for name in vars(fake_nvml):
        if name.startswith("NVMLError_"):
            real = getattr(pynvml, name)
            assert real(  # the binding's subclass carries the same code
            ).value == getattr(fake_nvml, name)().value


def test_struct_fields_match_the_binding():
    for name in ("c_nvmlMemory_t", "c_nvmlMemory_v2_t", "c_nvmlUtilization_t"):
        fake_fields = [f[0] for f in getattr(fake_nvml, name)._fields_]
        real_fields = [f[0] for f in getattr(pynvml, name)._fields_]
        assert fake_fields == real_fields, name
    real_pci = [f[0] for f in pynvml.nvmlPciInfo_t._fields_]
    assert [f[0] for f in fake_nvml.nvmlPciInfo_t._fields_] == real_pci


def test_the_old_driver_scenario_only_names_real_symbols():
    source = inspect.getsource(pynvml)
    for symbol in fake_nvml.OLD_DRIVER_MISSING:
        assert f'"{symbol}"' in source, symbol
