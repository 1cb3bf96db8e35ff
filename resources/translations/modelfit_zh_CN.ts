<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Compare</name>
    <message>
        <source>model-fit estimate for {seq} tokens, batch 1</source>
        <translation>模型显存估算：{seq} 个 token 上下文，批大小 1</translation>
    </message>
</context>
<context>
    <name>FitErrors</name>
    <message>
        <source>Unknown model &apos;{name}&apos;</source>
        <translation>未知模型“{name}”</translation>
    </message>
    <message>
        <source>Unknown {field} &apos;{value}&apos;</source>
        <translation>未知的 {field}“{value}”</translation>
    </message>
    <message>
        <source>{field} must be between 1 and {top}, got {value}</source>
        <translation>{field} 须在 1 到 {top} 之间，当前为 {value}</translation>
    </message>
    <message>
        <source>GGUF weights cannot be trained: pick bf16, nf4 or int8 weights</source>
        <translation>GGUF 权重无法训练：请选 bf16、nf4 或 int8 权重</translation>
    </message>
    <message>
        <source>Full fine-tuning needs 16- or 32-bit weights; use QLoRA for 4-bit</source>
        <translation>全参数微调需要 16 位或 32 位权重；4 位请用 QLoRA</translation>
    </message>
    <message>
        <source>QLoRA uses 4-bit base weights (nf4 or fp4)</source>
        <translation>QLoRA 的基座权重须为 4 位（nf4 或 fp4）</translation>
    </message>
    <message>
        <source>Training runs on transformers/PyTorch, not {engine}</source>
        <translation>训练使用 transformers/PyTorch，而不是 {engine}</translation>
    </message>
    <message>
        <source>{strategy} is a training strategy; for inference use tp or layer_split</source>
        <translation>{strategy} 是训练用的多卡方式；推理请用 tp 或 layer_split</translation>
    </message>
    <message>
        <source>llama.cpp runs GGUF weights, not {weights}</source>
        <translation>llama.cpp 运行 GGUF 权重，不支持 {weights}</translation>
    </message>
    <message>
        <source>{weights} is a llama.cpp format: use --engine llamacpp</source>
        <translation>{weights} 是 llama.cpp 的格式：请使用 --engine llamacpp</translation>
    </message>
    <message>
        <source>A quantised KV cache needs flash attention (llama.cpp -fa on, Ollama OLLAMA_FLASH_ATTENTION=1)</source>
        <translation>量化的 KV 缓存需要 Flash Attention（llama.cpp -fa on，Ollama 设 OLLAMA_FLASH_ATTENTION=1）</translation>
    </message>
    <message>
        <source>A {kv} KV cache is a llama.cpp option</source>
        <translation>{kv} KV 缓存是 llama.cpp 的选项</translation>
    </message>
    <message>
        <source>An FP8 KV cache is a vLLM option</source>
        <translation>FP8 KV 缓存是 vLLM 的选项</translation>
    </message>
    <message>
        <source>{field} must be between {low} and {top}, got {value}</source>
        <translation>{field} 必须在 {low} 到 {top} 之间，实际为 {value}</translation>
    </message>
    <message>
        <source>With {gpus} GPUs pick a strategy</source>
        <translation>使用 {gpus} 张卡时请选择多卡方式</translation>
    </message>
    <message>
        <source>Tensor parallel cannot split {heads} attention heads and {kv} KV heads over {gpus} GPUs; valid GPU counts: {valid}</source>
        <translation>张量并行无法把 {heads} 个注意力头和 {kv} 个 KV 头平均分到 {gpus} 张 GPU 上；可用的 GPU 数量：{valid}</translation>
    </message>
    <message>
        <source>Unknown GPU &apos;{name}&apos;</source>
        <translation>未知显卡“{name}”</translation>
    </message>
    <message>
        <source>NVML is not available: {reason}</source>
        <translation>NVML 不可用：{reason}</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation>未找到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>NVML reports no memory figures for {name}</source>
        <translation>NVML 没有报告 {name} 的显存数据</translation>
    </message>
    <message>
        <source>Implausible {field} = {value} in the model description</source>
        <translation>模型描述中的 {field} = {value} 不合理</translation>
    </message>
    <message>
        <source>Field {field} must be a whole number, got {value}</source>
        <translation>字段 {field} 须为整数，当前为 {value}</translation>
    </message>
    <message>
        <source>The model config must be a JSON object</source>
        <translation>模型配置必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>The model config lacks {fields}</source>
        <translation>模型配置缺少 {fields}</translation>
    </message>
    <message>
        <source>Field {field} must be a number, got {value}</source>
        <translation>字段 {field} 须为数字，当前为 {value}</translation>
    </message>
    <message>
        <source>Field {field} must be true or false, got {value}</source>
        <translation>字段 {field} 必须是 true 或 false，实际为 {value}</translation>
    </message>
    <message>
        <source>{path} is too large to be a model&apos;s config.json</source>
        <translation>{path} 太大，不可能是模型的 config.json</translation>
    </message>
    <message>
        <source>File not found: {path}</source>
        <translation>找不到文件：{path}</translation>
    </message>
    <message>
        <source>{path} is not a text (UTF-8) JSON file</source>
        <translation>{path} 不是文本（UTF-8）格式的 JSON 文件</translation>
    </message>
    <message>
        <source>{path} is a folder, not a JSON file</source>
        <translation>{path} 是文件夹，不是 JSON 文件</translation>
    </message>
    <message>
        <source>Cannot read {path}: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>{path} is not valid JSON (line {line}: {reason})</source>
        <translation>{path} 不是有效的 JSON（第 {line} 行：{reason}）</translation>
    </message>
    <message>
        <source>{path} is nested too deeply to be a model description</source>
        <translation>{path} 嵌套过深，不可能是模型描述</translation>
    </message>
    <message>
        <source>{path} is not a safetensors file</source>
        <translation>{path} 不是 safetensors 文件</translation>
    </message>
    <message>
        <source>No .safetensors files in {path}</source>
        <translation>{path} 中没有 .safetensors 文件</translation>
    </message>
    <message>
        <source>{path} has a damaged tensor entry: {name}</source>
        <translation>{path} 中的张量条目已损坏：{name}</translation>
    </message>
    <message>
        <source>{path} holds no tensors</source>
        <translation>{path} 中没有张量</translation>
    </message>
    <message>
        <source>Cannot tell the architecture of {path}: put its config.json beside it</source>
        <translation>无法判断 {path} 的结构：请把它的 config.json 放在同一目录</translation>
    </message>
    <message>
        <source>{path}: {reason}</source>
        <translation>{path}：{reason}</translation>
    </message>
    <message>
        <source>Give a model: a catalogue name, a file, or a parameter count</source>
        <translation>请指定模型：目录中的名称、文件或参数量</translation>
    </message>
    <message>
        <source>No config.json, .safetensors or .gguf in {path}</source>
        <translation>{path} 中没有 config.json、.safetensors 或 .gguf</translation>
    </message>
    <message>
        <source>Unsupported file {path}: use config.json, .safetensors or .gguf</source>
        <translation>不支持的文件 {path}：请用 config.json、.safetensors 或 .gguf</translation>
    </message>
    <message>
        <source>unknown ggml tensor type {type} for {name}</source>
        <translation>{name} 的 ggml 张量类型 {type} 未知</translation>
    </message>
    <message>
        <source>file ends inside the GGUF header</source>
        <translation>文件在 GGUF 头部中途结束</translation>
    </message>
    <message>
        <source>implausible string length in the GGUF header</source>
        <translation>GGUF 头部中的字符串长度不合理</translation>
    </message>
    <message>
        <source>GGUF metadata arrays nested too deeply</source>
        <translation>GGUF 元数据数组嵌套过深</translation>
    </message>
    <message>
        <source>implausible array length in the GGUF header</source>
        <translation>GGUF 头部中的数组长度不合理</translation>
    </message>
    <message>
        <source>unknown GGUF metadata type {type}</source>
        <translation>未知的 GGUF 元数据类型 {type}</translation>
    </message>
    <message>
        <source>cannot read {path}: {reason}</source>
        <translation>无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>not a GGUF file (bad magic)</source>
        <translation>不是 GGUF 文件（文件标识不对）</translation>
    </message>
    <message>
        <source>GGUF version 1 is not supported (re-convert with a current llama.cpp)</source>
        <translation>不支持 GGUF 第 1 版（请用新版 llama.cpp 重新转换）</translation>
    </message>
    <message>
        <source>unsupported GGUF version {version} (big-endian or damaged file?)</source>
        <translation>不支持的 GGUF 版本 {version}（大端格式或文件已损坏？）</translation>
    </message>
    <message>
        <source>implausible tensor or metadata count in the GGUF header</source>
        <translation>GGUF 头部中的张量或元数据数量不合理</translation>
    </message>
    <message>
        <source>implausible dimension count {count} for tensor {name}</source>
        <translation>张量 {name} 的维数 {count} 不合理</translation>
    </message>
    <message>
        <source>{message}; closest: {names}</source>
        <translation>{message}；最接近的：{names}</translation>
    </message>
</context>
<context>
    <name>FitNotes</name>
    <message>
        <source>{layers} of {total} layers use a {window}-token sliding window: their KV cache stops growing there</source>
        <translation>{total} 层中有 {layers} 层使用 {window} token 的滑动窗口：这些层的 KV 缓存到此不再增长</translation>
    </message>
    <message>
        <source>llama.cpp keeps the token-embedding table ({gib:.2f} GiB) in system RAM</source>
        <translation>llama.cpp 把词嵌入表（{gib:.2f} GiB）放在内存中</translation>
    </message>
    <message>
        <source>vLLM takes {util:.0%} of the GPU at start ({gib:.1f} GiB) and fills the rest with KV cache: that is expected, not a leak</source>
        <translation>vLLM 启动时会占用 {util:.0%} 的显存（{gib:.1f} GiB），多出的部分用作 KV 缓存：这是正常现象，不是内存泄漏</translation>
    </message>
    <message>
        <source>PEFT&apos;s prepare_model_for_kbit_training keeps embeddings, LM head and norms in fp32 (+{gib:.2f} GiB), so the hidden states between layers are fp32 too</source>
        <translation>PEFT 的 prepare_model_for_kbit_training 会把词嵌入、LM head 和归一化层转为 fp32（多占 {gib:.2f} GiB），层间的隐藏状态因此也是 fp32</translation>
    </message>
    <message>
        <source>Paged optimizer states ({gib:.1f} GiB) live in unified memory and move to system RAM when the GPU is full</source>
        <translation>分页优化器状态（{gib:.1f} GiB）位于统一内存中，显存不足时会移到内存</translation>
    </message>
    <message>
        <source>CPU offload keeps weights, gradients and optimizer states in system RAM ({gib:.1f} GiB)</source>
        <translation>CPU 卸载把权重、梯度和优化器状态放在内存中（{gib:.1f} GiB）</translation>
    </message>
</context>
<context>
    <name>FitParts</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>LoRA adapters</source>
        <translation>LoRA 适配器</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Logits and loss</source>
        <translation>Logits 与损失</translation>
    </message>
    <message>
        <source>Engine buffers</source>
        <translation>引擎缓冲区</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA Graph</translation>
    </message>
    <message>
        <source>Allocator slack</source>
        <translation>分配器冗余</translation>
    </message>
    <message>
        <source>CUDA context</source>
        <translation>CUDA 上下文</translation>
    </message>
</context>
<context>
    <name>FitReport</name>
    <message>
        <source>{model}: {params:.2f} B parameters, {weights} weights</source>
        <translation>{model}：{params:.2f} B 参数，{weights} 权重</translation>
    </message>
    <message>
        <source>Needs {per:.2f} GiB per GPU ({total:.2f} GiB on {gpus} GPUs, {strategy})</source>
        <translation>每张卡需要 {per:.2f} GiB（{gpus} 张卡合计 {total:.2f} GiB，{strategy}）</translation>
    </message>
    <message>
        <source>Needs {per:.2f} GiB of GPU memory</source>
        <translation>需要 {per:.2f} GiB 显存</translation>
    </message>
    <message>
        <source>Plus {gib:.2f} GiB in system RAM</source>
        <translation>另需 {gib:.2f} GiB 内存</translation>
    </message>
    <message>
        <source>vLLM reserves {gib:.2f} GiB more for extra KV cache</source>
        <translation>vLLM 还会再预留 {gib:.2f} GiB 作额外 KV 缓存</translation>
    </message>
    <message>
        <source>vLLM needs {needs:.2f} GiB for max_model_len {seq}; at start it takes {takes:.2f} GiB ({util:.0%} of the card + CUDA graphs)</source>
        <translation>vLLM 以 max_model_len {seq} 运行需要 {needs:.2f} GiB；启动时占用 {takes:.2f} GiB（显卡的 {util:.0%} + CUDA 图）</translation>
    </message>
    <message>
        <source>free now</source>
        <translation>当前空闲</translation>
    </message>
    <message>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Fits on {gpu} ({budget:.1f} GiB {what}) with {left:.2f} GiB to spare</source>
        <translation>{gpu}（{what} {budget:.1f} GiB）放得下，还剩 {left:.2f} GiB</translation>
    </message>
    <message>
        <source>Does NOT fit on {gpu} ({budget:.1f} GiB {what}): {short:.2f} GiB short</source>
        <translation>{gpu}（{what} {budget:.1f} GiB）放不下：还差 {short:.2f} GiB</translation>
    </message>
    <message>
        <source>vLLM starts with this max_model_len</source>
        <translation>vLLM 能以此 max_model_len 启动</translation>
    </message>
    <message>
        <source>vLLM does not start with this max_model_len</source>
        <translation>vLLM 无法以此 max_model_len 启动</translation>
    </message>
    <message>
        <source>Largest max_model_len vLLM starts with: {seq} tokens</source>
        <translation>vLLM 能启动的最大 max_model_len：{seq} token</translation>
    </message>
    <message>
        <source>Largest context that fits: {seq} tokens</source>
        <translation>能放下的最长上下文：{seq} 个 token</translation>
    </message>
    <message>
        <source>No context length fits with these settings</source>
        <translation>按当前设置，任何上下文长度都放不下</translation>
    </message>
    <message>
        <source>Partial offload: {n} of {total} layers on the GPU ({flag}), {gpu:.2f} GiB there and {host:.2f} GiB in system RAM</source>
        <translation>部分卸载：{total} 层中 {n} 层放在 GPU（{flag}），GPU 上 {gpu:.2f} GiB，系统内存 {host:.2f} GiB</translation>
    </message>
    <message>
        <source>Estimate for that split: about {tps:.1f} tokens/s generated (rough: RAM bandwidth limits the layers on the CPU)</source>
        <translation>该拆分的估计：生成约 {tps:.1f} token/s（粗略：CPU 上的层受内存带宽限制）</translation>
    </message>
    <message>
        <source>Largest batch that fits: {batch}</source>
        <translation>能放下的最大批大小：{batch}</translation>
    </message>
    <message>
        <source>Largest LoRA rank that fits: {rank}</source>
        <translation>能放下的最大 LoRA 秩：{rank}</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>tight</source>
        <translation>很紧</translation>
    </message>
    <message>
        <source>no</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>still too big</source>
        <translation>仍然放不下</translation>
    </message>
    <message>
        <source>Estimate: about {tps:.0f} tokens/s generated, prompt at about {pps:.0f} tokens/s</source>
        <translation>粗略估计：生成约 {tps:.0f} token/s，提示词处理约 {pps:.0f} token/s</translation>
    </message>
    <message>
        <source>Estimate: about {s:.2f} s per step ({tps:.0f} tokens/s per GPU)</source>
        <translation>粗略估计：每步约 {s:.2f} 秒（每卡约 {tps:.0f} token/s）</translation>
    </message>
</context>
<context>
    <name>FitSuggest</name>
    <message>
        <source>Use {fmt} weights</source>
        <translation>改用 {fmt} 权重</translation>
    </message>
    <message>
        <source>Quantise the KV cache to q8_0 (-ctk q8_0 -ctv q8_0, needs flash attention)</source>
        <translation>把 KV 缓存量化为 q8_0（-ctk q8_0 -ctv q8_0，需开启 flash attention）</translation>
    </message>
    <message>
        <source>Load FP8 weights</source>
        <translation>加载 FP8 权重</translation>
    </message>
    <message>
        <source>Load the weights in 8-bit (bitsandbytes)</source>
        <translation>以 8 位加载权重（bitsandbytes）</translation>
    </message>
    <message>
        <source>Load the weights in 4-bit NF4 (bitsandbytes)</source>
        <translation>以 4 位 NF4 加载权重（bitsandbytes）</translation>
    </message>
    <message>
        <source>Store the KV cache in FP8 (--kv-cache-dtype fp8)</source>
        <translation>KV 缓存使用 FP8（--kv-cache-dtype fp8）</translation>
    </message>
    <message>
        <source>Lower --max-num-seqs to 32 and --max-num-batched-tokens to 2048</source>
        <translation>把 --max-num-seqs 降到 32、--max-num-batched-tokens 降到 2048</translation>
    </message>
    <message>
        <source>Run a Q4_K_M GGUF in llama.cpp</source>
        <translation>改用 llama.cpp 运行 Q4_K_M 的 GGUF</translation>
    </message>
    <message>
        <source>Use flash attention / SDPA</source>
        <translation>使用 flash attention / SDPA</translation>
    </message>
    <message>
        <source>Turn on gradient checkpointing</source>
        <translation>开启梯度检查点</translation>
    </message>
    <message>
        <source>Use the 8-bit AdamW optimizer</source>
        <translation>使用 8 位 AdamW 优化器</translation>
    </message>
    <message>
        <source>Use paged 8-bit AdamW (states spill to system RAM)</source>
        <translation>使用分页 8 位 AdamW（状态可溢出到内存）</translation>
    </message>
    <message>
        <source>Use a chunked / fused cross-entropy loss</source>
        <translation>使用分块 / 融合的交叉熵损失</translation>
    </message>
    <message>
        <source>Train LoRA adapters instead of all weights</source>
        <translation>只训练 LoRA 适配器，不训练全部权重</translation>
    </message>
    <message>
        <source>Train QLoRA (4-bit base + LoRA)</source>
        <translation>改用 QLoRA（4 位基座 + LoRA）</translation>
    </message>
    <message>
        <source>Switch to QLoRA (4-bit base weights)</source>
        <translation>改用 QLoRA（4 位基座权重）</translation>
    </message>
    <message>
        <source>Keep embeddings and LM head in 16-bit (skip PEFT&apos;s fp32 cast, as axolotl does)</source>
        <translation>词嵌入和 LM head 保持 16 位（跳过 PEFT 的 fp32 转换，axolotl 就是这样做的）</translation>
    </message>
    <message>
        <source>Batch 1 with {steps} gradient-accumulation steps</source>
        <translation>批大小设为 1，梯度累积 {steps} 步</translation>
    </message>
    <message>
        <source>All memory savers together: checkpointing, chunked loss, paged 8-bit AdamW</source>
        <translation>同时启用所有省显存选项：梯度检查点、分块损失、分页 8 位 AdamW</translation>
    </message>
    <message>
        <source>All memory savers and sequences of {seq} tokens</source>
        <translation>启用所有省显存选项，并把序列长度设为 {seq} 个 token</translation>
    </message>
    <message>
        <source>FSDP with CPU offload over {gpus} GPUs</source>
        <translation>在 {gpus} 张卡上用 FSDP 并开启 CPU 卸载</translation>
    </message>
    <message>
        <source>Shorten the sequence to {seq} tokens</source>
        <translation>把序列长度缩短到 {seq} 个 token</translation>
    </message>
    <message>
        <source>Split across {gpus} GPUs ({strategy})</source>
        <translation>拆分到 {gpus} 张卡上（{strategy}）</translation>
    </message>
    <message>
        <source>Offload the checkpointed activations to system RAM (unsloth&apos;s gradient checkpointing, torchtune enable_activation_offloading)</source>
        <translation>把检查点激活卸载到系统内存（unsloth 的梯度检查点，torchtune 的 enable_activation_offloading）</translation>
    </message>
</context>
</TS>
