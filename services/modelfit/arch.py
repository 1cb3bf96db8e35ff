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
# Parts of the "linear" group: a quantised checkpoint treats them differently (gpt-oss quantises only the
# experts; modules_to_not_convert names attention), and expert offload moves only the routed experts.
ATTN = "attn"  # attention projections (q, k, v, o; MLA's low-rank q/kv; linear-attention in/out projections)
MLP = "mlp"  # the dense MLP of a dense model or of an MoE model's dense layers
SHARED = "shared"  # shared experts (DeepSeek, GLM, Qwen2/3-Next, Llama 4): run for every token
EXPERTS = "experts"  # routed experts: memory by all of them, speed by the experts_per_token used
VISION = "vision"  # a multimodal checkpoint's vision tower and projector (kept 16-bit, not in a GGUF text model)


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
    part: str = ""  # linear groups: ATTN / MLP / SHARED / EXPERTS ("" when unknown, e.g. from a file)


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
    # Mixture-of-Experts layout (HF config fields): the first ``first_dense_layers`` layers have a dense MLP
    # (DeepSeek/GLM first_k_dense_replace); after them every ``moe_step``-th layer is MoE (Llama 4
    # interleave_moe_layer_step, Qwen2-MoE decoder_sparse_step: MoE when (i + 1) % step == 0).
    first_dense_layers: int = 0
    moe_step: int = 1
    dense_intermediate: int | None = None  # the dense layers' MLP width (None: ``intermediate``)
    shared_intermediate: int = 0  # total width of the shared experts of one MoE layer
    # Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): low-rank q and a compressed kv latent.
    kv_lora_rank: int = 0
    q_lora_rank: int = 0
    rope_head_dim: int = 0  # qk_rope_head_dim
    nope_head_dim: int = 0  # qk_nope_head_dim
    v_head_dim: int = 0
    # Hybrid linear attention (Qwen3-Next Gated DeltaNet): these layers keep a fixed-size state, no KV cache.
    linear_attn_layers: int = 0
    linear_attn_params: int = 0  # parameters of one linear-attention layer's projections
    linear_state_elems: int = 0  # recurrent + convolution state of one such layer, per sequence
    # A quantised checkpoint's own storage: bits per weight by part or kind ("experts", "attn", "embed"...),
    # read from config.json's quantization_config; ``native_format`` names it ("mxfp4", "awq_int4", ...).
    quant_bits: tuple[tuple[str, float], ...] = field(default=())
    # The KV-cache dtype the checkpoint asks for (a ModelOpt kv_cache_quant_algo: "fp8"); None = the model's dtype.
    kv_cache_format: str | None = None
    # A multimodal checkpoint's vision tower and projector (Gemma 3, Llama 4, Qwen2.5-VL: config.json vision_config);
    # PyTorch stacks and vLLM load it with the text model, llama.cpp keeps it in a separate mmproj file.
    vision_params: int = 0

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

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    def is_moe_layer(self, index: int) -> bool:
        return bool(self.experts) and index >= self.first_dense_layers and (index + 1) % max(1, self.moe_step) == 0

    @property
    def moe_layers(self) -> int:
        return sum(1 for i in range(self.layers) if self.is_moe_layer(i))

    @property
    def dense_layers(self) -> int:
        return self.layers - self.moe_layers

    def attn_shapes(self) -> dict[str, tuple[int, int, int]]:
        """Attention projections of one full-attention layer: name -> (d_in, d_out, copies)."""
        h = self.hidden
        if self.is_mla:
            # DeepSeek-V3 modeling: q_a (h -> q_lora), q_b (q_lora -> heads x (nope + rope)), kv_a_proj_with_mqa
            # (h -> kv_lora + rope), kv_b (kv_lora -> heads x (nope + v)), o (heads x v -> h). LoRA names map
            # q -> q_b, k -> kv_a, v -> kv_b.
            qk = self.heads * (self.nope_head_dim + self.rope_head_dim)
            shapes = {"q": (self.q_lora_rank, qk, 1) if self.q_lora_rank else (h, qk, 1)}
            if self.q_lora_rank:
                shapes["q_a"] = (h, self.q_lora_rank, 1)
            shapes.update({"k": (h, self.kv_lora_rank + self.rope_head_dim, 1),
                           "v": (self.kv_lora_rank, self.heads * (self.nope_head_dim + self.v_head_dim), 1),
                           "o": (self.heads * self.v_head_dim, h, 1)})
            return shapes
        return {"q": (h, self.q_dim, 1), "k": (h, self.kv_dim, 1), "v": (h, self.kv_dim, 1), "o": (self.q_dim, h, 1)}

    def linear_shapes(self) -> dict[str, tuple[int, int, int]]:
        """Per (MoE, when there are experts) layer: projection name -> (d_in, d_out, copies)."""
        h, f, n = self.hidden, self.ffn_width, self.ffn_copies
        shapes = self.attn_shapes()
        if self.mlp == "gated":
            shapes.update({"gate": (h, f, n), "up": (h, f, n), "down": (f, h, n)})
        else:
            shapes.update({"up": (h, f, n), "down": (f, h, n)})
        return shapes

    def _mlp_params(self, width: int) -> int:
        return (3 if self.mlp == "gated" else 2) * self.hidden * width

    def part_numels(self) -> dict[str, int]:
        """Linear parameters of the whole model by part (attention, dense MLP, shared and routed experts)."""
        full_attn = sum(i * o * c for i, o, c in self.attn_shapes().values())
        attn_layers = self.layers - self.linear_attn_layers
        attn = attn_layers * full_attn + self.linear_attn_layers * self.linear_attn_params
        if not self.experts:
            return {ATTN: attn, MLP: self.layers * self._mlp_params(self.intermediate), SHARED: 0, EXPERTS: 0}
        moe = self.moe_layers
        return {ATTN: attn, MLP: self.dense_layers * self._mlp_params(self.dense_intermediate or self.intermediate),
                SHARED: moe * self._mlp_params(self.shared_intermediate) if self.shared_intermediate else 0,
                EXPERTS: moe * self.experts * self._mlp_params(self.ffn_width)}

    def linear_params_per_layer(self) -> int:
        """Linear parameters of an average layer."""
        return sum(self.part_numels().values()) // max(1, self.layers)

    def largest_linear(self) -> int:
        return max(i * o for i, o, _ in self.linear_shapes().values())

    # ---- parameter counts
    def shape_count(self) -> int:
        """Total parameters from the shapes (Llama-style formula, research section 4; MoE layout, MLA and
        linear-attention layers from the config)."""
        h = self.hidden
        linear = sum(self.part_numels().values())
        per_layer = 0
        if self.qkv_bias:
            per_layer += self.q_dim + 2 * self.kv_dim
        if self.mlp == "gelu":
            # biases of every projection + two LayerNorms (weight + bias)
            per_layer += self.q_dim + 2 * self.kv_dim + h + self.ffn_width + h + 4 * h
        else:
            per_layer += 2 * h
        router = self.moe_layers * h * self.experts if self.experts else 0
        embed = self.vocab * h
        head = 0 if self.tied_embeddings else self.vocab * h
        return linear + self.layers * per_layer + router + embed + head + h + self.vision_params

    @property
    def total_params(self) -> int:
        if self.groups:
            return sum(g.numel for g in self.groups)
        return self.params if self.params else self.shape_count()

    def idle_expert_params(self) -> int:
        """Routed-expert parameters a token does not touch."""
        if not self.experts or not self.experts_per_token:
            return 0
        return self.moe_layers * self._mlp_params(self.ffn_width) * max(0, self.experts - self.experts_per_token)

    def active_params(self) -> int:
        """Parameters touched per generated token (MoE: only the routed experts; never the vision tower)."""
        return max(1, self.total_params - self.idle_expert_params() - self.vision_params)

    def weight_groups(self) -> tuple[TensorGroup, ...]:
        """Parameters split into linear (by part) / embed / head / other."""
        if self.groups:
            return self.groups
        parts = self.part_numels()
        embed = self.vocab * self.hidden
        head = 0 if self.tied_embeddings else embed
        other = max(0, self.total_params - sum(parts.values()) - embed - head)
        vision = min(other, self.vision_params)
        groups = [TensorGroup(LINEAR, n, part=p) for p, n in parts.items() if n]
        groups.append(TensorGroup(EMBED, embed))
        if head:
            groups.append(TensorGroup(HEAD, head))
        if other - vision:
            groups.append(TensorGroup(OTHER, other - vision))
        if vision:
            groups.append(TensorGroup(OTHER, vision, part=VISION))
        return tuple(groups)

    def group_numel(self, kind: str) -> int:
        return sum(g.numel for g in self.weight_groups() if g.kind == kind)

    def quant_bits_for(self, group: TensorGroup) -> float | None:
        """Bits per weight of ``group`` in the checkpoint's own quantised format (None: not recorded)."""
        table = dict(self.quant_bits)
        if group.part and group.part in table:
            return table[group.part]
        return table.get(group.kind)

    # ---- KV cache shape
    @property
    def has_kv_cache(self) -> bool:
        return self.family == "decoder"

    def kv_layers(self, tokens: int, honour_window: bool) -> float:
        """Layer-equivalents of KV at ``tokens``: SWA layers hold only the window."""
        if not honour_window or not self.sliding_window or not self.sliding_layers:
            return float(self.layers - self.linear_attn_layers)
        window_share = min(tokens, self.sliding_window) / max(tokens, 1)
        full = self.layers - self.sliding_layers
        return full + self.sliding_layers * window_share

    def with_changes(self, **changes) -> "ModelArch":
        return replace(self, **changes)
