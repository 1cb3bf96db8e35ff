"""What each engine does by default, as request settings (the CLI and the panel preselect them).

Every default below is read from the engine's own code or docs:

- transformers / PEFT (TRL, axolotl): PEFT keeps LoRA adapters in fp32 (``autocast_adapter_dtype=True``);
  for QLoRA ``prepare_model_for_kbit_training`` casts the parameters that are not 4-bit to fp32; the loss is
  plain cross-entropy on the whole logits; gradient checkpointing is the user's choice (on here).
- unsloth: ``use_gradient_checkpointing="unsloth"`` saves each decoder layer's input to CPU memory and brings
  it back for the backward pass (unsloth_zoo/gradient_checkpointing.py, the offloaded checkpointer); the loss
  is Cut Cross-Entropy (``cut_cross_entropy.linear_cross_entropy`` in unsloth_zoo/loss_utils.py: logits are
  never stored) for causal LMs; a multimodal checkpoint's hand-written loss (Gemma 3's
  Gemma3ForConditionalGeneration) is rewritten to unsloth_fused_ce_loss instead, chunked by free memory
  (unsloth_zoo compiler.py cross_entropy_replacement_3; training._unsloth_chunked_loss_bytes); LoRA adapters live
  in the compute dtype and nothing is cast to fp32.
- torchtune (recipes/configs/llama3_1/8B_lora_single_device.yaml, 8B_qlora_single_device.yaml,
  8B_full_single_device.yaml): ``enable_activation_checkpointing: True``, ``enable_activation_offloading:
  False``, ``compile: False``, loss ``CEWithChunkedOutputLoss`` / ``LinearCrossEntropyLoss`` (8 chunks; with
  ``compile: True`` the recipe compiles the chunk's cross-entropy too, training.compile_loss);
  the full single-device recipe uses ``bitsandbytes.optim.PagedAdamW8bit`` with ``optimizer_in_bwd: True``;
  the whole model, adapters included, is built in bf16.
- vLLM: ``gpu_memory_utilization`` 0.9 (vllm/engine/arg_utils.py ``EngineArgs``).
- Ollama: default context by VRAM: < 24 GiB 4096 tokens, 24-48 GiB 32768, >= 48 GiB 262144
  (ollama docs/context-length.mdx); ``OLLAMA_KV_CACHE_TYPE`` f16 by default; flash attention only with
  ``OLLAMA_FLASH_ATTENTION=1`` (ollama docs/faq.md; without it a q8_0 KV cache setting is inert, as a public
  Ollama 0.20 measurement shows), so the preset is the non-flash path with llama.cpp's K*Q score buffer;
  ``num_gpu`` (layers on the GPU) chosen to fit the free memory.
- llama.cpp: every layer on the GPU is asked with ``-ngl 999``; ``-ngl N`` keeps the rest in system RAM.
- Ollama by version (the user picks it; default the current one, OLLAMA_CURRENT): from 0.20 flash attention
  is on by default (so the K*Q score buffer is gone and OLLAMA_KV_CACHE_TYPE=q8_0 takes effect); from 0.30
  the scheduler lowers its automatic context before it moves layers to the CPU (server/sched.go); the
  library's gpt-oss tags are the MXFP4 GGUF (``ollama show gpt-oss:20b``: quantization MXFP4), other tags
  Q4_K_M; OLLAMA_NUM_PARALLEL slots each get num_ctx tokens of KV cache (the cache is num_ctx x parallel).
"""
from __future__ import annotations

from typing import Any


ENGINE_LABELS = {
    "transformers": "transformers",
    "peft": "PEFT / TRL / axolotl",
    "unsloth": "unsloth",
    "torchtune": "torchtune",
    "vllm": "vLLM",
    "llamacpp": "llama.cpp",
    "ollama": "Ollama",
}


OLLAMA_CURRENT = (0, 30)
OLLAMA_FLASH_DEFAULT = (0, 20)
OLLAMA_LOWERS_CONTEXT = (0, 30)


def parse_version(text: str) -> tuple[int, int] | None:
    """"0.12", "v0.30.1" -> (0, 12), (0, 30); None when it is not a version."""
    parts = text.strip().lstrip("vV").split(".")
    try:
        numbers = [int(p) for p in parts[:2]]
    except ValueError:
        return None
    if len(numbers) < 2 or any(n < 0 or n > 10000 for n in numbers):
        return None
    return numbers[0], numbers[1]


def ollama_default_context(vram_gib: float | None) -> int:
    """Ollama's default context length for a card of ``vram_gib`` (docs/context-length.mdx)."""
    if vram_gib is None or vram_gib < 24:
        return 4096
    if vram_gib < 48:
        return 32768
    return 262144


def engine_defaults(engine: str, task: str, method: str, gpus: int = 1,
                    ollama_version: tuple[int, int] = OLLAMA_CURRENT) -> dict[str, Any]:
    """FitRequest fields the engine sets unless the user says otherwise."""
    base: dict[str, Any] = {
        "grad_ckpt": True, "activation_offload": False, "chunked_loss": False, "fused_loss": False,
        "optimizer_in_backward": False, "compile": False, "lora_on_output": False, "lora_adapter_bytes": 4,
        "kbit_fp32_upcast": True, "optimizer": "adamw", "attention": "flash", "kv_dtype": "fp16",
    }
    if engine == "unsloth":
        base.update(activation_offload=True, fused_loss=True, lora_adapter_bytes=2, kbit_fp32_upcast=False,
                    optimizer="adamw8bit")  # the unsloth notebooks' optim="adamw_8bit"
    elif engine == "torchtune":
        base.update(chunked_loss=True, lora_adapter_bytes=2, kbit_fp32_upcast=False)
        if task == "train" and method == "full" and gpus == 1:
            base.update(optimizer="paged_adamw8bit", optimizer_in_backward=True)
    elif engine == "ollama":
        base.update(attention="flash" if ollama_version >= OLLAMA_FLASH_DEFAULT else "eager")
    elif engine == "llamacpp":
        base.update(attention="flash")  # llama.cpp's -fa auto turns it on where the GPU supports it
    return base


def default_strategy(gpus: int, task: str, engine: str) -> str:
    """How more than one GPU is used unless the user says: FSDP for training, tensor parallel
    for vLLM, a layer split for other inference engines."""
    if gpus <= 1:
        return "single"
    if task == "train":
        return "fsdp"
    return "tp" if engine == "vllm" else "layer_split"


def loss_mode(chunked_loss: bool, fused_loss: bool) -> str:
    """The loss as one choice: "fused" (fused linear + CE), "chunked" or "plain"."""
    return "fused" if fused_loss else ("chunked" if chunked_loss else "plain")


def default_method(engine: str) -> str:
    """unsloth's notebooks start from a 4-bit base (load_in_4bit=True): QLoRA; the rest default to LoRA."""
    return "qlora" if engine == "unsloth" else "lora"


def default_weights(engine: str, native_format: str | None = None) -> str | None:
    """Ollama's library tags without a suffix (``ollama run llama3.1``) pull a Q4_K_M GGUF; gpt-oss is
    shipped in its own MXFP4."""
    if engine != "ollama":
        return None
    return "mxfp4" if native_format == "mxfp4" else "q4_k_m"


def ollama_lowered_context(arch, req, budget_gib: float, version: tuple[int, int]) -> int | None:
    """Ollama >= 0.30 (server/sched.go): when its automatic context does not fit with every layer on the GPU,
    it lowers the context (not below 2048 tokens here) before it offloads layers. The new context, or None."""
    if version < OLLAMA_LOWERS_CONTEXT:
        return None
    from services.modelfit.request import GIB
    from services.modelfit.solver import max_seq_that_fits

    seq = max_seq_that_fits(arch, req, budget_gib * GIB, upper=req.seq)
    return seq if 2048 <= seq < req.seq else None
