"""Every os-release fixture x one card of each generation, Maxwell to Blackwell, planned the
way a user does it (`setup --plan --os-release F --gpu ID --json`), with assertions on what
the plan JSON says it ends with: the driver supports the card, the driver runs the PyTorch
build chosen, and the build has the card's architecture."""
from __future__ import annotations

import json

import pytest

import main
from services.setup import system as system_module
from services.setup.os_release import parse_os_release
from services.setup.rules import load_rules, version_at_least
from services.setup.system import SystemRoot

from .machine import DATA

RULES = load_rules()
FIXTURES = sorted(p.name for p in (DATA / "os-release").iterdir() if p.is_file())
# One card per generation, by PCI id only (no pci.ids on the test machine).
CARDS = {
    "13c0": ("Maxwell", "sm_52"),  # GeForce GTX 980
    "1b80": ("Pascal", "sm_61"),  # GeForce GTX 1080
    "1d81": ("Volta", "sm_70"),  # TITAN V
    "1e07": ("Turing", "sm_75"),  # GeForce RTX 2080 Ti
    "2204": ("Ampere", "sm_86"),  # GeForce RTX 3090
    "2684": ("Ada Lovelace", "sm_89"),  # GeForce RTX 4090
    "2330": ("Hopper", "sm_90"),  # H100 SXM5
    "2b85": ("Blackwell", "sm_120"),  # GeForce RTX 5090
}
INITRAMFS = {"ubuntu": ["update-initramfs", "-u"], "debian": ["update-initramfs", "-u"], "fedora": ["dracut", "--force"],
             "rhel": ["dracut", "--force"], "suse": ["dracut", "--force"], "arch": ["mkinitcpio", "-P"]}


@pytest.fixture
def cli_root(tmp_path, monkeypatch):
    root = tmp_path / "root"
    root.mkdir()
    monkeypatch.setattr(system_module, "SystemRoot", lambda *a, **k: SystemRoot(root))
    return root


def cli_plan(capsys, fixture: str, gpu: str) -> dict:
    rc = main.main(["setup", "--plan", "--os-release", str(DATA / "os-release" / fixture), "--gpu", f"10de:{gpu}", "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return json.loads(out.out)


def test_fixtures_cover_every_family():
    families = {parse_os_release((DATA / "os-release" / f).read_text()).family for f in FIXTURES}
    assert {"ubuntu", "debian", "fedora", "rhel", "suse", "arch", "unsupported"} <= families


@pytest.mark.parametrize("gpu", sorted(CARDS))
@pytest.mark.parametrize("fixture", FIXTURES)
def test_plan_ends_with_a_driver_that_runs_the_card_and_the_pytorch_build(cli_root, capsys, fixture, gpu):
    generation_name, sm = CARDS[gpu]
    gen = RULES.generation(generation_name)
    os_info = parse_os_release((DATA / "os-release" / fixture).read_text())
    data = cli_plan(capsys, fixture, gpu)
    driver, torch = data["driver"], data["pytorch"]
    steps = {s["id"]: s for s in data["steps"]}
    args = [a for s in data["steps"] for c in s["commands"] for a in c]

    # the driver the plan ends with supports the card (checked here from the rules, not trusted from the plan)
    assert driver["version"], data
    assert version_at_least(driver["version"], gen.min_driver_branch), (driver, gen.min_driver_branch)
    if gen.last_branch:
        assert int(driver["version"].split(".")[0]) <= int(gen.last_branch), driver
    assert driver["supports_card"] is True
    # ... and runs the PyTorch build chosen, which has the card's architecture
    variant = RULES.variant(torch["build"])
    assert variant is not None and variant.supports(sm), torch
    assert RULES.driver_ok_for_cuda(driver["version"], variant.cuda, "linux") in ("ok", "minor_compat")
    assert torch["runs_on_driver"] in ("ok", "minor_compat")
    assert steps["install-pytorch"]["commands"][-1][-1] == torch["index_url"] == f"https://download.pytorch.org/whl/{torch['build']}"
    assert torch["torch_release"]

    # the module type fits the generation
    if gen.proprietary_only:
        assert driver["module"] in ("proprietary", None)
        assert not any("open" in a and a.startswith(("nvidia", "akmod")) for a in args), args
    if gen.open_only:
        assert driver["module"] in ("open", None)
        assert driver["module"] == "open" or steps["install-driver"]["manual"]

    # the driver step: never a bare ubuntu-drivers install; never a package too old for the card
    for cmd in (c for s in data["steps"] for c in s["commands"]):
        if cmd[:2] == ["ubuntu-drivers", "install"]:
            assert len(cmd) == 3 and cmd[2].startswith("nvidia:"), cmd
            assert cmd[2] == f"nvidia:{driver['branch']}" + ("-open" if driver["module"] == "open" else "")
    if "nvidia-driver" in args and os_info.family == "debian":
        assert driver["from"] == "debian" and gen.driver_supports(driver["version"])
    if steps["install-driver"]["manual"]:
        assert driver["from"] == "manual" or driver["from"] == "aur"

    # the initramfs tool of the family, also for distributions without tested steps
    nouveau = steps["blacklist-nouveau"]["commands"]
    if os_info.family in INITRAMFS:
        assert nouveau[-1] == INITRAMFS[os_info.family]
    elif os_info.initramfs_tool:
        assert nouveau[-1][0] == os_info.initramfs_tool
    assert data["supported"] == (os_info.family != "unsupported" and fixture != "amazon-linux-2")


def test_rtx_50_on_ubuntu_names_the_open_branch_in_every_release(cli_root, capsys):
    for fixture in ("ubuntu-22.04", "ubuntu-24.04", "linuxmint-22", "pop-22.04"):
        data = cli_plan(capsys, fixture, "2b85")
        cmd = next(s for s in data["steps"] if s["id"] == "install-driver")["commands"][-1]
        assert cmd == ["ubuntu-drivers", "install", "nvidia:580-open"], fixture
        assert data["pytorch"]["build"] == "cu130" and data["driver"]["version"] == "580.65.06"
    # Ubuntu 20.04's archive has no branch for RTX 50 in the rules: a manual step, not a guess
    focal = cli_plan(capsys, "ubuntu-20.04", "2b85")
    step = next(s for s in focal["steps"] if s["id"] == "install-driver")
    assert step["manual"] and not step["commands"] and focal["driver"]["from"] == "manual"


def test_debian_11_never_installs_debians_driver_for_ada_or_blackwell(cli_root, capsys):
    for gpu in ("2684", "2b85"):
        data = cli_plan(capsys, "debian-11", gpu)
        assert "nvidia-driver" not in [a for s in data["steps"] for c in s["commands"] for a in c]
        assert any("470" in n for n in data["notes"])


def test_debian_12_and_13_pick_the_build_debians_driver_runs(cli_root, capsys):
    for fixture, driver in (("debian-12", "535"), ("debian-13", "550")):
        data = cli_plan(capsys, fixture, "2684")
        assert data["driver"]["branch"] == driver and data["driver"]["from"] == "debian"
        assert data["pytorch"]["build"] == "cu126" and data["pytorch"]["runs_on_driver"] == "minor_compat"
        explanation = next(s for s in data["steps"] if s["id"] == "install-pytorch")["explanation"]
        assert "minor-version compatibility" in explanation
    blackwell = cli_plan(capsys, "debian-12", "2b85")
    assert blackwell["driver"]["from"] == "nvidia-repo" and blackwell["pytorch"]["build"] == "cu130"


def test_red_hat_family_uses_nvidias_repository_and_dracut(cli_root, capsys):
    el9 = cli_plan(capsys, "rocky-9.4", "2684")
    ids = [s["id"] for s in el9["steps"]]
    assert ids[:4] == ["enable-epel", "enable-crb", "add-nvidia-repository", "install-driver"]
    # CRB beside EPEL (NVIDIA's guide); Rocky names it 'crb'
    assert next(s for s in el9["steps"] if s["id"] == "enable-crb")["commands"] == [["dnf", "config-manager", "--set-enabled", "crb"]]
    repo = next(s for s in el9["steps"] if s["id"] == "add-nvidia-repository")
    # another machine's kernel is not known: EL9's kernel-devel-matched, never a bare kernel-devel
    assert ["dnf", "install", "-y", "kernel-devel-matched", "kernel-headers"] in repo["commands"]
    assert repo["commands"][0][-1] == "https://developer.download.nvidia.com/compute/cuda/repos/rhel9/x86_64/cuda-rhel9.repo"
    assert next(s for s in el9["steps"] if s["id"] == "install-driver")["commands"] == [["dnf", "install", "-y", "nvidia-open"]]
    el8 = cli_plan(capsys, "oracle-8.10", "2b85")  # ID_LIKE is only "fedora": still Red Hat family
    assert ["dnf", "module", "install", "-y", "nvidia-driver:open-dkms"] in next(s for s in el8["steps"] if s["id"] == "install-driver")["commands"]
    assert next(s for s in el8["steps"] if s["id"] == "enable-crb")["commands"] == [["dnf", "config-manager", "--set-enabled", "ol8_codeready_builder"]]
    amzn = cli_plan(capsys, "amazon-linux-2023", "2684")
    assert "enable-epel" not in [s["id"] for s in amzn["steps"]]
    assert "amzn2023/x86_64/cuda-amzn2023.repo" in next(s for s in amzn["steps"] if s["id"] == "add-nvidia-repository")["commands"][0][-1]
    old = cli_plan(capsys, "amazon-linux-2", "2684")
    assert not old["supported"] and "yum" in next(s for s in old["steps"] if s["id"] == "install-driver")["explanation"]


# os-release files as real systems print them, for distributions no plan code or fixture was
# written against (published in bug reports, container images and documentation).
UNSEEN = {
    'NAME="Oracle Linux Server"\nVERSION="9.4"\nID="ol"\nID_LIKE="fedora"\nVARIANT="Server"\nVERSION_ID="9.4"\nPLATFORM_ID="platform:el9"\nPRETTY_NAME="Oracle Linux Server 9.4"\n': ("rhel", "dracut"),
    'NAME="CloudLinux"\nVERSION="9.6"\nID="cloudlinux"\nID_LIKE="rhel fedora centos anolis"\nVERSION_ID="9.6"\n': ("rhel", "dracut"),
    'NAME="Rocky Linux"\nVERSION="8.6 (Green Obsidian)"\nID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="8.6"\nPLATFORM_ID="platform:el8"\nPRETTY_NAME="Rocky Linux 8.6 (Green Obsidian)"\n': ("rhel", "dracut"),
    'NAME="Virtuozzo Linux"\nID="virtuozzo"\nID_LIKE="rhel fedora"\nVERSION_ID="8"\nPLATFORM_ID="platform:el8"\nPRETTY_NAME="Virtuozzo Linux"\n': ("rhel", "dracut"),
    'NAME="CentOS Stream"\nVERSION="10"\nID="centos"\nID_LIKE="rhel fedora"\nVERSION_ID="10"\nPRETTY_NAME="CentOS Stream 10 (Coughlan)"\n': ("rhel", "dracut"),
    'NAME="Red Hat Enterprise Linux"\nVERSION="9.4 (Plow)"\nID="rhel"\nID_LIKE="fedora"\nVERSION_ID="9.4"\nPLATFORM_ID="platform:el9"\nPRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"\n': ("rhel", "dracut"),
    'NAME="Fedora Linux"\nVERSION="39 (Workstation Edition)"\nID=fedora\nVERSION_ID=39\nPRETTY_NAME="Fedora Linux 39 (Workstation Edition)"\n': ("fedora", "dracut"),
    'NAME="openSUSE MicroOS"\nID="opensuse-microos"\nID_LIKE="suse opensuse opensuse-tumbleweed microos sl-micro"\nPRETTY_NAME="openSUSE MicroOS"\n': ("suse", "dracut"),
    'NAME="SLES"\nVERSION="15-SP5"\nVERSION_ID="15.5"\nPRETTY_NAME="SUSE Linux Enterprise Server 15 SP5"\nID="sles"\nID_LIKE="suse"\n': ("suse", "dracut"),
    'PRETTY_NAME="Kali GNU/Linux Rolling"\nNAME="Kali GNU/Linux"\nVERSION_ID="2024.1"\nVERSION="2024.1"\nVERSION_CODENAME=kali-rolling\nID=kali\nID_LIKE=debian\n': ("debian", "update-initramfs"),
    'NAME="elementary OS"\nVERSION="7.1 Horus"\nID=elementary\nID_LIKE=ubuntu\nPRETTY_NAME="elementary OS 7.1"\nVERSION_ID="7.1"\nVERSION_CODENAME=horus\nUBUNTU_CODENAME=jammy\n': ("ubuntu", "update-initramfs"),
    'NAME="Manjaro Linux"\nID=manjaro\nID_LIKE=arch\nBUILD_ID=rolling\nPRETTY_NAME="Manjaro Linux"\n': ("arch", "mkinitcpio"),
    'NAME="Mageia"\nVERSION="9"\nID=mageia\nVERSION_ID=9\nID_LIKE="mandriva fedora"\nPRETTY_NAME="Mageia 9"\n': ("unsupported", "dracut"),
    'NAME="Void Linux"\nID="void"\nPRETTY_NAME="Void Linux"\n': ("unsupported", "dracut"),
    'NAME=Gentoo\nID=gentoo\nPRETTY_NAME="Gentoo Linux"\n': ("unsupported", None),
    'NAME="NixOS"\nID=nixos\nVERSION_ID="24.05"\nPRETTY_NAME="NixOS 24.05 (Uakari)"\n': ("unsupported", None),
}


@pytest.mark.parametrize("text", list(UNSEEN), ids=[t.split("\n")[0][5:].strip('"') + "-" + str(i) for i, t in enumerate(UNSEEN)])
def test_family_on_unseen_os_release(cli_root, capsys, tmp_path, text):
    family, tool = UNSEEN[text]
    os_info = parse_os_release(text)
    assert (os_info.family, os_info.initramfs_tool) == (family, tool)
    f = tmp_path / "os-release"
    f.write_text(text)
    for gpu in ("1b80", "2b85"):
        assert main.main(["setup", "--plan", "--os-release", str(f), "--gpu", gpu, "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        nouveau = next(s for s in data["steps"] if s["id"] == "blacklist-nouveau")["commands"]
        if tool:
            assert nouveau[-1][0] == tool
        else:  # not knowable: only the file is written, and the plan says so
            assert len(nouveau) == 1 and any("cannot tell which tool rebuilds" in n for n in data["notes"])
        assert data["driver"]["version"] and data["pytorch"]["build"]


def test_rules_rows_carry_their_sources():
    from services.setup.rules import RULES_FILE

    data = json.loads(RULES_FILE.read_text(encoding="utf-8"))
    for g in data["generations"]:  # a minimum-driver guard for every generation, with its source
        assert g["min_driver_branch"] and "Table 3" in g["min_driver_source"], g["name"]
    for key in ("driver_sources", "ubuntu_driver_branches", "distro_driver_notes", "pytorch_releases"):
        assert data[key] and all(r.get("source") for r in data[key]), key
    assert data["pytorch_releases"][-1]["torch"] == "2.14" and "197555" in data["pytorch_releases"][-1]["source"]


def test_pytorch_for_driver_prefers_the_newest_release_then_the_newest_cuda():
    assert RULES.pytorch_for_driver("sm_89", "580.65.06", "linux").variant.variant == "cu130"
    older = RULES.pytorch_for_driver("sm_89", "535.261.03", "linux")  # Debian 12
    assert older.variant.variant == "cu126" and older.compat == "minor_compat" and older.floor_driver == "525.60.13"
    assert RULES.pytorch_for_driver("sm_120", "570.124.06", "linux").variant.variant == "cu128"  # last in 2.11
    assert RULES.pytorch_for_driver("sm_61", "580.65.06", "linux").variant.variant == "cu126"  # cu130 starts at Turing
    assert RULES.pytorch_for_driver("sm_61", "470.256.02", "linux") is None  # Debian 11: nothing current runs
