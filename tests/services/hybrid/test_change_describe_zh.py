"""The changes a preference plan shows are in the reader's language (issue 22: the Chinese plan
dialog said "file …: create (executable)"); paths, values and file contents stay as they are."""
from __future__ import annotations

from services.hybrid.preference import Change, PreferencePlan
from services.i18n import Catalog

LAUNCHER = Change(kind="file", target="/home/li/.local/bin/web-ui-on-nvidia", name=None, before=None,
                  after="#!/bin/sh\nexec env __NV_PRIME_RENDER_OFFLOAD=1 \"$@\"\n", executable=True)
ENTRY = Change(kind="file", target="/home/li/.local/share/applications/webui.desktop", name=None,
               before="[Desktop Entry]\n", after="[Desktop Entry]\nPrefersNonDefaultGPU=true\n")
GONE = Change(kind="file", target="/home/li/.local/bin/old", name=None, before="x\n", after=None)
VALUE = Change(kind="registry", target="HKCU\\Software\\Microsoft\\DirectX\\UserGpuPreferences",
               name="C:\\李雷\\python.exe", before=None, after="GpuPreference=2;")
PLAN = PreferencePlan(program="webui", platform="linux", changes=(LAUNCHER, ENTRY, GONE, VALUE), notes=())


def test_english_is_unchanged_in_meaning():
    text = PLAN.describe()
    assert "file /home/li/.local/bin/web-ui-on-nvidia: create (executable)\n  | #!/bin/sh" in text
    assert "replace (the old content is kept in the backup)" in text and ": delete" in text
    assert "before: (no value)" in text and 'after:  "GpuPreference=2;"' in text


def test_chinese_reader_gets_chinese_descriptions():
    zh = Catalog.load("zh_CN")
    text = PLAN.describe(zh.tr)
    assert "文件 /home/li/.local/bin/web-ui-on-nvidia：新建（可执行）\n  | #!/bin/sh" in text
    assert "替换（旧内容保存在备份中）" in text and "：删除" in text
    assert "修改前：（无值）" in text and "C:\\李雷\\python.exe" in text
    for english in ("create", "executable", "replace", "delete", "before:", "(no value)", "registry "):
        assert english not in text
    assert zh.render(LAUNCHER.describe()).startswith("文件 ")
