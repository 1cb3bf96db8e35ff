"""The power panel: efficiency sweep and reversible power limits (opened from a GPU card's menu)."""
