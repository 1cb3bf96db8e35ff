"""Power you can tune with numbers: the efficiency sweep, reversible power limits, keeping a limit
across reboots. Plain Python: the CLI (``python main.py power``) and the GUI's sweep panel both
call these."""
