<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>NotBuiltPage</name>
    <message>
        <source>This tool is not part of this version of GPU Assistant yet.</source>
        <translation>此版本的 GPU 助手尚未包含这个工具。</translation>
    </message>
</context>
<context>
    <name>Pages</name>
    <message>
        <source>Dashboard</source>
        <translation>仪表盘</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>安装向导</translation>
    </message>
    <message>
        <source>Hybrid GPU</source>
        <translation>混合显卡</translation>
    </message>
    <message>
        <source>Build &amp; PSU</source>
        <translation>装机与电源</translation>
    </message>
    <message>
        <source>Model fit</source>
        <translation>模型显存</translation>
    </message>
    <message>
        <source>Other hosts</source>
        <translation>其他主机</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Keep monitoring in the tray when the window is closed</source>
        <translation>关闭窗口后在托盘中继续监控</translation>
    </message>
    <message>
        <source>Your settings file could not be read: {problem}</source>
        <translation>无法读取设置文件：{problem}</translation>
    </message>
</context>
</TS>
