"""Linux install plans, one module per distribution family.

``common`` holds the steps every family shares (nouveau, MOK, venv, PyTorch,
reboot, verify) and how a plan is finished; ``services.setup.linux_plans``
picks the family module for an ``OsInfo``.
"""
