"""The app's version, shown in the About box and by ``--version``."""

APP_NAME = "GPU Assistant"
APP_ID = "gpu-assistant"
# Reverse-DNS id: the .desktop file name, the AppStream id and the Windows AppUserModelID.
DESKTOP_ID = "io.github.gpu_assistant.GpuAssistant"
__version__ = "0.1.0"
