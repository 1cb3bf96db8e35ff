"""The app's version, shown in the About box and by ``--version``."""

APP_NAME = "GPU Assistant"
APP_ID = "gpu-assistant"
__version__ = "0.1.0"
