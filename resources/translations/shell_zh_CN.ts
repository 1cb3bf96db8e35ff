<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About {name}</source>
        <translation>关于 {name}</translation>
    </message>
    <message>
        <source>Version {version}</source>
        <translation>版本 {version}</translation>
    </message>
    <message>
        <source>Settings folder: {path}</source>
        <translation>设置文件夹：{path}</translation>
    </message>
    <message>
        <source>Data folder: {path}</source>
        <translation>数据文件夹：{path}</translation>
    </message>
    <message>
        <source>Built with Qt for Python (PySide6, LGPL-3.0) and pyqtgraph (MIT). It reads your GPU through the NVIDIA driver&apos;s own NVML library, which is not shipped with this app. NVIDIA, GeForce and RTX are trademarks of NVIDIA Corporation; this app is not made by NVIDIA.</source>
        <translation>基于 Qt for Python（PySide6，LGPL-3.0）和 pyqtgraph（MIT）构建。本软件通过 NVIDIA 驱动自带的 NVML 库读取显卡信息，该库不随本软件分发。NVIDIA、GeForce 和 RTX 是 NVIDIA Corporation 的商标；本软件并非 NVIDIA 出品。</translation>
    </message>
    <message>
        <source>Copy version info</source>
        <translation>复制版本信息</translation>
    </message>
</context>
<context>
    <name>Exporter</name>
    <message>
        <source>no NVIDIA GPU was found</source>
        <translation>没有找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>nothing to export: {reason} (use --demo to serve simulated GPUs)</source>
        <translation>没有可导出的数据：{reason}（用 --demo 提供模拟 GPU）</translation>
    </message>
    <message>
        <source>Serving {url} (Ctrl-C to stop)</source>
        <translation>正在 {url} 提供指标（按 Ctrl-C 停止）</translation>
    </message>
    <message>
        <source>listening beyond this machine without authentication; see the README section on the exporter for putting TLS and a password in front of it</source>
        <translation>正在向本机以外开放且没有身份验证；请按 README 中导出器一节的说明，在前面加上 TLS 和密码</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>About {name}</source>
        <translation>关于 {name}</translation>
    </message>
</context>
<context>
    <name>Money</name>
    <message>
        <source>No dated AutoDL price was found in our sources: cloud prices in CNY are the lowest listed on a public price index, or converted from USD; enter the price you see (--cloud-rate CARD=AMOUNT).</source>
        <translation>资料中没有找到注明日期的 AutoDL 价格：人民币云端价格取自公开价格指数上的最低报价，或由美元换算；请填写你看到的价格（--cloud-rate 显卡=金额）。</translation>
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
    <name>PsuReport</name>
    <message>
        <source>{gpu} price: {note}</source>
        <translation>{gpu} 价格：{note}</translation>
    </message>
    <message>
        <source>{gpu} cloud price: {source}</source>
        <translation>{gpu} 云端价格：{source}</translation>
    </message>
    <message>
        <source>{gpu} cloud price: {source}; converted from USD</source>
        <translation>{gpu} 云端价格：{source}；由美元换算</translation>
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
        <source>Start hidden in the tray (the window opens from the tray icon)</source>
        <translation>启动时隐藏到托盘（从托盘图标打开窗口）</translation>
    </message>
    <message>
        <source>Your settings file could not be read: {problem}</source>
        <translation>无法读取设置文件：{problem}</translation>
    </message>
    <message>
        <source>Metrics for Prometheus</source>
        <translation>Prometheus 指标</translation>
    </message>
    <message>
        <source>Serve this computer&apos;s GPU metrics while the app runs</source>
        <translation>应用运行时提供本机 GPU 指标</translation>
    </message>
    <message>
        <source>This computer only (127.0.0.1)</source>
        <translation>仅本机（127.0.0.1）</translation>
    </message>
    <message>
        <source>All networks (0.0.0.0): put TLS and a password in front</source>
        <translation>所有网络（0.0.0.0）：请在前面加上 TLS 和密码</translation>
    </message>
    <message>
        <source>Listen on</source>
        <translation>监听地址</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
</context>
</TS>
