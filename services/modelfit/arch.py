"""A model's architecture and where its parameters sit.

The estimator needs more than a parameter count: which parameters are
``nn.Linear`` weights (the only ones bitsandbytes/FP8 quantise and LoRA
targets), which are the token embedding and the LM head (kept in 16-bit, and
the embedding stays in host memory under llama.cpp), and the shapes that size
the KV cache and the activations.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

# Weight groups. "linear" = attention and MLP projections of the decoder layers.
LINEAR = "linear"
EMBED = "embed"
HEAD = "head"
OTHER = "other"  # norms, biases, position embeddings, routers, poolers


@dataclass(frozen=True, slots=True)
class TensorGroup:
    """Parameters of one kind with a known storage format.

    ``dtype`` is a format name from ``services.modelfit.dtypes`` ("bf16",
    "q4_k", ...). ``nbytes`` is set when it was read from a file (exact).
    """

    kind: str
    numel: int
    dtype: str | None = None
    nbytes: int | None = None


@dataclass(frozen=True, slots=True)
class ModelArch:
    """Architecture numbers of one model (the fields of an HF config.json)."""

    model_id: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    tied_embeddings: bool = False
    mlp: str = "gated"  # gated (SwiGLU/GeGLU: gate, up, down) | gelu (fc1, fc2)
    family: str = "decoder"  # decoder | encoder
    experts: int = 0  # 0 = dense
    experts_per_token: int = 0
    moe_intermediate: int | None = None  # per-expert FFN width when it differs
    qkv_bias: bool = False
    sliding_window: int | None = None
    sliding_layers: int = 0  # how many of ``layers`` use the sliding window
    max_context: int | None = None
    params: int | None = None  # published/exact total; None = count from shapes
    source: str = ""
    notes: str = ""
    # Exact groups read from a checkpoint (safetensors / GGUF); empty = from shapes.
    groups: tuple[TensorGroup, ...] = field(default=())
    native_format: str | None = None  # e.g. "q4_k_m" for a GGUF file, "bf16" for safetensors

    # ---- shapes
    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def ffn_width(self) -> int:
        return self.moe_intermediate or self.intermediate

    @property
    def ffn_copies(self) -> int:
        return max(1, self.experts)

    def linear_shapes(self) -> dict[str, tuple[int, int, int]]:
        """Per layer: projection name -> (d_in, d_out, copies)."""
        h, f, n = self.hidden, self.ffn_width, self.ffn_copies
        shapes = {
            "q": (h, self.q_dim, 1),
            "k": (h, self.kv_dim, 1),
            "v": (h, self.kv_dim, 1),
            "o": (self.q_dim, h, 1),
        }
        if self.mlp == "gated":
            shapes.update({"gate": (h, f, n), "up": (h, f, n), "down": (f, h, n)})
        else:
            shapes.update({"up": (h, f, n), "down": (f, h, n)})
        return shapes

    def linear_params_per_layer(self) -> int:
        return sum(i * o * c for i, o, c in self.linear_shapes().values())

    def largest_linear(self) -> int:
        return max(i * o for i, o, _ in self.linear_shapes().values())

    # ---- parameter counts
    def shape_count(self) -> int:
        """Total parameters from the shapes (Llama-style formula, research section 4)."""
        h = self.hidden
        per_layer = self.linear_params_per_layer()
        if self.qkv_bias:
            per_layer += self.q_dim + 2 * self.kv_dim
        if self.experts:
            per_layer += h * self.experts  # router
        if self.mlp == "gelu":
            # biases of every projection + two LayerNorms (weight + bias)
            per_layer += self.q_dim + 2 * self.kv_dim + h + self.ffn_width + h + 4 * h
        else:
            per_layer += 2 * h
        embed = self.vocab * h
        head = 0 if self.tied_embeddings else self.vocab * h
        return self.layers * per_layer + embed + head + h

    @property
    def total_params(self) -> int:
        if self.groups:
            return sum(g.numel for g in self.groups)
        return self.params if self.params else self.shape_count()

    def active_params(self) -> int:
        """Parameters touched per token (MoE: only the routed experts)."""
        total = self.total_params
        if not self.experts or not self.experts_per_token:
            return total
        mlp_per_expert = (3 if self.mlp == "gated" else 2) * self.hidden * self.ffn_width
        idle = self.layers * mlp_per_expert * (self.experts - self.experts_per_token)
        return max(1, total - idle)

    def weight_groups(self) -> tuple[TensorGroup, ...]:
        """Parameters split into linear / embed / head / other."""
        if self.groups:
            return self.groups
        linear = self.layers * self.linear_params_per_layer()
        embed = self.vocab * self.hidden
        head = 0 if self.tied_embeddings else embed
        other = max(0, self.total_params - linear - embed - head)
        groups = [TensorGroup(LINEAR, linear), TensorGroup(EMBED, embed)]
        if head:
            groups.append(TensorGroup(HEAD, head))
        if other:
            groups.append(TensorGroup(OTHER, other))
        return tuple(groups)

    def group_numel(self, kind: str) -> int:
        return sum(g.numel for g in self.weight_groups() if g.kind == kind)

    # ---- KV cache shape
    @property
    def has_kv_cache(self) -> bool:
        return self.family == "decoder"

    def kv_layers(self, tokens: int, honour_window: bool) -> float:
        """Layer-equivalents of KV at ``tokens``: SWA layers hold only the window."""
        if not honour_window or not self.sliding_window or not self.sliding_layers:
            return float(self.layers)
        window_share = min(tokens, self.sliding_window) / max(tokens, 1)
        full = self.layers - self.sliding_layers
        return full + self.sliding_layers * window_share

    def with_changes(self, **changes) -> "ModelArch":
        return replace(self, **changes)
