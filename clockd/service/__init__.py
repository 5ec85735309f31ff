"""clockd.service."""
