"""What the doctor reports: findings and their fixes (shared by the doctor, its Windows
checks and the troubleshooter, so none of them imports another for its types)."""
from __future__ import annotations

from dataclasses import dataclass

from services.i18n import Msg

SEVERITIES = ("error", "warning", "info", "ok")


@dataclass(frozen=True, slots=True)
class Fix:
    label: Msg
    commands: tuple[tuple[str, ...], ...] = ()
    step: str | None = None  # a wizard step that does it


@dataclass(frozen=True, slots=True)
class Finding:
    code: str  # stable, for JSON and for the troubleshooter
    severity: str  # error | warning | info | ok
    title: Msg
    detail: Msg
    fixes: tuple[Fix, ...] = ()
