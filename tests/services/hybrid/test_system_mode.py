from __future__ import annotations

from services.hybrid.system_mode import parse_mode, parse_switcherooctl_list, read_system_modes
from tests.fakes.hybrid_fakes import FakeRunner, data


def test_switcherooctl_list():
    intel, nvidia = parse_switcherooctl_list(data("switcherooctl_list.txt"))
    assert intel.default and intel.environment == (("DRI_PRIME", "pci-0000_00_02_0"),)
    assert not nvidia.default and nvidia.index == 1
    assert dict(nvidia.environment)["__NV_PRIME_RENDER_OFFLOAD"] == "1"
    assert parse_switcherooctl_list("") == ()


def test_mode_words():
    assert parse_mode("on-demand\n") == "on-demand"
    assert parse_mode("Current graphics mode is: hybrid\n") == "hybrid"
    assert parse_mode("Current GPU mode : nvidia\n") == "nvidia"
    assert parse_mode("garbage") is None


def test_only_queries_are_run_and_missing_tools_are_skipped():
    runner = FakeRunner({
        ("prime-select", "query"): (0, "on-demand\n"),
        ("switcherooctl", "list"): (0, data("switcherooctl_list.txt")),
        ("envycontrol", "--query"): (1, ""),
    })
    modes = read_system_modes(runner)
    assert [(m.tool, m.mode) for m in modes.modes] == [("prime-select", "on-demand"), ("envycontrol", None)]
    assert len(modes.switcheroo) == 2
    assert runner.calls == [("prime-select", "query"), ("envycontrol", "--query"), ("switcherooctl", "list")]
    assert read_system_modes(FakeRunner({})).switcheroo is None
