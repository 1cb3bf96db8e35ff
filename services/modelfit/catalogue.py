"""The catalogue of popular open models (resources/data/models.json)."""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from services.i18n import translate
from services.modelfit.arch import ModelArch
from services.modelfit.errors import ModelInputError
from services.paths import resource_path

CATALOGUE_FILE = resource_path("data", "models.json")


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    arch: ModelArch
    name: str
    aliases: tuple[str, ...]
    params_source: str

    @property
    def model_id(self) -> str:
        return self.arch.model_id

    def keys(self) -> tuple[str, ...]:
        return (self.arch.model_id, self.name, *self.aliases)


# Starting points offered when a name is unknown or missing (the models issue users ask about most).
POPULAR_MODELS = ("meta-llama/Llama-3.1-8B", "Qwen/Qwen2.5-7B", "Qwen/Qwen2.5-14B")


def _entry(raw: dict) -> CatalogueEntry:
    if isinstance(raw.get("config"), dict):
        # An entry that carries its published config.json: read as a user's file would be (MoE layout,
        # MLA, quantization_config ...), the count from the shapes unless a published one is given.
        from services.modelfit.hfconfig import arch_from_config

        arch = arch_from_config(raw["config"], raw["id"]).with_changes(
            model_id=raw["id"], source=raw["source"], notes=raw.get("notes", ""),
            params=int(raw["params"]) if raw.get("params") else None)
        return CatalogueEntry(arch, raw.get("name") or raw["id"], tuple(raw.get("aliases", ())), raw.get("params_source", ""))
    arch = ModelArch(
        model_id=raw["id"], layers=int(raw["layers"]), hidden=int(raw["hidden"]), heads=int(raw["heads"]),
        kv_heads=int(raw["kv_heads"]), head_dim=int(raw["head_dim"]), intermediate=int(raw["intermediate"]),
        vocab=int(raw["vocab"]), tied_embeddings=bool(raw["tied_embeddings"]), mlp=raw.get("mlp", "gated"),
        family=raw.get("family", "decoder"), experts=int(raw.get("experts") or 0),
        experts_per_token=int(raw.get("experts_per_token") or 0), moe_intermediate=raw.get("moe_intermediate"),
        qkv_bias=bool(raw.get("qkv_bias")), sliding_window=raw.get("sliding_window"),
        sliding_layers=int(raw.get("sliding_layers") or 0), max_context=raw.get("max_context"),
        params=int(raw["params"]), source=raw["source"], notes=raw.get("notes", ""),
    )
    return CatalogueEntry(arch, raw.get("name") or raw["id"], tuple(raw.get("aliases", ())), raw.get("params_source", ""))


class Catalogue:
    """Look-up by id, name or alias (case-insensitive) and free-text search."""

    def __init__(self, entries: tuple[CatalogueEntry, ...]) -> None:
        self.entries = entries
        self._by_key: dict[str, CatalogueEntry] = {}
        for entry in entries:
            for key in entry.keys():
                self._by_key.setdefault(key.lower(), entry)
                self._by_key.setdefault(key.split("/")[-1].lower(), entry)

    @classmethod
    def load(cls, path: Path = CATALOGUE_FILE) -> "Catalogue":
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(tuple(_entry(raw) for raw in data["models"]))

    def get(self, name: str) -> CatalogueEntry | None:
        return self._by_key.get(name.strip().lower())

    def resolve(self, name: str) -> CatalogueEntry:
        entry = self.get(name)
        if entry is None:
            choices = self.closest(name)
            raise ModelInputError(
                translate("FitErrors", "Unknown model '{name}'").format(name=name), tuple(choices))
        return entry

    def closest(self, name: str, n: int = 3) -> list[str]:
        keys = [e.model_id for e in self.entries]
        lowered = {k.lower(): k for k in keys}
        short = {k.split("/")[-1].lower(): k for k in keys}
        hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.4)
        hits += [short[h] for h in difflib.get_close_matches(name.split("/")[-1].lower(), list(short), n=n, cutoff=0.4)]
        result: list[str] = []
        for hit in hits:
            full = lowered.get(hit, hit)
            if full not in result:
                result.append(full)
        # Nothing close ("nosuch"): still three real ids to copy, the ones users ask about first.
        result += [k for k in POPULAR_MODELS if k in keys and k not in result]
        result += [k for k in keys if k not in result]
        return result[:n]

    def search(self, text: str, limit: int = 200) -> list[CatalogueEntry]:
        """Entries whose id, name or alias contains every word of ``text``."""
        words = [w for w in text.lower().replace("/", " ").split() if w]
        if not words:
            return list(self.entries[:limit])
        found = []
        for entry in self.entries:
            hay = " ".join(entry.keys()).lower()
            if all(w in hay for w in words):
                found.append(entry)
        return found[:limit]


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    return Catalogue.load()
