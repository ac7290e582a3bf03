"""The OpenAI-compatible compaction gateway (ASGI)."""
