"""Chinese calls the app "GPU 助手" everywhere; the English name stays in English (issue 22)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from services.i18n import TRANSLATIONS_DIR


def test_no_chinese_translation_keeps_the_english_app_name():
    found = []
    for ts in sorted(TRANSLATIONS_DIR.glob("*_zh_CN.ts")):
        for message in ET.parse(ts).getroot().iter("message"):
            text = message.findtext("translation") or ""
            if "GPU Assistant" in text:
                found.append(f"{ts.name}: {text}")
    assert not found
