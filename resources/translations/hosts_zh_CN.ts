<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>HostsPage</name>
    <message>
        <source>Other hosts</source>
        <translation>其他主机</translation>
    </message>
    <message>
        <source>Watch the GPUs of other machines. Add the address of a GPU Assistant exporter or an NVIDIA dcgm-exporter (host:9400), or of a Prometheus server (host:9090) that scrapes them.</source>
        <translation>查看其他机器的 GPU。添加 GPU 助手导出器或 NVIDIA dcgm-exporter 的地址（主机:9400），或抓取它们的 Prometheus 服务器地址（主机:9090）。</translation>
    </message>
    <message>
        <source>e.g. 192.168.1.20:9400 or http://prometheus:9090</source>
        <translation>例如 192.168.1.20:9400 或 http://prometheus:9090</translation>
    </message>
    <message>
        <source>Detect</source>
        <translation>自动识别</translation>
    </message>
    <message>
        <source>Exporter (/metrics)</source>
        <translation>导出器（/metrics）</translation>
    </message>
    <message>
        <source>Prometheus server</source>
        <translation>Prometheus 服务器</translation>
    </message>
    <message>
        <source>Add host</source>
        <translation>添加主机</translation>
    </message>
    <message>
        <source>Remove host</source>
        <translation>移除主机</translation>
    </message>
    <message>
        <source>No hosts yet. Add one above.</source>
        <translation>还没有主机。请在上方添加。</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Serve this computer&apos;s GPU metrics for Prometheus</source>
        <translation>为 Prometheus 提供本机 GPU 指标</translation>
    </message>
    <message>
        <source>port </source>
        <translation>端口 </translation>
    </message>
    <message>
        <source>Needs live monitoring of this computer (not running in this session).</source>
        <translation>需要本机的实时监控（本次运行未启用）。</translation>
    </message>
    <message>
        <source>That is not a web address: type host:port or http://host:port</source>
        <translation>这不是网址：请输入 主机:端口 或 http://主机:端口</translation>
    </message>
    <message>
        <source>That host is already in the list.</source>
        <translation>该主机已在列表中。</translation>
    </message>
    <message>
        <source>waiting for the first answer…</source>
        <translation>正在等待首次响应…</translation>
    </message>
    <message>
        <source>{n} GPU(s), updated {time}</source>
        <translation>{n} 块 GPU，更新于 {time}</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>not GPU metrics</source>
        <translation>不是 GPU 指标</translation>
    </message>
</context>
<context>
    <name>RemoteGpuCard</name>
    <message>
        <source>{v:.0f}% busy</source>
        <translation>占用 {v:.0f}%</translation>
    </message>
    <message>
        <source>{v:.0f} °C</source>
        <translation>{v:.0f} °C</translation>
    </message>
    <message>
        <source>{v:.0f}{limit} W</source>
        <translation>{v:.0f}{limit} W</translation>
    </message>
    <message>
        <source>{v:.1f}{total} GiB</source>
        <translation>{v:.1f}{total} GiB</translation>
    </message>
    <message>
        <source>No readings</source>
        <translation>暂无读数</translation>
    </message>
</context>
</TS>
