"""GPU and system telemetry: sources (NVML, simulated, replay), sampling, history."""
