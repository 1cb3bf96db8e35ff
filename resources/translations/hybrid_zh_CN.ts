<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AdapterCard</name>
    <message>
        <source>Integrated</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <source>Discrete</source>
        <translation>独立显卡</translation>
    </message>
    <message>
        <source>Integrated or discrete: unknown</source>
        <translation>集成还是独立：无法判断</translation>
    </message>
    <message>
        <source>Drives the display</source>
        <translation>负责显示输出</translation>
    </message>
    <message>
        <source>No display connected</source>
        <translation>未连接显示器</translation>
    </message>
</context>
<context>
    <name>Hybrid</name>
    <message>
        <source>NVIDIA GPUs in PCs are discrete</source>
        <translation>电脑中的 NVIDIA GPU 都是独立显卡</translation>
    </message>
    <message>
        <source>Intel GPU on the processor&apos;s root bus</source>
        <translation>Intel GPU 位于处理器的根总线上</translation>
    </message>
    <message>
        <source>Intel GPU behind a PCIe bridge (Arc card)</source>
        <translation>Intel GPU 位于 PCIe 桥之后（Arc 独立显卡）</translation>
    </message>
    <message>
        <source>AMD GPU that shares its bus with processor functions</source>
        <translation>AMD GPU 与处理器功能共用一条总线</translation>
    </message>
    <message>
        <source>AMD GPU on its own PCIe bus</source>
        <translation>AMD GPU 独占一条 PCIe 总线</translation>
    </message>
    <message>
        <source>Not enough information to tell</source>
        <translation>信息不足，无法判断</translation>
    </message>
    <message>
        <source>Read {path}</source>
        <translation>读取了 {path}</translation>
    </message>
    <message>
        <source>{path} does not exist: no kernel graphics driver is loaded</source>
        <translation>{path} 不存在：没有加载任何内核显卡驱动</translation>
    </message>
    <message>
        <source>Name the program to start</source>
        <translation>请指定要启动的程序</translation>
    </message>
    <message>
        <source>No program at {path}</source>
        <translation>{path} 处没有程序</translation>
    </message>
    <message>
        <source>{path} is not executable</source>
        <translation>{path} 不是可执行文件</translation>
    </message>
    <message>
        <source>Could not start {path}: {error}</source>
        <translation>无法启动 {path}：{error}</translation>
    </message>
    <message>
        <source>NVIDIA driver not reachable: {error}</source>
        <translation>无法连接 NVIDIA 驱动：{error}</translation>
    </message>
    <message>
        <source>registry {key}
  value: {name}
  before: {before}
  after:  {after}</source>
        <translation>注册表 {key}
  值名称：{name}
  修改前：{before}
  修改后：{after}</translation>
    </message>
    <message>
        <source>create (executable)</source>
        <translation>新建（可执行）</translation>
    </message>
    <message>
        <source>create</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>replace, executable (the old content is kept in the backup)</source>
        <translation>替换为可执行文件（旧内容保存在备份中）</translation>
    </message>
    <message>
        <source>replace (the old content is kept in the backup)</source>
        <translation>替换（旧内容保存在备份中）</translation>
    </message>
    <message>
        <source>file {path}: {action}{content}</source>
        <translation>文件 {path}：{action}{content}</translation>
    </message>
    <message>
        <source>(no value)</source>
        <translation>（无值）</translation>
    </message>
    <message>
        <source>Let Windows decide</source>
        <translation>让 Windows 决定</translation>
    </message>
    <message>
        <source>Power saving</source>
        <translation>节能</translation>
    </message>
    <message>
        <source>High performance</source>
        <translation>高性能</translation>
    </message>
    <message>
        <source>A specific GPU</source>
        <translation>指定的 GPU</translation>
    </message>
    <message>
        <source>Windows GPU preference: not set (Windows decides)</source>
        <translation>Windows GPU 偏好：未设置（由 Windows 决定）</translation>
    </message>
    <message>
        <source>unknown value {value}</source>
        <translation>未知值 {value}</translation>
    </message>
    <message>
        <source>Windows GPU preference: {setting}</source>
        <translation>Windows GPU 偏好：{setting}</translation>
    </message>
    <message>
        <source>Give the full path of the program, like C:\Games\game.exe</source>
        <translation>请给出程序的完整路径，例如 C:\Games\game.exe</translation>
    </message>
    <message>
        <source>A Windows path cannot contain any of these characters: &quot; &lt; &gt; | ? *</source>
        <translation>Windows 路径不能包含以下字符：&quot; &lt; &gt; | ? *</translation>
    </message>
    <message>
        <source>The preference is set on a program file ending in .exe</source>
        <translation>此偏好只能设置在以 .exe 结尾的程序文件上</translation>
    </message>
    <message>
        <source>Could not read the GPU preferences: {error}</source>
        <translation>无法读取 GPU 偏好设置：{error}</translation>
    </message>
    <message>
        <source>Restart the program: Windows applies the preference when it starts</source>
        <translation>请重新启动该程序：Windows 在程序启动时才应用此偏好</translation>
    </message>
    <message>
        <source>It was set to one specific GPU; that choice is replaced by High performance</source>
        <translation>原先指定了某一块 GPU；该选择将改为“高性能”</translation>
    </message>
    <message>
        <source>CUDA programs run on the NVIDIA GPU anyway; this steers Direct3D, OpenGL and Vulkan</source>
        <translation>CUDA 程序本来就在 NVIDIA GPU 上运行；此设置影响的是 Direct3D、OpenGL 和 Vulkan</translation>
    </message>
    <message>
        <source>Since Windows 10 2004 this setting wins over the NVIDIA Control Panel&apos;s per-program choice</source>
        <translation>自 Windows 10 2004 起，此设置优先于 NVIDIA 控制面板中的单程序设置</translation>
    </message>
    <message>
        <source>{name} is an interpreter: every script it runs gets this GPU</source>
        <translation>{name} 是解释器：它运行的每个脚本都会使用这块 GPU</translation>
    </message>
    <message>
        <source>Give the full path of the program, like /opt/app/app</source>
        <translation>请给出程序的完整路径，例如 /opt/app/app</translation>
    </message>
    <message>
        <source>The program path contains a control character (such as a line break); rename the file or folder first</source>
        <translation>程序路径中含有控制字符（例如换行符）；请先重命名该文件或文件夹</translation>
    </message>
    <message>
        <source>There is no NVIDIA or other discrete GPU to move the program to</source>
        <translation>没有可以把程序迁移过去的 NVIDIA 或其他独立显卡</translation>
    </message>
    <message>
        <source>Start it from the new launcher or the menu entry; a running copy keeps its GPU until restarted</source>
        <translation>请用新的启动脚本或菜单项启动它；正在运行的实例在重启前仍使用原来的 GPU</translation>
    </message>
    <message>
        <source>CUDA programs run on the NVIDIA GPU anyway; this steers OpenGL and Vulkan</source>
        <translation>CUDA 程序本来就在 NVIDIA GPU 上运行；此设置影响的是 OpenGL 和 Vulkan</translation>
    </message>
    <message>
        <source>The launcher runs the whole command: {command}</source>
        <translation>启动器运行完整的命令：{command}</translation>
    </message>
    <message>
        <source>switcheroo-control is not running, so the menu entry carries the variables itself</source>
        <translation>switcheroo-control 未运行，因此菜单项自带这些环境变量</translation>
    </message>
    <message>
        <source>{path} is not a regular file, so GPU Assistant will not change it</source>
        <translation>{path} 不是普通文件，GPU 助手不会修改它</translation>
    </message>
    <message>
        <source>{path} is too large to be a launcher or menu entry; GPU Assistant will not change it</source>
        <translation>{path} 太大，不可能是启动器或菜单项；GPU 助手不会修改它</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text, so GPU Assistant will not change it</source>
        <translation>{path} 不是 UTF-8 文本，GPU 助手不会修改它</translation>
    </message>
    <message>
        <source>The backup {backup} names {target}, which GPU Assistant does not write; undo refused</source>
        <translation>备份 {backup} 指向 {target}，但 GPU 助手不会写这个文件；已拒绝撤销</translation>
    </message>
    <message>
        <source>The Windows registry is not available here</source>
        <translation>此系统上没有 Windows 注册表</translation>
    </message>
    <message>
        <source>{target} changed after the plan was made; plan again</source>
        <translation>生成方案后 {target} 已被修改；请重新生成方案</translation>
    </message>
    <message>
        <source>Could not apply the change: {error}</source>
        <translation>无法应用更改：{error}</translation>
    </message>
    <message>
        <source>Nothing to undo for {path}</source>
        <translation>{path} 没有可撤销的更改</translation>
    </message>
    <message>
        <source>{target} was changed after GPU Assistant wrote it; undo it by hand from {backup}</source>
        <translation>GPU 助手写入后 {target} 又被修改过；请根据 {backup} 手动撤销</translation>
    </message>
    <message>
        <source>Could not undo the change: {error}</source>
        <translation>无法撤销更改：{error}</translation>
    </message>
    <message>
        <source>This system is not supported</source>
        <translation>不支持此系统</translation>
    </message>
    <message>
        <source>Asked the NVIDIA driver (NVML)</source>
        <translation>查询了 NVIDIA 驱动（NVML）</translation>
    </message>
    <message>
        <source>Needs an NVIDIA GPU; none was found.</source>
        <translation>需要 NVIDIA 显卡，但没有找到。</translation>
    </message>
    <message>
        <source>This computer has no integrated GPU: programs already run on the NVIDIA GPU.</source>
        <translation>这台电脑没有集成显卡：程序本来就在 NVIDIA 显卡上运行。</translation>
    </message>
    <message>
        <source>It already runs on the NVIDIA GPU: there is nothing to change.</source>
        <translation>它已经在 NVIDIA 显卡上运行，无需更改。</translation>
    </message>
    <message>
        <source>Its program file cannot be read from this account (another user&apos;s program).</source>
        <translation>当前账户无法读取它的程序文件（这是其他用户的程序）。</translation>
    </message>
    <message>
        <source>No launcher from GPU Assistant for this program yet</source>
        <translation>GPU 助手尚未为此程序创建启动脚本</translation>
    </message>
    <message>
        <source>Has a GPU Assistant launcher: {path}</source>
        <translation>已有 GPU 助手创建的启动脚本：{path}</translation>
    </message>
    <message>
        <source>Its Windows GPU preference is not High performance: use Run on the NVIDIA GPU first</source>
        <translation>它的 Windows GPU 偏好不是“高性能”：请先使用“在 NVIDIA GPU 上运行”</translation>
    </message>
    <message>
        <source>Started with {vars}</source>
        <translation>启动时设置了 {vars}</translation>
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
        <source>compute and graphics</source>
        <translation>计算和图形</translation>
    </message>
    <message>
        <source>The NVIDIA driver lists it as a {kind} process on {gpu}</source>
        <translation>NVIDIA 驱动将其列为 {gpu} 上的{kind}进程</translation>
    </message>
    <message>
        <source>{engine} engine {pct}% busy on {gpu}</source>
        <translation>{gpu} 上的 {engine} 引擎占用 {pct}%</translation>
    </message>
    <message>
        <source>Holds {mib} MiB of memory on {gpu}</source>
        <translation>在 {gpu} 上占用 {mib} MiB 显存</translation>
    </message>
    <message>
        <source>Only copy/video work on {gpu}: that passes finished pictures on, it is not rendering</source>
        <translation>在 {gpu} 上只有复制/视频工作：那只是传递画好的画面，不是渲染</translation>
    </message>
    <message>
        <source>Idle during the sample: judged by where it holds a GPU context</source>
        <translation>采样期间处于空闲：按它持有 GPU 上下文的位置判断</translation>
    </message>
    <message>
        <source>Loaded NVIDIA driver libraries: {libs}</source>
        <translation>已加载 NVIDIA 驱动库：{libs}</translation>
    </message>
    <message>
        <source>Uses CUDA: CUDA work always runs on the NVIDIA GPU</source>
        <translation>使用 CUDA：CUDA 计算总是在 NVIDIA GPU 上运行</translation>
    </message>
    <message>
        <source>Loaded Mesa drivers: {libs}</source>
        <translation>已加载 Mesa 驱动：{libs}</translation>
    </message>
    <message>
        <source>Uses software rendering (llvmpipe): no GPU draws for it</source>
        <translation>使用软件渲染（llvmpipe）：没有 GPU 为它绘制</translation>
    </message>
    <message>
        <source>Started with GPU selection variables: {vars}</source>
        <translation>启动时带有 GPU 选择变量：{vars}</translation>
    </message>
    <message>
        <source>Has NVIDIA device files open ({nodes}); on its own that can be a library probing the GPU</source>
        <translation>打开了 NVIDIA 设备文件（{nodes}）；单凭这一点可能只是某个库在探测 GPU</translation>
    </message>
    <message>
        <source>Both NVIDIA and Mesa drivers are loaded (Vulkan loads every driver): libraries alone cannot tell</source>
        <translation>同时加载了 NVIDIA 和 Mesa 驱动（Vulkan 会加载所有驱动）：仅凭驱动库无法判断</translation>
    </message>
    <message>
        <source>No GPU work seen during the sample: judged by the loaded drivers</source>
        <translation>采样期间没有看到 GPU 工作：按已加载的驱动判断</translation>
    </message>
    <message>
        <source>Another user&apos;s program: its files and libraries are hidden from this account</source>
        <translation>其他用户的程序：当前账户看不到它的文件和库</translation>
    </message>
    <message>
        <source>No sign of GPU use</source>
        <translation>没有使用 GPU 的迹象</translation>
    </message>
    <message>
        <source>Could not read the adapter list: {error}</source>
        <translation>无法读取显卡列表：{error}</translation>
    </message>
    <message>
        <source>Has its own video memory</source>
        <translation>有自己的显存</translation>
    </message>
    <message>
        <source>Shares the computer&apos;s memory</source>
        <translation>与电脑共用内存</translation>
    </message>
    <message>
        <source>The NVIDIA driver lists {count} processes that are not visible here (they ended, or run in another container)</source>
        <translation>NVIDIA 驱动列出的 {count} 个进程在这里看不到（已结束，或运行在其他容器中）</translation>
    </message>
    <message>
        <source>Windows&apos; GPU performance counters could not be read ({error}): only NVIDIA&apos;s own per-process data is shown. &apos;lodctr /R&apos; in an administrator prompt rebuilds broken counters.</source>
        <translation>无法读取 Windows 的 GPU 性能计数器（{error}）：只显示 NVIDIA 自己的按进程数据。在管理员命令提示符中运行 “lodctr /R” 可重建损坏的计数器。</translation>
    </message>
</context>
<context>
    <name>HybridCli</name>
    <message>
        <source>NVIDIA GPU</source>
        <translation>NVIDIA GPU</translation>
    </message>
    <message>
        <source>integrated GPU</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <source>another GPU</source>
        <translation>其他 GPU</translation>
    </message>
    <message>
        <source>both GPUs</source>
        <translation>两块 GPU</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>idle, holds a context</source>
        <translation>空闲，持有上下文</translation>
    </message>
    <message>
        <source>from loaded drivers</source>
        <translation>依据已加载的驱动</translation>
    </message>
    <message>
        <source>no evidence</source>
        <translation>无证据</translation>
    </message>
    <message>
        <source>integrated</source>
        <translation>集成</translation>
    </message>
    <message>
        <source>discrete</source>
        <translation>独立</translation>
    </message>
    <message>
        <source>integrated or discrete: unknown</source>
        <translation>集成还是独立：未知</translation>
    </message>
    <message>
        <source>drives the display</source>
        <translation>负责显示输出</translation>
    </message>
    <message>
        <source>No GPU found on this computer</source>
        <translation>这台电脑上没有找到 GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 列表</translation>
    </message>
    <message>
        <source>System mode ({tool}): {mode}</source>
        <translation>系统模式（{tool}）：{mode}</translation>
    </message>
    <message>
        <source>switcheroo-control is running ({count} GPUs)</source>
        <translation>switcheroo-control 正在运行（{count} 块 GPU）</translation>
    </message>
    <message>
        <source>Programs using a GPU (sampled over {seconds} s)</source>
        <translation>正在使用 GPU 的程序（采样 {seconds} 秒）</translation>
    </message>
    <message>
        <source>No program is using a GPU right now</source>
        <translation>目前没有程序在使用 GPU</translation>
    </message>
    <message>
        <source>Verdict: {verdict}</source>
        <translation>结论：{verdict}</translation>
    </message>
    <message>
        <source>This will change:</source>
        <translation>将进行以下更改：</translation>
    </message>
    <message>
        <source>Already set: nothing to change</source>
        <translation>已经设置好了：无需更改</translation>
    </message>
    <message>
        <source>Dry run: nothing was changed</source>
        <translation>演练模式：没有做任何更改</translation>
    </message>
    <message>
        <source>Done. Backup: {path}</source>
        <translation>完成。备份：{path}</translation>
    </message>
    <message>
        <source>Undo with: {command}</source>
        <translation>撤销命令：{command}</translation>
    </message>
    <message>
        <source>Undone: {path}</source>
        <translation>已撤销：{path}</translation>
    </message>
    <message>
        <source>Starting {program} {env}</source>
        <translation>正在启动 {program} {env}</translation>
    </message>
    <message>
        <source>Landed on: {verdict}</source>
        <translation>运行在：{verdict}</translation>
    </message>
    <message>
        <source>The program ended after {seconds} s before it used a GPU</source>
        <translation>程序在 {seconds} 秒后退出，期间没有使用 GPU</translation>
    </message>
    <message>
        <source>No GPU work seen within {seconds} s</source>
        <translation>{seconds} 秒内没有看到 GPU 工作</translation>
    </message>
    <message>
        <source>{message} ({reasons})</source>
        <translation>{message}（{reasons}）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>HybridPage</name>
    <message>
        <source>Hybrid GPU</source>
        <translation>混合显卡</translation>
    </message>
    <message>
        <source>Which GPU each program really uses, and how to move it to the NVIDIA GPU</source>
        <translation>查看每个程序实际使用哪块 GPU，以及如何把它移到 NVIDIA GPU 上</translation>
    </message>
    <message>
        <source>Looking for GPUs…</source>
        <translation>正在查找 GPU…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Undone: the graphics preference for {program} is back as it was.</source>
        <translation>已撤销：{program} 的图形首选项已恢复原样。</translation>
    </message>
    <message>
        <source>Undone. {program} itself was never changed.</source>
        <translation>已撤销。{program} 本身从未被修改。</translation>
    </message>
    <message>
        <source>Removed what GPU Assistant made for it: {files}</source>
        <translation>已删除 GPU 助手为它创建的文件：{files}</translation>
    </message>
    <message>
        <source>Put back as they were: {files}</source>
        <translation>已恢复原样：{files}</translation>
    </message>
    <message>
        <source>Launch and check…</source>
        <translation>启动并检查…</translation>
    </message>
    <message>
        <source>Sampling…</source>
        <translation>正在采样…</translation>
    </message>
    <message>
        <source>Sampling failed: {error}</source>
        <translation>采样失败：{error}</translation>
    </message>
    <message>
        <source>1 program · sampled over {seconds} s</source>
        <translation>1 个程序 · 采样 {seconds} 秒</translation>
    </message>
    <message>
        <source>{count} programs · sampled over {seconds} s</source>
        <translation>{count} 个程序 · 采样 {seconds} 秒</translation>
    </message>
    <message>
        <source>Needs an NVIDIA (or other discrete) GPU; none was found.</source>
        <translation>需要 NVIDIA（或其他独立）GPU，但没有找到。</translation>
    </message>
    <message>
        <source>Shows the exact change first; backed up and undoable</source>
        <translation>先显示具体更改；会备份，可撤销</translation>
    </message>
    <message>
        <source>Start a program on the NVIDIA GPU and watch where it lands</source>
        <translation>在 NVIDIA GPU 上启动程序，并查看它实际运行在哪块 GPU 上</translation>
    </message>
    <message>
        <source>Already set: nothing to change.</source>
        <translation>已经设置好了：无需更改。</translation>
    </message>
    <message>
        <source>Done. The old state is backed up in {path}</source>
        <translation>完成。原来的状态已备份到 {path}</translation>
    </message>
    <message>
        <source>Choose a program to launch</source>
        <translation>选择要启动的程序</translation>
    </message>
    <message>
        <source>Starting {command} {env}…</source>
        <translation>正在启动 {command} {env}…</translation>
    </message>
    <message>
        <source>Checking… {seconds} s</source>
        <translation>检查中… {seconds} 秒</translation>
    </message>
    <message>
        <source>Landed on: {gpu} (PID {pid})</source>
        <translation>运行在：{gpu}（PID {pid}）</translation>
    </message>
    <message>
        <source>The program ended after {seconds} s before it used a GPU.</source>
        <translation>程序在 {seconds} 秒后退出，期间没有使用 GPU。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>No GPU work seen within {seconds} s.</source>
        <translation>{seconds} 秒内没有看到 GPU 工作。</translation>
    </message>
    <message>
        <source>Its drivers point to: {gpu}.</source>
        <translation>从它加载的驱动来看：{gpu}。</translation>
    </message>
</context>
<context>
    <name>InventoryPanel</name>
    <message>
        <source>No GPU found on this computer</source>
        <translation>这台电脑上没有找到 GPU</translation>
    </message>
    <message>
        <source>System mode ({tool}): {mode}</source>
        <translation>系统模式（{tool}）：{mode}</translation>
    </message>
    <message>
        <source>switcheroo-control is running ({count} GPUs)</source>
        <translation>switcheroo-control 正在运行（{count} 块 GPU）</translation>
    </message>
    <message>
        <source>GPU Assistant reports the system mode but never switches it.</source>
        <translation>GPU 助手只报告系统模式，从不切换它。</translation>
    </message>
    <message>
        <source>Neither the kernel nor the NVIDIA driver reports a graphics adapter, so no program can be using one. This happens in virtual machines and containers without GPU passthrough, and when the graphics driver is not installed or not loaded.</source>
        <translation>内核和 NVIDIA 驱动都没有报告任何显卡，所以没有程序能使用 GPU。在没有 GPU 直通的虚拟机和容器中，或显卡驱动未安装、未加载时，会出现这种情况。</translation>
    </message>
    <message>
        <source>What was checked: {checks}</source>
        <translation>检查过的项目：{checks}</translation>
    </message>
    <message>
        <source>The list below still shows what each program loads; the Setup page helps install the NVIDIA driver.</source>
        <translation>下方列表仍会显示每个程序加载了什么；“安装向导”页面可以帮助安装 NVIDIA 驱动。</translation>
    </message>
</context>
<context>
    <name>PlanDialog</name>
    <message>
        <source>Run on the NVIDIA GPU</source>
        <translation>在 NVIDIA GPU 上运行</translation>
    </message>
    <message>
        <source>GPU Assistant will make exactly these changes. The old state is backed up and the change can be undone from this page or with the command line.</source>
        <translation>GPU 助手将严格按以下内容进行更改。原来的状态会先备份，可以在本页面或命令行中撤销。</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
</context>
<context>
    <name>ProgramDetails</name>
    <message>
        <source>Select a program to see which GPU it uses and why.</source>
        <translation>选择一个程序，查看它使用哪块 GPU 以及判断依据。</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>判断依据</translation>
    </message>
    <message>
        <source>Run on the NVIDIA GPU</source>
        <translation>在 NVIDIA GPU 上运行</translation>
    </message>
    <message>
        <source>Launch and check…</source>
        <translation>启动并检查…</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>That program has ended.</source>
        <translation>该程序已结束。</translation>
    </message>
</context>
<context>
    <name>ProgramList</name>
    <message>
        <source>Filter by name or PID</source>
        <translation>按名称或 PID 筛选</translation>
    </message>
    <message>
        <source>Show every program</source>
        <translation>显示所有程序</translation>
    </message>
    <message>
        <source>Also list programs that show no sign of GPU use</source>
        <translation>同时列出没有使用 GPU 迹象的程序</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Engine use</source>
        <translation>引擎占用</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>NVIDIA GPU</source>
        <translation>NVIDIA GPU</translation>
    </message>
    <message>
        <source>Integrated GPU</source>
        <translation>集成显卡</translation>
    </message>
    <message>
        <source>Other GPU</source>
        <translation>其他 GPU</translation>
    </message>
    <message>
        <source>Both GPUs</source>
        <translation>两块 GPU</translation>
    </message>
    <message>
        <source>No GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <source>measured while it worked</source>
        <translation>在其工作时实测</translation>
    </message>
    <message>
        <source>idle; judged by the GPU it holds</source>
        <translation>空闲；按它占用的 GPU 判断</translation>
    </message>
    <message>
        <source>judged by the drivers it loaded</source>
        <translation>按它加载的驱动判断</translation>
    </message>
    <message>
        <source>no evidence</source>
        <translation>无证据</translation>
    </message>
    <message>
        <source>No program matches the filter.</source>
        <translation>没有符合筛选条件的程序。</translation>
    </message>
    <message>
        <source>No program is using a GPU right now.
Start one, or tick “Show every program”.</source>
        <translation>目前没有程序在使用 GPU。
请启动一个程序，或勾选“显示所有程序”。</translation>
    </message>
    <message>
        <source>No program is using a GPU.</source>
        <translation>没有程序在使用 GPU。</translation>
    </message>
    <message>
        <source>{placement}: {gpus}</source>
        <translation>{placement}：{gpus}</translation>
    </message>
</context>
</TS>
