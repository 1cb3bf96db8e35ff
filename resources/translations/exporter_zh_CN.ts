<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Exporter</name>
    <message>
        <source>The metrics endpoint could not start: {error}</source>
        <translation>指标端点无法启动：{error}</translation>
    </message>
    <message>
        <source>The metrics endpoint is off.</source>
        <translation>指标端点已关闭。</translation>
    </message>
    <message>
        <source>Serving Prometheus metrics at {url}</source>
        <translation>正在 {url} 提供 Prometheus 指标</translation>
    </message>
</context>
<context>
    <name>Hosts</name>
    <message>
        <source>Cannot reach {url}: {reason}</source>
        <translation>无法连接 {url}：{reason}</translation>
    </message>
    <message>
        <source>{url} did not answer with Prometheus metrics ({error})</source>
        <translation>{url} 返回的不是 Prometheus 指标（{error}）</translation>
    </message>
    <message>
        <source>{url} answered, but reports no GPU metrics</source>
        <translation>{url} 有响应，但没有 GPU 指标</translation>
    </message>
    <message>
        <source>{url} did not answer as a Prometheus server ({error})</source>
        <translation>{url} 的响应不像 Prometheus 服务器（{error}）</translation>
    </message>
    <message>
        <source>{url} has no DCGM GPU metrics yet</source>
        <translation>{url} 暂时没有 DCGM GPU 指标</translation>
    </message>
</context>
</TS>
