"""Will this model fit? Memory estimates for inference and training (Qt-free).

Entry points: ``sources.load_model`` (catalogue / config.json / safetensors /
GGUF / parameter count), ``estimate.estimate`` and ``solver.answer``.
"""
