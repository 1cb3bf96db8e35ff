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
    <message>
        <source>cannot listen on {host}:{port}: {reason}</source>
        <translation>无法在 {host}:{port} 上监听：{reason}</translation>
    </message>
</context>
<context>
    <name>Hosts</name>
    <message>
        <source>the server answered HTTP {code}</source>
        <translation>服务器返回了 HTTP {code}</translation>
    </message>
    <message>
        <source>the answer is larger than {size} MB</source>
        <translation>返回的内容超过 {size} MB</translation>
    </message>
    <message>
        <source>connection refused (nothing listens on that port)</source>
        <translation>连接被拒绝（该端口上没有服务在监听）</translation>
    </message>
    <message>
        <source>no answer in time</source>
        <translation>等待超时，没有应答</translation>
    </message>
    <message>
        <source>the host name is not known</source>
        <translation>无法解析该主机名</translation>
    </message>
    <message>
        <source>no network route to that host</source>
        <translation>没有通往该主机的网络路由</translation>
    </message>
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
