<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AlertSettingsGroup</name>
    <message>
        <source>Alerts</source>
        <translation>警报</translation>
    </message>
    <message>
        <source>Watch the GPUs and alert me about problems</source>
        <translation>监视 GPU，出现问题时提醒我</translation>
    </message>
    <message>
        <source>for at least</source>
        <translation>且持续至少</translation>
    </message>
    <message>
        <source>Temperature above</source>
        <translation>温度高于</translation>
    </message>
    <message>
        <source>GPU memory above</source>
        <translation>显存占用高于</translation>
    </message>
    <message>
        <source>A fan standing still on a hot card usually means a failed fan or a fan curve problem.</source>
        <translation>显卡很热而风扇不转，通常是风扇坏了或风扇曲线设置有问题。</translation>
    </message>
    <message>
        <source>Fan at 0% while hotter than</source>
        <translation>风扇为 0% 且温度高于</translation>
    </message>
    <message>
        <source>Clocks lowered because the card is too warm</source>
        <translation>因温度过高而降频</translation>
    </message>
    <message>
        <source>Clocks lowered by the power limit (common under full load)</source>
        <translation>因功耗墙而降频（满载时很常见）</translation>
    </message>
    <message>
        <source>Hardware slowdown (overheating or a power supply problem)</source>
        <translation>硬件降频（过热或电源问题）</translation>
    </message>
    <message>
        <source>A GPU stops answering</source>
        <translation>GPU 失去响应</translation>
    </message>
    <message>
        <source>Show alerts as desktop notifications</source>
        <translation>以桌面通知显示警报</translation>
    </message>
    <message>
        <source>A program&apos;s GPU memory spills into system memory</source>
        <translation>程序的显存溢出到系统内存</translation>
    </message>
    <message>
        <source>Windows: when a program&apos;s GPU memory is full and its shared memory keeps growing, the driver is moving its data to system memory (sysmem fallback), which runs many times slower.</source>
        <translation>Windows：程序的显存已满而共享 GPU 内存还在增长，说明驱动正把它的数据挪到系统内存（sysmem fallback），运行会慢好几倍。</translation>
    </message>
    <message>
        <source>by more than</source>
        <translation>超过</translation>
    </message>
    <message>
        <source>Heavy work on the integrated GPU of a hybrid computer</source>
        <translation>双显卡电脑上有程序在核显上重度运行</translation>
    </message>
    <message>
        <source>A program doing 3D or compute work on the integrated GPU while an NVIDIA GPU is there usually runs several times slower; the Hybrid page can move it.</source>
        <translation>有 NVIDIA 显卡却在核显上做 3D 或计算的程序，通常会慢好几倍；可在“混合显卡”页把它换到 NVIDIA 显卡上。</translation>
    </message>
    <message>
        <source>above</source>
        <translation>高于</translation>
    </message>
    <message>
        <source>for</source>
        <translation>持续</translation>
    </message>
</context>
<context>
    <name>Alerts</name>
    <message>
        <source>Temperature above the limit</source>
        <translation>温度超过上限</translation>
    </message>
    <message>
        <source>Slowed down by heat</source>
        <translation>因过热降频</translation>
    </message>
    <message>
        <source>Held at the power limit</source>
        <translation>受功耗上限限制</translation>
    </message>
    <message>
        <source>Hardware slowdown</source>
        <translation>硬件降频</translation>
    </message>
    <message>
        <source>GPU memory almost full</source>
        <translation>显存即将用满</translation>
    </message>
    <message>
        <source>Fan stopped while hot</source>
        <translation>高温时风扇停转</translation>
    </message>
    <message>
        <source>GPU lost</source>
        <translation>GPU 失联</translation>
    </message>
    <message>
        <source>GPU memory spilling into system memory</source>
        <translation>显存溢出到系统内存</translation>
    </message>
    <message>
        <source>Heavy work on the integrated GPU</source>
        <translation>核显上有重度负载</translation>
    </message>
    <message>
        <source>Fixes: a smaller context, batch or quantisation (Model fit shows what fits{model}); or, in the NVIDIA Control Panel (Manage 3D settings › Program settings), set “CUDA - Sysmem Fallback Policy” to “Prefer No Sysmem Fallback” for this program: it then stops with an out-of-memory error instead of running slowly.</source>
        <translation>解决办法：减小上下文长度、批大小，或换用更小的量化（“模型显存”页会算出放得下的配置{model}）；或者在 NVIDIA 控制面板（管理 3D 设置 › 程序设置）里为这个程序把“CUDA - Sysmem Fallback Policy”（CUDA - 系统内存回退策略）设为“Prefer No Sysmem Fallback”（首选无系统内存回退）：这样显存不够时它会直接报显存不足（out of memory），而不是悄悄变慢。</translation>
    </message>
    <message>
        <source> for {model}</source>
        <translation>（{model}）</translation>
    </message>
    <message>
        <source>{name} ({pid}) on {gpu} is spilling into system memory: its GPU memory is full ({dedicated} of {total} MiB) and {spilled} MiB more now sit in shared system memory, which is many times slower. {fixes}</source>
        <translation>{gpu} 上的 {name}（{pid}）正在溢出到系统内存：它的显存已满（{dedicated} / {total} MiB），另有 {spilled} MiB 放进了共享的系统内存，速度会慢好几倍。{fixes}</translation>
    </message>
    <message>
        <source>{name} ({pid}) on {gpu}: GPU memory full, {spilled} MiB spilled into system memory; it now runs many times slower.</source>
        <translation>{gpu} 上的 {name}（{pid}）：显存已满，{spilled} MiB 溢出到了系统内存，现在会慢好几倍。</translation>
    </message>
    <message>
        <source>{name} ({pid}) is doing heavy {engine} work on the integrated GPU ({gpu}, {busy}% busy) while the NVIDIA GPU is there for it. Open it on the Hybrid page and choose “Run on the NVIDIA GPU”, then restart it.</source>
        <translation>{name}（{pid}）正在核显（{gpu}，占用 {busy}%）上做繁重的 {engine} 工作，而 NVIDIA 显卡闲着。请在“混合显卡”页打开它，选择“在 NVIDIA GPU 上运行”，然后重启这个程序。</translation>
    </message>
    <message>
        <source>{name} ({pid}) works on the integrated GPU ({gpu}, {busy}% busy), not the NVIDIA GPU.</source>
        <translation>{name}（{pid}）在核显（{gpu}，占用 {busy}%）上运行，没有用 NVIDIA 显卡。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) stopped responding. Its history is kept; the app keeps retrying.</source>
        <translation>GPU {gpu}（{name}）已无响应。历史数据已保留，程序会继续尝试重新连接。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) has been above {limit} °C for {seconds} s (now {temp} °C).</source>
        <translation>GPU {gpu}（{name}）温度已超过 {limit} °C 达 {seconds} 秒（当前 {temp} °C）。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) is lowering its clocks because it is too hot ({temp} °C).</source>
        <translation>GPU {gpu}（{name}）温度过高（{temp} °C），正在降频。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) is held at its power limit ({power} W of {limit} W).</source>
        <translation>GPU {gpu}（{name}）已达到功耗上限（{power} W / {limit} W）。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}): the hardware cut its clocks hard ({reasons}). Check cooling and the power cables.</source>
        <translation>GPU {gpu}（{name}）：硬件已强制大幅降频（{reasons}）。请检查散热和供电线。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) memory is {pct}% full ({used} of {total} MiB). The next allocation may fail with out-of-memory.</source>
        <translation>GPU {gpu}（{name}）显存已用 {pct}%（{used} / {total} MiB）。下一次分配可能因显存不足（OOM）而失败。</translation>
    </message>
    <message>
        <source>GPU {gpu} ({name}) reports its fan at 0% at {temp} °C. Check that the fan turns and is connected.</source>
        <translation>GPU {gpu}（{name}）在 {temp} °C 时风扇转速为 0%。请检查风扇是否在转、是否接好。</translation>
    </message>
</context>
<context>
    <name>BottomPane</name>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Insights</source>
        <translation>分析建议</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>警报</translation>
    </message>
    <message>
        <source>No alerts from this source yet.</source>
        <translation>当前数据源还没有警报。</translation>
    </message>
    <message>
        <source>Show the processes, insights and alerts</source>
        <translation>显示进程、分析建议和警报</translation>
    </message>
    <message>
        <source>Fold the processes, insights and alerts away</source>
        <translation>收起进程、分析建议和警报</translation>
    </message>
    <message>
        <source>Nothing to report: no bottleneck, slowdown or heat problem seen in this window.</source>
        <translation>一切正常：在此时间范围内没有发现瓶颈、降频或过热问题。</translation>
    </message>
    <message>
        <source>Insights ({count})</source>
        <translation>分析建议（{count}）</translation>
    </message>
    <message>
        <source>Alerts ({count})</source>
        <translation>警报（{count}）</translation>
    </message>
</context>
<context>
    <name>DashboardPage</name>
    <message>
        <source>Dashboard</source>
        <translation>仪表盘</translation>
    </message>
    <message>
        <source>Time window</source>
        <translation>时间范围</translation>
    </message>
    <message>
        <source>1 minute</source>
        <translation>1 分钟</translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation>5 分钟</translation>
    </message>
    <message>
        <source>10 minutes</source>
        <translation>10 分钟</translation>
    </message>
    <message>
        <source>30 minutes</source>
        <translation>30 分钟</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation>6 小时</translation>
    </message>
    <message>
        <source>24 hours</source>
        <translation>24 小时</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Follow the newest readings. Drag or scroll a graph to look back; press Live to return.</source>
        <translation>跟随最新读数。拖动或滚动图表可回看历史；点“实时”返回。</translation>
    </message>
    <message>
        <source>Back to live</source>
        <translation>返回实时监控</translation>
    </message>
    <message>
        <source>Close the replay and monitor this computer&apos;s GPUs again.</source>
        <translation>关闭回放，重新监控本机的 GPU。</translation>
    </message>
    <message>
        <source>Leave the demo</source>
        <translation>退出演示</translation>
    </message>
    <message>
        <source>Stop the simulated run and monitor this computer&apos;s GPUs.</source>
        <translation>停止模拟运行，改为监控本机的 GPU。</translation>
    </message>
    <message>
        <source>Sessions…</source>
        <translation>会话记录…</translation>
    </message>
    <message>
        <source>Open, compare and export recorded sessions, or open an nvidia-smi log.</source>
        <translation>打开、对比和导出已记录的会话，或打开 nvidia-smi 日志。</translation>
    </message>
    <message>
        <source>Monitoring is not running</source>
        <translation>监控未运行</translation>
    </message>
    <message>
        <source>The monitoring service could not be started. Run &apos;{command} monitor --once&apos; in a terminal to see the reason, or try the demo.</source>
        <translation>监控服务无法启动。请在终端运行 “{command} monitor --once” 查看原因，或先试试演示。</translation>
    </message>
    <message>
        <source>Starting the demo…</source>
        <translation>正在启动演示…</translation>
    </message>
    <message>
        <source>Simulating a two-GPU training run: the first readings come in a moment, its past two hours just after.</source>
        <translation>正在模拟一次双 GPU 训练：第一批读数马上就到，之前两小时的历史随后载入。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Waiting for the first readings.</source>
        <translation>正在等待第一批读数。</translation>
    </message>
    <message>
        <source>Demo: a simulated training run</source>
        <translation>演示：模拟的训练任务</translation>
    </message>
    <message>
        <source>Demo: a simulated training run (loading its past two hours…)</source>
        <translation>演示：模拟的训练任务（正在载入之前两小时…）</translation>
    </message>
    <message>
        <source>Replay of {name}, {start} to {end}</source>
        <translation>回放 {name}，{start} 至 {end}</translation>
    </message>
    <message>
        <source>Replay of {name}</source>
        <translation>回放 {name}</translation>
    </message>
    <message>
        <source>Replay of a recorded log</source>
        <translation>回放已记录的日志</translation>
    </message>
    <message>
        <source>Live from the NVIDIA driver</source>
        <translation>来自 NVIDIA 驱动的实时数据</translation>
    </message>
</context>
<context>
    <name>DeviceState</name>
    <message>
        <source>OK</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Sleeping</source>
        <translation>休眠中</translation>
    </message>
    <message>
        <source>No NVIDIA driver</source>
        <translation>未安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>Driver not loaded</source>
        <translation>驱动未加载</translation>
    </message>
    <message>
        <source>Reboot needed</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <source>No permission</source>
        <translation>无访问权限</translation>
    </message>
    <message>
        <source>GPU lost</source>
        <translation>GPU 已掉线</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>Readings are live.</source>
        <translation>读数正在实时更新。</translation>
    </message>
    <message>
        <source>The GPU is powered down by the system to save energy; it is not polled so that it can stay asleep.</source>
        <translation>系统为省电已让这块 GPU 断电休眠；为了不把它唤醒，暂不读取它的数据。</translation>
    </message>
    <message>
        <source>The NVIDIA driver (its NVML library) was not found. Install the NVIDIA driver; the Setup tool can help.</source>
        <translation>找不到 NVIDIA 驱动（NVML 库）。请安装 NVIDIA 驱动，可以使用“安装向导”页面。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is installed but not running. Often nouveau is in use or Secure Boot blocked the module.</source>
        <translation>NVIDIA 驱动已安装但没有运行。常见原因是系统正在使用 nouveau，或安全启动（Secure Boot）阻止了内核模块加载。</translation>
    </message>
    <message>
        <source>The NVIDIA driver was updated but the old one is still running. Reboot to finish the update.</source>
        <translation>NVIDIA 驱动已更新，但正在运行的仍是旧版本。请重启电脑以完成更新。</translation>
    </message>
    <message>
        <source>This user may not access the NVIDIA device files. Check the permissions of /dev/nvidia*.</source>
        <translation>当前用户无权访问 NVIDIA 设备文件。请检查 /dev/nvidia* 的权限。</translation>
    </message>
    <message>
        <source>The GPU stopped answering (fallen off the bus). History is kept and it is retried; if it stays lost, check power and seating, then reboot.</source>
        <translation>GPU 没有响应（已从总线上掉线）。历史数据会保留，程序会自动重试；如果一直掉线，请检查供电和显卡插接，然后重启。</translation>
    </message>
    <message>
        <source>NVML reported an error for this GPU. History is kept and it is retried.</source>
        <translation>NVML 报告这块 GPU 出错。历史数据会保留，程序会自动重试。</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation>未找到 NVIDIA GPU</translation>
    </message>
</context>
<context>
    <name>Duration</name>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation>{m} 分 {s:02d} 秒</translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation>{h} 小时 {m:02d} 分</translation>
    </message>
</context>
<context>
    <name>GpuCard</name>
    <message>
        <source>Utilisation</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Clocks</source>
        <translation>频率</translation>
    </message>
    <message>
        <source>Fan</source>
        <translation>风扇</translation>
    </message>
    <message>
        <source>memory bus {pct:.0f}%</source>
        <translation>显存带宽 {pct:.0f}%</translation>
    </message>
    <message>
        <source>of {total} ({pct:.0f}%)</source>
        <translation>共 {total}（{pct:.0f}%）</translation>
    </message>
    <message>
        <source>slows at {t:.0f} °C</source>
        <translation>{t:.0f} °C 起降频</translation>
    </message>
    <message>
        <source>enc {pct:.0f}%</source>
        <translation>编码 {pct:.0f}%</translation>
    </message>
    <message>
        <source>dec {pct:.0f}%</source>
        <translation>解码 {pct:.0f}%</translation>
    </message>
    <message>
        <source>mem {t:.0f} °C</source>
        <translation>显存 {t:.0f} °C</translation>
    </message>
    <message>
        <source>Shuts down at {t:.0f} °C</source>
        <translation>{t:.0f} °C 时关机保护</translation>
    </message>
    <message>
        <source>limit {w:.0f} W</source>
        <translation>上限 {w:.0f} W</translation>
    </message>
    <message>
        <source>max {mhz:.0f}</source>
        <translation>最高 {mhz:.0f}</translation>
    </message>
    <message>
        <source>mem {mhz:.0f}</source>
        <translation>显存 {mhz:.0f}</translation>
    </message>
    <message>
        <source>target speed</source>
        <translation>目标转速</translation>
    </message>
    <message>
        <source>no fan reading</source>
        <translation>无风扇读数</translation>
    </message>
    <message>
        <source>Laptops and some cards do not report a fan speed.</source>
        <translation>笔记本和部分显卡不报告风扇转速。</translation>
    </message>
    <message>
        <source>Performance state: P0 is full speed, higher numbers save power.</source>
        <translation>性能状态：P0 为全速，数字越大越省电。</translation>
    </message>
    <message>
        <source>The link runs at its maximum.</source>
        <translation>链路以最高速率运行。</translation>
    </message>
    <message>
        <source>GPU {index} · {name}</source>
        <translation>GPU {index} · {name}</translation>
    </message>
    <message>
        <source>driver {version}</source>
        <translation>驱动 {version}</translation>
    </message>
    <message>
        <source>This GPU does not report this value.</source>
        <translation>这块 GPU 不报告此数值。</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Lost since {time}: the GPU stopped answering. Its history is kept and it is retried.</source>
        <translation>自 {time} 起失联：GPU 不再响应。它的历史记录会保留，并会自动重试。</translation>
    </message>
    <message>
        <source>On a laptop this usually follows sleep or a change of graphics mode; if it does not come back, restart the computer.</source>
        <translation>在笔记本上，这通常发生在睡眠或切换显卡模式之后；如果一直没有恢复，请重启电脑。</translation>
    </message>
    <message>
        <source>If it does not come back, check its power cables and seating, then restart.</source>
        <translation>如果一直没有恢复，请检查它的供电线和插槽是否插牢，然后重启。</translation>
    </message>
    <message>
        <source>Clocks held back this session:</source>
        <translation>本次会话的降频时长：</translation>
    </message>
    <message>
        <source>No clock slowdowns this session.</source>
        <translation>本次会话没有降频。</translation>
    </message>
</context>
<context>
    <name>GpuStrip</name>
    <message>
        <source>{used} / {total} GiB</source>
        <translation>{used} / {total} GiB</translation>
    </message>
    <message>
        <source>No reading</source>
        <translation>没有读数</translation>
    </message>
    <message>
        <source>The driver does not report throttling</source>
        <translation>驱动不报告降频原因</translation>
    </message>
    <message>
        <source>Not throttled</source>
        <translation>未降频</translation>
    </message>
    <message>
        <source>Clocks held back by: {reasons}</source>
        <translation>频率受限于：{reasons}</translation>
    </message>
</context>
<context>
    <name>Graphs</name>
    <message>
        <source>{month}/{day}</source>
        <translation>{month}月{day}日</translation>
    </message>
    <message>
        <source>no readings in this window</source>
        <translation>此时间范围内没有读数</translation>
    </message>
    <message>
        <source>min {low} · avg {mean} · max {high}</source>
        <translation>最低 {low} · 平均 {mean} · 最高 {high}</translation>
    </message>
    <message>
        <source>Utilisation %</source>
        <translation>利用率 %</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>memory bus</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <source>Memory used (GiB)</source>
        <translation>显存占用 (GiB)</translation>
    </message>
    <message>
        <source>Temp °C</source>
        <translation>温度 °C</translation>
    </message>
    <message>
        <source>mem</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>core</source>
        <translation>核心</translation>
    </message>
    <message>
        <source>slowdown</source>
        <translation>降频点</translation>
    </message>
    <message>
        <source>Power W</source>
        <translation>功耗 W</translation>
    </message>
    <message>
        <source>draw</source>
        <translation>实际</translation>
    </message>
    <message>
        <source>- - limit</source>
        <translation>- - 上限</translation>
    </message>
    <message>
        <source>SM clock MHz</source>
        <translation>SM 频率 MHz</translation>
    </message>
    <message>
        <source>now</source>
        <translation>当前</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最高</translation>
    </message>
</context>
<context>
    <name>Health</name>
    <message>
        <source>Under load the card runs at PCIe Gen{gen} x{width}, below its maximum Gen{gen_max} x{width_max}. Check that it sits in a full-speed x16 slot, that riser cables are rated for this generation, and the PCIe setting in the BIOS.</source>
        <translation>负载下显卡以 PCIe Gen{gen} x{width} 运行，低于其最高的 Gen{gen_max} x{width_max}。请检查显卡是否插在全速 x16 插槽上、延长线（转接线）是否支持这一代 PCIe，以及 BIOS 中的 PCIe 设置。</translation>
    </message>
    <message>
        <source>The link is slower than its maximum while the card is idle. That is normal power saving.</source>
        <translation>显卡空闲时链路低于最高速率，这是正常的节能行为。</translation>
    </message>
    <message>
        <source>Working</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Readings are coming in.</source>
        <translation>正在接收读数。</translation>
    </message>
    <message>
        <source>Sleeping</source>
        <translation>休眠中</translation>
    </message>
    <message>
        <source>The GPU is powered down to save energy. It is not polled, so it can stay asleep; it wakes when a program uses it.</source>
        <translation>GPU 已断电节能。为了不唤醒它，此时不读取它的数据；有程序使用它时会自动唤醒。</translation>
    </message>
    <message>
        <source>No NVIDIA driver found</source>
        <translation>未找到 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>The NVIDIA driver (and its NVML library) is not installed, so no NVIDIA GPU can be read. The Setup page checks your system and installs the right driver.</source>
        <translation>未安装 NVIDIA 驱动（及其 NVML 库），因此无法读取任何 NVIDIA GPU。“安装向导”页面会检查你的系统并安装合适的驱动。</translation>
    </message>
    <message>
        <source>The NVIDIA driver is not loaded</source>
        <translation>NVIDIA 驱动未加载</translation>
    </message>
    <message>
        <source>The driver is installed but not running. This often happens after a kernel update or when Secure Boot blocks the driver. The Setup page finds out why.</source>
        <translation>驱动已安装但没有运行。这常见于内核更新之后，或安全启动（Secure Boot）阻止了驱动。“安装向导”页面可以查明原因。</translation>
    </message>
    <message>
        <source>Restart needed after a driver update</source>
        <translation>驱动更新后需要重启</translation>
    </message>
    <message>
        <source>The running driver and the installed driver files have different versions. Restart the computer to finish the driver update.</source>
        <translation>正在运行的驱动与已安装的驱动文件版本不一致。请重启电脑以完成驱动更新。</translation>
    </message>
    <message>
        <source>No permission to read the GPU</source>
        <translation>没有读取 GPU 的权限</translation>
    </message>
    <message>
        <source>Your user account is not allowed to open the NVIDIA device. The Setup page shows how to grant access.</source>
        <translation>你的用户账户无权打开 NVIDIA 设备。“安装向导”页面会说明如何授予权限。</translation>
    </message>
    <message>
        <source>GPU lost</source>
        <translation>GPU 已丢失</translation>
    </message>
    <message>
        <source>The GPU stopped answering (it fell off the bus or the driver reset it). Its history is kept and it is retried. If it does not come back, check power cables and restart.</source>
        <translation>GPU 失去响应（从总线上掉线或被驱动重置）。历史数据会保留，并会自动重试。如果一直无法恢复，请检查供电线并重启。</translation>
    </message>
    <message>
        <source>GPU error</source>
        <translation>GPU 错误</translation>
    </message>
    <message>
        <source>The driver reported an error while reading this GPU. It is retried automatically.</source>
        <translation>读取这块 GPU 时驱动报告了错误，会自动重试。</translation>
    </message>
    <message>
        <source>This file cannot be opened</source>
        <translation>无法打开此文件</translation>
    </message>
    <message>
        <source>It is not an nvidia-smi CSV log or a GPU Assistant recording, or it cannot be read. The reason is below.</source>
        <translation>它不是 nvidia-smi CSV 日志或 GPU 助手记录，或者无法读取。原因见下方。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found</source>
        <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>The NVIDIA driver is running but reports no GPU. On a laptop, check that the NVIDIA GPU is enabled in the BIOS or the vendor&apos;s power tool (hybrid mode).</source>
        <translation>NVIDIA 驱动正在运行，但没有报告任何 GPU。如果是笔记本，请检查 BIOS 或厂商的电源管理工具中是否启用了 NVIDIA 独显（混合模式）。</translation>
    </message>
</context>
<context>
    <name>Insights</name>
    <message>
        <source>Give the DataLoader more worker processes (num_workers, e.g. the number of CPU cores minus one) and keep them alive between epochs (persistent_workers=True).</source>
        <translation>给 DataLoader 更多工作进程（num_workers，例如 CPU 核心数减一），并在各 epoch 之间保留它们（persistent_workers=True）。</translation>
    </message>
    <message>
        <source>Use pin_memory=True and .to(device, non_blocking=True) so copies to the GPU overlap with compute.</source>
        <translation>使用 pin_memory=True 和 .to(device, non_blocking=True)，让向 GPU 的数据拷贝与计算重叠进行。</translation>
    </message>
    <message>
        <source>Move decoding and augmentation to the GPU (for example NVIDIA DALI or torchvision transforms on GPU tensors), or pre-process the dataset once and cache it.</source>
        <translation>把解码和数据增强放到 GPU 上（例如 NVIDIA DALI，或对 GPU 张量使用 torchvision 变换），或者先把数据集预处理一次并缓存。</translation>
    </message>
    <message>
        <source>Put the dataset on a local SSD/NVMe (not a network share or a hard disk), or cache it in RAM if it fits.</source>
        <translation>把数据集放到本地 SSD/NVMe 上（不要放在网络共享或机械硬盘上）；内存够的话也可以缓存到内存里。</translation>
    </message>
    <message>
        <source>Pack many small files into larger shards (WebDataset, TFRecord, LMDB) and raise prefetch_factor.</source>
        <translation>把大量小文件打包成较大的分片（WebDataset、TFRecord、LMDB），并调大 prefetch_factor。</translation>
    </message>
    <message>
        <source>Profile one training step (torch.profiler): look for .item()/.cpu() calls that synchronise every step, logging that blocks, or a batch size too small to fill the GPU.</source>
        <translation>用 torch.profiler 分析一个训练步：查找每步都会同步的 .item()/.cpu() 调用、阻塞的日志记录，或小到喂不饱 GPU 的 batch size。</translation>
    </message>
    <message>
        <source>Improve airflow: clean dust filters, add or speed up case fans, leave space between cards.</source>
        <translation>改善风道：清理防尘网，增加机箱风扇或提高转速，显卡之间留出空隙。</translation>
    </message>
    <message>
        <source>Use a more aggressive fan curve for long runs.</source>
        <translation>长时间训练时使用更激进的风扇曲线。</translation>
    </message>
    <message>
        <source>Lower the power limit a little (for example nvidia-smi -pl): a 10-20% lower limit usually costs only a few percent of speed and runs much cooler.</source>
        <translation>适当降低功耗上限（例如 nvidia-smi -pl）：降低 10-20% 通常只损失几个百分点的速度，温度却低得多。</translation>
    </message>
    <message>
        <source>Being held at the power limit is normal under a heavy load. If the card allows it, a higher limit or an undervolt gives more speed.</source>
        <translation>重负载下触及功耗上限是正常的。如果显卡允许，提高功耗上限或降压超频可以换来更高速度。</translation>
    </message>
    <message>
        <source>Check the power cables and adapters are fully seated and the power supply is large enough for the card&apos;s peaks.</source>
        <translation>检查供电线和转接头是否插紧，电源功率是否足以应付显卡的峰值功耗。</translation>
    </message>
    <message>
        <source>Size the power supply and check the cables for this card on the Build &amp; PSU page (python main.py psu).</source>
        <translation>在“装机与电源”页为这块卡核算电源并检查线缆（python main.py psu）。</translation>
    </message>
    <message>
        <source>Lower the power limit to {watts} W ({how}): python main.py power --set-limit {watts} --gpu {gpu}; undo with power --undo.</source>
        <translation>把功耗上限降到 {watts} W（{how}）：python main.py power --set-limit {watts} --gpu {gpu}；用 power --undo 撤销。</translation>
    </message>
    <message>
        <source>the limit your sweep recommends</source>
        <translation>你的扫描推荐的上限</translation>
    </message>
    <message>
        <source>10% lower; a sweep measures what it costs: python main.py power --sweep</source>
        <translation>降低 10%；扫描可以实测它的代价：python main.py power --sweep</translation>
    </message>
    <message>
        <source>The memory, not the core, is hot: check the airflow over the card&apos;s memory side (server fans, blanking panels, inlet temperature); a lower power limit also cools it.</source>
        <translation>热的是显存，不是核心：检查显卡显存一侧的风道（服务器风扇、挡板、进风温度）；降低功耗上限也能给它降温。</translation>
    </message>
    <message>
        <source>keeps dropping to 0%</source>
        <translation>反复跌到 0%</translation>
    </message>
    <message>
        <source>stays low</source>
        <translation>一直偏低</translation>
    </message>
    <message>
        <source>GPU {gpu} is waiting for data</source>
        <translation>GPU {gpu} 在等数据</translation>
    </message>
    <message>
        <source>Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory. The disk is the bottleneck: the CPU waits on storage {iowait}% of the time, reading {read} MiB/s.</source>
        <translation>{process}（PID {pid}）占用着显存，但 GPU 利用率{pattern}（2 分钟平均 {util}%）。瓶颈在硬盘：CPU 有 {iowait}% 的时间在等存储，读取速度 {read} MiB/s。</translation>
    </message>
    <message>
        <source>Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory. The CPU is the bottleneck: it is {cpu}% busy overall ({process} itself uses {proc_cpu}%), so batches are not ready in time.</source>
        <translation>{process}（PID {pid}）占用着显存，但 GPU 利用率{pattern}（2 分钟平均 {util}%）。瓶颈在 CPU：整体占用 {cpu}%（{process} 本身占 {proc_cpu}%），数据批次来不及准备好。</translation>
    </message>
    <message>
        <source>Utilisation {pattern} (average {util}% over 2 minutes). {process} (PID {pid}) uses one full CPU core ({proc_cpu}%) while the CPU as a whole is only {cpu}% busy: its data loading runs on a single thread.</source>
        <translation>GPU 利用率{pattern}（2 分钟平均 {util}%）。{process}（PID {pid}）占满了一个 CPU 核心（{proc_cpu}%），而 CPU 整体只占用 {cpu}%：它的数据加载是单线程的。</translation>
    </message>
    <message>
        <source>Utilisation {pattern} (average {util}% over 2 minutes) while {process} (PID {pid}) holds GPU memory, but neither the CPU ({cpu}% busy) nor the disk ({iowait}% iowait) looks like the bottleneck.</source>
        <translation>{process}（PID {pid}）占用着显存，但 GPU 利用率{pattern}（2 分钟平均 {util}%）；CPU（占用 {cpu}%）和硬盘（iowait {iowait}%）看起来都不是瓶颈。</translation>
    </message>
    <message>
        <source>{explanation} The SM clock is {clock} MHz, {drop}% below the {peak} MHz this card holds under load here, since {since}.</source>
        <translation>{explanation}SM 频率为 {clock} MHz，比这张卡在本机负载下通常保持的 {peak} MHz 低 {drop}%，从 {since} 开始。</translation>
    </message>
    <message>
        <source>{explanation} The SM clock is {clock} MHz; held back since {since}.</source>
        <translation>{explanation}SM 频率为 {clock} MHz，从 {since} 开始受限。</translation>
    </message>
    <message>
        <source>GPU {gpu} clocks held back: {reason}</source>
        <translation>GPU {gpu} 频率受限：{reason}</translation>
    </message>
    <message>
        <source>GPU {gpu} clocks dropped</source>
        <translation>GPU {gpu} 频率下降</translation>
    </message>
    <message>
        <source>The SM clock is {clock} MHz, {drop}% below the {peak} MHz this card holds under load here, and the driver reports no throttle reason.</source>
        <translation>SM 频率为 {clock} MHz，比这张卡在本机负载下通常保持的 {peak} MHz 低 {drop}%，但驱动没有报告降频原因。</translation>
    </message>
    <message>
        <source>GPU {gpu} is at {temp} °C and losing speed to heat</source>
        <translation>GPU {gpu} 已达 {temp} °C，正因过热损失速度</translation>
    </message>
    <message>
        <source>Above 80 °C the card gives up clock speed to stay within its temperature target, so the same job runs slower; long runs at this heat also age the card faster.</source>
        <translation>超过 80 °C 后，显卡会降低频率以守住温度目标，同样的任务会跑得更慢；长期在这个温度下运行也会加速显卡老化。</translation>
    </message>
    <message>
        <source>GPU {gpu} memory is at {temp} °C (the core is at {core} °C)</source>
        <translation>GPU {gpu} 显存温度 {temp} °C（核心为 {core} °C）</translation>
    </message>
    <message>
        <source>The memory temperature has stayed at {temp} °C or more for two minutes. Hot memory slows itself down (less bandwidth, so slower token generation) and ages faster, even while the core temperature looks fine.</source>
        <translation>显存温度已连续两分钟在 {temp} °C 或以上。显存过热会自行降速（带宽下降，逐词生成变慢），老化也更快，即使核心温度看起来正常。</translation>
    </message>
</context>
<context>
    <name>MonitorSettingsGroup</name>
    <message>
        <source>Monitoring</source>
        <translation>监控</translation>
    </message>
    <message>
        <source>Utilisation, memory, power, clocks, temperature and throttling. Below 0.5 s the polling itself starts to cost performance.</source>
        <translation>利用率、显存、功耗、频率、温度和降频状态。间隔低于 0.5 秒时，读取本身就会开始影响性能。</translation>
    </message>
    <message>
        <source>Read the GPU every</source>
        <translation>GPU 读取间隔</translation>
    </message>
    <message>
        <source>Fan, PCIe link, processes and ECC change slowly and cost more to read.</source>
        <translation>风扇、PCIe 链路、进程和 ECC 变化较慢，读取开销也更大。</translation>
    </message>
    <message>
        <source>Read fan, PCIe and processes every</source>
        <translation>风扇、PCIe 和进程读取间隔</translation>
    </message>
    <message>
        <source>Record every session (open them later with Sessions…)</source>
        <translation>记录每次会话（之后可在“会话记录…”中打开）</translation>
    </message>
    <message>
        <source>Interval and recording changes apply the next time monitoring starts.</source>
        <translation>间隔和记录设置在下次启动监控时生效。</translation>
    </message>
</context>
<context>
    <name>MonitorTable</name>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Temp</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Util</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>Fan</source>
        <translation>风扇</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>核心频率</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>Clocks held back by</source>
        <translation>降频原因</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source> (+{mib} MiB shared)</source>
        <translation>（另有 {mib} MiB 共享内存）</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>SM</source>
        <translation>SM</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>no processes</source>
        <translation>无进程</translation>
    </message>
    <message>
        <source>No NVIDIA GPU found.</source>
        <translation>没有找到 NVIDIA GPU。</translation>
    </message>
    <message>
        <source>System: CPU {cpu} of {cores} cores, RAM {ram_used} / {ram_total} GiB</source>
        <translation>系统：CPU {cpu}（共 {cores} 核），内存 {ram_used} / {ram_total} GiB</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>max Gen{gen} x{width}</source>
        <translation>最高 Gen{gen} x{width}</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>graphics</source>
        <translation>图形</translation>
    </message>
    <message>
        <source>compute+graphics</source>
        <translation>计算+图形</translation>
    </message>
</context>
<context>
    <name>NoGpuPanel</name>
    <message>
        <source>Open Setup</source>
        <translation>打开安装向导</translation>
    </message>
    <message>
        <source>Show the demo</source>
        <translation>查看演示</translation>
    </message>
    <message>
        <source>Run the dashboard on a simulated two-GPU training run.</source>
        <translation>用模拟的双 GPU 训练任务运行仪表盘。</translation>
    </message>
</context>
<context>
    <name>NvmlState</name>
    <message>
        <source>NVIDIA driver not found (NVML library missing): install the NVIDIA driver</source>
        <translation>未找到 NVIDIA 驱动（缺少 NVML 库）：请安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>NVIDIA driver is installed but not loaded (nouveau in use, or Secure Boot blocked the module?)</source>
        <translation>NVIDIA 驱动已安装但未加载（是否正在使用 nouveau，或安全启动阻止了内核模块？）</translation>
    </message>
    <message>
        <source>NVIDIA driver and library versions differ (driver updated without a reboot): reboot</source>
        <translation>NVIDIA 驱动与库的版本不一致（驱动更新后尚未重启）：请重启电脑</translation>
    </message>
    <message>
        <source>no permission to use the NVIDIA GPU (device files not accessible)</source>
        <translation>没有使用 NVIDIA GPU 的权限（无法访问设备文件）</translation>
    </message>
    <message>
        <source>GPU has fallen off the bus (GPU is lost): retrying</source>
        <translation>GPU 已从总线上掉线（GPU 丢失）：正在重试</translation>
    </message>
    <message>
        <source>GPU needs a reset or reboot</source>
        <translation>GPU 需要复位或重启电脑</translation>
    </message>
    <message>
        <source>GPU reports insufficient external power: check its power cables</source>
        <translation>GPU 报告外部供电不足：请检查其电源线</translation>
    </message>
    <message>
        <source>NVML is not initialised (driver restarted?): retrying</source>
        <translation>NVML 未初始化（驱动是否重启过？）：正在重试</translation>
    </message>
    <message>
        <source>NVML error {code}: {text}</source>
        <translation>NVML 错误 {code}：{text}</translation>
    </message>
    <message>
        <source>NVML error {code}</source>
        <translation>NVML 错误 {code}</translation>
    </message>
    <message>
        <source>the installed &apos;pynvml&apos; module is not nvidia-ml-py: pip install --force-reinstall nvidia-ml-py</source>
        <translation>已安装的 “pynvml” 模块不是 nvidia-ml-py：请运行 pip install --force-reinstall nvidia-ml-py</translation>
    </message>
    <message>
        <source>NVML failed to start: {error}</source>
        <translation>NVML 启动失败：{error}</translation>
    </message>
    <message>
        <source>nvidia-ml-py is not installed (pip install nvidia-ml-py)</source>
        <translation>未安装 nvidia-ml-py（pip install nvidia-ml-py）</translation>
    </message>
    <message>
        <source>every NVIDIA GPU is asleep (runtime-suspended); monitoring starts when one wakes</source>
        <translation>所有 NVIDIA GPU 都处于休眠（运行时挂起）；有 GPU 唤醒后开始监控</translation>
    </message>
    <message>
        <source>NVML failed: {error}</source>
        <translation>NVML 出错：{error}</translation>
    </message>
    <message>
        <source>NVML found no NVIDIA GPU</source>
        <translation>NVML 未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <source>telemetry read failed: {error}</source>
        <translation>读取监控数据失败：{error}</translation>
    </message>
    <message>
        <source>GPU has no UUID</source>
        <translation>GPU 没有 UUID</translation>
    </message>
    <message>
        <source>GPU no longer found after NVML restart</source>
        <translation>NVML 重新启动后找不到此 GPU</translation>
    </message>
    <message>
        <source>runtime-suspended by the system; not polled so it can stay asleep</source>
        <translation>已被系统运行时挂起；不轮询它，以便它保持休眠</translation>
    </message>
</context>
<context>
    <name>ProcessModel</name>
    <message>
        <source>Share of the GPU&apos;s compute units (NVML), or on Windows the busiest 3D/compute engine, as Task Manager shows it</source>
        <translation>占用 GPU 计算单元（SM）的比例（来自 NVML）；Windows 上是最忙的 3D/计算引擎，与任务管理器一致</translation>
    </message>
    <message>
        <source>The card&apos;s own (dedicated) memory the process holds</source>
        <translation>进程占用的显卡自带显存（专用显存）</translation>
    </message>
    <message>
        <source>Windows: system memory mapped for the GPU. A program whose GPU memory is full spills here and runs many times slower.</source>
        <translation>Windows：映射给 GPU 使用的系统内存。显存用满的程序会溢出到这里，运行慢好几倍。</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>SM</source>
        <translation>SM</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>{name} (ended)</source>
        <translation>{name}（已结束）</translation>
    </message>
    <message>
        <source>enc {pct} %</source>
        <translation>编码 {pct} %</translation>
    </message>
    <message>
        <source>dec {pct} %</source>
        <translation>解码 {pct} %</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Graphics</source>
        <translation>图形</translation>
    </message>
    <message>
        <source>Compute + graphics</source>
        <translation>计算 + 图形</translation>
    </message>
    <message>
        <source>The system does not show this process&apos;s command line.</source>
        <translation>系统不显示这个进程的命令行。</translation>
    </message>
    <message>
        <source>The integrated GPU</source>
        <translation>核显</translation>
    </message>
</context>
<context>
    <name>ProcessView</name>
    <message>
        <source>Filter by name, command line or PID</source>
        <translation>按名称、命令行或 PID 筛选</translation>
    </message>
    <message>
        <source>End process…</source>
        <translation>结束进程…</translation>
    </message>
    <message>
        <source>Open on Hybrid page</source>
        <translation>在“混合显卡”页打开</translation>
    </message>
    <message>
        <source>See which GPU it runs on and move it to the NVIDIA GPU</source>
        <translation>查看它在哪块 GPU 上运行，并把它换到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>Copy command line</source>
        <translation>复制命令行</translation>
    </message>
    <message>
        <source>Open in Model fit</source>
        <translation>在“模型显存”中打开</translation>
    </message>
    <message>
        <source>See which context length, batch or quantisation fits this GPU</source>
        <translation>看看哪种上下文长度、批大小或量化能放进这块 GPU</translation>
    </message>
    <message>
        <source>Run on the NVIDIA GPU…</source>
        <translation>在 NVIDIA GPU 上运行…</translation>
    </message>
    <message>
        <source>What to do…</source>
        <translation>怎么办…</translation>
    </message>
    <message>
        <source>Cannot end this process</source>
        <translation>无法结束这个进程</translation>
    </message>
    <message>
        <source>End {name} (PID {pid}) on {gpu}?

It is ended at once. Work it has not saved is lost.</source>
        <translation>结束 {gpu} 上的 {name}（PID {pid}）？

它会被立即结束。它未保存的工作会丢失。</translation>
    </message>
    <message>
        <source>End {name}?</source>
        <translation>结束 {name}？</translation>
    </message>
    <message>
        <source>End {name} (PID {pid}) on {gpu}?

It is asked to close first; if it is still running after 3 seconds, it is killed. Work it has not saved is lost.</source>
        <translation>结束 {gpu} 上的 {name}（PID {pid}）？

会先请它自行退出；3 秒后仍在运行就强制结束。它未保存的工作会丢失。</translation>
    </message>
    <message>
        <source>Windows GPU counters could not be read ({problem}): memory and utilisation of processes may show as not reported.</source>
        <translation>无法读取 Windows 的 GPU 性能计数器（{problem}）：进程的显存和占用率可能显示为未报告。</translation>
    </message>
    <message>
        <source>Ask the selected process to close, then end it</source>
        <translation>请选中的进程退出，必要时强制结束</translation>
    </message>
    <message>
        <source>Copied the command line of {name} ({pid}).</source>
        <translation>已复制 {name}（{pid}）的命令行。</translation>
    </message>
</context>
<context>
    <name>Processes</name>
    <message>
        <source>The driver keeps no per-process utilisation samples for this GPU (Windows WDDM, older GPUs), and no Windows GPU counter had this process.</source>
        <translation>驱动没有为这块 GPU 记录每个进程的占用率（Windows WDDM 或较老的 GPU），Windows 的 GPU 计数器里也没有这个进程。</translation>
    </message>
    <message>
        <source>The driver does not report this process&apos;s GPU memory (Windows WDDM), and the Windows GPU Process Memory counters did not list it.</source>
        <translation>驱动不报告这个进程的显存（Windows WDDM），Windows 的“GPU Process Memory”计数器里也没有它。</translation>
    </message>
    <message>
        <source>The system did not let this app see who runs this process.</source>
        <translation>系统不允许本程序查看这个进程属于哪个用户。</translation>
    </message>
    <message>
        <source>Needs two readings, or the system did not let this app read it.</source>
        <translation>需要两次读数才能算出，或者系统不允许本程序读取。</translation>
    </message>
    <message>
        <source>The system did not let this app read this process&apos;s memory.</source>
        <translation>系统不允许本程序读取这个进程的内存占用。</translation>
    </message>
    <message>
        <source>The system did not tell when this process started.</source>
        <translation>系统没有给出这个进程的启动时间。</translation>
    </message>
    <message>
        <source>{name} ({pid}) has already ended.</source>
        <translation>{name}（{pid}）已经结束了。</translation>
    </message>
    <message>
        <source>This is GPU Assistant itself.</source>
        <translation>这是 GPU 助手自己。</translation>
    </message>
    <message>
        <source>The system does not say who runs {name} ({pid}); ending it needs administrator rights.</source>
        <translation>系统没有说明 {name}（{pid}）属于哪个用户；要结束它需要管理员权限。</translation>
    </message>
    <message>
        <source>{name} ({pid}) belongs to {owner}; ending another user&apos;s process needs administrator rights (run as root or as administrator).</source>
        <translation>{name}（{pid}）属于用户 {owner}；结束其他用户的进程需要管理员权限（以 root 或管理员身份运行）。</translation>
    </message>
    <message>
        <source>{name} ({pid}) has already ended; its number now belongs to another program, which was left alone.</source>
        <translation>{name}（{pid}）已经结束；这个进程号现在属于另一个程序，没有动它。</translation>
    </message>
    <message>
        <source>{name} ({pid}) has ended.</source>
        <translation>{name}（{pid}）已结束。</translation>
    </message>
    <message>
        <source>{name} ({pid}) did not end when asked and was killed.</source>
        <translation>{name}（{pid}）没有按请求退出，已强制结束。</translation>
    </message>
    <message>
        <source>The system refused to end {name} ({pid}): it needs administrator rights.</source>
        <translation>系统拒绝结束 {name}（{pid}）：需要管理员权限。</translation>
    </message>
    <message>
        <source>{name} ({pid}) is still running after being killed (stuck in the driver?).</source>
        <translation>{name}（{pid}）被强制结束后仍在运行（可能卡在驱动里？）。</translation>
    </message>
    <message>
        <source>Could not end {name} ({pid}): {error}</source>
        <translation>无法结束 {name}（{pid}）：{error}</translation>
    </message>
</context>
<context>
    <name>Recording</name>
    <message>
        <source>{path}: no such recording</source>
        <translation>{path}：没有这个录制文件</translation>
    </message>
    <message>
        <source>{name}: not a readable recording ({error})</source>
        <translation>{name}：不是可读取的录制文件（{error}）</translation>
    </message>
    <message>
        <source>{name}: an SQLite file, but not a GPU Assistant recording</source>
        <translation>{name}：是 SQLite 文件，但不是 GPU 助手的录制文件</translation>
    </message>
    <message>
        <source>{name}: damaged recording ({error})</source>
        <translation>{name}：录制文件已损坏（{error}）</translation>
    </message>
    <message>
        <source>{name}: {rows} unreadable rows skipped</source>
        <translation>{name}：已跳过 {rows} 行无法读取的数据</translation>
    </message>
    <message>
        <source>{name}: {cells} unreadable values skipped</source>
        <translation>{name}：已跳过 {cells} 个无法读取的数值</translation>
    </message>
    <message>
        <source>{name}: {rows} unreadable rows and {cells} unreadable values skipped</source>
        <translation>{name}：已跳过 {rows} 行无法读取的数据和 {cells} 个无法读取的数值</translation>
    </message>
    <message>
        <source>no session {session} in {folder}</source>
        <translation>{folder} 中没有会话 {session}</translation>
    </message>
    <message>
        <source>not a recording of this folder</source>
        <translation>不是这个文件夹里的记录</translation>
    </message>
    <message>
        <source>this session is being recorded now</source>
        <translation>这个会话正在记录中</translation>
    </message>
    <message>
        <source>cannot remove it: {reason}</source>
        <translation>无法删除：{reason}</translation>
    </message>
    <message>
        <source>demo (simulated)</source>
        <translation>演示（模拟）</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>回放</translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>{path}: no such file</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <source>{path}: is a folder, not a file</source>
        <translation>{path}：这是文件夹，不是文件</translation>
    </message>
    <message>
        <source>{path}: cannot read it ({reason})</source>
        <translation>{path}：无法读取（{reason}）</translation>
    </message>
    <message>
        <source>{path}: the recording holds no readable samples</source>
        <translation>{path}：录制文件中没有可读取的采样</translation>
    </message>
    <message>
        <source>{name}: showing the newest {kept} of {total} readings</source>
        <translation>{name}：共 {total} 条读数，显示最新的 {kept} 条</translation>
    </message>
    <message>
        <source>{name}: showing the newest {kept} of {total} readings (what the history holds)</source>
        <translation>{name}：共 {total} 条读数，显示最新的 {kept} 条（历史记录的容量上限）</translation>
    </message>
    <message>
        <source>{path}: not an nvidia-smi CSV log or a GPU Assistant recording (binary data)</source>
        <translation>{path}：不是 nvidia-smi CSV 日志，也不是 GPU 助手录制文件（二进制数据）</translation>
    </message>
    <message>
        <source>{path}: not an nvidia-smi CSV log (a line longer than {kib} KiB)</source>
        <translation>{path}：不是 nvidia-smi CSV 日志（有一行超过 {kib} KiB）</translation>
    </message>
    <message>
        <source>{path}: the file is empty</source>
        <translation>{path}：文件是空的</translation>
    </message>
    <message>
        <source>{path}: no header line; record with --format=csv (without noheader)</source>
        <translation>{path}：没有表头行；请用 --format=csv 记录（不要加 noheader）</translation>
    </message>
    <message>
        <source>{path}: not an nvidia-smi CSV log or a GPU Assistant recording</source>
        <translation>{path}：不是 nvidia-smi CSV 日志，也不是 GPU 助手录制文件</translation>
    </message>
    <message>
        <source>{path}: the log has a header but no readings</source>
        <translation>{path}：日志只有表头，没有读数</translation>
    </message>
    <message>
        <source>{path}: {bad} of {total} rows are unreadable; not a usable nvidia-smi CSV log</source>
        <translation>{path}：{total} 行中有 {bad} 行无法读取，不是可用的 nvidia-smi CSV 日志</translation>
    </message>
    <message>
        <source>{name}: {count} lines longer than {kib} KiB skipped</source>
        <translation>{name}：已跳过 {count} 行超过 {kib} KiB 的内容</translation>
    </message>
    <message>
        <source>{name}: {count} unreadable rows skipped</source>
        <translation>{name}：已跳过 {count} 行无法读取的数据</translation>
    </message>
    <message>
        <source>reading {name}: {pct}%</source>
        <translation>正在读取 {name}：{pct}%</translation>
    </message>
</context>
<context>
    <name>SessionsDialog</name>
    <message>
        <source>Recorded sessions</source>
        <translation>已记录的会话</translation>
    </message>
    <message>
        <source>Every monitoring session is recorded here (turn it off in Settings). Select one to see its summary, two to compare them.</source>
        <translation>每次监控会话都会记录在这里（可在设置中关闭）。选择一个查看摘要，选择两个进行对比。</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Readings</source>
        <translation>读数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Open in dashboard</source>
        <translation>在仪表盘中打开</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save the session in nvidia-smi&apos;s CSV layout (it opens in a spreadsheet).</source>
        <translation>以 nvidia-smi 的 CSV 格式保存该会话（可用电子表格打开）。</translation>
    </message>
    <message>
        <source>Open a log file…</source>
        <translation>打开日志文件…</translation>
    </message>
    <message>
        <source>A recording from another computer, or a log written by
nvidia-smi --query-gpu=... --format=csv -l 1</source>
        <translation>来自其他电脑的记录，或由以下命令生成的日志：
nvidia-smi --query-gpu=... --format=csv -l 1</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Delete the selected recordings from this computer (asks first).</source>
        <translation>从本机删除选中的记录（会先确认）。</translation>
    </message>
    <message>
        <source>No recorded sessions yet. They appear here after the app has monitored for a while.</source>
        <translation>还没有记录的会话。应用监控一段时间后，会话会出现在这里。</translation>
    </message>
    <message>
        <source>Some sessions were not deleted</source>
        <translation>有些会话没有删除</translation>
    </message>
    <message>
        <source>This file cannot be opened</source>
        <translation>无法打开此文件</translation>
    </message>
    <message>
        <source>Monitoring is not running.</source>
        <translation>监控没有运行。</translation>
    </message>
    <message>
        <source>This recording cannot be read.</source>
        <translation>无法读取此记录。</translation>
    </message>
    <message>
        <source>Select one session for its summary, or two to compare them.</source>
        <translation>选择一个会话查看摘要，或选择两个进行对比。</translation>
    </message>
    <message>
        <source>Export session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>The export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Saved {rows} rows to {path}.</source>
        <translation>已将 {rows} 行保存到 {path}。</translation>
    </message>
    <message>
        <source>Delete the recorded session {name}?</source>
        <translation>删除已记录的会话 {name}？</translation>
    </message>
    <message>
        <source>Delete {count} recorded sessions ({names})?</source>
        <translation>删除 {count} 个已记录的会话（{names}）？</translation>
    </message>
    <message>
        <source>Delete sessions</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>The files are removed from this computer; this cannot be undone.</source>
        <translation>文件会从本机删除，无法撤销。</translation>
    </message>
    <message>
        <source>Open a log file</source>
        <translation>打开日志文件</translation>
    </message>
    <message>
        <source>GPU logs (*.csv *.sqlite *.txt *.log);;All files (*)</source>
        <translation>GPU 日志 (*.csv *.sqlite *.txt *.log);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Average utilisation</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>显存峰值</translation>
    </message>
    <message>
        <source>Average temperature</source>
        <translation>平均温度</translation>
    </message>
    <message>
        <source>Peak temperature</source>
        <translation>最高温度</translation>
    </message>
    <message>
        <source>Average power</source>
        <translation>平均功耗</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>耗电量</translation>
    </message>
    <message>
        <source>Clocks held back</source>
        <translation>降频时长</translation>
    </message>
    <message>
        <source>GPU {index}</source>
        <translation>GPU {index}</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>SessionsReport</name>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>采样数</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>No recorded sessions in {folder}</source>
        <translation>{folder} 中没有已录制的会话</translation>
    </message>
    <message>
        <source>unreadable: {problem}</source>
        <translation>无法读取：{problem}</translation>
    </message>
    <message>
        <source>Session {id}: started {start}, {duration} long, {samples} samples</source>
        <translation>会话 {id}：开始于 {start}，时长 {duration}，共 {samples} 个采样</translation>
    </message>
    <message>
        <source>GPU {index} {name}: temperature mean {mean_temp} °C, peak {peak_temp} °C; utilisation mean {util} %; power mean {power} W; energy {energy} Wh</source>
        <translation>GPU {index} {name}：平均温度 {mean_temp} °C，最高 {peak_temp} °C；平均利用率 {util} %；平均功耗 {power} W；耗电 {energy} Wh</translation>
    </message>
    <message>
        <source>Clocks held back: {reasons}</source>
        <translation>降频：{reasons}</translation>
    </message>
    <message>
        <source>Clocks never held back</source>
        <translation>从未降频</translation>
    </message>
    <message>
        <source>{rows} rows written to {file}</source>
        <translation>已写入 {rows} 行到 {file}</translation>
    </message>
</context>
<context>
    <name>Throttle</name>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Nothing to do, so the clocks are lowered to save power.</source>
        <translation>没有任务，频率已降低以节省电量。</translation>
    </message>
    <message>
        <source>Clock setting</source>
        <translation>频率设置</translation>
    </message>
    <message>
        <source>Clocks are held by an application clock setting.</source>
        <translation>频率被应用程序时钟设置锁定。</translation>
    </message>
    <message>
        <source>Power limit</source>
        <translation>功耗墙</translation>
    </message>
    <message>
        <source>The card reached its power limit and lowered its clocks to stay under it.</source>
        <translation>显卡达到功耗上限，降低频率以保持在上限之内。</translation>
    </message>
    <message>
        <source>Hardware slowdown</source>
        <translation>硬件降频</translation>
    </message>
    <message>
        <source>The hardware cut clocks hard (overheating, power brake or a power supply problem).</source>
        <translation>硬件强制大幅降频（过热、电源制动信号或供电问题）。</translation>
    </message>
    <message>
        <source>Sync boost</source>
        <translation>同步加速</translation>
    </message>
    <message>
        <source>Clocks are kept in step with other GPUs in a sync-boost group.</source>
        <translation>频率与同步加速组中的其他 GPU 保持一致。</translation>
    </message>
    <message>
        <source>Thermal limit</source>
        <translation>温度墙</translation>
    </message>
    <message>
        <source>The card is too warm and the driver lowered its clocks to cool down.</source>
        <translation>显卡温度过高，驱动已降频以降温。</translation>
    </message>
    <message>
        <source>Thermal slowdown (hardware)</source>
        <translation>硬件过热降频</translation>
    </message>
    <message>
        <source>The card hit its hardware temperature limit and cut clocks hard.</source>
        <translation>显卡触及硬件温度上限，已强制大幅降频。</translation>
    </message>
    <message>
        <source>Power brake</source>
        <translation>电源制动</translation>
    </message>
    <message>
        <source>An external power brake signal (often the power supply) cut the clocks.</source>
        <translation>外部电源制动信号（通常来自电源）迫使显卡降频。</translation>
    </message>
    <message>
        <source>Display clock setting</source>
        <translation>显示频率设置</translation>
    </message>
    <message>
        <source>Clocks are limited to match the display clock.</source>
        <translation>频率被限制以匹配显示时钟。</translation>
    </message>
</context>
<context>
    <name>TrayController</name>
    <message>
        <source>GPU Assistant</source>
        <translation>GPU 助手</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>GPU Assistant is still monitoring</source>
        <translation>GPU 助手仍在监控</translation>
    </message>
    <message>
        <source>It keeps watching your GPUs in the tray. Use Quit in the tray menu to stop.</source>
        <translation>它会在系统托盘中继续监视你的 GPU。要停止，请使用托盘菜单中的“退出”。</translation>
    </message>
    <message>
        <source>GPU {index}</source>
        <translation>GPU {index}</translation>
    </message>
    <message>
        <source>GPU {index}: {state}</source>
        <translation>GPU {index}：{state}</translation>
    </message>
    <message>
        <source>GPU {index}: {temp:.0f} °C, {util:.0f}%</source>
        <translation>GPU {index}：{temp:.0f} °C，{util:.0f}%</translation>
    </message>
</context>
</TS>
