"""Anything else: the distribution's own driver package, by hand, with the shared steps."""
from __future__ import annotations

from services.setup.linux.common import (
    INITRAMFS_BY_TOOL,
    PlanInputs,
    generic_steps_plan,
)
from services.setup.plan import Plan
from services.setup.os_release import OsInfo
from services.setup.rules import Rules

# ---- anything else ------------------------------------------------------------------------

def generic_plan(os: OsInfo | None, inputs: PlanInputs, rules: Rules) -> Plan:
    tool: tuple[str, ...] | None = None
    if inputs.probe_files:
        for exe, cmd in (("/usr/bin/dracut", ("dracut", "--force")), ("/usr/sbin/update-initramfs", ("update-initramfs", "-u")),
                         ("/usr/bin/mkinitcpio", ("mkinitcpio", "-P"))):
            if inputs.root.exists(exe):
                tool = cmd
                break
    if tool is None and os is not None and os.initramfs_tool:
        tool = INITRAMFS_BY_TOOL[os.initramfs_tool]  # known from ID / ID_LIKE (Mageia: dracut)
    return generic_steps_plan(os, inputs, rules, [], tool=tool)
