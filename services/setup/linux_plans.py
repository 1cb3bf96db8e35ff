"""Linux install plans: picks the distribution family's plan (services/setup/linux/).

Ubuntu (and Mint, Pop!_OS), Debian, Fedora, RHEL and rebuilds, openSUSE and
Arch each have a module; anything else gets the generic steps. The steps they
share live in ``services.setup.linux.common``.
"""
from __future__ import annotations

from services.setup.linux.arch import arch_plan
from services.setup.linux.common import (  # noqa: F401 - the names other modules and tests import from here
    NOUVEAU_BLACKLIST,
    NOUVEAU_FILE,
    DriverTarget,
    PlanInputs,
    outcome_summary,
    plan_key,
    plan_outcome,
    pytorch_steps,
)
from services.setup.linux.debian import (  # noqa: F401
    add_debian_components,
    debian_components_present,
    debian_plan,
)
from services.setup.linux.fedora import fedora_plan
from services.setup.linux.generic import generic_plan
from services.setup.linux.rhel import rhel_plan
from services.setup.linux.suse import suse_plan
from services.setup.linux.ubuntu import ubuntu_plan
from services.setup.plan import Plan
from services.setup.os_release import OsInfo
from services.setup.rules import Rules


def build_linux_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules) -> Plan:
    family = os.family if os else "unsupported"
    if family == "ubuntu":
        return ubuntu_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "debian":
        return debian_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "fedora":
        return fedora_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "rhel":
        return rhel_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "suse":
        return suse_plan(os, inputs, rules)  # type: ignore[arg-type]
    if family == "arch":
        return arch_plan(os, inputs, rules)  # type: ignore[arg-type]
    return generic_plan(os, inputs, rules)
