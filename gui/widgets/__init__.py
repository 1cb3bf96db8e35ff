"""Small Qt helpers shared by the pages."""
