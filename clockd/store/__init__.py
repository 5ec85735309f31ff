"""clockd.store."""
