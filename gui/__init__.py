"""Qt views. Thin: everything shown comes from ``services``."""
