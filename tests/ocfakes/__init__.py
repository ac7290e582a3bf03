"""Fakes for the OpenClaw tests: an OpenAI-compatible model server that records every request."""
