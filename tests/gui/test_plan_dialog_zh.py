"""The Hybrid plan dialog lists the changes in Chinese for a Chinese reader (issue 22)."""
from __future__ import annotations

from gui.hybrid.page import PlanDialog
from gui.i18n import TranslatorSet
from tests.services.hybrid.test_change_describe_zh import PLAN


def test_plan_dialog_in_chinese(qtbot, qapp):
    translators = TranslatorSet()
    translators.install(qapp, "zh_CN")
    try:
        dialog = PlanDialog(PLAN)
        qtbot.addWidget(dialog)
        text = dialog.text.toPlainText()
        assert "文件 /home/li/.local/bin/web-ui-on-nvidia：新建（可执行）" in text
        assert "create" not in text and "executable" not in text
    finally:
        translators.install(qapp, "en")
