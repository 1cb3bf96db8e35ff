"""Build & PSU calculator page."""
