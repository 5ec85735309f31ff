"""clockd.api."""
