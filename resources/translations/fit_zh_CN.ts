<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MeasurePanel</name>
    <message>
        <source>Measure a run</source>
        <translation>实测一次运行</translation>
    </message>
    <message>
        <source>%1 tokens by your runs (estimate: %2)</source>
        <translation>按实测为 %1 个 token（估算：%2）</translation>
    </message>
    <message>
        <source>%1 by your runs (estimate: %2)</source>
        <translation>按实测为 %1（估算：%2）</translation>
    </message>
    <message>
        <source>Start a command</source>
        <translation>启动一条命令</translation>
    </message>
    <message>
        <source>Attach to a running process</source>
        <translation>附加到正在运行的进程</translation>
    </message>
    <message>
        <source>Program and arguments, split like a shell would (quotes group words); run directly, never through a shell</source>
        <translation>程序和参数，按 shell 的方式拆分（引号内算一个参数）；直接运行，不经过 shell</translation>
    </message>
    <message>
        <source>working folder (optional)</source>
        <translation>工作目录（可选）</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Refresh the list of processes using the GPU</source>
        <translation>刷新正在使用 GPU 的进程列表</translation>
    </message>
    <message>
        <source>Start measuring</source>
        <translation>开始测量</translation>
    </message>
    <message>
        <source>Stop measuring</source>
        <translation>停止测量</translation>
    </message>
    <message>
        <source>Stops measuring; the process itself keeps running</source>
        <translation>只停止测量，进程本身继续运行</translation>
    </message>
    <message>
        <source>Measures the GPU memory the process and its children hold, 10 times a second, against this estimate.</source>
        <translation>每秒 10 次测量该进程及其子进程占用的显存，并与当前估算对比。</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行方式</translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation>工作目录</translation>
    </message>
    <message>
        <source>Estimate: %1 GiB</source>
        <translation>估算：%1 GiB</translation>
    </message>
    <message>
        <source>Measured now: %1 GiB · peak %2 GiB</source>
        <translation>当前实测：%1 GiB · 峰值 %2 GiB</translation>
    </message>
    <message>
        <source>Over time (dashed: the estimate)</source>
        <translation>随时间变化（虚线为估算值）</translation>
    </message>
    <message>
        <source>Fix the estimate first: there is nothing to measure against</source>
        <translation>请先让估算有效：现在没有可对比的估算</translation>
    </message>
    <message>
        <source>Environment: write NAME=VALUE, got %1</source>
        <translation>环境变量请写成 NAME=VALUE，收到的是 %1</translation>
    </message>
    <message>
        <source>Pick a process or type its PID</source>
        <translation>请选择一个进程，或输入它的 PID</translation>
    </message>
    <message>
        <source>Command: %1</source>
        <translation>命令：%1</translation>
    </message>
    <message>
        <source>Measuring process %1 and its children…</source>
        <translation>正在测量进程 %1 及其子进程…</translation>
    </message>
    <message>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>Measured peak %1 GiB, estimate %2 GiB: %3 GiB (%4%) off</source>
        <translation>实测峰值 %1 GiB，估算 %2 GiB：相差 %3 GiB（%4%）</translation>
    </message>
</context>
<context>
    <name>MeasurementsTable</name>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Context × batch</source>
        <translation>上下文 × 批大小</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Estimate GiB</source>
        <translation>估算 GiB</translation>
    </message>
    <message>
        <source>Peak GiB</source>
        <translation>峰值 GiB</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Your measurements</source>
        <translation>我的实测记录</translation>
    </message>
    <message>
        <source>No measurements yet: measure a run in the previous tab</source>
        <translation>还没有实测记录：在上一个标签页里实测一次运行</translation>
    </message>
    <message>
        <source>attached to PID %1</source>
        <translation>附加到 PID %1</translation>
    </message>
    <message>
        <source>Select the measurements to delete</source>
        <translation>请先选中要删除的记录</translation>
    </message>
    <message>
        <source>Measurements written to %1: %2</source>
        <translation>已将实测记录写入 %1：%2 条</translation>
    </message>
    <message>
        <source>Export measurements</source>
        <translation>导出实测记录</translation>
    </message>
</context>
<context>
    <name>ModelBox</name>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Search, e.g. qwen 14b</source>
        <translation>搜索，例如 qwen 14b</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>config.json, .safetensors (file or folder) or .gguf: only headers are read</source>
        <translation>config.json、.safetensors（文件或文件夹）或 .gguf：只读取文件头，不加载权重</translation>
    </message>
    <message>
        <source>or size in B params</source>
        <translation>或输入参数量（B）</translation>
    </message>
    <message>
        <source>{model} · {params:.2f} B parameters</source>
        <translation>{model} · {params:.2f} B 参数</translation>
    </message>
    <message>
        <source>{n} experts, {k} per token: memory for all, speed for {active:.1f} B active</source>
        <translation>{n} 个专家，每个 token 用 {k} 个：显存按全部专家算，速度按 {active:.1f} B 激活参数算</translation>
    </message>
    <message>
        <source>Checkpoint stored as {fmt}</source>
        <translation>检查点以 {fmt} 格式存储</translation>
    </message>
    <message>
        <source>Source: {source}</source>
        <translation>来源：{source}</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>打开模型文件</translation>
    </message>
    <message>
        <source>Model files (*.json *.safetensors *.gguf)</source>
        <translation>模型文件 (*.json *.safetensors *.gguf)</translation>
    </message>
    <message>
        <source>Enter a parameter count in billions, e.g. 7 or 13.5</source>
        <translation>请输入以十亿（B）为单位的参数量，例如 7 或 13.5</translation>
    </message>
</context>
<context>
    <name>ResultsPanel</name>
    <message>
        <source>Will this model fit?</source>
        <translation>这个模型放得下吗？</translation>
    </message>
    <message>
        <source>Largest that fits</source>
        <translation>能放下的最大值</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>To make it fit</source>
        <translation>怎样才能放下</translation>
    </message>
    <message>
        <source>Double-click a change to apply it</source>
        <translation>双击某项修改即可应用</translation>
    </message>
    <message>
        <source>GiB per GPU; green fits, yellow tight (under 10% left), red does not fit. Click a cell to apply it.</source>
        <translation>每块 GPU 的 GiB；绿色放得下，黄色很紧（剩余不到 10%），红色放不下。点击单元格即可应用。</translation>
    </message>
    <message>
        <source>Weights × context</source>
        <translation>权重 × 上下文</translation>
    </message>
    <message>
        <source>Parts</source>
        <translation>组成部分</translation>
    </message>
    <message>
        <source>How to run it</source>
        <translation>怎么运行</translation>
    </message>
    <message>
        <source>llama.cpp, Ollama and vLLM settings for this card, best first</source>
        <translation>这张卡上 llama.cpp、Ollama 和 vLLM 的运行设置，最好的排在前面</translation>
    </message>
    <message>
        <source>Use {value}</source>
        <translation>改用 {value}</translation>
    </message>
    <message>
        <source>rough estimate: ~{tps:.0f} tokens/s</source>
        <translation>粗略估计：约 {tps:.0f} token/s</translation>
    </message>
    <message>
        <source>{n} layers fit on the GPU</source>
        <translation>GPU 上能放 {n} 层</translation>
    </message>
    <message>
        <source>GiB per GPU (· tokens/s, rough estimate); click a cell to apply it</source>
        <translation>每块 GPU 的 GiB（· token/s，粗略估计）；点击单元格即可应用</translation>
    </message>
    <message>
        <source>Needs {gib:.1f} GiB per GPU</source>
        <translation>每张卡需要 {gib:.1f} GiB</translation>
    </message>
    <message>
        <source>No GPU detected: pick one from the list to check the fit.</source>
        <translation>未检测到显卡：请从列表中选一张来判断是否放得下。</translation>
    </message>
    <message>
        <source>vLLM starts with max_model_len {seq}: needs {gib:.1f} GiB of its {share:.1f} GiB</source>
        <translation>vLLM 能以 max_model_len {seq} 启动：需要 {gib:.1f} GiB，可用份额 {share:.1f} GiB</translation>
    </message>
    <message>
        <source>vLLM does not start with max_model_len {seq}: needs {gib:.1f} GiB, its share is {share:.1f} GiB</source>
        <translation>vLLM 无法以 max_model_len {seq} 启动：需要 {gib:.1f} GiB，可用份额只有 {share:.1f} GiB</translation>
    </message>
    <message>
        <source>Fits: {gib:.1f} GiB of {budget:.1f} GiB, {left:.1f} GiB to spare</source>
        <translation>放得下：需要 {gib:.1f} GiB，共 {budget:.1f} GiB，还剩 {left:.1f} GiB</translation>
    </message>
    <message>
        <source>Does not fit: {gib:.1f} GiB needed, {budget:.1f} GiB available</source>
        <translation>放不下：需要 {gib:.1f} GiB，只有 {budget:.1f} GiB</translation>
    </message>
    <message>
        <source>{gpu}: {budget:.1f} GiB free now</source>
        <translation>{gpu}：当前空闲 {budget:.1f} GiB</translation>
    </message>
    <message>
        <source>{gpu}: {budget:.0f} GiB</source>
        <translation>{gpu}：{budget:.0f} GiB</translation>
    </message>
    <message>
        <source>{total:.1f} GiB on {n} GPUs</source>
        <translation>{n} 张卡合计 {total:.1f} GiB</translation>
    </message>
    <message>
        <source>+ {gib:.1f} GiB in system RAM</source>
        <translation>另需 {gib:.1f} GiB 内存</translation>
    </message>
    <message>
        <source>vLLM needs {needs:.1f} GiB; at start it takes {takes:.1f} GiB ({util:.0%} of the card + CUDA graphs)</source>
        <translation>vLLM 需要 {needs:.1f} GiB；启动时占用 {takes:.1f} GiB（显卡的 {util:.0%} + CUDA 图）</translation>
    </message>
    <message>
        <source>Experts of the first {n} layers moved to system RAM ({flag}), every layer on the GPU, {host:.1f} GiB in system RAM</source>
        <translation>前 {n} 层的专家卸载到内存（{flag}），所有层都留在 GPU 上，内存中 {host:.1f} GiB</translation>
    </message>
    <message>
        <source>Partial offload: {n} of {total} layers on the GPU ({flag} {n}), {host:.1f} GiB in system RAM</source>
        <translation>部分层放到 CPU：{total} 层中 {n} 层放在 GPU（{flag} {n}），{host:.1f} GiB 在系统内存</translation>
    </message>
    <message>
        <source>rough estimate for that split: ~{tps:.1f} tokens/s</source>
        <translation>该拆分的粗略估计：约 {tps:.1f} token/s</translation>
    </message>
    <message>
        <source>{n} tokens</source>
        <translation>{n} 个 token</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{n} tokens (the model&apos;s maximum)</source>
        <translation>{n} 个 token（模型上限）</translation>
    </message>
    <message>
        <source>Estimate: ~{tps:.0f} tokens/s generated, ~{pps:.0f} tokens/s prompt</source>
        <translation>粗略估计：生成约 {tps:.0f} token/s，提示词处理约 {pps:.0f} token/s</translation>
    </message>
    <message>
        <source>Estimate: ~{s:.1f} s per step, ~{tps:.0f} tokens/s per GPU</source>
        <translation>粗略估计：每步约 {s:.1f} 秒，每卡约 {tps:.0f} token/s</translation>
    </message>
    <message>
        <source>Nothing to change: it fits.</source>
        <translation>无需调整：已经放得下。</translation>
    </message>
    <message>
        <source>Pick a GPU to get suggestions.</source>
        <translation>选择一张显卡即可获得建议。</translation>
    </message>
    <message>
        <source>No single change makes it fit.</source>
        <translation>单项调整都无法放下。</translation>
    </message>
</context>
<context>
    <name>RunPlanView</name>
    <message>
        <source>Copy the best command</source>
        <translation>复制最佳方案的命令</translation>
    </message>
    <message>
        <source>Copy the first option&apos;s command line (or Modelfile lines)</source>
        <translation>复制第一个方案的命令行（或 Modelfile 内容）</translation>
    </message>
    <message>
        <source>Pick a GPU and the inference task to see how to run the model.</source>
        <translation>选择一张 GPU 并把任务设为推理，即可看到运行方法。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>~{tps:.0f} tokens/s</source>
        <translation>约 {tps:.0f} token/秒</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>needs more system RAM than this PC has</source>
        <translation>需要的内存超过这台电脑的容量</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>{title}: {gpu:.1f} GiB on the GPU, {host:.1f} GiB in system RAM · {state}</source>
        <translation>{title}：GPU 上 {gpu:.1f} GiB，内存中 {host:.1f} GiB · {state}</translation>
    </message>
</context>
<context>
    <name>WorkloadForm</name>
    <message>
        <source>Workload</source>
        <translation>任务设置</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA (4-bit base)</source>
        <translation>QLoRA（4 位基座）</translation>
    </message>
    <message>
        <source>Full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>Model&apos;s own</source>
        <translation>模型自带精度</translation>
    </message>
    <message>
        <source>INT8 (bitsandbytes)</source>
        <translation>INT8（bitsandbytes）</translation>
    </message>
    <message>
        <source>INT4 (GPTQ/AWQ)</source>
        <translation>INT4（GPTQ/AWQ）</translation>
    </message>
    <message>
        <source>NF4 (bitsandbytes)</source>
        <translation>NF4（bitsandbytes）</translation>
    </message>
    <message>
        <source>FP4 (bitsandbytes)</source>
        <translation>FP4（bitsandbytes）</translation>
    </message>
    <message>
        <source>Generic</source>
        <translation>通用</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Detected GPU (free memory)</source>
        <translation>检测到的显卡（当前空闲显存）</translation>
    </message>
    <message>
        <source>q, v</source>
        <translation>q、v</translation>
    </message>
    <message>
        <source>q, k, v, o</source>
        <translation>q、k、v、o</translation>
    </message>
    <message>
        <source>All linear layers</source>
        <translation>全部线性层</translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Plain cross-entropy</source>
        <translation>普通交叉熵</translation>
    </message>
    <message>
        <source>Chunked cross-entropy</source>
        <translation>分块交叉熵</translation>
    </message>
    <message>
        <source>Fused linear + cross-entropy</source>
        <translation>融合线性层 + 交叉熵</translation>
    </message>
    <message>
        <source>Chunked: torchtune&apos;s CEWithChunkedOutputLoss, the fp32 logits one chunk at a time. Fused: Cut Cross-Entropy (unsloth), logits never stored</source>
        <translation>分块：torchtune 的 CEWithChunkedOutputLoss，fp32 logits 每次只算一块。融合：Cut Cross-Entropy（unsloth），logits 从不整体保存</translation>
    </message>
    <message>
        <source>Offload activations to RAM</source>
        <translation>激活卸载到内存</translation>
    </message>
    <message>
        <source>Checkpointed activations live in system RAM (unsloth&apos;s gradient checkpointing, torchtune enable_activation_offloading)</source>
        <translation>检查点保存的激活放在系统内存（unsloth 的梯度检查点，torchtune 的 enable_activation_offloading）</translation>
    </message>
    <message>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <source>Compiled model: about a quarter less activation memory (torchtune compile: True)</source>
        <translation>编译模型：激活显存约少四分之一（torchtune compile: True）</translation>
    </message>
    <message>
        <source>Optimizer step in backward</source>
        <translation>反向传播中执行优化器步骤</translation>
    </message>
    <message>
        <source>Each gradient is applied and freed during backward (torchtune optimizer_in_bwd)</source>
        <translation>每个梯度在反向传播中即应用即释放（torchtune optimizer_in_bwd）</translation>
    </message>
    <message>
        <source>LoRA on the output layer</source>
        <translation>输出层也加 LoRA</translation>
    </message>
    <message>
        <source>torchtune apply_lora_to_output</source>
        <translation>torchtune apply_lora_to_output</translation>
    </message>
    <message>
        <source>fp32 cast of non-4-bit layers</source>
        <translation>非 4 位层转为 fp32</translation>
    </message>
    <message>
        <source>PEFT prepare_model_for_kbit_training (QLoRA with transformers/PEFT)</source>
        <translation>PEFT prepare_model_for_kbit_training（transformers/PEFT 的 QLoRA）</translation>
    </message>
    <message>
        <source>LoRA adapter dtype: PEFT keeps fp32; unsloth and torchtune use the compute dtype</source>
        <translation>LoRA 适配器的数据类型：PEFT 用 fp32；unsloth 和 torchtune 用计算精度</translation>
    </message>
    <message>
        <source>From the weights</source>
        <translation>随权重而定</translation>
    </message>
    <message>
        <source>Mixed (AMP)</source>
        <translation>混合精度（AMP）</translation>
    </message>
    <message>
        <source>Full fine-tuning: fp32, mixed precision (fp32 master weights) or pure bf16</source>
        <translation>全量微调：fp32、混合精度（fp32 主权重）或纯 bf16</translation>
    </message>
    <message>
        <source>Double quantisation</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <source>bitsandbytes 4-bit: quantise the block scales too (4.127 instead of 4.5 bits per weight)</source>
        <translation>bitsandbytes 4 位：连块缩放系数也量化（每个权重 4.127 位而不是 4.5 位）</translation>
    </message>
    <message>
        <source>8-bit AdamW</source>
        <translation>8 位 AdamW</translation>
    </message>
    <message>
        <source>Paged AdamW</source>
        <translation>分页 AdamW</translation>
    </message>
    <message>
        <source>Paged 8-bit AdamW</source>
        <translation>分页 8 位 AdamW</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash Attention</translation>
    </message>
    <message>
        <source>Eager</source>
        <translation>Eager（朴素实现）</translation>
    </message>
    <message>
        <source>vLLM --gpu-memory-utilization: the share of the card vLLM takes at start</source>
        <translation>vLLM --gpu-memory-utilization：vLLM 启动时占用显卡显存的比例</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>vLLM --max-num-seqs (default 256, 1024 on cards with 70 GiB or more)</source>
        <translation>vLLM --max-num-seqs（默认 256，70 GiB 及以上的显卡为 1024）</translation>
    </message>
    <message>
        <source>vLLM --max-num-batched-tokens (default 2048, 8192 on cards with 70 GiB or more)</source>
        <translation>vLLM --max-num-batched-tokens（默认 2048，70 GiB 及以上的显卡为 8192）</translation>
    </message>
    <message>
        <source>vLLM before V1 (0.6.x)</source>
        <translation>V1 之前的 vLLM（0.6.x）</translation>
    </message>
    <message>
        <source>Older vLLM: more non-torch memory, the whole max_model_len profiled</source>
        <translation>旧版 vLLM：非 torch 显存更多，按整个 max_model_len 做显存分析</translation>
    </message>
    <message>
        <source>CUDA context size if you measured it (default 0.5 GiB, llama.cpp 0.3 GiB)</source>
        <translation>如果测过，填 CUDA 上下文大小（默认 0.5 GiB，llama.cpp 0.3 GiB）</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>llama.cpp -ngl / Ollama num_gpu: layers on the GPU; auto = all, or what fits</source>
        <translation>llama.cpp -ngl / Ollama num_gpu：放在 GPU 上的层数；自动 = 全部，或能放下的层数</translation>
    </message>
    <message>
        <source>Single GPU</source>
        <translation>单卡</translation>
    </message>
    <message>
        <source>FSDP + CPU offload</source>
        <translation>FSDP + CPU 卸载</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Layer split</source>
        <translation>按层切分</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>LoRA targets</source>
        <translation>LoRA 目标层</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失函数</translation>
    </message>
    <message>
        <source>LoRA dtype</source>
        <translation>LoRA 精度</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力实现</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>vLLM memory share</source>
        <translation>vLLM 显存比例</translation>
    </message>
    <message>
        <source>vLLM sequences</source>
        <translation>vLLM 序列数</translation>
    </message>
    <message>
        <source>vLLM batch tokens</source>
        <translation>vLLM 批 token 数</translation>
    </message>
    <message>
        <source>GPU layers</source>
        <translation>GPU 层数</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>显卡数量</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>多卡方式</translation>
    </message>
</context>
</TS>
