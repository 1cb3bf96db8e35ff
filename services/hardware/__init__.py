"""Hardware facts and sizing: the GPU/CPU catalogue, the PSU calculator and card comparison (Qt-free)."""
