"""Fakes for the OpenClaw tests: what the fake model answers (served by ``fakes.FakeUpstream``) and
helpers to find and run the real OpenClaw."""
