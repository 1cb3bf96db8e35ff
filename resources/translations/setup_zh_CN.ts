<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Doctor</name>
    <message>
        <source>{python} is managed by the system: pip will not install into it</source>
        <translation>{python} 由系统管理：pip 不能往里安装</translation>
    </message>
    <message>
        <source>Its standard library folder {stdlib} has an EXTERNALLY-MANAGED file (PEP 668), so &apos;pip install torch&apos; stops with &apos;externally-managed-environment&apos;. Put PyTorch in a virtual environment instead, and pick that environment here.</source>
        <translation>它的标准库目录 {stdlib} 里有 EXTERNALLY-MANAGED 文件（PEP 668），所以 &apos;pip install torch&apos; 会报 &apos;externally-managed-environment&apos; 并停止。请把 PyTorch 装进虚拟环境，再在这里选择那个环境。</translation>
    </message>
    <message>
        <source>Create a virtual environment for PyTorch</source>
        <translation>为 PyTorch 创建虚拟环境</translation>
    </message>
    <message>
        <source>{distro} is not a distribution the wizard has steps for</source>
        <translation>{distro} 不在向导支持的发行版之列</translation>
    </message>
    <message>
        <source>The checks below still apply; the wizard shows the generic steps (install your distribution&apos;s NVIDIA driver package, blacklist nouveau, reboot, verify).</source>
        <translation>下面的检查照样有效；向导会给出通用步骤（安装发行版自带的 NVIDIA 驱动包、屏蔽 nouveau、重启、验证）。</translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found</source>
        <translation>没有找到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>No display device with NVIDIA&apos;s PCI vendor id (10de) is visible. Check that the card is seated, powered (PCIe power cables) and enabled in the firmware; in a virtual machine it must be passed through.</source>
        <translation>看不到任何 PCI 厂商号为 NVIDIA（10de）的显示设备。请检查显卡是否插好、供电线（PCIe 供电）是否接上、是否在 BIOS/UEFI 中启用；虚拟机里需要做显卡直通。</translation>
    </message>
    <message>
        <source>{name} is not in the rules file</source>
        <translation>规则文件里没有 {name}</translation>
    </message>
    <message>
        <source>The wizard cannot tell its generation, so it cannot choose between the open and the proprietary kernel module or the right PyTorch build for you. Update the app, or pass the compute capability through a working driver.</source>
        <translation>向导无法判断它属于哪一代架构，因此没法替你在开源和闭源内核模块之间做选择，也选不出合适的 PyTorch 版本。请更新本软件，或在驱动正常工作后再检查一次（届时可直接读到计算能力）。</translation>
    </message>
    <message>
        <source>The driver comes from Windows (WSL2)</source>
        <translation>驱动来自 Windows（WSL2）</translation>
    </message>
    <message>
        <source>The driver comes from outside this system (a container&apos;s host)</source>
        <translation>驱动来自这个系统之外（容器所在的宿主机）</translation>
    </message>
    <message>
        <source>NVML answers with driver {driver}, but no NVIDIA kernel module is loaded here. Do not install a Linux NVIDIA driver in this system: update the driver on the host instead (NVIDIA&apos;s CUDA on WSL guide says the same for WSL2).</source>
        <translation>NVML 报告的驱动版本是 {driver}，但这里并没有加载 NVIDIA 内核模块。不要在这个系统里安装 Linux 版 NVIDIA 驱动，请在宿主机上更新驱动（NVIDIA 的 CUDA on WSL 指南对 WSL2 也是这么说的）。</translation>
    </message>
    <message>
        <source>The open-source nouveau driver is driving the card</source>
        <translation>显卡正由开源驱动 nouveau 驱动</translation>
    </message>
    <message>
        <source>CUDA and PyTorch need NVIDIA&apos;s driver. Install it, blacklist nouveau and rebuild the initramfs, then reboot (the wizard does each step).</source>
        <translation>CUDA 和 PyTorch 需要 NVIDIA 官方驱动。请安装驱动、屏蔽 nouveau 并重建 initramfs，然后重启（向导会逐步完成）。</translation>
    </message>
    <message>
        <source>Run the setup wizard: install the driver and blacklist nouveau</source>
        <translation>打开安装向导：安装驱动并屏蔽 nouveau</translation>
    </message>
    <message>
        <source>No NVIDIA kernel module is installed</source>
        <translation>没有安装 NVIDIA 内核模块</translation>
    </message>
    <message>
        <source>modinfo cannot find an nvidia module for the running kernel. Install the driver with the setup wizard.</source>
        <translation>modinfo 找不到适用于当前内核的 nvidia 模块。请用安装向导安装驱动。</translation>
    </message>
    <message>
        <source>Install the driver (setup wizard)</source>
        <translation>安装驱动（安装向导）</translation>
    </message>
    <message>
        <source>Secure Boot is on and the NVIDIA module {version} is not loaded</source>
        <translation>安全启动已开启，NVIDIA 模块 {version} 没有加载</translation>
    </message>
    <message>
        <source>With Secure Boot, the kernel refuses a module that is not signed by a key it trusts (&apos;Key was rejected by service&apos; in dmesg). Enrol the module signing key (MOK) and reboot, or turn Secure Boot off in the firmware.</source>
        <translation>开启安全启动（Secure Boot）后，内核会拒绝加载未经受信密钥签名的模块（dmesg 中可见 “Key was rejected by service”）。请登记模块签名密钥（MOK）后重启，或在固件设置中关闭安全启动。</translation>
    </message>
    <message>
        <source>Enrol the signing key (setup wizard)</source>
        <translation>登记签名密钥（安装向导）</translation>
    </message>
    <message>
        <source>Read the kernel&apos;s reason</source>
        <translation>查看内核给出的原因</translation>
    </message>
    <message>
        <source>The NVIDIA module {version} is installed but not loaded</source>
        <translation>NVIDIA 模块 {version} 已安装但没有加载</translation>
    </message>
    <message>
        <source>If you installed it just now, reboot. Otherwise load it by hand and read its error: often the module was not rebuilt for a new kernel (missing kernel headers; see &apos;dkms status&apos;).</source>
        <translation>如果刚刚安装，请重启。否则请手动加载并查看报错：常见原因是更新内核后模块没有重新编译（缺少内核头文件，可看 “dkms status”）。</translation>
    </message>
    <message>
        <source>Load it and show the error</source>
        <translation>手动加载并显示错误</translation>
    </message>
    <message>
        <source>Reboot: the loaded module ({loaded}) is older than the libraries ({newer})</source>
        <translation>请重启：已加载的内核模块（{loaded}）比驱动库（{newer}）旧</translation>
    </message>
    <message>
        <source>The driver was updated (often by automatic updates) while the old kernel module kept running, so NVML and CUDA refuse to talk to it (&apos;Driver/library version mismatch&apos;). A reboot loads the new module.</source>
        <translation>驱动已经更新（常见于自动更新），但旧的内核模块仍在运行，所以 NVML 和 CUDA 拒绝与它通信（“Driver/library version mismatch”）。重启即可加载新模块。</translation>
    </message>
    <message>
        <source>Reboot</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>{generation} cards need the {needed} kernel module, but the {loaded} one is loaded</source>
        <translation>{generation} 显卡需要{needed}内核模块，但当前加载的是{loaded}模块</translation>
    </message>
    <message>
        <source>Install the other variant of the same driver branch; the wizard picks it for your card.</source>
        <translation>请安装同一驱动分支的另一种模块；向导会按你的显卡自动选择。</translation>
    </message>
    <message>
        <source>Install the right driver variant (setup wizard)</source>
        <translation>安装正确的驱动模块（安装向导）</translation>
    </message>
    <message>
        <source>Driver {driver} is too old for {name}</source>
        <translation>驱动 {driver} 对 {name} 来说太旧了</translation>
    </message>
    <message>
        <source>{generation} cards need driver {branch} or newer.</source>
        <translation>{generation} 显卡需要 {branch} 或更新的驱动。</translation>
    </message>
    <message>
        <source>Update the driver (setup wizard)</source>
        <translation>更新驱动（安装向导）</translation>
    </message>
    <message>
        <source>nvidia-smi failed with exit code {code}: {meaning}</source>
        <translation>nvidia-smi 运行失败，退出码 {code}：{meaning}</translation>
    </message>
    <message>
        <source>Its message: {message}</source>
        <translation>它的输出：{message}</translation>
    </message>
    <message>
        <source>nvidia-smi is not installed</source>
        <translation>没有安装 nvidia-smi</translation>
    </message>
    <message>
        <source>The kernel module is loaded but the driver&apos;s user-space tools are missing; install your distribution&apos;s NVIDIA utilities package.</source>
        <translation>内核模块已加载，但缺少驱动的用户态工具；请安装发行版的 NVIDIA 工具包（utils）。</translation>
    </message>
    <message>
        <source>Driver {driver} is installed, but NVIDIA&apos;s management library does not answer</source>
        <translation>已安装驱动 {driver}，但 NVIDIA 管理库（NVML）没有响应</translation>
    </message>
    <message>
        <source>NVML ({library}) failed: {error}. CUDA and PyTorch go through the same driver, so they fail too. Reinstalling the driver replaces its libraries.</source>
        <translation>NVML（{library}）出错：{error}。CUDA 和 PyTorch 也经过同一个驱动，所以同样会失败。重新安装驱动会替换掉它的这些库文件。</translation>
    </message>
    <message>
        <source>Reinstall the driver (setup wizard)</source>
        <translation>重新安装驱动（安装向导）</translation>
    </message>
    <message>
        <source>Driver {driver} is working; it supports CUDA up to {cuda}</source>
        <translation>驱动 {driver} 工作正常，最高支持 CUDA {cuda}</translation>
    </message>
    <message>
        <source>The &apos;CUDA Version&apos; nvidia-smi shows is the highest CUDA this driver can run, not an installed toolkit. PyTorch wheels bring their own CUDA libraries, so no toolkit is needed.</source>
        <translation>nvidia-smi 显示的 “CUDA Version” 是这个驱动能运行的最高 CUDA 版本，并不代表装了 CUDA 工具包。PyTorch 的安装包自带 CUDA 运行库，所以不需要另装工具包。</translation>
    </message>
    <message>
        <source>NVML refuses access to the GPU (insufficient permissions)</source>
        <translation>NVML 拒绝访问 GPU（权限不足）</translation>
    </message>
    <message>
        <source>The device files /dev/nvidia* look usable, so the refusal comes from elsewhere: a container started without the GPU (docker run --gpus all), or a security module. Run the app as the user who owns the session.</source>
        <translation>设备文件 /dev/nvidia* 看起来可以使用，所以拒绝来自别处：可能是启动容器时没有带上 GPU（docker run --gpus all），或者是某个安全模块。请用当前登录会话的用户运行本程序。</translation>
    </message>
    <message>
        <source>Add yourself to the &apos;{group}&apos; group, then log out and back in</source>
        <translation>把自己加入 “{group}” 用户组，然后注销并重新登录</translation>
    </message>
    <message>
        <source>Or let every user open them: set NVreg_DeviceFileMode=0666 in a file under /etc/modprobe.d, then reboot</source>
        <translation>或者让所有用户都能打开它们：在 /etc/modprobe.d 下的配置文件里设置 NVreg_DeviceFileMode=0666，然后重启</translation>
    </message>
    <message>
        <source>You may not open the GPU&apos;s device files ({paths})</source>
        <translation>你没有权限打开 GPU 的设备文件（{paths}）</translation>
    </message>
    <message>
        <source>{path} has mode {mode} and group &apos;{group}&apos;, and {user} is not allowed to read and write it, so NVML and CUDA report &apos;Insufficient Permissions&apos;. The NVIDIA module sets these from its NVreg_DeviceFileMode and NVreg_DeviceFileGID options.</source>
        <translation>{path} 的权限是 {mode}，所属组是 “{group}”，而 {user} 没有读写权限，所以 NVML 和 CUDA 会报 “Insufficient Permissions”。这些权限由 NVIDIA 内核模块的 NVreg_DeviceFileMode 和 NVreg_DeviceFileGID 选项决定。</translation>
    </message>
    <message>
        <source>open</source>
        <translation>开源</translation>
    </message>
    <message>
        <source>proprietary</source>
        <translation>闭源</translation>
    </message>
    <message>
        <source>No Python environment checked</source>
        <translation>还没有检查 Python 环境</translation>
    </message>
    <message>
        <source>Pick the environment you train in (a venv or conda env) so the doctor can test PyTorch there.</source>
        <translation>请选择你用来训练的环境（venv 或 conda 环境），医生才能在其中测试 PyTorch。</translation>
    </message>
    <message>
        <source>Could not run {python}</source>
        <translation>无法运行 {python}</translation>
    </message>
    <message>
        <source>Reason: {reason}</source>
        <translation>原因：{reason}</translation>
    </message>
    <message>
        <source>Install the {variant} build of PyTorch (add torchvision/torchaudio to the same command if you use them)</source>
        <translation>安装 PyTorch 的 {variant} 版本（如果用到 torchvision/torchaudio，请加在同一条命令里）</translation>
    </message>
    <message>
        <source>PyTorch is not installed in {python}</source>
        <translation>{python} 中没有安装 PyTorch</translation>
    </message>
    <message>
        <source>Python {version} answered, but &apos;import torch&apos; failed: {error}</source>
        <translation>Python {version} 可以运行，但 “import torch” 失败：{error}</translation>
    </message>
    <message>
        <source>PyTorch {version} is a ROCm (AMD) build</source>
        <translation>PyTorch {version} 是 ROCm（AMD）版本</translation>
    </message>
    <message>
        <source>It cannot use an NVIDIA card. Install a CUDA build instead.</source>
        <translation>它无法使用 NVIDIA 显卡。请改装 CUDA 版本。</translation>
    </message>
    <message>
        <source>PyTorch {version} is a CPU-only build</source>
        <translation>PyTorch {version} 是纯 CPU 版本</translation>
    </message>
    <message>
        <source>torch.version.cuda is None, so torch.cuda.is_available() will always be False. On Windows, plain &apos;pip install torch&apos; gives this build; a CUDA build comes from PyTorch&apos;s own index.</source>
        <translation>torch.version.cuda 为 None，因此 torch.cuda.is_available() 永远是 False。在 Windows 上直接 “pip install torch” 装到的就是这个版本；CUDA 版本要从 PyTorch 自己的下载源安装。</translation>
    </message>
    <message>
        <source>Driver {driver} is too old for this PyTorch (built with CUDA {cuda})</source>
        <translation>驱动 {driver} 对这个 PyTorch（基于 CUDA {cuda} 编译）来说太旧了</translation>
    </message>
    <message>
        <source>CUDA {cuda} needs driver {need} or newer. Update the driver, or install a PyTorch build for an older CUDA.</source>
        <translation>CUDA {cuda} 需要 {need} 或更新的驱动。请更新驱动，或安装基于较旧 CUDA 的 PyTorch 版本。</translation>
    </message>
    <message>
        <source>Driver {driver} is older than CUDA {cuda}&apos;s own driver ({need})</source>
        <translation>驱动 {driver} 比 CUDA {cuda} 自带的驱动（{need}）旧</translation>
    </message>
    <message>
        <source>PyTorch runs through CUDA&apos;s minor-version compatibility, but features that need a newer driver fail with an error. Updating the driver removes the risk.</source>
        <translation>PyTorch 可以依靠 CUDA 的次版本兼容运行，但需要新驱动的功能会报错。更新驱动即可消除这个隐患。</translation>
    </message>
    <message>
        <source>This PyTorch has no kernels for {name} ({sm})</source>
        <translation>这个 PyTorch 没有适用于 {name}（{sm}）的内核</translation>
    </message>
    <message>
        <source>PyTorch {version} was built for {arches}. Work on the GPU fails with &apos;no kernel image is available&apos;. RTX 50 cards (sm_120) need torch 2.7 or newer with cu128 or a later CUDA.</source>
        <translation>PyTorch {version} 只为 {arches} 编译。在显卡上运行会报 “no kernel image is available”。RTX 50 系显卡（sm_120）需要 torch 2.7 或更新版本，且为 cu128 或更新的 CUDA 版本。</translation>
    </message>
    <message>
        <source>PyTorch {version} cannot see the GPU</source>
        <translation>PyTorch {version} 看不到显卡</translation>
    </message>
    <message>
        <source>torch.cuda.is_available() is False although the driver works. Its reason: {reason}</source>
        <translation>驱动正常，但 torch.cuda.is_available() 为 False。原因：{reason}</translation>
    </message>
    <message>
        <source>A small matrix multiply on the GPU failed</source>
        <translation>在显卡上做一次小矩阵乘法失败了</translation>
    </message>
    <message>
        <source>Error: {error}</source>
        <translation>错误：{error}</translation>
    </message>
    <message>
        <source>PyTorch {version} works on {device}</source>
        <translation>PyTorch {version} 在 {device} 上工作正常</translation>
    </message>
    <message>
        <source>CUDA build {cuda}, cuDNN {cudnn}; a matrix multiply on the GPU gave the right answer.</source>
        <translation>CUDA 版本 {cuda}，cuDNN {cudnn}；显卡上的矩阵乘法结果正确。</translation>
    </message>
    <message>
        <source>Power plan: {name}</source>
        <translation>电源计划：{name}</translation>
    </message>
    <message>
        <source>Good for long training runs.</source>
        <translation>适合长时间训练。</translation>
    </message>
    <message>
        <source>For long runs, &apos;High performance&apos; keeps the CPU and PCIe link from dropping into power saving between batches. On laptops also set the power mode to &apos;Best performance&apos; while plugged in.</source>
        <translation>长时间训练时，“高性能” 能避免 CPU 和 PCIe 链路在批次之间进入节能状态。笔记本插电时还请把电源模式设为 “最佳性能”。</translation>
    </message>
    <message>
        <source>Switch to High performance</source>
        <translation>切换到高性能</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>Windows default (value not set)</source>
        <translation>Windows 默认（未设置该值）</translation>
    </message>
    <message>
        <source>Hardware-accelerated GPU scheduling: {state}</source>
        <translation>硬件加速 GPU 计划：{state}</translation>
    </message>
    <message>
        <source>Set in Settings &gt; System &gt; Display &gt; Graphics (HwSchMode: 2 = on, 1 = off); a change needs a reboot. DLSS Frame Generation needs it on; for CUDA work either setting is fine.</source>
        <translation>在 设置 &gt; 系统 &gt; 屏幕 &gt; 显示卡 中设置（HwSchMode：2 = 开，1 = 关）；更改后需要重启。DLSS 帧生成需要开启；跑 CUDA 时开或关都可以。</translation>
    </message>
    <message>
        <source>There is no page file</source>
        <translation>没有页面文件</translation>
    </message>
    <message>
        <source>Loading PyTorch&apos;s CUDA libraries reserves a lot of virtual memory; without a page file this fails with &apos;OSError: [WinError 1455] The paging file is too small&apos;. Let Windows manage the page file size (System &gt; About &gt; Advanced system settings &gt; Performance &gt; Virtual memory).</source>
        <translation>加载 PyTorch 的 CUDA 库要预留大量虚拟内存；没有页面文件时会报 “OSError: [WinError 1455] 页面文件太小”。请让 Windows 自动管理页面文件大小（系统 &gt; 系统信息 &gt; 高级系统设置 &gt; 性能 &gt; 虚拟内存）。</translation>
    </message>
    <message>
        <source>The page file is managed by Windows</source>
        <translation>页面文件由 Windows 自动管理</translation>
    </message>
    <message>
        <source>It grows when PyTorch needs it, which avoids WinError 1455.</source>
        <translation>PyTorch 需要时它会自动增大，可避免 WinError 1455。</translation>
    </message>
    <message>
        <source>The page file has a fixed size: {sizes}</source>
        <translation>页面文件是固定大小：{sizes}</translation>
    </message>
    <message>
        <source>If you see &apos;WinError 1455: The paging file is too small&apos;, let Windows manage the size or raise the maximum (sizes are in MB), then reboot.</source>
        <translation>如果遇到 “WinError 1455：页面文件太小”，请改为由 Windows 自动管理或调大最大值（单位 MB），然后重启。</translation>
    </message>
    <message>
        <source>{name} (pid {pid}) has {shared} GiB of GPU memory in shared system memory</source>
        <translation>{name}（进程 {pid}）有 {shared} GiB 显存数据放在了共享系统内存中</translation>
    </message>
    <message>
        <source>When dedicated GPU memory is full, the driver moves allocations into system RAM, which the GPU reaches over PCIe, many times slower, so the job keeps running but crawls. The driver&apos;s &apos;{setting}&apos; ({where}) decides this for CUDA apps: &apos;Prefer No Sysmem Fallback&apos; gives a clear out-of-memory error instead, so you can lower the batch size or use a smaller model.</source>
        <translation>专用显存用满后，驱动会把部分分配挪到系统内存，显卡要经 PCIe 访问，速度慢很多倍，所以任务虽然还在跑，却慢得像卡住。对 CUDA 程序来说，这由驱动的 “{setting}”（{where}）决定：选 “Prefer No Sysmem Fallback” 会直接报显存不足，你就可以调小批次大小或换更小的模型。</translation>
    </message>
</context>
<context>
    <name>DoctorCli</name>
    <message>
        <source>Python environments found (test one with --python PATH):</source>
        <translation>找到的 Python 环境（用 --python 路径 测试其中一个）：</translation>
    </message>
    <message>
        <source>OS</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>Kernel module</source>
        <translation>内核模块</translation>
    </message>
    <message>
        <source>Secure Boot</source>
        <translation>安全启动</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>{label}: {value}</source>
        <translation>{label}：{value}</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>legacy BIOS boot</source>
        <translation>传统 BIOS 启动</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>open kernel modules</source>
        <translation>开源内核模块</translation>
    </message>
    <message>
        <source>proprietary kernel module</source>
        <translation>闭源内核模块</translation>
    </message>
    <message>
        <source>unknown type</source>
        <translation>类型未知</translation>
    </message>
    <message>
        <source>generation unknown</source>
        <translation>架构未知</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>{python} ({version}), PyTorch: {torch}</source>
        <translation>{python}（{version}），PyTorch：{torch}</translation>
    </message>
    <message>
        <source>{driver} (CUDA up to {cuda})</source>
        <translation>{driver}（最高支持 CUDA {cuda}）</translation>
    </message>
</context>
<context>
    <name>Setup</name>
    <message>
        <source>restore what &apos;{step}&apos; saved</source>
        <translation>恢复 &apos;{step}&apos; 保存的内容</translation>
    </message>
    <message>
        <source>restore what &apos;{step}&apos; saved (it has not run yet)</source>
        <translation>恢复 &apos;{step}&apos; 保存的内容（该步骤还没有执行过）</translation>
    </message>
    <message>
        <source>only if {mark} exists (GPU Assistant made this folder):</source>
        <translation>仅当 {mark} 存在时（说明该文件夹由 GPU 助手创建）：</translation>
    </message>
    <message>
        <source>save the current value of {value}</source>
        <translation>保存 {value} 的当前值</translation>
    </message>
    <message>
        <source>each command asks for administrator rights (UAC prompt)</source>
        <translation>每条命令都会请求管理员权限（UAC 提示）</translation>
    </message>
    <message>
        <source>this step puts back what &apos;{step}&apos; saved; it has no undo of its own</source>
        <translation>这一步恢复 &apos;{step}&apos; 保存的内容，本身没有撤销</translation>
    </message>
    <message>
        <source>restore {path} from the backup GPU Assistant makes in {folder} (content, mode and owner; a link stays a link), or remove it if it did not exist</source>
        <translation>从 GPU 助手在 {folder} 中做的备份恢复 {path}（内容、权限和属主；符号链接仍恢复为链接）；如果它原本不存在，就删除它</translation>
    </message>
    <message>
        <source>put back the value of {value} saved before the run (or delete it if it was not set)</source>
        <translation>恢复执行前保存的 {value} 的值（原本没有设置则删除）</translation>
    </message>
    <message>
        <source>Dry run: nothing was changed</source>
        <translation>演练：没有做任何改动</translation>
    </message>
    <message>
        <source>Nothing to restore: the step &apos;{step}&apos; has not changed anything</source>
        <translation>没有可恢复的内容：步骤 “{step}” 还没有改动过任何东西</translation>
    </message>
    <message>
        <source>This step is done by hand: follow its explanation, then mark it done</source>
        <translation>这一步需要你手动完成：按说明操作后，点 “标记为完成”</translation>
    </message>
    <message>
        <source>Choose the file first: {what}</source>
        <translation>请先选择文件：{what}</translation>
    </message>
    <message>
        <source>Stopped before changing anything: could not read {path} ({error})</source>
        <translation>在做任何改动之前停止：无法读取 {path}（{error}）</translation>
    </message>
    <message>
        <source>Stopped before changing anything: {path} changed after the plan was shown. Check again to see the plan for the file as it is now.</source>
        <translation>在做任何改动之前停止：{path} 在显示计划之后被修改过。请重新检查，查看按该文件当前内容生成的计划。</translation>
    </message>
    <message>
        <source>Stopped before changing anything: the saved progress of this step is damaged ({problem})</source>
        <translation>在做任何改动之前停止：这一步保存的进度已损坏（{problem}）</translation>
    </message>
    <message>
        <source>Stopped before changing anything: could not back up {path} ({error})</source>
        <translation>已在改动前停止：无法备份 {path}（{error}）</translation>
    </message>
    <message>
        <source>Stopped before changing anything: could not read the current registry values</source>
        <translation>已在改动前停止：无法读取当前的注册表值</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>This step has no undo</source>
        <translation>这一步无法撤销</translation>
    </message>
    <message>
        <source>the content shown above goes to this command on standard input ({stdin})</source>
        <translation>上面显示的内容通过标准输入（{stdin}）交给这条命令</translation>
    </message>
    <message>
        <source>GPU Assistant has not run this step, so there is nothing to undo</source>
        <translation>GPU 助手没有执行过这一步，所以没有可撤销的内容</translation>
    </message>
    <message>
        <source>Nothing was undone: the saved progress of this step is damaged ({problem})</source>
        <translation>没有撤销任何内容：这一步保存的进度已损坏（{problem}）</translation>
    </message>
    <message>
        <source>Nothing was undone: {problem}</source>
        <translation>没有撤销任何内容：{problem}</translation>
    </message>
    <message>
        <source>{path} was not created by GPU Assistant (or is already gone), so it is left alone</source>
        <translation>{path} 不是 GPU 助手创建的（或已经不存在），因此不会动它</translation>
    </message>
    <message>
        <source>Undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>the saved progress of this step is damaged ({problem})</source>
        <translation>这一步保存的进度已损坏（{problem}）</translation>
    </message>
    <message>
        <source>progress.json names {path}, which this step does not change; refused</source>
        <translation>progress.json 中写的是 {path}，而这一步并不修改它；已拒绝</translation>
    </message>
    <message>
        <source>{path} resolves outside the system root; refused</source>
        <translation>{path} 解析后位于系统根目录之外；已拒绝</translation>
    </message>
    <message>
        <source>{path} was changed after GPU Assistant wrote it; undo would throw that change away, so it is refused (the original is kept in {backup})</source>
        <translation>{path} 在 GPU 助手写入之后又被修改过；撤销会丢掉这些修改，因此已拒绝（原文件保存在 {backup}）</translation>
    </message>
    <message>
        <source>the backup {backup} of {path} is missing or not in this step&apos;s backup folder; refused</source>
        <translation>{path} 的备份 {backup} 不存在，或不在这一步的备份文件夹中；已拒绝</translation>
    </message>
    <message>
        <source>the backup {backup} does not match the hash noted when it was made; undo is refused</source>
        <translation>备份 {backup} 与创建时记录的哈希值不一致；已拒绝撤销</translation>
    </message>
    <message>
        <source>restore {path} from the backup {backup} (mode {mode})</source>
        <translation>从备份 {backup} 恢复 {path}（权限 {mode}）</translation>
    </message>
    <message>
        <source>put back the symbolic link {path} -&gt; {link}</source>
        <translation>恢复符号链接 {path} -&gt; {link}</translation>
    </message>
    <message>
        <source>remove {path}: it did not exist before</source>
        <translation>删除 {path}：它原本不存在</translation>
    </message>
    <message>
        <source>progress.json names the registry value {value}, which this step does not change; refused</source>
        <translation>progress.json 中写的是注册表值 {value}，而这一步并不修改它；已拒绝</translation>
    </message>
    <message>
        <source>progress.json holds a value for {value} that this step could not have saved (type {kind}); refused</source>
        <translation>progress.json 里 {value} 的值不可能是这一步保存的（类型 {kind}）；已拒绝</translation>
    </message>
    <message>
        <source>{folder} is not a folder only the administrator can change; the backups in it are not trusted, so undo is refused</source>
        <translation>{folder} 不是只有管理员能修改的文件夹，里面的备份不可信，因此拒绝撤销</translation>
    </message>
    <message>
        <source>the backup {backup} can be changed by someone other than the administrator; undo is refused</source>
        <translation>备份 {backup} 可以被管理员以外的人修改；已拒绝撤销</translation>
    </message>
    <message>
        <source>if {path} exists there, it is backed up first and undo restores it byte for byte; if not, undo removes it</source>
        <translation>如果那台机器上有 {path}，会先备份，撤销时逐字节恢复；如果没有，撤销时删除它</translation>
    </message>
    <message>
        <source>{path}: the first backup is kept (from the earlier run); undo restores the original from it</source>
        <translation>{path}：保留第一次执行时的备份；撤销时用它恢复原来的文件</translation>
    </message>
    <message>
        <source>{path} does not exist yet: undo removes it</source>
        <translation>{path} 目前不存在：撤销时删除它</translation>
    </message>
    <message>
        <source>{path} is a symbolic link to {link}: undo puts the link back</source>
        <translation>{path} 是指向 {link} 的符号链接：撤销时恢复这个链接</translation>
    </message>
    <message>
        <source>back up {path} (mode {mode}) to {folder}; undo restores it byte for byte</source>
        <translation>把 {path}（权限 {mode}）备份到 {folder}；撤销时逐字节恢复</translation>
    </message>
    <message>
        <source>write {path} ({count} lines):</source>
        <translation>写入 {path}（{count} 行）：</translation>
    </message>
    <message>
        <source>{command} is not installed on this system</source>
        <translation>系统中没有安装 {command}</translation>
    </message>
    <message>
        <source>Permission was refused (the password dialog was closed or the password was wrong)</source>
        <translation>权限被拒绝（密码窗口被关闭或密码错误）</translation>
    </message>
    <message>
        <source>Permission was refused at the Windows prompt</source>
        <translation>在 Windows 提示中拒绝了权限</translation>
    </message>
    <message>
        <source>&apos;{command}&apos; failed with exit code {code}: {output}</source>
        <translation>“{command}” 失败，退出码 {code}：{output}</translation>
    </message>
    <message>
        <source>Keep the nouveau driver off the card</source>
        <translation>不让 nouveau 驱动占用显卡</translation>
    </message>
    <message>
        <source>nouveau, the open-source driver, grabs the card before NVIDIA&apos;s module can. This writes the same blacklist file NVIDIA&apos;s installer writes and rebuilds the initramfs so it takes effect at boot. Many driver packages already do this; then the step shows as done.</source>
        <translation>开源驱动 nouveau 会抢在 NVIDIA 模块之前接管显卡。这一步写入与 NVIDIA 安装程序相同的屏蔽文件，并重建 initramfs，使其在开机时生效。很多驱动包已经做了这件事，那样这一步会显示为已完成。</translation>
    </message>
    <message>
        <source>Secure Boot: sign the module</source>
        <translation>安全启动：为模块签名</translation>
    </message>
    <message>
        <source>Secure Boot is on (or could not be read). This distribution has no standard signing key for NVIDIA&apos;s module: either turn Secure Boot off in the firmware settings, or sign the module with your own key (see your distribution&apos;s wiki on Secure Boot).</source>
        <translation>安全启动已开启（或无法读取）。这个发行版没有为 NVIDIA 模块准备标准签名密钥：要么在固件设置中关闭安全启动，要么用自己的密钥为模块签名（参见发行版关于安全启动的 Wiki）。</translation>
    </message>
    <message>
        <source>Secure Boot: enrol the module signing key</source>
        <translation>安全启动：登记模块签名密钥</translation>
    </message>
    <message>
        <source>With Secure Boot on, the kernel only loads modules signed by a key it trusts. mokutil asks you to make up a one-time password. At the next boot a blue &apos;MOK management&apos; screen appears: choose &apos;Enroll MOK&apos;, &apos;Continue&apos;, &apos;Yes&apos;, type that password, then reboot. If you miss the screen, run this step again.</source>
        <translation>开启安全启动时，内核只加载由受信密钥签名的模块。mokutil 会让你设置一个一次性密码。下次开机会出现蓝色的 “MOK management” 界面：依次选择 “Enroll MOK”、“Continue”、“Yes”，输入该密码，然后重启。如果错过了这个界面，再执行一次这一步。</translation>
    </message>
    <message>
        <source>Reboot</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>The new kernel module loads at boot. Save your work first. After the reboot, open GPU Assistant again: the wizard continues where it stopped.</source>
        <translation>新的内核模块在开机时加载。请先保存工作。重启后再打开 GPU 助手，向导会从上次停下的地方继续。</translation>
    </message>
    <message>
        <source>Check that the driver works</source>
        <translation>检查驱动是否正常</translation>
    </message>
    <message>
        <source>nvidia-smi talks to the driver through NVML. Exit code 0 means the driver is loaded and answers; its header shows the highest CUDA version this driver can run.</source>
        <translation>nvidia-smi 通过 NVML 与驱动通信。退出码为 0 表示驱动已加载并有响应；它的标题行会显示这个驱动能运行的最高 CUDA 版本。</translation>
    </message>
    <message>
        <source>Install Python&apos;s venv support</source>
        <translation>安装 Python 的 venv 支持</translation>
    </message>
    <message>
        <source>Debian and Ubuntu ship &apos;python3 -m venv&apos; in a separate package, python3-venv. Without it the next step fails with &apos;ensurepip is not available&apos;.</source>
        <translation>Debian 和 Ubuntu 把 &apos;python3 -m venv&apos; 放在单独的软件包 python3-venv 里。没有它，下一步会报 &apos;ensurepip is not available&apos; 而失败。</translation>
    </message>
    <message>
        <source>The system Python is marked EXTERNALLY-MANAGED (PEP 668), so &apos;pip install&apos; into it fails with &apos;externally-managed-environment&apos;. PyTorch goes into its own virtual environment in {path} instead; use {python} (or &apos;source {path}/bin/activate&apos;) to train with it.</source>
        <translation>系统自带的 Python 标记为 EXTERNALLY-MANAGED（PEP 668），往里 &apos;pip install&apos; 会报 &apos;externally-managed-environment&apos; 而失败。因此 PyTorch 会装进 {path} 下单独的虚拟环境；训练时请使用 {python}（或先执行 &apos;source {path}/bin/activate&apos;）。</translation>
    </message>
    <message>
        <source>No Python environment was picked, and installing into the system Python is refused on many distributions (PEP 668: &apos;externally-managed-environment&apos;). PyTorch goes into its own virtual environment in {path}; use {python} (or &apos;source {path}/bin/activate&apos;) to train with it.</source>
        <translation>还没有选择 Python 环境，而很多发行版拒绝往系统 Python 里安装软件包（PEP 668：&apos;externally-managed-environment&apos;）。因此 PyTorch 会装进 {path} 下单独的虚拟环境；训练时请使用 {python}（或先执行 &apos;source {path}/bin/activate&apos;）。</translation>
    </message>
    <message>
        <source>Create a Python virtual environment for PyTorch</source>
        <translation>为 PyTorch 创建 Python 虚拟环境</translation>
    </message>
    <message>
        <source>Installs PyTorch&apos;s {variant} build into {python}, chosen for the driver this plan installs ({driver} or newer). It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. Add torchvision/torchaudio to the command if you use them, so their builds match.</source>
        <translation>把 PyTorch 的 {variant} 版本安装到 {python}，这是按本计划安装的驱动（{driver} 或更新）选出的版本。它自带 CUDA 和 cuDNN 库，系统里只需要驱动。如果你用 torchvision/torchaudio，把它们也加进这条命令，让版本一致。</translation>
    </message>
    <message>
        <source>{explanation} That driver is older than the one CUDA {cuda} shipped with ({need}); PyTorch still runs on it through CUDA minor-version compatibility (any driver from {floor} on), though a few newer CUDA features may be missing.</source>
        <translation>{explanation} 这个驱动比 CUDA {cuda} 随附的驱动（{need}）旧；PyTorch 仍可借助 CUDA 次版本兼容在上面运行（{floor} 及以上的驱动均可），只是少数较新的 CUDA 功能可能不可用。</translation>
    </message>
    <message>
        <source>Installs PyTorch&apos;s {variant} build into {python}. It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. It needs driver {need} or newer (you have {driver}). Add torchvision/torchaudio to the command if you use them, so their builds match.</source>
        <translation>把 PyTorch 的 {variant} 版本装进 {python}。它自带 CUDA 和 cuDNN 库，系统里只需要装驱动。它需要 {need} 或更新的驱动（你的是 {driver}）。如果用到 torchvision/torchaudio，请加在同一条命令里，保证版本匹配。</translation>
    </message>
    <message>
        <source>Installs PyTorch&apos;s {variant} build into {python}. It brings its own CUDA and cuDNN libraries; only the driver is needed system-wide. It needs driver {need} or newer: after the reboot the wizard re-reads the driver and picks an older build if yours needs one.</source>
        <translation>把 PyTorch 的 {variant} 版本装进 {python}。它自带 CUDA 和 cuDNN 库，系统里只需要装驱动。它需要 {need} 或更新的驱动：重启后向导会重新读取驱动版本，如有需要会改选较旧的版本。</translation>
    </message>
    <message>
        <source>{explanation} The card&apos;s generation is not known, so this is the build that covers the most GPU generations (Maxwell to Hopper), not the newest one. For an RTX 50 (Blackwell) card use cu128 or newer instead.</source>
        <translation>{explanation} 无法确定这张显卡的架构，所以这里选的是支持显卡架构最多的版本（Maxwell 到 Hopper），而不是最新版本。如果是 RTX 50（Blackwell）显卡，请改用 cu128 或更新的版本。</translation>
    </message>
    <message>
        <source>Install PyTorch for this card ({variant})</source>
        <translation>为这张显卡安装 PyTorch（{variant}）</translation>
    </message>
    <message>
        <source>Check PyTorch on the GPU</source>
        <translation>在显卡上检查 PyTorch</translation>
    </message>
    <message>
        <source>Runs a small matrix multiply on the GPU in your environment and checks that this card&apos;s architecture is in PyTorch&apos;s build.</source>
        <translation>在你的环境中用显卡做一次小矩阵乘法，并检查 PyTorch 是否包含这张显卡的架构。</translation>
    </message>
    <message>
        <source>The card&apos;s generation could not be worked out from its PCI id, so the plan does not pick between the open modules (Turing and newer only) and the proprietary one: the driver step tells you how to choose, and the PyTorch build is the one that runs on the most GPU generations.</source>
        <translation>无法从 PCI ID 判断这张显卡的架构，所以计划不替你在开源内核模块（仅支持 Turing 及更新的显卡）和闭源模块之间做选择：驱动步骤会说明怎么选，PyTorch 则选用支持显卡架构最多的版本。</translation>
    </message>
    <message>
        <source>{generation} cards run on NVIDIA&apos;s open kernel modules (NVIDIA&apos;s default since driver 560; RTX 50 cards work only with them). This installs nvidia-driver-{branch}-open by name, never the &apos;recommended&apos; pick, which can be the closed module. Branch {branch} is the newest that this Ubuntu release supports (its restricted archive) and that runs the card; the first command makes sure the tool is there.</source>
        <translation>{generation} 显卡使用 NVIDIA 的开源内核模块（自 560 驱动起为 NVIDIA 默认；RTX 50 只能用它）。这里按名称安装 nvidia-driver-{branch}-open，绝不用“推荐”项，因为推荐的可能是闭源模块。{branch} 分支是此 Ubuntu 版本官方支持（restricted 仓库）且能驱动这张卡的最新分支；第一条命令确保工具已安装。</translation>
    </message>
    <message>
        <source>Install NVIDIA driver {branch} (proprietary kernel module)</source>
        <translation>安装 NVIDIA 驱动 {branch}（闭源内核模块）</translation>
    </message>
    <message>
        <source>{generation} cards need NVIDIA&apos;s proprietary kernel module, and driver branch {last} is the last that supports them. This installs nvidia-driver-{branch} by name; the first command makes sure the tool is there.</source>
        <translation>{generation} 显卡需要 NVIDIA 的闭源内核模块，且 {last} 是支持它们的最后一个驱动分支。这里按名称安装 nvidia-driver-{branch}；第一条命令确保工具已安装。</translation>
    </message>
    <message>
        <source>GPU Assistant has no driver list for this Ubuntu release, so it assumes branch {branch} is in its archive, as it is in every supported Ubuntu LTS release. If &apos;ubuntu-drivers list&apos; does not show nvidia-driver-{branch}, pick the newest branch it shows.</source>
        <translation>GPU 助手没有此 Ubuntu 版本的驱动列表，因此假定其软件源中有 {branch} 分支（所有受支持的 Ubuntu LTS 版本都有）。如果 &apos;ubuntu-drivers list&apos; 没有列出 nvidia-driver-{branch}，请选择它列出的最新分支。</translation>
    </message>
    <message>
        <source>{os} has no NVIDIA driver package new enough for {generation} cards (they need {need} or newer).</source>
        <translation>{os} 没有足够新的 NVIDIA 驱动包来支持 {generation} 显卡（需要 {need} 或更新）。</translation>
    </message>
    <message>
        <source>This Ubuntu release&apos;s archive has no driver branch that runs {generation} cards. Upgrade to Ubuntu 22.04 or 24.04 (then this wizard installs nvidia-driver-{branch}-open), or install driver {branch} from NVIDIA&apos;s CUDA repository for your release by following NVIDIA&apos;s driver installation guide.</source>
        <translation>此 Ubuntu 版本的软件源中没有能驱动 {generation} 显卡的驱动分支。请升级到 Ubuntu 22.04 或 24.04（之后本向导会安装 nvidia-driver-{branch}-open），或按照 NVIDIA 驱动安装指南，从 NVIDIA 针对你的版本的 CUDA 软件源安装 {branch} 驱动。</translation>
    </message>
    <message>
        <source>GPU Assistant could not tell this card&apos;s generation from its PCI id, so it does not pick between the open and the proprietary module. Run &apos;ubuntu-drivers list&apos;. GTX 16xx, RTX 20xx and newer (all RTX 50): &apos;sudo ubuntu-drivers install nvidia:{branch}-open&apos;. GTX 9xx, GTX 10xx and Volta cards: &apos;sudo ubuntu-drivers install nvidia:{branch}&apos;. Do not run a bare &apos;ubuntu-drivers install&apos;: its &apos;recommended&apos; pick can be a module the card cannot use.</source>
        <translation>GPU 助手无法根据 PCI ID 判断这张卡的架构，所以不替你在开源与闭源模块之间选择。请运行 &apos;ubuntu-drivers list&apos;。GTX 16 系列、RTX 20 系列及更新（包括所有 RTX 50）：&apos;sudo ubuntu-drivers install nvidia:{branch}-open&apos;。GTX 9 系列、GTX 10 系列和 Volta 显卡：&apos;sudo ubuntu-drivers install nvidia:{branch}&apos;。不要只运行 &apos;ubuntu-drivers install&apos;：它“推荐”的可能是这张卡无法使用的模块。</translation>
    </message>
    <message>
        <source>Install a driver that runs this card</source>
        <translation>安装能驱动这张卡的驱动</translation>
    </message>
    <message>
        <source>Debian&apos;s packaged NVIDIA driver cannot run this card together with a current PyTorch build, and GPU Assistant has no tested driver repository for this case. Upgrade to Debian 12 or 13, or install driver {branch} or newer by following NVIDIA&apos;s driver installation guide (open kernel modules for Turing and newer cards). Do not install Debian&apos;s nvidia-driver package here.</source>
        <translation>Debian 打包的 NVIDIA 驱动无法同时支持这张卡和当前的 PyTorch 版本，而 GPU 助手对这种情况没有经过测试的驱动软件源。请升级到 Debian 12 或 13，或按照 NVIDIA 驱动安装指南安装 {branch} 或更新的驱动（Turing 及更新的卡用开源内核模块）。这里不要安装 Debian 的 nvidia-driver 包。</translation>
    </message>
    <message>
        <source>{generation} cards work only with NVIDIA&apos;s open kernel modules.</source>
        <translation>{generation} 显卡只能使用 NVIDIA 的开源内核模块。</translation>
    </message>
    <message>
        <source>{generation} cards work only with NVIDIA&apos;s proprietary kernel module; driver branch {branch} is the last one that supports them.</source>
        <translation>{generation} 显卡只能使用 NVIDIA 的闭源内核模块；{branch} 分支是支持它们的最后一个驱动分支。</translation>
    </message>
    <message>
        <source>{generation} cards work with both module types; the open modules are NVIDIA&apos;s default since driver 560.</source>
        <translation>{generation} 显卡两种模块都能用；从 560 驱动起，开源模块是 NVIDIA 的默认选择。</translation>
    </message>
    <message>
        <source>Refresh the package lists</source>
        <translation>刷新软件包列表</translation>
    </message>
    <message>
        <source>Downloads the current package lists so the newest driver packages are seen.</source>
        <translation>下载最新的软件包列表，以便看到最新的驱动包。</translation>
    </message>
    <message>
        <source>Install NVIDIA driver {branch} with the open kernel modules</source>
        <translation>安装使用开源内核模块的 NVIDIA 驱动 {branch}</translation>
    </message>
    <message>
        <source>Enable Debian&apos;s contrib and non-free components</source>
        <translation>启用 Debian 的 contrib 和 non-free 软件源组件</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s driver is in Debian&apos;s non-free component. This adds {components} to your Debian repository lines in {path}; the old file is backed up.</source>
        <translation>NVIDIA 驱动在 Debian 的 non-free 组件中。这一步把 {components} 加到 {path} 中的 Debian 软件源上，原文件会先备份。</translation>
    </message>
    <message>
        <source>Add &apos;{components}&apos; to the components of every Debian repository line (in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list). On this machine the wizard edits the file for you and keeps a backup.</source>
        <translation>请在每一条 Debian 软件源的组件中加上 “{components}”（位于 /etc/apt/sources.list.d/debian.sources 或 /etc/apt/sources.list）。在本机上运行时，向导会替你修改文件并保留备份。</translation>
    </message>
    <message>
        <source>Debian {codename} packages driver {packaged}, which no current PyTorch build runs on (CUDA 12 builds need {floor} or newer).</source>
        <translation>Debian {codename} 打包的驱动是 {packaged}，当前没有任何 PyTorch 版本能在其上运行（CUDA 12 版本需要 {floor} 或更新）。</translation>
    </message>
    <message>
        <source>Debian {codename} packages driver {packaged}, but {generation} cards need {need} or newer, which that package cannot provide. This plan installs the driver from NVIDIA&apos;s CUDA repository for Debian instead (nvidia-open).</source>
        <translation>Debian {codename} 自带的驱动是 {packaged}，但 {generation} 显卡需要 {need} 或更新的驱动，这个软件包满足不了。因此本计划改为从 NVIDIA 为 Debian 提供的 CUDA 软件源安装驱动（nvidia-open）。</translation>
    </message>
    <message>
        <source>Add NVIDIA&apos;s CUDA repository for Debian</source>
        <translation>添加 NVIDIA 的 Debian CUDA 软件源</translation>
    </message>
    <message>
        <source>Downloads NVIDIA&apos;s cuda-keyring package and installs it. It adds the repository list {list} and NVIDIA&apos;s signing key; no existing file is changed, so there is nothing to back up. Undo removes the package, and with it both files.</source>
        <translation>下载并安装 NVIDIA 的 cuda-keyring 软件包。它会添加软件源列表 {list} 和 NVIDIA 的签名密钥；不修改任何已有文件，所以无需备份。撤销时卸载这个软件包，两个文件随之删除。</translation>
    </message>
    <message>
        <source>Install NVIDIA&apos;s open driver (nvidia-open) from NVIDIA&apos;s repository</source>
        <translation>从 NVIDIA 软件源安装开源内核模块驱动（nvidia-open）</translation>
    </message>
    <message>
        <source>Installs nvidia-open, NVIDIA&apos;s current driver with the open kernel modules that {generation} cards require, and the headers for your running kernel (DKMS builds the module against them). It replaces nothing from Debian&apos;s nvidia-driver; do not install both.</source>
        <translation>安装 nvidia-open（NVIDIA 当前的驱动，带有 {generation} 显卡必需的开源内核模块）以及当前内核的头文件（DKMS 用它们编译模块）。它不会替换 Debian 的 nvidia-driver；两者不要同时安装。</translation>
    </message>
    <message>
        <source>Debian {codename} packages driver {packaged}, but {generation} cards need {need} or newer. Install a newer driver by hand (see the driver step).</source>
        <translation>Debian {codename} 自带的驱动是 {packaged}，但 {generation} 显卡需要 {need} 或更新的驱动。请手动安装更新的驱动（见驱动步骤）。</translation>
    </message>
    <message>
        <source>GPU Assistant does not know which driver Debian {codename} packages, and {generation} cards need {need} or newer. Install a driver that new by hand (see the driver step).</source>
        <translation>GPU 助手不知道 Debian {codename} 自带哪个版本的驱动，而 {generation} 显卡需要 {need} 或更新的驱动。请手动安装足够新的驱动（见驱动步骤）。</translation>
    </message>
    <message>
        <source>Install a driver new enough for this card</source>
        <translation>安装足够新、能驱动这张显卡的驱动</translation>
    </message>
    <message>
        <source>Install Debian&apos;s NVIDIA driver</source>
        <translation>安装 Debian 的 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>Installs nvidia-driver, the firmware and the headers for your running kernel (DKMS builds the module against them). The package also blacklists nouveau.</source>
        <translation>安装 nvidia-driver、固件以及当前内核的头文件（DKMS 用它们编译模块）。这个包也会屏蔽 nouveau。</translation>
    </message>
    <message>
        <source>Enable RPM Fusion (free and nonfree)</source>
        <translation>启用 RPM Fusion（free 和 nonfree）</translation>
    </message>
    <message>
        <source>Fedora does not ship NVIDIA&apos;s driver; RPM Fusion packages it.</source>
        <translation>Fedora 不自带 NVIDIA 驱动，由 RPM Fusion 打包提供。</translation>
    </message>
    <message>
        <source>Pick the NVIDIA driver package for your card</source>
        <translation>为你的显卡选择 NVIDIA 驱动软件包</translation>
    </message>
    <message>
        <source>GPU Assistant could not tell this card&apos;s generation from its PCI id, so it does not guess. Look up the card (&apos;lspci -nn -d 10de:&apos; shows its name). GTX 16xx, RTX 20xx and newer: &apos;sudo dnf install akmod-nvidia xorg-x11-drv-nvidia-cuda&apos;. GTX 10xx, GTX 9xx and Volta cards need the legacy branch: &apos;sudo dnf install akmod-nvidia-580xx xorg-x11-drv-nvidia-580xx-cuda&apos;. Then continue with the next step.</source>
        <translation>GPU 助手无法从 PCI ID 判断这张显卡的架构，所以不做猜测。请先确认显卡型号（&apos;lspci -nn -d 10de:&apos; 会显示名称）。GTX 16xx、RTX 20xx 及更新的显卡：&apos;sudo dnf install akmod-nvidia xorg-x11-drv-nvidia-cuda&apos;。GTX 10xx、GTX 9xx 和 Volta 显卡需要旧版分支：&apos;sudo dnf install akmod-nvidia-580xx xorg-x11-drv-nvidia-580xx-cuda&apos;。然后继续下一步。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver ({package})</source>
        <translation>安装 NVIDIA 驱动（{package}）</translation>
    </message>
    <message>
        <source>akmod builds the kernel module for every kernel you install; the -cuda package adds nvidia-smi and the CUDA driver library.</source>
        <translation>akmod 会为你安装的每个内核编译内核模块；-cuda 包提供 nvidia-smi 和 CUDA 驱动库。</translation>
    </message>
    <message>
        <source>Build the kernel module now</source>
        <translation>现在编译内核模块</translation>
    </message>
    <message>
        <source>akmods builds the module in the background after the install, which takes minutes. Rebooting before it finishes leaves you without a driver, so build it now and wait.</source>
        <translation>安装后 akmods 会在后台编译模块，需要几分钟。编译完成前重启会导致没有驱动可用，所以现在就编译并等待完成。</translation>
    </message>
    <message>
        <source>{os} is older than the releases NVIDIA&apos;s driver repository supports (RHEL 8, 9 and 10, Amazon Linux 2023). Install a current driver by hand or upgrade the system.</source>
        <translation>{os} 比 NVIDIA 驱动软件源支持的版本（RHEL 8、9、10 和 Amazon Linux 2023）更旧。请手动安装当前驱动，或升级系统。</translation>
    </message>
    <message>
        <source>Enable EPEL (for DKMS)</source>
        <translation>启用 EPEL（用于 DKMS）</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s packages build the kernel module with DKMS, which Red Hat family systems get from EPEL.</source>
        <translation>NVIDIA 的软件包用 DKMS 编译内核模块，Red Hat 系的系统从 EPEL 获得 DKMS。</translation>
    </message>
    <message>
        <source>Enable the CodeReady Builder repository ({repo})</source>
        <translation>启用 CodeReady Builder 软件源（{repo}）</translation>
    </message>
    <message>
        <source>EPEL&apos;s DKMS and the driver&apos;s build needs come partly from CodeReady Builder, which is off by default; NVIDIA&apos;s installation guide enables it beside EPEL. Undo turns it off again.</source>
        <translation>EPEL 里的 DKMS 以及编译驱动所需的部分软件包来自 CodeReady Builder，它默认是关闭的；NVIDIA 的安装指南要求在 EPEL 之外同时启用它。撤销会把它重新关闭。</translation>
    </message>
    <message>
        <source>Add NVIDIA&apos;s CUDA repository</source>
        <translation>添加 NVIDIA 的 CUDA 软件源</translation>
    </message>
    <message>
        <source>Downloads NVIDIA&apos;s repository file to {path}, a new file (nothing to back up); undo deletes it. Also installs the headers for your running kernel, which DKMS builds the module against.</source>
        <translation>把 NVIDIA 的软件源文件下载到 {path}，这是一个新文件（无需备份），撤销时会删除它。同时安装当前内核的头文件，DKMS 要用它们编译模块。</translation>
    </message>
    <message>
        <source>{generation} cards run on NVIDIA&apos;s open kernel modules. This installs the newest driver from NVIDIA&apos;s repository; DKMS builds the module for your kernel.</source>
        <translation>{generation} 显卡使用 NVIDIA 的开源内核模块。这里从 NVIDIA 软件源安装最新驱动，DKMS 会为你的内核编译模块。</translation>
    </message>
    <message>
        <source>{generation} cards need the proprietary kernel module from driver branch {branch}, the last that supports them; NVIDIA&apos;s repository installs a newer branch by default. Follow NVIDIA&apos;s driver installation guide to install branch {branch} with the proprietary module (on RHEL 8: &apos;dnf module install nvidia-driver:{branch}-dkms&apos;).</source>
        <translation>{generation} 显卡需要 {branch} 驱动分支的闭源内核模块，这是支持它们的最后一个分支；NVIDIA 软件源默认会安装更新的分支。请按照 NVIDIA 驱动安装指南安装带闭源模块的 {branch} 分支（RHEL 8 上：&apos;dnf module install nvidia-driver:{branch}-dkms&apos;）。</translation>
    </message>
    <message>
        <source>GPU Assistant could not tell this card&apos;s generation from its PCI id. GTX 16xx, RTX 20xx and newer: &apos;sudo dnf install nvidia-open&apos;. GTX 9xx, GTX 10xx and Volta: driver branch {branch} with the proprietary module, as NVIDIA&apos;s driver installation guide describes.</source>
        <translation>GPU 助手无法根据 PCI ID 判断这张卡的架构。GTX 16 系列、RTX 20 系列及更新：&apos;sudo dnf install nvidia-open&apos;。GTX 9 系列、GTX 10 系列和 Volta：按 NVIDIA 驱动安装指南安装带闭源模块的 {branch} 驱动分支。</translation>
    </message>
    <message>
        <source>Add NVIDIA&apos;s repository for openSUSE</source>
        <translation>添加 NVIDIA 的 openSUSE 软件源</translation>
    </message>
    <message>
        <source>Adds NVIDIA&apos;s package repository ({url}) under the name NVIDIA and imports its signing key. Undo removes the repository.</source>
        <translation>以名称 NVIDIA 添加 NVIDIA 的软件源（{url}）并导入其签名密钥。撤销时会移除该软件源。</translation>
    </message>
    <message>
        <source>Install NVIDIA&apos;s open driver (G06, signed)</source>
        <translation>安装 NVIDIA 开源驱动（G06，已签名）</translation>
    </message>
    <message>
        <source>{generation} cards run on NVIDIA&apos;s open kernel modules; the signed package loads with Secure Boot on. nvidia-compute-utils-G06 adds nvidia-smi and the CUDA driver library.</source>
        <translation>{generation} 显卡使用 NVIDIA 的开源内核模块；已签名的包在开启安全启动时也能加载。nvidia-compute-utils-G06 提供 nvidia-smi 和 CUDA 驱动库。</translation>
    </message>
    <message>
        <source>Install the driver NVIDIA&apos;s repository recommends for this card</source>
        <translation>安装 NVIDIA 软件源为这张卡推荐的驱动</translation>
    </message>
    <message>
        <source>zypper install-new-recommends picks the G06 packages that match your card (the proprietary module for cards older than Turing). Undo is by hand: &apos;zypper remove&apos; the nvidia-*-G06 packages it installed.</source>
        <translation>zypper install-new-recommends 会选出与你的显卡匹配的 G06 软件包（比 Turing 旧的卡使用闭源模块）。撤销需手动进行：用 &apos;zypper remove&apos; 删除它安装的 nvidia-*-G06 软件包。</translation>
    </message>
    <message>
        <source>Install the 580xx legacy driver from the AUR</source>
        <translation>从 AUR 安装 580xx 旧版驱动</translation>
    </message>
    <message>
        <source>Arch&apos;s nvidia-open packages no longer support {generation} cards. Build &apos;nvidia-580xx-dkms&apos; (and the matching utils) from the AUR with your AUR helper; GPU Assistant does not run AUR builds for you.</source>
        <translation>Arch 的 nvidia-open 软件包已不再支持 {generation} 显卡。请用 AUR 助手从 AUR 编译 “nvidia-580xx-dkms”（及对应的 utils）；GPU 助手不会替你执行 AUR 编译。</translation>
    </message>
    <message>
        <source>GPU Assistant could not tell this card&apos;s generation from its PCI id, so it does not guess. Look up the card (&apos;lspci -nn -d 10de:&apos; shows its name). GTX 16xx, RTX 20xx and newer: &apos;sudo pacman -S nvidia-open nvidia-utils&apos; (nvidia-open-dkms for linux-lts or linux-zen). GTX 10xx, GTX 9xx and Volta cards are not supported by nvidia-open: build &apos;nvidia-580xx-dkms&apos; from the AUR. Then continue with the next step.</source>
        <translation>GPU 助手无法从 PCI ID 判断这张显卡的架构，所以不做猜测。请先确认显卡型号（&apos;lspci -nn -d 10de:&apos; 会显示名称）。GTX 16xx、RTX 20xx 及更新的显卡：&apos;sudo pacman -S nvidia-open nvidia-utils&apos;（使用 linux-lts 或 linux-zen 内核时换成 nvidia-open-dkms）。nvidia-open 不支持 GTX 10xx、GTX 9xx 和 Volta 显卡：请从 AUR 编译安装 &apos;nvidia-580xx-dkms&apos;。然后继续下一步。</translation>
    </message>
    <message>
        <source>Install nvidia-open and nvidia-utils</source>
        <translation>安装 nvidia-open 和 nvidia-utils</translation>
    </message>
    <message>
        <source>nvidia-open is built for Arch&apos;s default &apos;linux&apos; kernel; with another kernel (linux-lts, linux-zen) install nvidia-open-dkms and its headers instead.</source>
        <translation>nvidia-open 是为 Arch 默认的 “linux” 内核编译的；如果用其他内核（linux-lts、linux-zen），请改装 nvidia-open-dkms 及对应的内核头文件。</translation>
    </message>
    <message>
        <source>Pick the NVIDIA driver configuration mhwd offers for your card</source>
        <translation>选择 mhwd 为你的显卡提供的 NVIDIA 驱动配置</translation>
    </message>
    <message>
        <source>Manjaro&apos;s kernels need their own NVIDIA module packages (linuxXYZ-nvidia), which Arch&apos;s nvidia-open does not provide. &apos;mhwd -l&apos; lists the driver configurations for this card; install the newest video-nvidia one it offers with &apos;sudo mhwd -i pci &lt;name&gt;&apos;. Then continue with the next step.</source>
        <translation>Manjaro 的内核需要各自对应的 NVIDIA 模块包（linuxXYZ-nvidia），Arch 的 nvidia-open 并不提供这些包。&apos;mhwd -l&apos; 会列出这张显卡可用的驱动配置；用 &apos;sudo mhwd -i pci &lt;名称&gt;&apos; 安装其中最新的 video-nvidia 配置，然后继续下一步。</translation>
    </message>
    <message>
        <source>Install the NVIDIA driver with Manjaro&apos;s hardware tool (mhwd)</source>
        <translation>用 Manjaro 的硬件工具（mhwd）安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>Manjaro&apos;s kernels need their own NVIDIA module packages (linuxXYZ-nvidia), which Arch&apos;s nvidia-open does not provide. mhwd installs the driver configuration and the module package for every installed kernel. For a data-center card shown as a 3D controller, use class 0302 instead of 0300.</source>
        <translation>Manjaro 的内核需要各自对应的 NVIDIA 模块包（linuxXYZ-nvidia），Arch 的 nvidia-open 并不提供这些包。mhwd 会为每个已安装的内核装好驱动配置和对应的模块包。如果是显示为 3D 控制器的数据中心显卡，请把 0300 换成 0302。</translation>
    </message>
    <message>
        <source>The initramfs is rebuilt with &apos;{tool}&apos;, the tool this distribution family uses.</source>
        <translation>initramfs 用 &apos;{tool}&apos; 重建，这是该发行版家族使用的工具。</translation>
    </message>
    <message>
        <source>GPU Assistant cannot tell which tool rebuilds this system&apos;s initramfs; the nouveau step only writes the blacklist file. Rebuild the initramfs with your distribution&apos;s tool before rebooting.</source>
        <translation>GPU 助手无法判断这个系统用哪个工具重建 initramfs；nouveau 步骤只会写入黑名单文件。重启前请用你的发行版的工具重建 initramfs。</translation>
    </message>
    <message>
        <source>Use your distribution&apos;s own NVIDIA packages (its package manager or driver tool); mixing them with NVIDIA&apos;s .run installer is the most common cause of breakage. Install driver branch {branch} or newer: the open kernel modules for Turing and newer cards, the proprietary module (branch {branch}, the last with them) for Maxwell, Pascal and Volta.</source>
        <translation>请使用发行版自己的 NVIDIA 软件包（它的包管理器或驱动工具）；与 NVIDIA 的 .run 安装程序混用是最常见的故障原因。请安装 {branch} 或更新的驱动分支：Turing 及更新的卡用开源内核模块，Maxwell、Pascal 和 Volta 用闭源模块（{branch} 分支，支持它们的最后一个分支）。</translation>
    </message>
    <message>
        <source>{explanation} This system installs packages with {tool}.</source>
        <translation>{explanation} 这个系统用 {tool} 安装软件包。</translation>
    </message>
    <message>
        <source>Install your distribution&apos;s NVIDIA driver package</source>
        <translation>安装发行版自带的 NVIDIA 驱动包</translation>
    </message>
    <message>
        <source>No current PyTorch build runs on driver {driver} with this card; install a newer driver before the PyTorch step.</source>
        <translation>没有当前的 PyTorch 版本能在驱动 {driver} 上配合这张卡运行；请在 PyTorch 步骤之前安装更新的驱动。</translation>
    </message>
    <message>
        <source>driver {driver} or newer, installed by hand</source>
        <translation>驱动 {driver} 或更新（手动安装）</translation>
    </message>
    <message>
        <source>driver {driver} or newer ({package})</source>
        <translation>驱动 {driver} 或更新（{package}）</translation>
    </message>
    <message>
        <source>Ends with {driver} and PyTorch {release} {build}, which that driver runs.</source>
        <translation>完成后：{driver}，以及该驱动能运行的 PyTorch {release} {build}。</translation>
    </message>
    <message>
        <source>Ends with {driver}; no current PyTorch build runs on it.</source>
        <translation>完成后：{driver}；当前没有 PyTorch 版本能在它上面运行。</translation>
    </message>
    <message>
        <source>{steps} steps for {gpu} on {os}</source>
        <translation>{gpu} 在 {os} 上共 {steps} 个步骤</translation>
    </message>
    <message>
        <source>{os} is not a distribution GPU Assistant has tested steps for. These are the generic steps; follow your distribution&apos;s documentation for the driver package.</source>
        <translation>GPU 助手没有为 {os} 测试过安装步骤。下面是通用步骤；驱动包请参照发行版的文档。</translation>
    </message>
    <message>
        <source>Download the driver&apos;s full offline package</source>
        <translation>下载驱动的完整离线安装包</translation>
    </message>
    <message>
        <source>From NVIDIA&apos;s download page, pick your card and Windows and save the installer. Download it now: after the clean-up you may have no display driver and no easy way to browse. GPU Assistant does not bundle or fetch it.</source>
        <translation>在 NVIDIA 下载页面选择你的显卡和 Windows 版本，保存安装程序。请现在就下载：清理之后你可能没有显示驱动，不方便上网。GPU 助手不会附带或自动下载它。</translation>
    </message>
    <message>
        <source>Download Display Driver Uninstaller (DDU)</source>
        <translation>下载 Display Driver Uninstaller（DDU）</translation>
    </message>
    <message>
        <source>Get DDU from its official site and unpack it. Use it only to repair a broken install or when changing GPU brand, not for every update.</source>
        <translation>从 DDU 官网下载并解压。只在修复损坏的驱动或更换显卡品牌时使用，不要每次更新都用。</translation>
    </message>
    <message>
        <source>Keep Windows Update from replacing the driver</source>
        <translation>防止 Windows 更新替换驱动</translation>
    </message>
    <message>
        <source>Sets the policy &apos;Do not include drivers with Windows Updates&apos; and turns off automatic driver downloads for devices, so Windows does not install its own NVIDIA driver between the clean-up and your install. The old values are saved; the &apos;restore update settings&apos; step puts them back.</source>
        <translation>设置策略 “Windows 更新不包括驱动程序”，并关闭设备驱动的自动下载，这样在清理之后、你安装之前，Windows 不会自己装上 NVIDIA 驱动。原来的值会被保存，“恢复 Windows 更新设置” 这一步会把它们改回去。</translation>
    </message>
    <message>
        <source>Create a restore point</source>
        <translation>创建还原点</translation>
    </message>
    <message>
        <source>A System Restore point lets you go back if something goes wrong. System Protection must be on for drive C:.</source>
        <translation>系统还原点可以在出问题时让你回到之前的状态。需要为 C 盘开启系统保护。</translation>
    </message>
    <message>
        <source>A restore point is not undone; remove old ones in System Protection if you need the space.</source>
        <translation>还原点不会被撤销；如需空间，可在系统保护中删除旧的还原点。</translation>
    </message>
    <message>
        <source>Restart into Safe Mode</source>
        <translation>重启进入安全模式</translation>
    </message>
    <message>
        <source>DDU works best in Safe Mode. First a RunOnce entry &apos;*UndoSM&apos; is written that switches Safe Mode off again at the next sign-in (the * makes it run in Safe Mode too), so the PC cannot get stuck there. If it ever does: at the Windows recovery command prompt run &apos;bcdedit /deletevalue {default} safeboot&apos;. A second RunOnce entry reopens GPU Assistant at the next step (removing the old driver with DDU) when you sign in to Safe Mode, so the wizard continues after the restart. Save your work: this restarts the PC.</source>
        <translation>DDU 在安全模式下效果最好。先写入一个 RunOnce 项 “*UndoSM”，在下次登录时关闭安全模式（* 让它在安全模式下也会运行），这样电脑不会卡在安全模式里。万一卡住：在 Windows 恢复环境的命令提示符中运行 “bcdedit /deletevalue {default} safeboot”。第二个 RunOnce 项会在你登录安全模式时重新打开 GPU 助手，并停在下一步（用 DDU 删除旧驱动），所以重启后向导会继续。请先保存工作：这一步会重启电脑。</translation>
    </message>
    <message>
        <source>Remove the old driver with DDU</source>
        <translation>用 DDU 删除旧驱动</translation>
    </message>
    <message>
        <source>In Safe Mode, DDU removes every trace of the NVIDIA driver and restarts into normal mode. -NoRestorePoint because the wizard made one.</source>
        <translation>在安全模式下，DDU 会清除 NVIDIA 驱动的所有残留，然后重启回正常模式。使用 -NoRestorePoint 是因为向导已经创建过还原点。</translation>
    </message>
    <message>
        <source>DDU&apos;s removal is not undone; the next step installs the new driver (or use the restore point).</source>
        <translation>DDU 的删除无法撤销；下一步会安装新驱动（也可以使用还原点）。</translation>
    </message>
    <message>
        <source>Install the driver as a clean installation</source>
        <translation>以全新安装方式安装驱动</translation>
    </message>
    <message>
        <source>Back in normal mode, run the offline package. Choose &apos;Custom (Advanced)&apos; and tick &apos;Perform a clean installation&apos;. Restart when it asks.</source>
        <translation>回到正常模式后运行离线安装包。选择 “自定义(高级)”，勾选 “执行清洁安装”。按提示重启。</translation>
    </message>
    <message>
        <source>Restore the Windows Update settings</source>
        <translation>恢复 Windows 更新设置</translation>
    </message>
    <message>
        <source>Puts back the values the &apos;keep Windows Update from replacing the driver&apos; step saved. Skip it if you want Windows to keep its hands off your driver.</source>
        <translation>把 “防止 Windows 更新替换驱动” 这一步保存的值改回去。如果你希望 Windows 以后都不碰你的驱动，可以跳过这一步。</translation>
    </message>
    <message>
        <source>Clean driver reinstall for {gpu} on Windows, then PyTorch</source>
        <translation>为 {gpu} 在 Windows 上全新重装驱动，然后安装 PyTorch</translation>
    </message>
    <message>
        <source>Each step that changes the system asks for administrator rights through a Windows (UAC) prompt.</source>
        <translation>每个会改动系统的步骤都会通过 Windows（UAC）提示请求管理员权限。</translation>
    </message>
    <message>
        <source>Not needed: {reason}</source>
        <translation>不需要：{reason}</translation>
    </message>
    <message>
        <source>PyTorch {version} already works on the GPU</source>
        <translation>PyTorch {version} 已能在 GPU 上运行</translation>
    </message>
    <message>
        <source>not an NVIDIA PCI id: {text} (expected something like 10de:2684)</source>
        <translation>不是 NVIDIA PCI ID：{text}（应类似 10de:2684）</translation>
    </message>
    <message>
        <source>nouveau is not loaded</source>
        <translation>nouveau 没有加载</translation>
    </message>
    <message>
        <source>the NVIDIA module is already loaded under Secure Boot, so the kernel trusts its signing key</source>
        <translation>安全启动下 NVIDIA 模块已经加载，说明内核信任它的签名密钥</translation>
    </message>
    <message>
        <source>no new kernel module has to be signed</source>
        <translation>没有需要签名的新内核模块</translation>
    </message>
    <message>
        <source>nothing that needs a restart changes</source>
        <translation>没有需要重启才生效的改动</translation>
    </message>
    <message>
        <source>driver {driver} already works</source>
        <translation>驱动 {driver} 已正常工作</translation>
    </message>
    <message>
        <source>driver {driver} is installed; it only needs the steps below to load</source>
        <translation>驱动 {driver} 已安装，只需下面的步骤让它加载</translation>
    </message>
    <message>
        <source>driver {driver} works and is new enough for this card and the PyTorch build</source>
        <translation>驱动 {driver} 工作正常，且对这张显卡和所选 PyTorch 版本都足够新</translation>
    </message>
    <message>
        <source>The driver steps are in the plan because {reason}.</source>
        <translation>计划中包含驱动步骤，因为{reason}。</translation>
    </message>
    <message>
        <source>Install the driver with the offline package</source>
        <translation>用离线安装包安装驱动</translation>
    </message>
    <message>
        <source>No NVIDIA driver is installed yet (Windows shows its basic display driver), so nothing has to be cleaned up first: run the offline package, choose &apos;Express&apos; or &apos;Custom (Advanced)&apos;, and restart when it asks.</source>
        <translation>还没有安装 NVIDIA 驱动（Windows 显示的是它自带的基本显示驱动），因此不需要先清理：运行离线安装包，选择“精简”或“自定义（高级）”，安装程序要求时重启。</translation>
    </message>
    <message>
        <source>Reinstall the driver with the offline package (clean installation)</source>
        <translation>用离线安装包重新安装驱动（清洁安装）</translation>
    </message>
    <message>
        <source>The installed driver does not answer (its nvml.dll fails), so its files are repaired in place: run the offline package, choose &apos;Custom (Advanced)&apos; and tick &apos;Perform a clean installation&apos;, which replaces every file of the driver and resets its settings. Restart when it asks. If the doctor still finds no answer afterwards, tick &apos;Reinstall everything&apos; for the clean reinstall with DDU.</source>
        <translation>已安装的驱动没有响应（它的 nvml.dll 出错），所以就地修复它的文件：运行离线安装包，选择“自定义（高级）”并勾选“执行清洁安装”，它会替换驱动的全部文件并重置驱动设置。安装程序要求时重启。如果之后诊断仍然得不到响应，请勾选“全部重装”，改用 DDU 彻底重装。</translation>
    </message>
    <message>
        <source>Update the driver in place with the offline package</source>
        <translation>用离线安装包直接升级驱动</translation>
    </message>
    <message>
        <source>Run the offline package over the installed driver: it replaces it in place, with no clean-up and no Safe Mode. For a clean installation choose &apos;Custom (Advanced)&apos; and tick &apos;Perform a clean installation&apos; (it resets the driver&apos;s settings, a lighter clean-up than DDU). Restart when it asks.</source>
        <translation>在已安装的驱动之上运行离线安装包：它会直接替换旧驱动，无需清理，也无需进入安全模式。如需全新安装，请选择“自定义（高级）”并勾选“执行清洁安装”（会重置驱动设置，比 DDU 的清理轻）。安装程序要求时重启。</translation>
    </message>
    <message>
        <source>The doctor found a broken or mixed driver install ({reason}), so this is the clean reinstall with DDU.</source>
        <translation>诊断发现驱动安装已损坏或混杂（{reason}），因此这是用 DDU 的彻底重装。</translation>
    </message>
    <message>
        <source>not a card GPU Assistant knows or a PCI id (like 10de:2684): {text}</source>
        <translation>既不是 GPU 助手认识的显卡，也不是 PCI ID（应类似 10de:2684）：{text}</translation>
    </message>
    <message>
        <source>no working NVIDIA driver was found</source>
        <translation>没有找到可用的 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>driver {driver} is too old for this card</source>
        <translation>驱动 {driver} 对这张显卡来说太旧</translation>
    </message>
    <message>
        <source>the wrong kernel module variant is loaded for this card</source>
        <translation>加载的内核模块类型不适合这张显卡</translation>
    </message>
    <message>
        <source>no NVIDIA driver is installed</source>
        <translation>没有安装 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>the driver does not answer (see the doctor)</source>
        <translation>驱动没有响应（见诊断）</translation>
    </message>
    <message>
        <source>the driver Windows has on the card ({device}) is not the one that answers ({answers}): a mixed install</source>
        <translation>Windows 为显卡登记的驱动（{device}）与实际响应的驱动（{answers}）不同：安装混杂</translation>
    </message>
    <message>
        <source>driver {driver} is older than any current PyTorch build for this card needs ({need} or newer)</source>
        <translation>驱动 {driver} 比这张显卡可用的任何当前 PyTorch 版本所需的都旧（需要 {need} 或更新）</translation>
    </message>
    <message>
        <source>The driver works. PyTorch steps for {os}: {steps}; not needed: {skipped} (shown below)</source>
        <translation>驱动工作正常。{os} 上需要 {steps} 个 PyTorch 步骤；{skipped} 个步骤不需要（见下方）</translation>
    </message>
    <message>
        <source>Steps that fix what the doctor found on {os}: {steps}; not needed: {skipped} (shown below)</source>
        <translation>{os} 上用 {steps} 个步骤修复诊断发现的问题；{skipped} 个步骤不需要（见下方）</translation>
    </message>
    <message>
        <source>the clean reinstall with DDU is for a broken or mixed driver install; choose &apos;Reinstall everything&apos; to do it anyway</source>
        <translation>用 DDU 彻底重装只针对损坏或混杂的驱动安装；如仍要执行，请选择“全部重装”</translation>
    </message>
    <message>
        <source>rules file lacks &apos;{key}&apos;</source>
        <translation>规则文件里没有 “{key}”</translation>
    </message>
    <message>
        <source>cannot read the rules file {path}: {reason}</source>
        <translation>无法读取规则文件 {path}：{reason}</translation>
    </message>
    <message>
        <source>the rules file {path} is not valid JSON (line {line})</source>
        <translation>规则文件 {path} 不是有效的 JSON（第 {line} 行）</translation>
    </message>
    <message>
        <source>the rules file {path} has an unknown schema</source>
        <translation>规则文件 {path} 的格式版本未知</translation>
    </message>
    <message>
        <source>the rules file {path} is malformed: {reason}</source>
        <translation>规则文件 {path} 格式有误：{reason}</translation>
    </message>
    <message>
        <source>{file} could not be read ({error}); starting fresh</source>
        <translation>{file} 无法读取（{error}）；将从头开始记录进度</translation>
    </message>
    <message>
        <source>{file}: the top level is not an object</source>
        <translation>{file}：顶层不是 JSON 对象</translation>
    </message>
    <message>
        <source>{file}: &apos;steps&apos; is not an object</source>
        <translation>{file}：“steps” 不是 JSON 对象</translation>
    </message>
    <message>
        <source>{file}: {problem} (and {count} more)</source>
        <translation>{file}：{problem}（另有 {count} 处问题）</translation>
    </message>
    <message>
        <source>{file}: {problem}</source>
        <translation>{file}：{problem}</translation>
    </message>
    <message>
        <source>{problem}; the file was kept as {kept}</source>
        <translation>{problem}；原文件已保留为 {kept}</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>JSON 对象</translation>
    </message>
    <message>
        <source>{field} is not an object</source>
        <translation>{field} 不是 JSON 对象</translation>
    </message>
    <message>
        <source>{field} is {value}, not one of {choices}</source>
        <translation>{field} 为 {value}，不是 {choices} 之一</translation>
    </message>
    <message>
        <source>{either} or {other}</source>
        <translation>{either}或{other}</translation>
    </message>
    <message>
        <source>{field} should be {want}, not {type} {value}</source>
        <translation>{field} 应为{want}，而不是 {type} {value}</translation>
    </message>
    <message>
        <source>{field} is {value}, not a time</source>
        <translation>{field} 是 {value}，不是一个时间</translation>
    </message>
    <message>
        <source>{field} is {value}, not an octal file mode</source>
        <translation>{field} 为 {value}，不是八进制的文件权限</translation>
    </message>
    <message>
        <source>{field} is missing for a file</source>
        <translation>{field} 缺失：文件的备份记录必须有这一项</translation>
    </message>
    <message>
        <source>{field} is missing for a symbolic link</source>
        <translation>{field} 缺失：符号链接的备份记录必须有这一项</translation>
    </message>
    <message>
        <source>✔ The driver works now.</source>
        <translation>✔ 驱动现在可以正常工作了。</translation>
    </message>
    <message>
        <source>✔ PyTorch works on the GPU now.</source>
        <translation>✔ PyTorch 现在可以在 GPU 上运行了。</translation>
    </message>
    <message>
        <source>Next step: {title}</source>
        <translation>下一步：{title}</translation>
    </message>
    <message>
        <source>Every step of this plan is done.</source>
        <translation>这个计划的所有步骤都已完成。</translation>
    </message>
</context>
<context>
    <name>SetupCli</name>
    <message>
        <source>root</source>
        <translation>需要 root</translation>
    </message>
    <message>
        <source>admin</source>
        <translation>需要管理员</translation>
    </message>
    <message>
        <source>reboot</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <source>by hand</source>
        <translation>手动完成</translation>
    </message>
    <message>
        <source>not done</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待执行</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>undo: {command}</source>
        <translation>撤销：{command}</translation>
    </message>
    <message>
        <source>Not in this plan (the doctor found them not needed; &apos;{command}&apos; shows every step):</source>
        <translation>不在本计划中（诊断认为不需要；&apos;{command}&apos; 显示全部步骤）：</translation>
    </message>
    <message>
        <source>{first}, {second}</source>
        <translation>{first}，{second}</translation>
    </message>
    <message>
        <source>({flags})</source>
        <translation>({flags})</translation>
    </message>
    <message>
        <source>Run these commands? [y/N] </source>
        <translation>要执行这些命令吗？[y/N] </translation>
    </message>
    <message>
        <source>nothing was changed</source>
        <translation>没有做任何更改</translation>
    </message>
</context>
<context>
    <name>SetupPage</name>
    <message>
        <source>Driver, CUDA &amp; PyTorch</source>
        <translation>驱动、CUDA 与 PyTorch</translation>
    </message>
    <message>
        <source>Demo: a recorded machine</source>
        <translation>演示：一台录制的机器</translation>
    </message>
    <message>
        <source>The rules file could not be read: {error}</source>
        <translation>无法读取规则文件：{error}</translation>
    </message>
    <message>
        <source>Saved setup progress: {problem}</source>
        <translation>已保存的安装进度：{problem}</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>环境诊断</translation>
    </message>
    <message>
        <source>Setup wizard</source>
        <translation>安装向导</translation>
    </message>
    <message>
        <source>Troubleshooter</source>
        <translation>故障排查</translation>
    </message>
    <message>
        <source>Python environment:</source>
        <translation>Python 环境：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Run checks</source>
        <translation>开始检查</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>Kernel module</source>
        <translation>内核模块</translation>
    </message>
    <message>
        <source>Secure Boot</source>
        <translation>安全启动</translation>
    </message>
    <message>
        <source>Highest CUDA</source>
        <translation>最高 CUDA</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>The plan appears after the checks.</source>
        <translation>检查完成后会显示安装计划。</translation>
    </message>
    <message>
        <source>Choose driver package…</source>
        <translation>选择驱动安装包…</translation>
    </message>
    <message>
        <source>Choose DDU…</source>
        <translation>选择 DDU…</translation>
    </message>
    <message>
        <source>What runs, and every file it writes (full path and contents):</source>
        <translation>将执行的命令，以及写入的每个文件（完整路径和内容）：</translation>
    </message>
    <message>
        <source>Undo (what it restores, from which backup):</source>
        <translation>撤销（恢复什么、从哪个备份恢复）：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>演练</translation>
    </message>
    <message>
        <source>Show every action without changing anything (run and undo)</source>
        <translation>显示每个操作，但不做任何改动（执行和撤销都适用）</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Mark done</source>
        <translation>标记为完成</translation>
    </message>
    <message>
        <source>Copy commands</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>What ran and what it printed appears here.</source>
        <translation>执行了什么、输出了什么，都会显示在这里。</translation>
    </message>
    <message>
        <source>Plan for:</source>
        <translation>计划用于：</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>这台电脑</translation>
    </message>
    <message>
        <source>Another machine</source>
        <translation>另一台机器</translation>
    </message>
    <message>
        <source>Reinstall everything</source>
        <translation>全部重装</translation>
    </message>
    <message>
        <source>Show every step, also those the doctor found not needed (on Windows: the clean reinstall with DDU)</source>
        <translation>显示全部步骤，包括诊断认为不需要的（Windows 上为用 DDU 彻底重装）</translation>
    </message>
    <message>
        <source>System:</source>
        <translation>系统：</translation>
    </message>
    <message>
        <source>Card:</source>
        <translation>显卡：</translation>
    </message>
    <message>
        <source>Card name or model number (4090), or a PCI id</source>
        <translation>显卡名称或型号数字（如 4090），或 PCI ID</translation>
    </message>
    <message>
        <source>Show the plan</source>
        <translation>显示计划</translation>
    </message>
    <message>
        <source>Paste an error message (the whole traceback is fine). The answer uses what the doctor found on this machine.</source>
        <translation>粘贴错误信息（整段 traceback 也可以）。回答会结合环境诊断在本机发现的情况。</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>None (check the driver only)</source>
        <translation>无（只检查驱动）</translation>
    </message>
    <message>
        <source>active virtual environment</source>
        <translation>当前激活的虚拟环境</translation>
    </message>
    <message>
        <source>active conda environment</source>
        <translation>当前激活的 conda 环境</translation>
    </message>
    <message>
        <source>on PATH</source>
        <translation>PATH 中的 Python</translation>
    </message>
    <message>
        <source>Choose the environment&apos;s python</source>
        <translation>选择该环境的 python</translation>
    </message>
    <message>
        <source>Something went wrong: {error}</source>
        <translation>出错了：{error}</translation>
    </message>
    <message>
        <source>Checking the driver and the environment…</source>
        <translation>正在检查驱动和环境…</translation>
    </message>
    <message>
        <source>unknown generation</source>
        <translation>未知的显卡架构</translation>
    </message>
    <message>
        <source>also: {names}</source>
        <translation>另有：{names}</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation>没有找到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>not working</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>open</source>
        <translation>开源</translation>
    </message>
    <message>
        <source>proprietary</source>
        <translation>闭源</translation>
    </message>
    <message>
        <source>on the host</source>
        <translation>在宿主机上</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未加载</translation>
    </message>
    <message>
        <source>n/a on Windows</source>
        <translation>Windows 上不适用</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>legacy BIOS boot</source>
        <translation>传统 BIOS 启动</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>none chosen</source>
        <translation>未选择</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>Problems: {errors}. Warnings: {warnings}. Each card says what to do.</source>
        <translation>{errors} 个问题，{warnings} 个警告。每张卡片都写明了怎么做。</translation>
    </message>
    <message>
        <source>Everything checked works.</source>
        <translation>检查的各项都正常。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Open in wizard</source>
        <translation>在向导中打开</translation>
    </message>
    <message>
        <source>A plan for another machine: nothing runs on this computer. Copy the commands, or run &apos;python main.py setup&apos; on that machine.</source>
        <translation>这是给另一台机器的计划：不会在这台电脑上执行任何操作。请复制命令，或在那台机器上运行 &apos;python main.py setup&apos;。</translation>
    </message>
    <message>
        <source>{title} (not needed)</source>
        <translation>{title}（不需要）</translation>
    </message>
    <message>
        <source>No NVIDIA GPU was found on this computer. Plan for the machine the card goes into: pick its system and card, then &apos;Show the plan&apos;.</source>
        <translation>这台电脑上没有找到 NVIDIA GPU。可以为要装这张卡的机器做计划：选择它的系统和显卡，然后点“显示计划”。</translation>
    </message>
    <message>
        <source>Pick the other machine&apos;s system and card, then &apos;Show the plan&apos;.</source>
        <translation>选择另一台机器的系统和显卡，然后点“显示计划”。</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is neither a card GPU Assistant knows nor a PCI id (like 10de:2684).</source>
        <translation>“{text}” 既不是 GPU 助手认识的显卡，也不是 PCI ID（应类似 10de:2684）。</translation>
    </message>
    <message>
        <source>not in this plan</source>
        <translation>不在本计划中</translation>
    </message>
    <message>
        <source>Tick &apos;Reinstall everything&apos; to do it anyway.</source>
        <translation>如仍要执行，请勾选“全部重装”。</translation>
    </message>
    <message>
        <source>needs administrator rights</source>
        <translation>需要管理员权限</translation>
    </message>
    <message>
        <source>needs root (asks for your password)</source>
        <translation>需要 root 权限（会询问密码）</translation>
    </message>
    <message>
        <source>restarts the computer</source>
        <translation>会重启电脑</translation>
    </message>
    <message>
        <source>you do this step</source>
        <translation>需要你手动完成</translation>
    </message>
    <message>
        <source>for another machine</source>
        <translation>用于另一台机器</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>尚未执行</translation>
    </message>
    <message>
        <source>already done (its check passes)</source>
        <translation>已完成（检查通过）</translation>
    </message>
    <message>
        <source>waits: a step before it still needs doing, or ran after it</source>
        <translation>等待中：前面还有步骤未完成，或有步骤在它之后才执行</translation>
    </message>
    <message>
        <source>status: {state}</source>
        <translation>状态：{state}</translation>
    </message>
    <message>
        <source>Source: {source}</source>
        <translation>来源：{source}</translation>
    </message>
    <message>
        <source>(no commands: follow the explanation)</source>
        <translation>（没有命令：请按说明操作）</translation>
    </message>
    <message>
        <source>Show what would run</source>
        <translation>显示将要执行的内容</translation>
    </message>
    <message>
        <source>Show the undo</source>
        <translation>显示撤销操作</translation>
    </message>
    <message>
        <source>already done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>not done yet</source>
        <translation>尚未完成</translation>
    </message>
    <message>
        <source>cannot tell</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <source>Check: {state}</source>
        <translation>检查：{state}</translation>
    </message>
    <message>
        <source>(demo machine: nothing runs)</source>
        <translation>（演示机器：不会执行任何命令）</translation>
    </message>
    <message>
        <source>Choose the file first: {what}</source>
        <translation>请先选择文件：{what}</translation>
    </message>
    <message>
        <source>This step restarts the computer. Save your work first. Continue?</source>
        <translation>这一步会重启电脑。请先保存工作。继续吗？</translation>
    </message>
    <message>
        <source>Restart needed</source>
        <translation>需要重启</translation>
    </message>
    <message>
        <source>Choose the file</source>
        <translation>选择文件</translation>
    </message>
</context>
<context>
    <name>Troubleshooter</name>
    <message>
        <source>On this machine now: {finding}. The message is from before, or from another environment.</source>
        <translation>本机现在：{finding}。这条消息是之前的，或来自另一个 Python 环境。</translation>
    </message>
    <message>
        <source>On this machine now: {finding}. The message is from before, or from another machine.</source>
        <translation>本机现在：{finding}。这条消息是之前的，或来自另一台电脑。</translation>
    </message>
    <message>
        <source>The driver was updated but Windows still runs the old one</source>
        <translation>驱动已更新，但 Windows 仍在运行旧驱动</translation>
    </message>
    <message>
        <source>nvidia-smi and CUDA load the new driver&apos;s nvml.dll, which refuses to talk to the driver still running since before the update (often an update by Windows Update). Restart Windows; if it comes back, keep Windows Update from replacing the driver (setup wizard).</source>
        <translation>nvidia-smi 和 CUDA 加载的是新驱动的 nvml.dll，它拒绝与更新前就在运行的旧驱动通信（常见于 Windows 更新自动装了驱动）。请重启 Windows；如果问题再次出现，请阻止 Windows 更新替换驱动（安装向导）。</translation>
    </message>
    <message>
        <source>Restart Windows</source>
        <translation>重启 Windows</translation>
    </message>
    <message>
        <source>Keep Windows Update from replacing the driver (setup wizard)</source>
        <translation>阻止 Windows 更新替换驱动（安装向导）</translation>
    </message>
    <message>
        <source>Windows has no working NVIDIA driver</source>
        <translation>Windows 上没有可用的 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>The usual reasons on Windows: the driver is not installed (Windows shows &apos;Microsoft Basic Display Adapter&apos;); Device Manager stopped the card with error Code 43 after the driver failed to start; or Windows Update replaced or half removed the driver. First reinstall the driver with NVIDIA&apos;s full offline package, choosing &apos;Custom (Advanced)&apos; and &apos;Perform a clean installation&apos;. If that does not help, do the clean reinstall: block Windows Update drivers, remove the old driver with DDU in Safe Mode, then install the offline package.</source>
        <translation>Windows 上的常见原因：没有安装驱动（Windows 显示 “Microsoft 基本显示适配器”）；驱动启动失败后，设备管理器以错误代码 43 停用了显卡；或者 Windows 更新替换了驱动，或只删了一半。先用 NVIDIA 的完整离线安装包重装驱动，选择 “自定义（高级）” 并勾选 “执行清洁安装”。如果仍不行，再做彻底重装：阻止 Windows 更新安装驱动，在安全模式下用 DDU 删除旧驱动，然后运行离线安装包。</translation>
    </message>
    <message>
        <source>See the display adapters and their problem code (43: the driver failed to start)</source>
        <translation>查看显示适配器及其问题代码（43：驱动启动失败）</translation>
    </message>
    <message>
        <source>Reinstall the driver as a clean installation (setup wizard)</source>
        <translation>以清洁安装方式重装驱动（安装向导）</translation>
    </message>
    <message>
        <source>Windows stopped the card: Code 43</source>
        <translation>Windows 停用了显卡：代码 43</translation>
    </message>
    <message>
        <source>Code 43 is Device Manager saying the driver started and then reported a failure. On Linux there is no Code 43; it appears there only inside a Windows virtual machine that was given the card.</source>
        <translation>代码 43 是设备管理器在说：驱动启动后报告了故障。Linux 上没有代码 43；只有把显卡直通给 Windows 虚拟机时，才会在虚拟机里看到它。</translation>
    </message>
    <message>
        <source>See the display adapters and their problem code</source>
        <translation>查看显示适配器及其问题代码</translation>
    </message>
    <message>
        <source>Code 43 is Device Manager saying the driver started and then reported a failure. The usual causes: a damaged or mixed driver install (often after Windows Update replaced part of it), a card that lacks power (check every power connector) or a failing card. First do the clean reinstall with DDU in Safe Mode and NVIDIA&apos;s offline package; if Code 43 stays, test the card in another PC or slot.</source>
        <translation>代码 43 是设备管理器在说：驱动启动后报告了故障。常见原因：驱动安装损坏或新旧混杂（常见于 Windows 更新替换了其中一部分之后）、显卡供电不足（逐个检查供电接口），或显卡本身故障。先在安全模式下用 DDU 彻底清除驱动，再装 NVIDIA 的离线安装包；如果仍是代码 43，把显卡换到另一台电脑或另一个插槽上测试。</translation>
    </message>
    <message>
        <source>Start the clean reinstall with DDU (setup wizard)</source>
        <translation>开始用 DDU 彻底重装（安装向导）</translation>
    </message>
    <message>
        <source>nvidia-smi is not installed</source>
        <translation>没有安装 nvidia-smi</translation>
    </message>
    <message>
        <source>nvidia-smi comes with the NVIDIA driver. If it is missing, the driver is not installed, or only the kernel module is (Ubuntu and Debian put nvidia-smi in a separate utils package, e.g. nvidia-utils-580). Install the driver with the setup wizard; the doctor says which part is missing.</source>
        <translation>nvidia-smi 随 NVIDIA 驱动一起安装。找不到它，说明驱动没装，或者只装了内核模块（Ubuntu 和 Debian 把 nvidia-smi 放在单独的 utils 包里，例如 nvidia-utils-580）。用安装向导安装驱动；环境诊断会告诉你缺的是哪一部分。</translation>
    </message>
    <message>
        <source>Install the driver (setup wizard)</source>
        <translation>安装驱动（安装向导）</translation>
    </message>
    <message>
        <source>nvidia-smi comes with the NVIDIA driver: current drivers put nvidia-smi.exe in C:\Windows\System32, old ones in C:\Program Files\NVIDIA Corporation\NVSMI (which is not on PATH). If it is in neither folder, the NVIDIA driver is not installed (Windows may be using its basic display driver).</source>
        <translation>nvidia-smi 随 NVIDIA 驱动一起安装：新版驱动把 nvidia-smi.exe 放在 C:\Windows\System32，旧版放在 C:\Program Files\NVIDIA Corporation\NVSMI（该目录不在 PATH 里）。两个目录里都没有，说明没有安装 NVIDIA 驱动（Windows 可能正在用它的基本显示驱动）。</translation>
    </message>
    <message>
        <source>Look for nvidia-smi.exe</source>
        <translation>查找 nvidia-smi.exe</translation>
    </message>
    <message>
        <source>CUDA&apos;s forward-compatibility package is loaded on a card that does not support it (error 804)</source>
        <translation>在不支持的显卡上加载了 CUDA 向前兼容包（错误 804）</translation>
    </message>
    <message>
        <source>A cuda-compat library (a newer libcuda.so meant for data-centre GPUs) is loaded instead of the driver&apos;s own. GeForce and most RTX workstation cards do not support forward compatibility. It comes from a cuda-compat-XX-Y package, an LD_LIBRARY_PATH entry such as /usr/local/cuda/compat, or a container image that enables it. Remove that package or path so the driver&apos;s libcuda.so is used; if the program needs a newer CUDA than the driver supports, update the driver instead.</source>
        <translation>加载的是 cuda-compat 库（为数据中心 GPU 准备的较新 libcuda.so），而不是驱动自带的那个。GeForce 和大多数 RTX 工作站显卡不支持向前兼容。它来自 cuda-compat-XX-Y 软件包、LD_LIBRARY_PATH 里的某一项（如 /usr/local/cuda/compat），或启用了它的容器镜像。删掉那个包或路径，让程序用驱动自带的 libcuda.so；如果程序需要比驱动支持的更新的 CUDA，就升级驱动。</translation>
    </message>
    <message>
        <source>See which libcuda.so is found</source>
        <translation>查看找到的是哪个 libcuda.so</translation>
    </message>
    <message>
        <source>The GPUs&apos; NVSwitch fabric is not ready (error 802)</source>
        <translation>GPU 之间的 NVSwitch 互连还没准备好（错误 802）</translation>
    </message>
    <message>
        <source>On servers whose GPUs are joined by NVSwitch (HGX/DGX boards with 4 or 8 GPUs), CUDA waits for NVIDIA Fabric Manager. Error 802 means its service is not running, or its version differs from the driver&apos;s. Install nvidia-fabricmanager of exactly the driver&apos;s version and start it. Desktop RTX cards have no NVSwitch: there this error means the driver install is incomplete.</source>
        <translation>在 GPU 通过 NVSwitch 互连的服务器上（4 卡或 8 卡的 HGX/DGX 主板），CUDA 要等 NVIDIA Fabric Manager 就绪。错误 802 表示它的服务没有运行，或者版本与驱动不一致。安装与驱动版本完全相同的 nvidia-fabricmanager 并启动它。桌面 RTX 显卡没有 NVSwitch：在这类机器上出现这个错误，说明驱动没有装完整。</translation>
    </message>
    <message>
        <source>Check the Fabric Manager service</source>
        <translation>检查 Fabric Manager 服务</translation>
    </message>
    <message>
        <source>Start it now and at every boot</source>
        <translation>立即启动，并设为开机启动</translation>
    </message>
    <message>
        <source>The CUDA runtime library is missing</source>
        <translation>缺少 CUDA 运行时库</translation>
    </message>
    <message>
        <source>libcudart (the CUDA runtime) is not part of the driver: it comes with the CUDA toolkit or with a Python wheel. PyTorch brings its own; other programs (TensorFlow, llama.cpp builds, compiled extensions) need the runtime of the CUDA major version they were built for, e.g. libcudart.so.12 for CUDA 12. Install that CUDA toolkit or the pip package nvidia-cuda-runtime-cu12 in the same environment, and make sure the folder is on the library path.</source>
        <translation>libcudart（CUDA 运行时）不属于驱动：它随 CUDA 工具包或 Python wheel 一起安装。PyTorch 自带一份；其他程序（TensorFlow、自己编译的 llama.cpp、编译出来的扩展）需要与其构建时 CUDA 主版本相同的运行时，例如 CUDA 12 对应 libcudart.so.12。在同一个环境里安装那个版本的 CUDA 工具包或 pip 包 nvidia-cuda-runtime-cu12，并确保它所在的目录在库搜索路径里。</translation>
    </message>
    <message>
        <source>See which CUDA runtimes are installed</source>
        <translation>查看已安装了哪些 CUDA 运行时</translation>
    </message>
    <message>
        <source>The driver&apos;s CUDA library is missing</source>
        <translation>缺少驱动的 CUDA 库</translation>
    </message>
    <message>
        <source>libcuda.so.1 belongs to the NVIDIA driver. It is missing when the driver is not installed; under WSL2 when /usr/lib/wsl/lib is not on the library path (never install a Linux driver inside WSL2: Windows&apos; driver provides it); in a container started without the NVIDIA Container Toolkit (docker run --gpus all).</source>
        <translation>libcuda.so.1 属于 NVIDIA 驱动。以下情况会缺它：没有安装驱动；在 WSL2 里 /usr/lib/wsl/lib 不在库搜索路径中（不要在 WSL2 里安装 Linux 驱动：它由 Windows 的驱动提供）；容器启动时没有用 NVIDIA Container Toolkit（docker run --gpus all）。</translation>
    </message>
    <message>
        <source>See whether the library is known</source>
        <translation>查看系统是否能找到这个库</translation>
    </message>
    <message>
        <source>cuBLAS could not start: usually the GPU is out of memory</source>
        <translation>cuBLAS 无法启动：通常是显存不够</translation>
    </message>
    <message>
        <source>cuBLAS allocates its workspace the first time a program multiplies matrices. When the GPU is already full (another process, or this program&apos;s own tensors) that fails with CUBLAS_STATUS_NOT_INITIALIZED or ALLOC_FAILED rather than &apos;out of memory&apos;. See what holds the memory and make the job smaller. Less often, a CUDA toolkit on LD_LIBRARY_PATH puts a different cuBLAS in front of PyTorch&apos;s own: unset LD_LIBRARY_PATH and try again.</source>
        <translation>程序第一次做矩阵乘法时，cuBLAS 会分配它的工作区。如果显存已经满了（被别的进程或本程序自己的张量占着），报出来的就是 CUBLAS_STATUS_NOT_INITIALIZED 或 ALLOC_FAILED，而不是“显存不足”。看看是谁占着显存，并把任务调小。少数情况下，是 LD_LIBRARY_PATH 里的 CUDA 工具包让另一个 cuBLAS 排在了 PyTorch 自带的前面：取消 LD_LIBRARY_PATH 后再试。</translation>
    </message>
    <message>
        <source>cuDNN could not start: usually the GPU is out of memory</source>
        <translation>cuDNN 无法启动：通常是显存不够</translation>
    </message>
    <message>
        <source>cuDNN reports a failed start when the GPU has no memory left for its workspace, and sometimes when an older cuDNN from the system is loaded in place of the one PyTorch ships. Free GPU memory or make the job smaller; unset LD_LIBRARY_PATH if it points at a CUDA toolkit.</source>
        <translation>显存不够放下 cuDNN 的工作区时，它会报启动失败；有时也是因为加载了系统里较旧的 cuDNN，而不是 PyTorch 自带的那个。释放显存或把任务调小；如果 LD_LIBRARY_PATH 指向某个 CUDA 工具包，取消它。</translation>
    </message>
    <message>
        <source>NVML lost the GPU inside a container</source>
        <translation>容器里的 NVML 失去了 GPU</translation>
    </message>
    <message>
        <source>A known problem of containers with the systemd cgroup driver: after the host runs &apos;systemctl daemon-reload&apos; (package updates do), a running container loses access to /dev/nvidia*. Restarting the container restores it; NVIDIA&apos;s container-toolkit guide gives the lasting fix (create the /dev/char symlinks with &apos;nvidia-ctk system create-dev-char-symlinks&apos; or use the cgroupfs driver). Outside a container this message points at permissions on /dev/nvidia*: the doctor checks them.</source>
        <translation>这是使用 systemd cgroup 驱动的容器的已知问题：宿主机执行 &apos;systemctl daemon-reload&apos; 之后（软件包更新时就会执行），正在运行的容器会失去对 /dev/nvidia* 的访问。重启容器即可恢复；NVIDIA 容器工具包的文档给出了长期解决办法（用 &apos;nvidia-ctk system create-dev-char-symlinks&apos; 创建 /dev/char 符号链接，或改用 cgroupfs 驱动）。如果不在容器里，这条消息说明 /dev/nvidia* 的权限有问题：环境诊断会检查它们。</translation>
    </message>
    <message>
        <source>Create the device symlinks on the host</source>
        <translation>在宿主机上创建设备符号链接</translation>
    </message>
    <message>
        <source>Docker cannot give the container a GPU</source>
        <translation>Docker 无法把 GPU 分配给容器</translation>
    </message>
    <message>
        <source>Docker needs the NVIDIA Container Toolkit to pass GPUs into containers (&apos;--gpus all&apos;). Install nvidia-container-toolkit from NVIDIA&apos;s repository, register it with Docker (&apos;nvidia-ctk runtime configure --runtime=docker&apos;) and restart Docker. &apos;initialization error&apos; from nvidia-container-cli means the toolkit is there but the host driver is not working: fix the driver first.</source>
        <translation>Docker 需要 NVIDIA Container Toolkit 才能把 GPU 交给容器（&apos;--gpus all&apos;）。从 NVIDIA 的软件源安装 nvidia-container-toolkit，把它注册到 Docker（&apos;nvidia-ctk runtime configure --runtime=docker&apos;），然后重启 Docker。如果 nvidia-container-cli 报 &apos;initialization error&apos;，说明工具包已装好，但宿主机的驱动不工作：先修好驱动。</translation>
    </message>
    <message>
        <source>Register the toolkit with Docker</source>
        <translation>把工具包注册到 Docker</translation>
    </message>
    <message>
        <source>Restart Docker</source>
        <translation>重启 Docker</translation>
    </message>
    <message>
        <source>Secure Boot refused the NVIDIA kernel module</source>
        <translation>安全启动拒绝了 NVIDIA 内核模块</translation>
    </message>
    <message>
        <source>With Secure Boot on, the kernel loads only signed modules. The NVIDIA module was built on this machine (DKMS) and signed with a key the firmware does not know yet. Enrol the key with mokutil, reboot and confirm it in the blue MOK manager screen, or turn Secure Boot off in the firmware. The setup wizard has the enrolment step.</source>
        <translation>开启安全启动后，内核只加载签过名的模块。NVIDIA 模块是在本机编译的（DKMS），签名用的密钥固件还不认识。用 mokutil 登记这个密钥，重启后在蓝色的 MOK 管理界面里确认；或者在固件设置里关闭安全启动。安装向导里有登记密钥这一步。</translation>
    </message>
    <message>
        <source>See Secure Boot&apos;s state</source>
        <translation>查看安全启动状态</translation>
    </message>
    <message>
        <source>Enrol the module signing key (setup wizard)</source>
        <translation>登记模块签名密钥（安装向导）</translation>
    </message>
    <message>
        <source>A GPU kernel ran too long and was stopped</source>
        <translation>一个 GPU 内核运行太久，被强行停止</translation>
    </message>
    <message>
        <source>On a GPU that also drives a display, the system resets any GPU task that takes more than a few seconds so the screen does not freeze. Run compute on a GPU without a monitor attached, or make each step shorter (smaller batch).</source>
        <translation>如果这块 GPU 同时在驱动显示器，系统会重置任何超过几秒的 GPU 任务，以免屏幕卡死。把计算放到没接显示器的 GPU 上，或者让每一步更短（减小批大小）。</translation>
    </message>
    <message>
        <source>Windows&apos; Timeout Detection and Recovery (TDR) resets a GPU that does not answer within 2 seconds. A long CUDA kernel on the GPU that drives the display hits it. Run on a GPU without a monitor, make each step shorter, or raise TdrDelay in the registry (Microsoft&apos;s TDR registry keys; restart after changing it).</source>
        <translation>Windows 的超时检测与恢复（TDR）会重置 2 秒内没有响应的 GPU。在驱动显示器的 GPU 上运行耗时长的 CUDA 内核就会触发它。把计算放到没接显示器的 GPU 上、让每一步更短，或在注册表里调大 TdrDelay（见微软的 TDR 注册表项说明；改完要重启）。</translation>
    </message>
    <message>
        <source>A DLL PyTorch needs could not be loaded</source>
        <translation>无法加载 PyTorch 需要的 DLL</translation>
    </message>
    <message>
        <source>On Windows this usually means the Microsoft Visual C++ Redistributable (2015-2022, x64) is missing or broken; PyTorch&apos;s Windows notes name it first. Install it, then open a new terminal. If it still fails, reinstall torch in a fresh virtual environment (a half-finished pip install leaves DLLs out).</source>
        <translation>在 Windows 上，这通常说明缺少 Microsoft Visual C++ 可再发行组件包（2015-2022，x64）或它已损坏；PyTorch 的 Windows 说明把它列为第一个原因。安装它，然后打开一个新的终端。如果还不行，在新建的虚拟环境里重新安装 torch（中途中断的 pip 安装会缺 DLL）。</translation>
    </message>
    <message>
        <source>Install the Visual C++ Redistributable</source>
        <translation>安装 Visual C++ 可再发行组件包</translation>
    </message>
    <message>
        <source>No PyTorch build for this Python</source>
        <translation>没有适用于这个 Python 的 PyTorch</translation>
    </message>
    <message>
        <source>PyTorch publishes wheels for 64-bit CPython of recent versions only. A Python that is too new (before PyTorch catches up), too old, or 32-bit finds nothing to install. The doctor shows which Python this is; make a virtual environment with a supported version and install there.</source>
        <translation>PyTorch 只为较新版本的 64 位 CPython 发布 wheel。Python 太新（PyTorch 还没跟上）、太旧或是 32 位的，都找不到可安装的版本。环境诊断会显示这是哪个 Python；用受支持的版本新建一个虚拟环境，装在那里。</translation>
    </message>
    <message>
        <source>This CUDA toolkit is older than your GPU</source>
        <translation>这个 CUDA 工具包比你的 GPU 旧</translation>
    </message>
    <message>
        <source>nvcc does not know the architecture it was asked to compile for. RTX 50 cards (compute_120) need CUDA 12.8 or newer; RTX 40 (compute_89) need 11.8. Install a newer CUDA toolkit, or set TORCH_CUDA_ARCH_LIST to architectures this nvcc knows when building an extension.</source>
        <translation>nvcc 不认识要编译的目标架构。RTX 50 系列（compute_120）需要 CUDA 12.8 或更新版本；RTX 40 系列（compute_89）需要 11.8。安装更新的 CUDA 工具包，或者在编译扩展时把 TORCH_CUDA_ARCH_LIST 设为这个 nvcc 认识的架构。</translation>
    </message>
    <message>
        <source>CUDA sees no GPU</source>
        <translation>CUDA 看不到 GPU</translation>
    </message>
    <message>
        <source>The driver may be fine while CUDA is told to see nothing: CUDA_VISIBLE_DEVICES set to an empty or wrong value, a container started without &apos;--gpus all&apos;, or a laptop whose NVIDIA GPU is switched off in the firmware or by the graphics mode. If nvidia-smi lists the card, look at CUDA_VISIBLE_DEVICES first.</source>
        <translation>驱动可能没问题，只是 CUDA 被设置成什么也看不到：CUDA_VISIBLE_DEVICES 为空或取值错误、容器启动时没加 &apos;--gpus all&apos;，或笔记本的 NVIDIA GPU 被固件或显卡模式关掉了。如果 nvidia-smi 能列出显卡，先检查 CUDA_VISIBLE_DEVICES。</translation>
    </message>
    <message>
        <source>See the GPUs the driver knows</source>
        <translation>查看驱动识别到的 GPU</translation>
    </message>
    <message>
        <source>The GPU stopped responding</source>
        <translation>GPU 停止响应</translation>
    </message>
    <message>
        <source>This is a hardware-level failure, not a setup problem: check the power cables and connectors, reseat the card, and look at power draw and temperature before the crash (the Dashboard records them). Windows may then show the card with error Code 43 in Device Manager until the next restart.</source>
        <translation>这是硬件层面的故障，不是安装问题：检查供电线和接口，重新插好显卡，并查看崩溃前的功耗和温度（仪表盘会记录）。之后在下次重启前，设备管理器可能会以错误代码 43 显示这张显卡。</translation>
    </message>
    <message>
        <source>This machine: {finding}</source>
        <translation>本机：{finding}</translation>
    </message>
    <message>
        <source>The driver was updated but the old kernel module is still running</source>
        <translation>驱动已更新，但旧的内核模块仍在运行</translation>
    </message>
    <message>
        <source>NVML (and with it nvidia-smi and CUDA) refuses to talk to a kernel module of another version. This happens after a driver update, often an automatic one.</source>
        <translation>NVML（以及依赖它的 nvidia-smi 和 CUDA）拒绝与不同版本的内核模块通信。这通常发生在驱动更新之后，往往是自动更新。</translation>
    </message>
    <message>
        <source>Reboot</source>
        <translation>重启</translation>
    </message>
    <message>
        <source>The NVIDIA kernel module is not loaded</source>
        <translation>NVIDIA 内核模块没有加载</translation>
    </message>
    <message>
        <source>The usual reasons: the driver is not installed; the kernel was updated and the module was not rebuilt (missing headers); Secure Boot rejected the unsigned module; or nouveau took the card. The doctor tells which one applies here.</source>
        <translation>常见原因：没有安装驱动；内核更新后模块没有重新编译（缺少头文件）；安全启动拒绝了未签名的模块；或者 nouveau 占用了显卡。环境诊断会告诉你本机属于哪一种。</translation>
    </message>
    <message>
        <source>Find out why</source>
        <translation>查明原因</translation>
    </message>
    <message>
        <source>The driver in the message supports CUDA up to {cuda}.</source>
        <translation>报错中的驱动最高支持 CUDA {cuda}。</translation>
    </message>
    <message>
        <source>The driver is older than the CUDA version PyTorch was built with</source>
        <translation>驱动比编译 PyTorch 所用的 CUDA 版本旧</translation>
    </message>
    <message>
        <source>Each CUDA version needs a minimum driver. Either update the driver, or install the PyTorch build for an older CUDA that your driver supports.</source>
        <translation>每个 CUDA 版本都有最低驱动要求。要么更新驱动，要么安装基于你的驱动所支持的较旧 CUDA 的 PyTorch 版本。</translation>
    </message>
    <message>
        <source>Update the driver (setup wizard)</source>
        <translation>更新驱动（安装向导）</translation>
    </message>
    <message>
        <source>The driver cannot compile code made by a newer CUDA</source>
        <translation>驱动无法编译较新 CUDA 生成的代码</translation>
    </message>
    <message>
        <source>PTX from a newer CUDA toolkit cannot be JIT-compiled by an older driver. Update the driver.</source>
        <translation>较旧的驱动无法即时编译较新 CUDA 工具包生成的 PTX。请更新驱动。</translation>
    </message>
    <message>
        <source>Your card is {sm}.</source>
        <translation>你的显卡是 {sm}。</translation>
    </message>
    <message>
        <source>This PyTorch (or extension) has no code for your GPU</source>
        <translation>这个 PyTorch（或扩展）没有适用于你显卡的代码</translation>
    </message>
    <message>
        <source>The library was built for other GPU architectures. RTX 50 cards (sm_120) need PyTorch 2.7 or newer built with CUDA 12.8 or later; GTX 10 and 900 cards need the cu126 build. A custom CUDA extension must be rebuilt for your card.</source>
        <translation>这个库是为其他 GPU 架构编译的。RTX 50 系显卡（sm_120）需要 PyTorch 2.7 或更新版本，且基于 CUDA 12.8 或更新版本编译；GTX 10 和 900 系显卡需要 cu126 版本。自定义的 CUDA 扩展需要为你的显卡重新编译。</translation>
    </message>
    <message>
        <source>This is a CPU-only build of PyTorch</source>
        <translation>这是纯 CPU 版本的 PyTorch</translation>
    </message>
    <message>
        <source>It was installed without PyTorch&apos;s CUDA index (on Windows, plain &apos;pip install torch&apos; gives the CPU build). Reinstall from the index for your card.</source>
        <translation>它是在没有使用 PyTorch 的 CUDA 下载源时安装的（在 Windows 上直接 “pip install torch” 装到的就是 CPU 版本）。请从适合你显卡的下载源重新安装。</translation>
    </message>
    <message>
        <source>It asked for {want} while only {free} of {total} was free.</source>
        <translation>它申请了 {want}，而 {total} 中只有 {free} 空闲。</translation>
    </message>
    <message>
        <source>PyTorch says much memory is reserved but unused (fragmentation): set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before starting.</source>
        <translation>PyTorch 提示有大量显存已预留但未使用（碎片化）：启动前设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True。</translation>
    </message>
    <message>
        <source>The GPU ran out of memory</source>
        <translation>显存不足</translation>
    </message>
    <message>
        <source>The model, its activations and the optimizer state did not fit. Lower the batch size or resolution, use bf16/fp16, enable gradient checkpointing, or pick a smaller or quantized model. Close other programs using the GPU (nvidia-smi lists them). &apos;Model fit&apos; estimates what fits.</source>
        <translation>模型、激活值和优化器状态放不下。请减小批次大小或分辨率，使用 bf16/fp16，开启梯度检查点，或换用更小或量化的模型。关闭其他占用显卡的程序（nvidia-smi 会列出）。“模型显存”页面可以估算。</translation>
    </message>
    <message>
        <source>See what else uses the GPU</source>
        <translation>查看还有谁在用显卡</translation>
    </message>
    <message>
        <source>Windows&apos; page file is too small</source>
        <translation>Windows 的页面文件太小</translation>
    </message>
    <message>
        <source>Loading CUDA&apos;s DLLs reserves a lot of virtual memory, which Windows backs with the page file. Let Windows manage the page file size (or raise its maximum), then reboot.</source>
        <translation>加载 CUDA 的 DLL 需要预留大量虚拟内存，Windows 用页面文件来提供。请让 Windows 自动管理页面文件大小（或调大最大值），然后重启。</translation>
    </message>
    <message>
        <source>The driver installer could not find its files (0x80070002)</source>
        <translation>驱动安装程序找不到它的文件（0x80070002）</translation>
    </message>
    <message>
        <source>0x80070002 is Windows&apos; &apos;file not found&apos;. For a driver install it usually means the old driver was half removed or Windows Update installed its own driver at the same time. A clean reinstall fixes it: block Windows Update drivers, remove the old driver with DDU in Safe Mode, then run the full offline package.</source>
        <translation>0x80070002 是 Windows 的 “找不到文件” 错误。安装驱动时出现，通常是旧驱动删了一半，或者 Windows 更新同时在装它自己的驱动。全新重装可以解决：阻止 Windows 更新安装驱动，在安全模式下用 DDU 删除旧驱动，再运行完整的离线安装包。</translation>
    </message>
    <message>
        <source>Start the clean reinstall (setup wizard)</source>
        <translation>开始全新重装（安装向导）</translation>
    </message>
    <message>
        <source>Windows fell back to its basic display driver</source>
        <translation>Windows 退回到了基本显示驱动</translation>
    </message>
    <message>
        <source>The NVIDIA driver failed to load, so Windows uses the Microsoft Basic Display Adapter (low resolution, no CUDA). Reinstall the driver cleanly.</source>
        <translation>NVIDIA 驱动没能加载，Windows 改用 “Microsoft 基本显示适配器”（分辨率低，没有 CUDA）。请全新重装驱动。</translation>
    </message>
    <message>
        <source>The GPU stopped responding on the PCIe bus</source>
        <translation>显卡在 PCIe 总线上失去响应</translation>
    </message>
    <message>
        <source>This is a hardware-level failure, not a setup problem: check the power cables and connectors, reseat the card, and look at power draw and temperature before the crash (the Dashboard records them).</source>
        <translation>这是硬件层面的故障，不是设置问题：检查供电线和接口，重新插好显卡，并查看崩溃前的功耗和温度（仪表盘会记录）。</translation>
    </message>
    <message>
        <source>A check inside a GPU kernel failed</source>
        <translation>显卡内核中的断言失败</translation>
    </message>
    <message>
        <source>Usually a bug in the program or data (for example a class label outside the range of the model&apos;s outputs), not the driver. Run once with CUDA_LAUNCH_BLOCKING=1 to see the line that failed.</source>
        <translation>通常是程序或数据的问题（例如类别标签超出了模型输出的范围），与驱动无关。设置 CUDA_LAUNCH_BLOCKING=1 运行一次，就能看到出错的那一行。</translation>
    </message>
    <message>
        <source>A GPU kernel read or wrote memory it should not</source>
        <translation>显卡内核访问了不该访问的内存</translation>
    </message>
    <message>
        <source>Usually a bug in the program or a custom extension; if it also happens with known-good code, test the card for stability (clocks, temperature, power).</source>
        <translation>通常是程序或自定义扩展的问题；如果已知正常的代码也出现，请测试显卡的稳定性（频率、温度、功耗）。</translation>
    </message>
    <message>
        <source>No known problem in this text. Paste the whole error, including the lines just above it, or run the doctor.</source>
        <translation>这段文字里没有已知问题。请粘贴完整的错误信息（包括它上面几行），或者运行环境诊断。</translation>
    </message>
</context>
</TS>
