"""Prometheus metrics named as NVIDIA's dcgm-exporter names them, and clients
that read them back (from our exporter, a real dcgm-exporter or Prometheus)."""
