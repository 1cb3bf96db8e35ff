"""Hybrid-GPU checker: which GPU each program really uses, and putting a program
on the NVIDIA GPU (Windows per-app preference, Linux PRIME render offload).

Qt-free. ``service.HybridService`` is the one entry point the CLI and the GUI use.
"""
