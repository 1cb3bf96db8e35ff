"""Driver, CUDA and PyTorch setup: the environment doctor, the troubleshooter
and the install plans the wizard runs. Qt-free; the CLI and the GUI share it."""
