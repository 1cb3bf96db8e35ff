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
            <source>Built with Qt for Python (PySide6, LGPL-3.0) and pyqtgraph (MIT). It reads your GPU through the NVIDIA driver's own NVML library, which is not shipped with this app. NVIDIA, GeForce and RTX are trademarks of NVIDIA Corporation; this app is not made by NVIDIA.</source>
            <translation>基于 Qt for Python（PySide6，LGPL-3.0）和 pyqtgraph（MIT）构建。本软件通过 NVIDIA 驱动自带的 NVML 库读取显卡信息，该库不随本软件分发。NVIDIA、GeForce 和 RTX 是 NVIDIA Corporation 的商标；本软件并非 NVIDIA 出品。</translation>
        </message>
        <message>
            <source>Copy version info</source>
            <translation>复制版本信息</translation>
        </message>
    </context>
    <context>
        <name>App</name>
        <message>
            <source>the window cannot be {wanted}; the picture is {got}</source>
            <translation>窗口无法设为 {wanted}；截图为 {got}</translation>
        </message>
        <message>
            <source>the graphs were not drawn in time; the picture may show empty plots</source>
            <translation>图表未能及时绘制；截图中的图表可能是空的</translation>
        </message>
        <message>
            <source>could not write {path}</source>
            <translation>无法写入 {path}</translation>
        </message>
        <message>
            <source>GPU Assistant</source>
            <translation>GPU 助手</translation>
        </message>
    </context>
    <context>
        <name>Cli</name>
        <message>
            <source>--demo is for the app and for the commands with a simulated source (monitor, exporter), not for '{command}'</source>
            <translation>--demo 只用于应用本身和带模拟数据源的命令（monitor、exporter），不能用于 “{command}”</translation>
        </message>
        <message>
            <source>--window-size needs WIDTHxHEIGHT in pixels, e.g. 1024x640, not {value}</source>
            <translation>--window-size 需要以像素为单位的 宽x高，例如 1024x640，而不是 {value}</translation>
        </message>
        <message>
            <source>{prog}: error: {message} (see: {prog} --help)</source>
            <translation>{prog}：错误：{message}（参见：{prog} --help）</translation>
        </message>
        <message>
            <source>argument {argument}: {message}</source>
            <translation>参数 {argument}：{message}</translation>
        </message>
        <message>
            <source>the following arguments are required: {arguments}</source>
            <translation>缺少必需的参数：{arguments}</translation>
        </message>
        <message>
            <source>one of the arguments {arguments} is required</source>
            <translation>必须给出以下参数之一：{arguments}</translation>
        </message>
        <message>
            <source>unrecognized arguments: {arguments}</source>
            <translation>无法识别的参数：{arguments}</translation>
        </message>
        <message>
            <source>not allowed with argument {argument}</source>
            <translation>不能与参数 {argument} 同时使用</translation>
        </message>
        <message>
            <source>ignored explicit argument {value}</source>
            <translation>此选项不接受值，{value} 被忽略</translation>
        </message>
        <message>
            <source>expected one argument</source>
            <translation>需要一个值</translation>
        </message>
        <message>
            <source>expected at most one argument</source>
            <translation>最多接受一个值</translation>
        </message>
        <message>
            <source>expected at least one argument</source>
            <translation>至少需要一个值</translation>
        </message>
        <message>
            <source>expected {count} argument</source>
            <translation>需要 {count} 个值</translation>
        </message>
        <message>
            <source>expected {count} arguments</source>
            <translation>需要 {count} 个值</translation>
        </message>
        <message>
            <source>invalid choice: {value}, maybe you meant {closest}? (choose from {choices})</source>
            <translation>无效的选择：{value}，是否想用 {closest}？（可选：{choices}）</translation>
        </message>
        <message>
            <source>invalid choice: {value} (choose from {choices})</source>
            <translation>无效的选择：{value}（可选：{choices}）</translation>
        </message>
        <message>
            <source>invalid {type} value: {value}</source>
            <translation>无效的 {type} 值：{value}</translation>
        </message>
        <message>
            <source>ambiguous option: {option} could match {matches}</source>
            <translation>选项不明确：{option} 可能是 {matches}</translation>
        </message>
        <message>
            <source>unexpected option string: {option}</source>
            <translation>意外的选项：{option}</translation>
        </message>
        <message>
            <source>unknown parser {parser} (choices: {choices})</source>
            <translation>未知的命令 {parser}（可选：{choices}）</translation>
        </message>
        <message>
            <source>the {command} command needs the Python package '{package}': run the setup command from README.md</source>
            <translation>{command} 命令需要 Python 包 “{package}”：请运行 README.md 中的安装命令</translation>
        </message>
        <message>
            <source>cannot write the output: {reason}</source>
            <translation>无法写出输出：{reason}</translation>
        </message>
        <message>
            <source>--screenshot needs a file name ending in .png, not {value}</source>
            <translation>--screenshot 需要以 .png 结尾的文件名，而不是 {value}</translation>
        </message>
        <message>
            <source>--screenshot: {message}</source>
            <translation>--screenshot：{message}</translation>
        </message>
        <message>
            <source>unknown page {page}; pages: {pages}</source>
            <translation>没有页面 {page}；可用页面：{pages}</translation>
        </message>
        <message>
            <source>error: {message}</source>
            <translation>错误：{message}</translation>
        </message>
        <message>
            <source>note: {message}</source>
            <translation>提示：{message}</translation>
        </message>
        <message>
            <source>warning: {message}</source>
            <translation>警告：{message}</translation>
        </message>
        <message>
            <source>{option} must not be empty</source>
            <translation>{option} 不能为空</translation>
        </message>
        <message>
            <source>cannot use {path}: {reason}</source>
            <translation>无法使用 {path}：{reason}</translation>
        </message>
        <message>
            <source>cannot read {path}: {reason}</source>
            <translation>无法读取 {path}：{reason}</translation>
        </message>
        <message>
            <source>cannot write {path}: {reason}</source>
            <translation>无法写入 {path}：{reason}</translation>
        </message>
        <message>
            <source>{path} already exists with other content; choose a new file name</source>
            <translation>{path} 已存在且内容不同；请换一个新文件名</translation>
        </message>
        <message>
            <source>{path} is a folder; give a file name</source>
            <translation>{path} 是文件夹；请给出文件名</translation>
        </message>
        <message>
            <source>folder does not exist: {folder}</source>
            <translation>文件夹不存在：{folder}</translation>
        </message>
        <message>
            <source>a file name</source>
            <translation>一个文件名</translation>
        </message>
        <message>
            <source>a session id (see: sessions --list) or a recording file</source>
            <translation>一个会话 ID（见 sessions --list）或一个录制文件</translation>
        </message>
        <message>
            <source>a model id or a file name</source>
            <translation>一个模型 ID 或文件名</translation>
        </message>
        <message>
            <source>{option} needs {what}, not an empty string</source>
            <translation>{option} 需要{what}，不能是空字符串</translation>
        </message>
        <message>
            <source>no such interpreter: {path}</source>
            <translation>没有这个解释器：{path}</translation>
        </message>
        <message>
            <source>no Python interpreter inside {path}</source>
            <translation>{path} 里没有 Python 解释器</translation>
        </message>
        <message>
            <source>{path} is not executable</source>
            <translation>{path} 不可执行</translation>
        </message>
        <message>
            <source>no venvs or conda environments found in the usual places; pass --python PATH</source>
            <translation>在常见位置没有找到 venv 或 conda 环境；请用 --python PATH 指定</translation>
        </message>
        <message>
            <source>--explain needs the error text (or '-' to read it from stdin)</source>
            <translation>--explain 需要错误文本（或用 “-” 从标准输入读取）</translation>
        </message>
        <message>
            <source>--explain got no text to explain</source>
            <translation>--explain 没有收到要解释的文本</translation>
        </message>
        <message>
            <source>--host must not be empty (use 127.0.0.1 for this machine only, or 0.0.0.0 for every interface)</source>
            <translation>--host 不能为空（只让本机访问用 127.0.0.1，监听所有网卡用 0.0.0.0）</translation>
        </message>
        <message>
            <source>--port must be 0-65535, not {value}</source>
            <translation>--port 必须在 0-65535 之间，而不是 {value}</translation>
        </message>
        <message>
            <source>--gpus must be 1-8, not {value}</source>
            <translation>--gpus 必须在 1-8 之间，而不是 {value}</translation>
        </message>
        <message>
            <source>--interval must be between 0 and 3600 seconds</source>
            <translation>--interval 必须在 0 到 3600 秒之间</translation>
        </message>
        <message>
            <source>--duration must be a positive number of seconds, not {value}</source>
            <translation>--duration 必须是正的秒数，而不是 {value}</translation>
        </message>
        <message>
            <source>{option} must be between {low} and {high}, got {value}</source>
            <translation>{option} 必须在 {low} 到 {high} 之间，收到的是 {value}</translation>
        </message>
        <message>
            <source>{option} '{value}' is not valid; closest: {choices}</source>
            <translation>{option} “{value}” 无效；最接近的：{choices}</translation>
        </message>
        <message>
            <source>{option} must be a whole number, got '{value}'</source>
            <translation>{option} 必须是整数，收到的是 “{value}”</translation>
        </message>
        <message>
            <source>{option} must be a number, got '{value}'</source>
            <translation>{option} 必须是数字，收到的是 “{value}”</translation>
        </message>
        <message>
            <source>{message} (closest: {choices})</source>
            <translation>{message}（最接近的：{choices}）</translation>
        </message>
        <message>
            <source>{option} takes REGEX=CPU, got '{value}'</source>
            <translation>{option} 的格式是 REGEX=CPU，收到的是 '{value}'</translation>
        </message>
        <message>
            <source>fit exited with {code}</source>
            <translation>fit 以退出码 {code} 结束</translation>
        </message>
        <message>
            <source>give one of --parallel and --batch</source>
            <translation>--parallel 和 --batch 只能给一个</translation>
        </message>
        <message>
            <source>{option} must look like 0.30, got '{value}'</source>
            <translation>{option} 应写成 0.30 这样的版本号，收到的是 '{value}'</translation>
        </message>
        <message>
            <source>give a model to start, e.g. --model llama-3.1-8b (popular: {models}); or --model PATH (config.json, .safetensors, .gguf), --model-config FILE.json, --params-b X</source>
            <translation>请先指定模型，例如 --model llama-3.1-8b（常用：{models}）；或 --model PATH（config.json、.safetensors、.gguf）、--model-config FILE.json、--params-b X</translation>
        </message>
        <message>
            <source>give one model: --model cannot be combined with --model-config or --params-b</source>
            <translation>只能指定一个模型：--model 不能与 --model-config 或 --params-b 同时使用</translation>
        </message>
        <message>
            <source>give one card: --gpu or --vram-gib</source>
            <translation>只能指定一张显卡：--gpu 或 --vram-gib</translation>
        </message>
        <message>
            <source>{reason} (use --gpu NAME to pick one from the catalogue)</source>
            <translation>{reason}（可用 --gpu NAME 从目录中选一张显卡）</translation>
        </message>
        <message>
            <source>--plan needs a card: --gpu NAME or --vram-gib X</source>
            <translation>--plan 需要指定显卡：--gpu 名称 或 --vram-gib X</translation>
        </message>
        <message>
            <source>--plan is for inference; for training the suggestions say what to change</source>
            <translation>--plan 只针对推理；训练请看调整建议</translation>
        </message>
        <message>
            <source>--grid needs a card: --gpu NAME or --vram-gib X</source>
            <translation>--grid 需要一张显卡：--gpu NAME 或 --vram-gib X</translation>
        </message>
        <message>
            <source>no such program: {program}</source>
            <translation>没有这个程序：{program}</translation>
        </message>
        <message>
            <source>--interval must be between 0 and 60 seconds</source>
            <translation>--interval 必须在 0 到 60 秒之间</translation>
        </message>
        <message>
            <source>--timeout must be between 0 and 600 seconds</source>
            <translation>--timeout 必须在 0 到 600 秒之间</translation>
        </message>
        <message>
            <source>--pid must be a process id (a positive whole number), not {value}</source>
            <translation>--pid 必须是进程 ID（正整数），而不是 {value}</translation>
        </message>
        <message>
            <source>{option} needs the path of a program</source>
            <translation>{option} 需要程序的路径</translation>
        </message>
        <message>
            <source>name the program to start: hybrid --launch -- PROGRAM ARGS...</source>
            <translation>请给出要启动的程序：hybrid --launch -- PROGRAM ARGS...</translation>
        </message>
        <message>
            <source>unexpected arguments: {arguments}</source>
            <translation>多余的参数：{arguments}</translation>
        </message>
        <message>
            <source>--dry-run goes with --prefer-nvidia</source>
            <translation>--dry-run 需要与 --prefer-nvidia 一起使用</translation>
        </message>
        <message>
            <source>--pid must be a positive process id</source>
            <translation>--pid 必须是正的进程 ID</translation>
        </message>
        <message>
            <source>no process with pid {pid}</source>
            <translation>没有 PID 为 {pid} 的进程</translation>
        </message>
        <message>
            <source>--demo and --source nvml contradict each other; give one of them</source>
            <translation>--demo 与 --source nvml 相互矛盾；请只给出其中一个</translation>
        </message>
        <message>
            <source>the demo source is not in this build yet (services.telemetry.simulated is missing)</source>
            <translation>此版本还没有演示数据源（缺少 services.telemetry.simulated）</translation>
        </message>
        <message>
            <source>polling every {interval} s costs GPU and CPU time; 1 s is usually enough</source>
            <translation>每 {interval} 秒读取一次会占用 GPU 和 CPU 时间；通常 1 秒就够了</translation>
        </message>
        <message>
            <source>the NVIDIA driver answered slowly: {count} reading(s) were left out after {seconds} s (shown as not reported)</source>
            <translation>NVIDIA 驱动响应太慢：{seconds} 秒后仍未读取的 {count} 项数值已略去（显示为未报告）</translation>
        </message>
        <message>
            <source>logging {count} GPU(s) to {path} every {interval} s; Ctrl-C stops</source>
            <translation>每 {interval} 秒把 {count} 块 GPU 的读数记录到 {path}；按 Ctrl-C 停止</translation>
        </message>
        <message>
            <source>wrote {rows} rows to {path}</source>
            <translation>已写入 {rows} 行到 {path}</translation>
        </message>
        <message>
            <source>cannot write {path} ({reason}); stopped after {rows} rows, which are intact</source>
            <translation>无法写入 {path}（{reason}）；已在 {rows} 行后停止，这些行完好无损</translation>
        </message>
        <message>
            <source>--interval must be between {low} and {high} seconds</source>
            <translation>--interval 必须在 {low} 到 {high} 秒之间</translation>
        </message>
        <message>
            <source>--duration is for logging; --once takes a single reading</source>
            <translation>--duration 用于持续记录；--once 只读取一次</translation>
        </message>
        <message>
            <source>--duration must be a positive number of seconds</source>
            <translation>--duration 必须是正的秒数</translation>
        </message>
        <message>
            <source>'{value}' is not a whole number</source>
            <translation>“{value}” 不是整数</translation>
        </message>
        <message>
            <source>must be from 0 to {limit}</source>
            <translation>必须在 0 到 {limit} 之间</translation>
        </message>
        <message>
            <source>'{value}' is not a number</source>
            <translation>“{value}” 不是数字</translation>
        </message>
        <message>
            <source>must be between {low} and {high}</source>
            <translation>必须在 {low} 到 {high} 之间</translation>
        </message>
        <message>
            <source>{message}; closest: {choices}</source>
            <translation>{message}；最接近的：{choices}</translation>
        </message>
        <message>
            <source>unknown GPU '{name}'</source>
            <translation>未知的显卡 “{name}”</translation>
        </message>
        <message>
            <source>unknown CPU '{name}'</source>
            <translation>未知的 CPU “{name}”</translation>
        </message>
        <message>
            <source>{option}: '{value}' is not a number</source>
            <translation>{option}：“{value}” 不是数字</translation>
        </message>
        <message>
            <source>{option} must be a positive number</source>
            <translation>{option} 必须是正数</translation>
        </message>
        <message>
            <source>{option} wants CARD=AMOUNT, got '{value}'</source>
            <translation>{option} 需要 CARD=AMOUNT 格式，收到的是 “{value}”</translation>
        </message>
        <message>
            <source>no NVIDIA GPU detected (no driver, or a card the catalogue does not know); name the cards with --gpu</source>
            <translation>未检测到 NVIDIA GPU（没有驱动，或显卡不在目录中）；请用 --gpu 指定显卡</translation>
        </message>
        <message>
            <source>--compare needs one to three --gpu, got {count}</source>
            <translation>--compare 需要一到三个 --gpu，收到的是 {count} 个</translation>
        </message>
        <message>
            <source>give at least one --gpu or --cpu (or --detect)</source>
            <translation>请至少给出一个 --gpu 或 --cpu（或使用 --detect）</translation>
        </message>
        <message>
            <source>{path}: no such folder</source>
            <translation>{path}：没有这个文件夹</translation>
        </message>
        <message>
            <source>--export needs --csv FILE</source>
            <translation>--export 需要 --csv FILE</translation>
        </message>
        <message>
            <source>a session id is needed (see: sessions --list)</source>
            <translation>需要会话 ID（见 sessions --list）</translation>
        </message>
        <message>
            <source>deleted {session}</source>
            <translation>已删除 {session}</translation>
        </message>
        <message>
            <source>{session}: {reason}</source>
            <translation>{session}：{reason}</translation>
        </message>
        <message>
            <source>{path} is not an os-release file (no ID= line)</source>
            <translation>{path} 不是 os-release 文件（没有 ID= 行）</translation>
        </message>
        <message>
            <source>no NVIDIA GPU found on this machine; pass --gpu CARD to plan anyway</source>
            <translation>本机未找到 NVIDIA GPU；如仍要生成计划，请用 --gpu 显卡 指定</translation>
        </message>
        <message>
            <source>--os-release/--windows only describe a plan; --run, --undo and --status work on this machine</source>
            <translation>--os-release/--windows 只用于查看计划；--run、--undo 和 --status 作用于本机</translation>
        </message>
        <message>
            <source>{path} is larger than {size} KiB: not an os-release file</source>
            <translation>{path} 大于 {size} KiB：不是 os-release 文件</translation>
        </message>
        <message>
            <source>{path}: line {line} is longer than {limit} characters: not an os-release file</source>
            <translation>{path}：第 {line} 行超过 {limit} 个字符：不是 os-release 文件</translation>
        </message>
        <message>
            <source>step '{step}' is not in this plan ({reason}); add --full to run it anyway</source>
            <translation>步骤 “{step}” 不在本计划中（{reason}）；如仍要执行，请加 --full</translation>
        </message>
        <message>
            <source>no step '{step}' in this plan; steps: {steps}</source>
            <translation>本计划中没有步骤 “{step}”；可用步骤：{steps}</translation>
        </message>
        <message>
            <source>choose the file first: {what} (pass it with --ddu or --driver-package)</source>
            <translation>请先选择文件：{what}（用 --ddu 或 --driver-package 指定）</translation>
        </message>
        <message>
            <source>refusing to change the system without confirmation: add --yes (or --dry-run)</source>
            <translation>未经确认不会修改系统：请加 --yes（或 --dry-run）</translation>
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
        <name>FitReport</name>
        <message>
            <source>Ollama {version} lowers its automatic context to {seq} tokens before it moves layers to the CPU</source>
            <translation>Ollama {version} 会先把自动上下文降到 {seq} token，再考虑把层放到 CPU</translation>
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
        <name>Measure</name>
        <message>
            <source>no measurement {id}</source>
            <translation>没有编号为 {id} 的实测记录</translation>
        </message>
        <message>
            <source>deleted measurement {id}</source>
            <translation>已删除实测记录 {id}</translation>
        </message>
        <message>
            <source>wrote {count} measurements to {path}</source>
            <translation>已将 {count} 条实测记录写入 {path}</translation>
        </message>
        <message>
            <source>no measurements yet: run fit ... --measure -- COMMAND</source>
            <translation>还没有实测记录：运行 fit ... --measure -- 命令</translation>
        </message>
        <message>
            <source>id</source>
            <translation>编号</translation>
        </message>
        <message>
            <source>date</source>
            <translation>日期</translation>
        </message>
        <message>
            <source>model</source>
            <translation>模型</translation>
        </message>
        <message>
            <source>engine</source>
            <translation>引擎</translation>
        </message>
        <message>
            <source>context</source>
            <translation>上下文</translation>
        </message>
        <message>
            <source>batch</source>
            <translation>批大小</translation>
        </message>
        <message>
            <source>estimate GiB</source>
            <translation>估算 GiB</translation>
        </message>
        <message>
            <source>peak GiB</source>
            <translation>峰值 GiB</translation>
        </message>
        <message>
            <source>error</source>
            <translation>误差</translation>
        </message>
        <message>
            <source>exit</source>
            <translation>退出码</translation>
        </message>
        <message>
            <source>status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>stored measurements not read: {reason}</source>
            <translation>未能读取已保存的实测记录：{reason}</translation>
        </message>
        <message>
            <source>--env takes NAME=VALUE, got '{value}'</source>
            <translation>--env 需要 NAME=VALUE，收到的是 '{value}'</translation>
        </message>
        <message>
            <source>give a command after -- or --pid, not both</source>
            <translation>请在 -- 之后给出命令，或使用 --pid，二者只能选一</translation>
        </message>
        <message>
            <source>a command after -- is run only with --measure</source>
            <translation>-- 之后的命令只在加上 --measure 时运行</translation>
        </message>
        <message>
            <source>--measure needs a command after -- (e.g. -- python train.py) or --pid PID</source>
            <translation>--measure 需要在 -- 之后给出命令（例如 -- python train.py）或使用 --pid PID</translation>
        </message>
        <message>
            <source>measuring process {pid} and its children, 10 times a second</source>
            <translation>正在测量进程 {pid} 及其子进程，每秒 10 次</translation>
        </message>
        <message>
            <source>Measured: {status}</source>
            <translation>实测：{status}</translation>
        </message>
        <message>
            <source>  GPU {index} {name}: peak {gib:.2f} GiB at {at:.1f} s</source>
            <translation>  GPU {index} {name}：峰值 {gib:.2f} GiB，出现在第 {at:.1f} 秒</translation>
        </message>
        <message>
            <source>Estimate {est:.2f} GiB, measured peak {peak:.2f} GiB: the estimate is {diff:+.2f} GiB ({pct:+.1f}%) off</source>
            <translation>估算 {est:.2f} GiB，实测峰值 {peak:.2f} GiB：估算偏差 {diff:+.2f} GiB（{pct:+.1f}%）</translation>
        </message>
        <message>
            <source>Where the difference sits: {where}</source>
            <translation>差距所在：{where}</translation>
        </message>
        <message>
            <source>saved as measurement {id} (list them: fit --measurements)</source>
            <translation>已保存为实测记录 {id}（查看全部：fit --measurements）</translation>
        </message>
        <message>
            <source>Command exit code: {code}</source>
            <translation>命令退出码：{code}</translation>
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
        <name>Paths</name>
        <message>
            <source>a named pipe (FIFO)</source>
            <translation>命名管道（FIFO）</translation>
        </message>
        <message>
            <source>a character device</source>
            <translation>字符设备</translation>
        </message>
        <message>
            <source>a block device</source>
            <translation>块设备</translation>
        </message>
        <message>
            <source>a socket</source>
            <translation>套接字</translation>
        </message>
        <message>
            <source>not a regular file</source>
            <translation>特殊文件</translation>
        </message>
        <message>
            <source>{option} needs a file name, not an empty string</source>
            <translation>{option} 需要文件名，而不是空字符串</translation>
        </message>
        <message>
            <source>needs a file name, not an empty string</source>
            <translation>需要文件名，而不是空字符串</translation>
        </message>
        <message>
            <source>{option}{path}: no such file</source>
            <translation>{option}{path}：没有这个文件</translation>
        </message>
        <message>
            <source>{option}{path}: a part of the path is a file, not a folder</source>
            <translation>{option}{path}：路径中的某一部分是文件，而不是文件夹</translation>
        </message>
        <message>
            <source>{option}{path}: cannot use it ({reason})</source>
            <translation>{option}{path}：无法使用（{reason}）</translation>
        </message>
        <message>
            <source>{option}{path} is a folder; give a file name</source>
            <translation>{option}{path} 是文件夹；请给出文件名</translation>
        </message>
        <message>
            <source>{option}{path} is {kind}, not a regular file; refusing to use it</source>
            <translation>{option}{path} 是{kind}，不是普通文件；拒绝使用</translation>
        </message>
    </context>
    <context>
        <name>Power</name>
        <message>
            <source>matrix multiply (compute-bound: training, prompt processing)</source>
            <translation>矩阵乘法（计算密集：训练、提示词处理）</translation>
        </message>
        <message>
            <source>memory copy (memory-bound: token generation)</source>
            <translation>显存复制（显存带宽密集：逐词生成）</translation>
        </message>
        <message>
            <source>unknown workload '{value}' (choose from: matmul, copy)</source>
            <translation>未知负载“{value}”（可选：matmul、copy）</translation>
        </message>
        <message>
            <source>no NVIDIA GPU found</source>
            <translation>没有找到 NVIDIA GPU</translation>
        </message>
        <message>
            <source>a sweep that did not finish had left a lower limit: {result}</source>
            <translation>一次未完成的扫描留下了较低的上限：{result}</translation>
        </message>
        <message>
            <source>nothing to restore: no sweep left a power limit behind</source>
            <translation>无需恢复：没有扫描遗留下功耗上限</translation>
        </message>
        <message>
            <source>GPU {gpu} ({name}): power limit {current} W (default {default} W, allowed {low}-{high} W)</source>
            <translation>GPU {gpu}（{name}）：功耗上限 {current} W（默认 {default} W，可设 {low}-{high} W）</translation>
        </message>
        <message>
            <source>changed by the app from {old} W to {new} W ({reason}); undo: python main.py power --undo --gpu {gpu}</source>
            <translation>本应用把它从 {old} W 改成了 {new} W（{reason}）；撤销：python main.py power --undo --gpu {gpu}</translation>
        </message>
        <message>
            <source>kept at {watts} W after a restart (python main.py power --unkeep --gpu {gpu} removes it)</source>
            <translation>重启后保持 {watts} W（python main.py power --unkeep --gpu {gpu} 可取消）</translation>
        </message>
        <message>
            <source>A power limit resets when the computer restarts; to keep it, run: python main.py power --keep --gpu N</source>
            <translation>功耗上限会在电脑重启后恢复默认；要保留它，请运行：python main.py power --keep --gpu N</translation>
        </message>
        <message>
            <source>the card does not report its power limit</source>
            <translation>这块卡不报告它的功耗上限</translation>
        </message>
        <message>
            <source>command: {command}</source>
            <translation>命令：{command}</translation>
        </message>
        <message>
            <source>undo: python main.py power --undo --gpu {gpu}</source>
            <translation>撤销：python main.py power --undo --gpu {gpu}</translation>
        </message>
        <message>
            <source>nothing to undo: the app has not changed GPU {gpu}'s power limit</source>
            <translation>无需撤销：本应用没有改过 GPU {gpu} 的功耗上限</translation>
        </message>
        <message>
            <source>keep GPU {gpu} at {watts} W after restarts ({where}); the commands:</source>
            <translation>重启后让 GPU {gpu} 保持 {watts} W（{where}）；命令如下：</translation>
        </message>
        <message>
            <source>stop keeping GPU {gpu}'s limit after restarts ({where}); the commands:</source>
            <translation>不再在重启后保持 GPU {gpu} 的上限（{where}）；命令如下：</translation>
        </message>
        <message>
            <source>dry run: nothing was changed</source>
            <translation>演练：没有做任何更改</translation>
        </message>
        <message>
            <source>done; undo: python main.py power --unkeep --gpu {gpu}</source>
            <translation>完成；撤销：python main.py power --unkeep --gpu {gpu}</translation>
        </message>
        <message>
            <source>done</source>
            <translation>完成</translation>
        </message>
        <message>
            <source>sweep of GPU {gpu} ({name}) at {limits} W, about {minutes} minutes; the limit goes back to {current} W at the end</source>
            <translation>扫描 GPU {gpu}（{name}），上限依次为 {limits} W，约 {minutes} 分钟；结束后上限恢复为 {current} W</translation>
        </message>
        <message>
            <source>the commands:</source>
            <translation>命令如下：</translation>
        </message>
        <message>
            <source>GPU {gpu} is in use by {who}; the sweep would slow it down and measure it too. Sweep anyway? [y/N] </source>
            <translation>GPU {gpu} 正被 {who} 使用；扫描会拖慢它，测量结果也会把它算进去。仍然扫描吗？[y/N] </translation>
        </message>
        <message>
            <source>GPU {gpu} is in use by {who}; stop it first, or pass --yes to sweep anyway</source>
            <translation>GPU {gpu} 正被 {who} 使用；请先停止它，或加 --yes 仍然扫描</translation>
        </message>
        <message>
            <source>[{step}/{steps}] {watts} W: {kind} for {seconds} s</source>
            <translation>[{step}/{steps}] {watts} W：{kind}，{seconds} 秒</translation>
        </message>
        <message>
            <source>stopped; the power limit is back at {watts} W</source>
            <translation>已停止；功耗上限已恢复为 {watts} W</translation>
        </message>
        <message>
            <source>stopped; the power limit is still {watts} W: the next power command or the app's next start puts it back</source>
            <translation>已停止；功耗上限仍是 {watts} W：下次运行 power 命令或下次启动本应用时会恢复</translation>
        </message>
        <message>
            <source>could not save the sweep: {reason}</source>
            <translation>无法保存扫描结果：{reason}</translation>
        </message>
        <message>
            <source>saved: {path}</source>
            <translation>已保存：{path}</translation>
        </message>
        <message>
            <source>GPU {gpu} {name}, driver {driver}: default limit {default} W, allowed {low}-{high} W, {temp} °C at the start</source>
            <translation>GPU {gpu} {name}，驱动 {driver}：默认上限 {default} W，可设 {low}-{high} W，开始时 {temp} °C</translation>
        </message>
        <message>
            <source>limit W</source>
            <translation>上限 W</translation>
        </message>
        <message>
            <source>power W</source>
            <translation>功耗 W</translation>
        </message>
        <message>
            <source>capped</source>
            <translation>受限</translation>
        </message>
        <message>
            <source>recommended: the full limit ({watts} W); every lower limit measured loses more than {loss}% of the speed</source>
            <translation>推荐：保持完整上限（{watts} W）；测过的每个更低上限都会损失超过 {loss}% 的速度</translation>
        </message>
        <message>
            <source>recommended: {watts} W keeps {share}% of full speed at {gain}% more work per watt</source>
            <translation>推荐：{watts} W，保留满速的 {share}%，每瓦性能 {gain}%</translation>
        </message>
        <message>
            <source>to use it: python main.py power --set-limit {watts} --gpu {gpu} (undo: power --undo)</source>
            <translation>使用它：python main.py power --set-limit {watts} --gpu {gpu}（撤销：power --undo）</translation>
        </message>
        <message>
            <source>no saved sweeps yet (python main.py power --sweep makes one)</source>
            <translation>还没有已保存的扫描（python main.py power --sweep 可以生成）</translation>
        </message>
        <message>
            <source>{file}  {name}, {points} points, recommended {watts} W</source>
            <translation>{file}  {name}，{points} 个测量点，推荐 {watts} W</translation>
        </message>
        <message>
            <source>before: {a} ({da}); after: {b} ({db})</source>
            <translation>之前：{a}（{da}）；之后：{b}（{db}）</translation>
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
        <name>Settings</name>
        <message>
            <source>{field} = {value} is out of range ({low} to {high}); using {fixed}</source>
            <translation>{field} = {value} 超出范围（{low} 到 {high}）；改用 {fixed}</translation>
        </message>
        <message>
            <source>{field} = {value} is not one of {allowed}; using {fixed}</source>
            <translation>{field} = {value} 不是 {allowed} 之一；改用 {fixed}</translation>
        </message>
        <message>
            <source>{earlier}; {later}</source>
            <translation>{earlier}；{later}</translation>
        </message>
        <message>
            <source>{problem}; using the default settings</source>
            <translation>{problem}；改用默认设置</translation>
        </message>
        <message>
            <source>cannot read {file}: {reason}</source>
            <translation>无法读取 {file}：{reason}</translation>
        </message>
        <message>
            <source>{file} was unreadable; kept it as {kept}</source>
            <translation>{file} 无法读取；已将其保留为 {kept}</translation>
        </message>
        <message>
            <source>{file} was unreadable</source>
            <translation>{file} 无法读取</translation>
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
            <source>Some saved settings were out of range and were corrected: {problem}</source>
            <translation>部分已保存的设置超出范围，已更正：{problem}</translation>
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
            <source>Serve this computer's GPU metrics while the app runs</source>
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
