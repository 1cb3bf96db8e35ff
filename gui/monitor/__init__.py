"""The live GPU dashboard, the tray icon and the recorded-sessions browser."""
