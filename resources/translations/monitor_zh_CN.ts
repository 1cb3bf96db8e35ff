<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
            <translation>找不到 NVIDIA 驱动（NVML 库）。请安装 NVIDIA 驱动，可以使用“安装向导”工具。</translation>
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
        <name>Throttle</name>
        <message>
            <source>Idle</source>
            <translation>空闲</translation>
        </message>
        <message>
            <source>Nothing to do, so the clocks are lowered to save power.</source>
            <translation>没有任务，频率降低以节省电量。</translation>
        </message>
        <message>
            <source>Clock setting</source>
            <translation>频率设置</translation>
        </message>
        <message>
            <source>Clocks are held by an application clock setting.</source>
            <translation>频率被应用程序的时钟设置锁定。</translation>
        </message>
        <message>
            <source>Power limit</source>
            <translation>功耗墙</translation>
        </message>
        <message>
            <source>The card reached its power limit and lowered its clocks to stay under it.</source>
            <translation>显卡达到功耗上限，降低频率以保持在上限以内。</translation>
        </message>
        <message>
            <source>Hardware slowdown</source>
            <translation>硬件降速</translation>
        </message>
        <message>
            <source>The hardware cut clocks hard (overheating, power brake or a power supply problem).</source>
            <translation>硬件大幅降低了频率（过热、功率制动或电源问题）。</translation>
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
            <translation>显卡温度过高，驱动降低频率来降温。</translation>
        </message>
        <message>
            <source>Thermal slowdown (hardware)</source>
            <translation>过热降速（硬件）</translation>
        </message>
        <message>
            <source>The card hit its hardware temperature limit and cut clocks hard.</source>
            <translation>显卡达到硬件温度上限，频率被大幅降低。</translation>
        </message>
        <message>
            <source>Power brake</source>
            <translation>功率制动</translation>
        </message>
        <message>
            <source>An external power brake signal (often the power supply) cut the clocks.</source>
            <translation>外部功率制动信号（通常来自电源）降低了频率。</translation>
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
</TS>
