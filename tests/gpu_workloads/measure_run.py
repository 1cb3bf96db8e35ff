"""A small real GPU workload to measure against the estimate: a model built from a config.json with
random weights (nothing is downloaded), run for inference or LoRA training.

    python3 main.py fit --model tests/gpu_workloads/llama-3.2-1b/config.json --seq 8192 --batch 4 \\
        --measure -- python3 tests/gpu_workloads/measure_run.py --task inference --seq 8192 --batch 4
    python3 main.py fit --model tests/gpu_workloads/llama-3.2-1b/config.json --task train --method lora \\
        --engine peft --seq 2048 --batch 4 \\
        --measure -- python3 tests/gpu_workloads/measure_run.py --task train --seq 2048 --batch 4

Inference is transformers' generate(): a prompt of seq - 16 tokens and 16 new ones, greedy, bf16.
Training is PEFT LoRA (rank 16, every linear layer, adapters in fp32 as PEFT keeps them) on the bf16
model, gradient checkpointing, AdamW, plain cross-entropy, a few steps. Without transformers (or peft)
a plain-PyTorch decoder of the same shape runs instead (inference: one prefill forward with the last
position's logits; training: full fine-tuning is not what the estimate above describes, so LoRA-like
low-rank adapters are used). It prints PyTorch's own peaks at the end.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW_TOKENS = 16


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(HERE / "llama-3.2-1b" / "config.json"))
    parser.add_argument("--task", choices=("inference", "train"), default="inference")
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--lora-rank", type=int, default=16)
    parser.add_argument("--plain-torch", action="store_true", help="skip transformers even when it is there")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("measure_run: PyTorch is not installed", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("measure_run: no CUDA GPU visible to PyTorch", file=sys.stderr)
        return 3
    cfg = json.loads(Path(args.config).read_text(encoding="utf-8"))
    torch.manual_seed(0)
    start = time.perf_counter()
    use_hf = not args.plain_torch
    if use_hf:
        try:
            import transformers  # noqa: F401
            if args.task == "train":
                import peft  # noqa: F401
        except ImportError:
            use_hf = False
    if use_hf:
        run_hf(torch, cfg, args)
    else:
        run_plain(torch, cfg, args)
    torch.cuda.synchronize()
    gib = float(1 << 30)
    print(f"measure_run: {'transformers' if use_hf else 'plain torch'} {args.task} seq {args.seq} batch {args.batch}: "
          f"torch max allocated {torch.cuda.max_memory_allocated() / gib:.2f} GiB, "
          f"max reserved {torch.cuda.max_memory_reserved() / gib:.2f} GiB, {time.perf_counter() - start:.1f} s")
    return 0


def run_hf(torch, cfg: dict, args) -> None:
    from transformers import AutoConfig, AutoModelForCausalLM

    model_type = cfg.pop("model_type")
    cfg.pop("architectures", None)
    cfg.pop("torch_dtype", None)
    config = AutoConfig.for_model(model_type, **cfg)
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
        except TypeError:  # transformers < 4.56 calls it torch_dtype
            model = AutoModelForCausalLM.from_config(config, torch_dtype=torch.bfloat16)
    vocab = config.vocab_size
    if args.task == "inference":
        model.eval()
        prompt = max(1, args.seq - NEW_TOKENS)
        ids = torch.randint(0, vocab, (args.batch, prompt), device="cuda")
        mask = torch.ones_like(ids)
        with torch.no_grad():
            model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=NEW_TOKENS, min_new_tokens=NEW_TOKENS,
                           do_sample=False, pad_token_id=0, eos_token_id=None)
        return
    from peft import LoraConfig, get_peft_model

    model.config.use_cache = False
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(r=args.lora_rank, lora_alpha=2 * args.lora_rank, lora_dropout=0.0,
                                             target_modules="all-linear", task_type="CAUSAL_LM"))
    model.train()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
    for _ in range(args.steps):
        ids = torch.randint(0, vocab, (args.batch, args.seq), device="cuda")
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


def run_plain(torch, cfg: dict, args) -> None:
    """The same shape in plain PyTorch: RMSNorm, grouped-query attention (SDPA), SwiGLU, tied head."""
    import torch.nn.functional as F
    from torch import nn
    from torch.utils.checkpoint import checkpoint

    h, layers, heads = cfg["hidden_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"]
    kv, inter, vocab = cfg["num_key_value_heads"], cfg["intermediate_size"], cfg["vocab_size"]
    hd = cfg.get("head_dim") or h // heads
    rank = args.lora_rank if args.task == "train" else 0

    class Linear(nn.Module):
        def __init__(self, i: int, o: int) -> None:
            super().__init__()
            self.weight = nn.Parameter(torch.randn(o, i, dtype=torch.bfloat16) / math.sqrt(i), requires_grad=False)
            self.a = nn.Parameter(torch.randn(rank, i) * 0.01) if rank else None
            self.b = nn.Parameter(torch.zeros(o, rank)) if rank else None

        def forward(self, x):
            y = F.linear(x, self.weight)
            if self.a is not None:
                y = y + F.linear(F.linear(x.float(), self.a), self.b).to(y.dtype)
            return y

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.n1, self.n2 = nn.RMSNorm(h, dtype=torch.bfloat16), nn.RMSNorm(h, dtype=torch.bfloat16)
            self.q, self.k, self.v, self.o = Linear(h, heads * hd), Linear(h, kv * hd), Linear(h, kv * hd), Linear(heads * hd, h)
            self.gate, self.up, self.down = Linear(h, inter), Linear(h, inter), Linear(inter, h)

        def forward(self, x):
            b, s, _ = x.shape
            y = self.n1(x)
            q = self.q(y).view(b, s, heads, hd).transpose(1, 2)
            k = self.k(y).view(b, s, kv, hd).transpose(1, 2)
            v = self.v(y).view(b, s, kv, hd).transpose(1, 2)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
            x = x + self.o(a.transpose(1, 2).reshape(b, s, heads * hd))
            y = self.n2(x)
            return x + self.down(F.silu(self.gate(y)) * self.up(y))

    with torch.device("cuda"):
        embed = nn.Embedding(vocab, h, dtype=torch.bfloat16).requires_grad_(False)
        blocks = nn.ModuleList(Block() for _ in range(layers))
        norm = nn.RMSNorm(h, dtype=torch.bfloat16)

    def forward(ids, train: bool):
        x = embed(ids)
        if train:
            x.requires_grad_(True)
        for block in blocks:
            x = checkpoint(block, x, use_reentrant=False) if train else block(x)
        return norm(x)

    if args.task == "inference":
        ids = torch.randint(0, vocab, (args.batch, args.seq), device="cuda")
        with torch.no_grad():
            x = forward(ids, False)
            F.linear(x[:, -1:], embed.weight).float()
        return
    params = [p for p in blocks.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    for _ in range(args.steps):
        ids = torch.randint(0, vocab, (args.batch, args.seq), device="cuda")
        logits = F.linear(forward(ids, True), embed.weight).float()
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, vocab), ids[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


if __name__ == "__main__":
    sys.exit(main())
