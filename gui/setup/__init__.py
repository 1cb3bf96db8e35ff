"""The Setup page (doctor, wizard, troubleshooter)."""
