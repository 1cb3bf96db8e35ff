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
        <source>MXFP4 weights are for Mixture-of-Experts models (their experts); pick another format</source>
        <translation>MXFP4 权重只用于混合专家（MoE）模型的专家层；请选择其他格式</translation>
    </message>
    <message>
        <source>--n-cpu-moe moves experts: {model} has none (use --gpu-layers)</source>
        <translation>--n-cpu-moe 移动的是专家层：{model} 没有专家（请用 --gpu-layers）</translation>
    </message>
    <message>
        <source>--n-cpu-moe and --override-tensor are llama.cpp options: use --engine llamacpp</source>
        <translation>--n-cpu-moe 和 --override-tensor 是 llama.cpp 的选项：请用 --engine llamacpp</translation>
    </message>
    <message>
        <source>--cpu-offload-gb is a vLLM option: use --engine vllm</source>
        <translation>--cpu-offload-gb 是 vLLM 的选项：请用 --engine vllm</translation>
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
        <source>--override-tensor &apos;{regex}&apos; is not a valid regular expression</source>
        <translation>--override-tensor &apos;{regex}&apos; 不是有效的正则表达式</translation>
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
    <message>
        <source>The run plan is for inference; for training see the suggestions</source>
        <translation>运行方案只针对推理；训练请看调整建议</translation>
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
        <source>{gib:.1f} GiB of expert weights stay in system RAM and run on the CPU; every layer&apos;s attention stays on the GPU</source>
        <translation>{gib:.1f} GiB 的专家权重放在内存里、由 CPU 计算；每一层的注意力仍在 GPU 上</translation>
    </message>
    <message>
        <source>--cpu-offload-gb keeps {gib:.1f} GiB of weights in system RAM; the GPU reads them over PCIe for every token</source>
        <translation>--cpu-offload-gb 把 {gib:.1f} GiB 权重卸载到内存；每生成一个 token，GPU 都要经 PCIe 读取它们</translation>
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
    <name>FitPlan</name>
    <message>
        <source>llama.cpp, everything on the GPU</source>
        <translation>llama.cpp，全部放在 GPU 上</translation>
    </message>
    <message>
        <source>llama.cpp with a q8_0 KV cache</source>
        <translation>llama.cpp，KV 缓存用 q8_0</translation>
    </message>
    <message>
        <source>llama.cpp, experts of the first {n} layers in system RAM</source>
        <translation>llama.cpp，前 {n} 层的专家卸载到内存</translation>
    </message>
    <message>
        <source>llama.cpp, all routed experts in system RAM (-ot exps=CPU)</source>
        <translation>llama.cpp，所有路由专家卸载到内存（-ot exps=CPU）</translation>
    </message>
    <message>
        <source>llama.cpp, {n} of {total} layers on the GPU, the rest in system RAM</source>
        <translation>llama.cpp，{total} 层中 {n} 层放在 GPU 上，其余卸载到内存</translation>
    </message>
    <message>
        <source>llama.cpp, everything on the GPU with a {seq}-token context</source>
        <translation>llama.cpp，全部放在 GPU 上，上下文 {seq} token</translation>
    </message>
    <message>
        <source>Ollama, everything on the GPU</source>
        <translation>Ollama，全部放在 GPU 上</translation>
    </message>
    <message>
        <source>Ollama, everything on the GPU with num_ctx {seq}</source>
        <translation>Ollama，全部放在 GPU 上，num_ctx {seq}</translation>
    </message>
    <message>
        <source>Ollama, {n} of {total} layers on the GPU (num_gpu), the rest in system RAM</source>
        <translation>Ollama，{total} 层中 {n} 层放在 GPU 上（num_gpu），其余卸载到内存</translation>
    </message>
    <message>
        <source>vLLM</source>
        <translation>vLLM</translation>
    </message>
    <message>
        <source>vLLM with an FP8 KV cache</source>
        <translation>vLLM，KV 缓存用 FP8</translation>
    </message>
    <message>
        <source>vLLM with {gib:g} GiB of weights in system RAM (--cpu-offload-gb)</source>
        <translation>vLLM，{gib:g} GiB 权重卸载到内存（--cpu-offload-gb）</translation>
    </message>
    <message>
        <source>vLLM with --max-model-len {seq}</source>
        <translation>vLLM，--max-model-len {seq}</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s --fit would not find a setting that fits either</source>
        <translation>llama.cpp 自带的 --fit 也找不到放得下的设置</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s --fit would choose -c {seq} -ngl {ngl} with the experts of {n} layers on the CPU</source>
        <translation>llama.cpp 自带的 --fit 会选 -c {seq} -ngl {ngl}，并把 {n} 层的专家放到 CPU</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s --fit would choose the same: -c {seq}, every layer on the GPU</source>
        <translation>llama.cpp 自带的 --fit 会做同样的选择：-c {seq}，所有层都在 GPU 上</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s --fit would choose the same: -c {seq}, -ngl {ngl}, the experts of {n} layers on the CPU</source>
        <translation>llama.cpp 自带的 --fit 会做同样的选择：-c {seq}，-ngl {ngl}，{n} 层的专家放到 CPU</translation>
    </message>
    <message>
        <source>llama.cpp&apos;s --fit would choose -c {seq} -ngl {ngl} with the experts of {n} layers on the CPU, where the first option here says -c {our_seq} -ngl {our_ngl} and {our_n}: --fit keeps 1 GiB free per GPU (--fit-target) and lowers a context you did not set down to 4096 before moving tensors, while this plan uses the whole card at the context you asked for</source>
        <translation>llama.cpp 自带的 --fit 会选 -c {seq} -ngl {ngl}，把 {n} 层的专家放到 CPU；这里的第一个方案是 -c {our_seq} -ngl {our_ngl}、{our_n} 层专家放到 CPU。区别在于：--fit 每张 GPU 留 1 GiB 余量（--fit-target），并会在移动张量之前把你没指定的上下文降到最低 4096；而本方案按你要求的上下文用满整张卡</translation>
    </message>
    <message>
        <source>How to run {model} on {gpu} ({budget:.1f} GiB), best first:</source>
        <translation>在 {gpu}（{budget:.1f} GiB）上运行 {model} 的方法，最好的排在前面：</translation>
    </message>
    <message>
        <source>about {tps:.0f} tokens/s</source>
        <translation>约 {tps:.0f} token/秒</translation>
    </message>
    <message>
        <source>needs more system RAM than there is</source>
        <translation>需要的内存超过现有容量</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>{n}. {title}: {gpu:.1f} GiB on the GPU, {host:.1f} GiB in system RAM; {state}</source>
        <translation>{n}. {title}：GPU 上 {gpu:.1f} GiB，内存中 {host:.1f} GiB；{state}</translation>
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
        <source>Expert offload: every layer on the GPU, the experts of the first {n} layers in system RAM ({flag}), {gpu:.2f} GiB on the GPU and {host:.2f} GiB in system RAM</source>
        <translation>专家卸载到内存：所有层留在 GPU 上，前 {n} 层的专家放到内存（{flag}），GPU 上 {gpu:.2f} GiB，内存中 {host:.2f} GiB</translation>
    </message>
    <message>
        <source>Partial offload: {n} of {total} layers on the GPU ({flag}), {gpu:.2f} GiB there and {host:.2f} GiB in system RAM</source>
        <translation>部分层放到 CPU：{total} 层中 {n} 层放在 GPU（{flag}），GPU 上 {gpu:.2f} GiB，系统内存 {host:.2f} GiB</translation>
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
        <source>On a rented machine with {gpus} such GPUs ({strategy})</source>
        <translation>租用一台有 {gpus} 张这种 GPU 的机器（{strategy}）</translation>
    </message>
    <message>
        <source>Offload the checkpointed activations to system RAM (unsloth&apos;s gradient checkpointing, torchtune enable_activation_offloading)</source>
        <translation>把检查点激活卸载到系统内存（unsloth 的梯度检查点，torchtune 的 enable_activation_offloading）</translation>
    </message>
</context>
<context>
    <name>Measure</name>
    <message>
        <source>within what the CUDA context alone varies by: nothing to correct</source>
        <translation>差距在 CUDA 上下文本身的波动范围内：无需修正</translation>
    </message>
    <message>
        <source>most likely the CUDA context and libraries (0.3-1.3 GiB depending on driver and PyTorch)</source>
        <translation>最可能来自 CUDA 上下文和运行库（随驱动和 PyTorch 版本在 0.3–1.3 GiB 之间）</translation>
    </message>
    <message>
        <source>most likely the parts that grow with context and batch (KV cache, activations, logits: {gib:.2f} GiB estimated)</source>
        <translation>最可能来自随上下文和批大小增长的部分（KV 缓存、激活值、logits：估算 {gib:.2f} GiB）</translation>
    </message>
    <message>
        <source>most likely the fixed parts (weights, optimizer states, engine buffers: {gib:.2f} GiB estimated): check that the weight format, method and engine match the run</source>
        <translation>最可能来自固定部分（权重、优化器状态、引擎缓冲区：估算 {gib:.2f} GiB）：请检查权重格式、训练方法和引擎是否与这次运行一致</translation>
    </message>
    <message>
        <source>Measured on this machine: {gib:.2f} GiB ({date})</source>
        <translation>本机实测：{gib:.2f} GiB（{date}）</translation>
    </message>
    <message>
        <source>Measured on this machine: {gib:.2f} GiB ({date}, other settings)</source>
        <translation>本机实测：{gib:.2f} GiB（{date}，设置不同）</translation>
    </message>
    <message>
        <source>Calibrated on your {engine} runs ({runs}): {gib:.2f} GiB, beside the estimate&apos;s {est:.2f} GiB</source>
        <translation>按你的 {engine} 实测（{runs} 次）校准：{gib:.2f} GiB，模型估算仍为 {est:.2f} GiB</translation>
    </message>
    <message>
        <source>{calibrated}; with it the largest context that fits is {seq} tokens, the largest batch {batch}</source>
        <translation>{calibrated}；按校准值，能放下的最大上下文为 {seq} 个 token，最大批大小为 {batch}</translation>
    </message>
    <message>
        <source>cannot list the NVIDIA GPUs: {reason}</source>
        <translation>无法列出 NVIDIA GPU：{reason}</translation>
    </message>
    <message>
        <source>no NVIDIA GPU found</source>
        <translation>未找到 NVIDIA 显卡</translation>
    </message>
    <message>
        <source>the GPU performance counters could not be read: {reason}</source>
        <translation>无法读取 GPU 性能计数器：{reason}</translation>
    </message>
    <message>
        <source>cannot read GPU memory per process: {nvml}; and the GPU performance counters could not be read: {reason}</source>
        <translation>无法按进程读取显存：{nvml}；GPU 性能计数器也无法读取：{reason}</translation>
    </message>
    <message>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>已测量</translation>
    </message>
    <message>
        <source>the process never used the GPU</source>
        <translation>该进程始终没有使用 GPU</translation>
    </message>
    <message>
        <source>the process ended at once, before using the GPU</source>
        <translation>该进程很快就结束了，还没来得及使用 GPU</translation>
    </message>
    <message>
        <source>stopped before the process ended</source>
        <translation>在进程结束前停止了测量</translation>
    </message>
    <message>
        <source>the GPU was lost during the run</source>
        <translation>运行期间 GPU 丢失</translation>
    </message>
    <message>
        <source>no command to run: give it after --</source>
        <translation>没有要运行的命令：请写在 -- 之后</translation>
    </message>
    <message>
        <source>the working folder {path} does not exist</source>
        <translation>工作目录 {path} 不存在</translation>
    </message>
    <message>
        <source>command not found: {command}</source>
        <translation>找不到命令：{command}</translation>
    </message>
    <message>
        <source>cannot run {command}: permission denied</source>
        <translation>无法运行 {command}：权限不足</translation>
    </message>
    <message>
        <source>cannot run {command}: {reason}</source>
        <translation>无法运行 {command}：{reason}</translation>
    </message>
    <message>
        <source>process {pid} is not running (it ended before measuring started?)</source>
        <translation>进程 {pid} 没有在运行（可能在开始测量前就结束了）</translation>
    </message>
    <message>
        <source>process {pid} belongs to {owner}: the driver may not show its memory to {me} (measure as that user, or as administrator/root)</source>
        <translation>进程 {pid} 属于 {owner}：驱动可能不向 {me} 显示它的显存（请以该用户或管理员/root 身份测量）</translation>
    </message>
    <message>
        <source>the children of process {pid} cannot be listed (access denied): only the process itself is counted</source>
        <translation>无法列出进程 {pid} 的子进程（拒绝访问）：只统计该进程本身</translation>
    </message>
    <message>
        <source>{gpu}: {reason}; the measurement keeps what it had</source>
        <translation>{gpu}：{reason}；已测到的数据会保留</translation>
    </message>
    <message>
        <source>the driver listed the process without its memory (Windows WDDM, or another user&apos;s process): the peak may be too low</source>
        <translation>驱动列出了该进程但没有给出显存用量（Windows WDDM，或属于其他用户的进程）：峰值可能偏低</translation>
    </message>
    <message>
        <source>the driver&apos;s process list never showed the measured processes (a container with its own process IDs?): the peak is the GPU&apos;s used memory less what was in use at the start, so other programs&apos; memory counts too</source>
        <translation>驱动的进程列表里始终没有出现被测进程（可能在使用独立进程号的容器里）：峰值按整张 GPU 的已用显存减去开始时的用量计算，因此其他程序占用的显存也算在内</translation>
    </message>
    <message>
        <source>cannot use the measurements file {path}: {reason}</source>
        <translation>无法使用实测记录文件 {path}：{reason}</translation>
    </message>
    <message>
        <source>cannot save the measurement in {path}: {reason}</source>
        <translation>无法把实测结果保存到 {path}：{reason}</translation>
    </message>
    <message>
        <source>cannot read the measurements file {path}: {reason}</source>
        <translation>无法读取实测记录文件 {path}：{reason}</translation>
    </message>
    <message>
        <source>cannot delete from {path}: {reason}</source>
        <translation>无法从 {path} 删除：{reason}</translation>
    </message>
    <message>
        <source>cannot write {path}: {reason}</source>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
</context>
</TS>
