"""The "will this model fit" page."""
