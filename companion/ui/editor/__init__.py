"""Editors for the group's own content: card forms drawn from the schemas."""
