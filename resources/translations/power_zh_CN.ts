<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Power</name>
    <message>
        <source>administrator rights were refused (the password or UAC prompt was cancelled or failed); the power limit is unchanged</source>
        <translation>未获得管理员权限（密码或 UAC 提示被取消或失败）；功耗上限未改变</translation>
    </message>
    <message>
        <source>the driver refused to change the power limit: {detail}</source>
        <translation>驱动拒绝修改功耗上限：{detail}</translation>
    </message>
    <message>
        <source>nvidia-smi was not found; it comes with the NVIDIA driver</source>
        <translation>找不到 nvidia-smi；它随 NVIDIA 驱动一起安装</translation>
    </message>
    <message>
        <source>the power limit reads {current} W after the change, not {wanted} W</source>
        <translation>修改后读到的功耗上限是 {current} W，而不是 {wanted} W</translation>
    </message>
    <message>
        <source>{watts} W is outside what GPU {gpu} accepts ({low}-{high} W)</source>
        <translation>{watts} W 超出了 GPU {gpu} 可接受的范围（{low}-{high} W）</translation>
    </message>
    <message>
        <source>cannot read the power-limit journal {path}: {reason}</source>
        <translation>无法读取功耗上限记录 {path}：{reason}</translation>
    </message>
    <message>
        <source>GPU {gpu} power limit is now {watts} W</source>
        <translation>GPU {gpu} 的功耗上限现在是 {watts} W</translation>
    </message>
    <message>
        <source>dry run: GPU {gpu} would go from {old} W to {new} W</source>
        <translation>演练：GPU {gpu} 将从 {old} W 改为 {new} W</translation>
    </message>
    <message>
        <source>dry run: GPU {gpu} would go back to {old} W</source>
        <translation>演练：GPU {gpu} 将恢复到 {old} W</translation>
    </message>
    <message>
        <source>GPU {gpu} is already at {old} W</source>
        <translation>GPU {gpu} 已经是 {old} W</translation>
    </message>
    <message>
        <source>&apos;{uuid}&apos; does not look like a GPU UUID</source>
        <translation>“{uuid}”不像是 GPU 的 UUID</translation>
    </message>
    <message>
        <source>{command} failed: {detail}</source>
        <translation>{command} 失败：{detail}</translation>
    </message>
    <message>
        <source>{path} is not there, so a limit kept after restarts would not be set at start-up: install the NVIDIA driver&apos;s utilities (nvidia-smi) first</source>
        <translation>找不到 {path}，重启后保持的功率上限在开机时不会被设置：请先安装 NVIDIA 驱动的工具程序（nvidia-smi）</translation>
    </message>
    <message>
        <source>cannot read the sweep {path}: {reason}</source>
        <translation>无法读取扫描结果 {path}：{reason}</translation>
    </message>
    <message>
        <source>no saved sweep named {name} (see: python main.py power --list)</source>
        <translation>没有名为 {name} 的已保存扫描（参见：python main.py power --list）</translation>
    </message>
    <message>
        <source>{name} matches {count} saved sweeps; give more of the name</source>
        <translation>{name} 匹配到 {count} 个已保存的扫描；请多写几个字</translation>
    </message>
    <message>
        <source>there is no NVIDIA GPU {gpu} (see: python main.py monitor --once)</source>
        <translation>没有 NVIDIA GPU {gpu}（参见：python main.py monitor --once）</translation>
    </message>
    <message>
        <source>GPU {gpu} is gone</source>
        <translation>GPU {gpu} 不见了</translation>
    </message>
    <message>
        <source>the card does not report its power limit; a sweep needs it</source>
        <translation>这块卡不报告它的功耗上限；扫描需要它</translation>
    </message>
    <message>
        <source>stopped before the end</source>
        <translation>在完成前停止</translation>
    </message>
    <message>
        <source>could not set {watts} W: {reason}</source>
        <translation>无法设置 {watts} W：{reason}</translation>
    </message>
    <message>
        <source>the GPU stopped answering during the sweep: {reason}</source>
        <translation>扫描期间 GPU 停止响应：{reason}</translation>
    </message>
    <message>
        <source>could not restore {watts} W: {reason}; it is restored at the next start of the app (or the next reboot)</source>
        <translation>未能恢复到 {watts} W：{reason}；本应用下次启动时（或下次重启后）会恢复</translation>
    </message>
    <message>
        <source>PyTorch is not installed in {python}: install it with the Setup page&apos;s PyTorch step (python main.py setup), or pass --python of an environment that has it</source>
        <translation>{python} 里没有安装 PyTorch：请用“安装配置”页的 PyTorch 步骤安装（python main.py setup），或用 --python 指定装有它的环境</translation>
    </message>
    <message>
        <source>PyTorch in {python} sees no CUDA GPU {gpu}: {detail}</source>
        <translation>{python} 里的 PyTorch 看不到 CUDA GPU {gpu}：{detail}</translation>
    </message>
    <message>
        <source>the {kind} workload failed: {detail}</source>
        <translation>{kind} 负载失败：{detail}</translation>
    </message>
    <message>
        <source>cannot run {python}: {detail}</source>
        <translation>无法运行 {python}：{detail}</translation>
    </message>
</context>
<context>
    <name>PowerMenu</name>
    <message>
        <source>Power: efficiency sweep, power limit</source>
        <translation>功耗：能效扫描、功耗上限</translation>
    </message>
    <message>
        <source>Power efficiency sweep…</source>
        <translation>能效扫描…</translation>
    </message>
    <message>
        <source>Set power limit…</source>
        <translation>设置功耗上限…</translation>
    </message>
</context>
<context>
    <name>PowerRecovery</name>
    <message>
        <source>A sweep that did not finish</source>
        <translation>一次未完成的扫描</translation>
    </message>
</context>
<context>
    <name>SetLimitDialog</name>
    <message>
        <source>Set power limit</source>
        <translation>设置功耗上限</translation>
    </message>
    <message>
        <source>Reading the card&apos;s limits…</source>
        <translation>正在读取显卡的上限…</translation>
    </message>
    <message>
        <source>New limit</source>
        <translation>新上限</translation>
    </message>
    <message>
        <source>The command that will run:</source>
        <translation>将要运行的命令：</translation>
    </message>
    <message>
        <source>Keep it after a restart (otherwise it resets when the computer restarts)</source>
        <translation>重启后保留（否则电脑重启后恢复默认）</translation>
    </message>
    <message>
        <source>Undo last change</source>
        <translation>撤销上次更改</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>GPU {gpu} {name}: now {current} W, default {default} W, allowed {low}-{high} W</source>
        <translation>GPU {gpu} {name}：当前 {current} W，默认 {default} W，可设 {low}-{high} W</translation>
    </message>
    <message>
        <source>Applying… (a password prompt may appear)</source>
        <translation>正在应用…（可能会弹出密码提示）</translation>
    </message>
    <message>
        <source>Undoing…</source>
        <translation>正在撤销…</translation>
    </message>
    <message>
        <source>Nothing to undo: the app has not changed this GPU&apos;s limit.</source>
        <translation>无需撤销：本应用没有改过这块 GPU 的上限。</translation>
    </message>
    <message>
        <source>Kept after restarts.</source>
        <translation>重启后也会保留。</translation>
    </message>
    <message>
        <source>It resets when the computer restarts.</source>
        <translation>电脑重启后会恢复默认。</translation>
    </message>
    <message>
        <source>Now {current} W.</source>
        <translation>当前 {current} W。</translation>
    </message>
</context>
<context>
    <name>SweepPanel</name>
    <message>
        <source>Power efficiency sweep</source>
        <translation>能效扫描</translation>
    </message>
    <message>
        <source>Power efficiency: GPU {gpu} {name}</source>
        <translation>能效：GPU {gpu} {name}</translation>
    </message>
    <message>
        <source>Measures a compute-bound workload (matrix multiply: training, prompt processing) and a memory-bound one (memory copy: token generation) at power limits from the default down, then puts the limit back.</source>
        <translation>从默认上限往下，在几个功耗上限下分别测量计算密集型负载（矩阵乘法：训练、提示词处理）和显存带宽密集型负载（显存复制：逐词生成），结束后恢复原来的上限。</translation>
    </message>
    <message>
        <source> s per point</source>
        <translation> 秒/点</translation>
    </message>
    <message>
        <source>keep ≥ </source>
        <translation>保持 ≥ </translation>
    </message>
    <message>
        <source>% speed</source>
        <translation>% 速度</translation>
    </message>
    <message>
        <source>PyTorch Python (default: python3)</source>
        <translation>装有 PyTorch 的 Python（默认：python3）</translation>
    </message>
    <message>
        <source>Run sweep</source>
        <translation>开始扫描</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>对比…</translation>
    </message>
    <message>
        <source>Speed, % of full speed</source>
        <translation>速度，占满速的 %</translation>
    </message>
    <message>
        <source>Work per watt, % of full speed&apos;s</source>
        <translation>每瓦性能，占满速时的 %</translation>
    </message>
    <message>
        <source>Limit W</source>
        <translation>上限 W</translation>
    </message>
    <message>
        <source>W</source>
        <translation>W</translation>
    </message>
    <message>
        <source>SM MHz</source>
        <translation>SM MHz</translation>
    </message>
    <message>
        <source>Set recommended limit…</source>
        <translation>设置推荐上限…</translation>
    </message>
    <message>
        <source>Set power limit…</source>
        <translation>设置功耗上限…</translation>
    </message>
    <message>
        <source>Starting the sweep…</source>
        <translation>正在开始扫描…</translation>
    </message>
    <message>
        <source>{step}/{steps}: {kind} at {watts} W</source>
        <translation>{step}/{steps}：{kind}，{watts} W</translation>
    </message>
    <message>
        <source>GPU in use</source>
        <translation>GPU 正在使用</translation>
    </message>
    <message>
        <source>GPU {gpu} is in use by {who}. The sweep would slow it down and measure it too. Sweep anyway?</source>
        <translation>GPU {gpu} 正被 {who} 使用。扫描会拖慢它，测量结果也会把它算进去。仍然扫描吗？</translation>
    </message>
    <message>
        <source>Saved as {path}</source>
        <translation>已保存为 {path}</translation>
    </message>
    <message>
        <source>The Setup page installs PyTorch (its PyTorch step).</source>
        <translation>“安装配置”页可以安装 PyTorch（其中的 PyTorch 步骤）。</translation>
    </message>
    <message>
        <source>power limit (W)</source>
        <translation>功耗上限 (W)</translation>
    </message>
    <message>
        <source>matrix multiply</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>memory copy</source>
        <translation>显存复制</translation>
    </message>
    <message>
        <source>No sweep yet: run one, or open a saved one.</source>
        <translation>还没有扫描结果：运行一次，或打开已保存的扫描。</translation>
    </message>
    <message>
        <source>Driver {driver} · default limit {default} W (allowed {low}-{high} W) · {temp} °C at the start · {when}</source>
        <translation>驱动 {driver} · 默认上限 {default} W（可设 {low}-{high} W）· 开始时 {temp} °C · {when}</translation>
    </message>
    <message>
        <source>The original limit could not be restored; the app restores it at its next start.</source>
        <translation>未能恢复原来的上限；本应用下次启动时会恢复它。</translation>
    </message>
    <message>
        <source> (compared)</source>
        <translation>（对比）</translation>
    </message>
    <message>
        <source>{kind}: keep the full limit ({watts} W); every lower limit measured loses more than {loss}% of the speed</source>
        <translation>{kind}：保持完整上限（{watts} W）；测过的每个更低上限都会损失超过 {loss}% 的速度</translation>
    </message>
    <message>
        <source>{kind}: {watts} W keeps {share}% of full speed with {gain}% more work per watt</source>
        <translation>{kind}：{watts} W 保留满速的 {share}%，每瓦性能 {gain}%</translation>
    </message>
    <message>
        <source>Nothing measured.</source>
        <translation>没有测量结果。</translation>
    </message>
    <message>
        <source>Set {watts} W…</source>
        <translation>设为 {watts} W…</translation>
    </message>
    <message>
        <source>Set {watts} W for {kind}…</source>
        <translation>为{kind}设为 {watts} W…</translation>
    </message>
    <message>
        <source>The card already runs at this limit; lower the share to keep to see a lower one.</source>
        <translation>显卡已经在这个上限下运行；降低要保留的速度比例，可以看到更低的推荐值。</translation>
    </message>
    <message>
        <source>Open a saved sweep</source>
        <translation>打开已保存的扫描</translation>
    </message>
    <message>
        <source>Sweeps (*.sweep.json)</source>
        <translation>扫描结果 (*.sweep.json)</translation>
    </message>
    <message>
        <source>Compare with a saved sweep</source>
        <translation>与已保存的扫描对比</translation>
    </message>
</context>
</TS>
