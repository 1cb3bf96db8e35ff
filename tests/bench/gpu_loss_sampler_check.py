"""On a machine with an NVIDIA GPU and PyTorch: measure three memory mechanisms fit models, against its figures.

    python tests/bench/gpu_loss_sampler_check.py [--rows 1024] [--vocab 201088] [--tokens 8192]

1. vLLM's profiling sampler pass (PyTorch-native top-k/top-p, v1/sample/ops/topk_topp_sampler.py): bytes per
   vocabulary entry and row above the model's 16-bit logits, against estimate.VLLM_SAMPLER_BYTES_PER_VOCAB.
2. torchtune's chunked cross-entropy (8 chunks of 16-bit logits, each upcast to fp32 in the loss), compiled
   (training.compile_loss) and not: peak bytes per token and vocabulary entry, against fit's 2 + 2/8 (compiled)
   and 2 + 8/8 (not).
3. unsloth's fused loss for multimodal models (unsloth_fused_ce_loss shape: 16-bit logits, fp32 upcast,
   log-softmax per chunk, gradient taken at once): peak per chunk element, against fit's 10 B.

Nothing is downloaded; the tensors are random. Prints one line per check with measured / modelled.
"""
from __future__ import annotations

import argparse
import sys


def _peak_above(fn, torch) -> int:
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    fn()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() - base


def sampler(torch, rows: int, vocab: int) -> float:
    logits = torch.randn(rows, vocab, device="cuda", dtype=torch.bfloat16)
    temp = torch.full((rows,), 0.5, device="cuda")
    k = torch.full((rows,), vocab - 1, device="cuda", dtype=torch.long)
    p = torch.full((rows,), 0.9, device="cuda")

    def run():
        x = logits.to(torch.float32)  # Sampler.forward
        x.div_(temp.unsqueeze(1))  # apply_temperature
        srt, idx = x.sort(dim=-1, descending=False)  # apply_top_k_top_p
        kth = srt.gather(1, (srt.size(1) - k).unsqueeze(1))
        srt.masked_fill_(srt < kth, -float("inf"))
        probs_sort = srt.softmax(dim=-1)
        torch.cumsum(probs_sort, dim=-1, out=probs_sort)
        mask = probs_sort <= 1 - p.unsqueeze(1)
        mask[:, -1] = False
        srt.masked_fill_(mask, -float("inf"))
        out = srt.scatter(dim=-1, index=idx, src=srt)
        del srt, idx, probs_sort, mask
        probs = out.softmax(dim=-1, dtype=torch.float32)
        q = torch.empty_like(probs).exponential_()
        probs.div_(q).argmax(dim=-1)

    return _peak_above(run, torch) / (rows * vocab)


def chunked_ce(torch, tokens: int, vocab: int, hidden: int, compiled: bool) -> float:
    import torch.nn.functional as F

    h = torch.randn(tokens, hidden, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = torch.randn(vocab, hidden, device="cuda", dtype=torch.bfloat16) * 0.02
    labels = torch.randint(0, vocab, (tokens,), device="cuda")

    def ce(x, y):
        return F.cross_entropy(x.float(), y, reduction="sum")

    fn = torch.compile(ce) if compiled else ce
    chunks = 8
    for _ in range(2):  # the first pass compiles
        logits = [c @ w.t() for c in h.chunk(chunks)]
        sum(fn(lc, yc) for lc, yc in zip(logits, labels.chunk(chunks), strict=True)).backward()
        del logits
    h.grad = None

    def run():
        logits = [c @ w.t() for c in h.chunk(chunks)]  # CEWithChunkedOutputLoss: the model returns the chunks
        loss = sum(fn(lc, yc) for lc, yc in zip(logits, labels.chunk(chunks), strict=True))
        del logits  # the recipe drops its reference before backward
        loss.backward()
        h.grad = None

    return _peak_above(run, torch) / (tokens * vocab)


def unsloth_chunk(torch, tokens: int, vocab: int, hidden: int) -> float:
    import torch.nn.functional as F

    h = torch.randn(tokens, hidden, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(vocab, hidden, device="cuda", dtype=torch.bfloat16) * 0.02
    labels = torch.randint(0, vocab, (tokens,), device="cuda")

    def loss_of(x):
        logits = F.linear(x, w)
        return F.cross_entropy(logits.float(), labels, reduction="sum")

    def run():
        torch.func.grad_and_value(loss_of)(h)  # one chunk, as accumulate_chunk does uncompiled

    return _peak_above(run, torch) / (tokens * vocab)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--vocab", type=int, default=201088)
    parser.add_argument("--tokens", type=int, default=8192)
    parser.add_argument("--hidden", type=int, default=3072)
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("error: PyTorch is not installed here", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("error: no CUDA device", file=sys.stderr)
        return 3
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
    from services.modelfit.inference import VLLM_SAMPLER_BYTES_PER_VOCAB
    from services.modelfit.training import LOSS_CHUNKS

    measured = sampler(torch, args.rows, args.vocab)
    print(f"vLLM sampler pass: {measured:.1f} B per vocab entry x row above the bf16 logits; fit {VLLM_SAMPLER_BYTES_PER_VOCAB} "
          f"({measured / VLLM_SAMPLER_BYTES_PER_VOCAB:.2f}x)")
    for compiled, model in ((True, 2 + 2 / LOSS_CHUNKS), (False, 2 + 8 / LOSS_CHUNKS)):
        try:
            measured = chunked_ce(torch, args.tokens, 128256, args.hidden, compiled)
        except Exception as exc:  # torch.compile may be unavailable (no compiler on the machine)
            print(f"torchtune chunked CE ({'compiled' if compiled else 'eager'}): could not run: {str(exc).splitlines()[0][:200]}")
            continue
        print(f"torchtune chunked CE ({'compiled' if compiled else 'eager'}): {measured:.2f} B per token x vocab entry; "
              f"fit {model:.2f} ({measured / model:.2f}x)")
    measured = unsloth_chunk(torch, 4096, 262208, 2560)
    print(f"unsloth fused-loss chunk: {measured:.2f} B per token x vocab entry; fit 10 ({measured / 10:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
