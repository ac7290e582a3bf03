"""The fake Anthropic Messages server of the Messages tests: now :class:`fakes.apis.ApisUpstream`, which
speaks the Responses API too (kept under this name for the tests that import it)."""

from __future__ import annotations

from fakes.apis import ApisUpstream, anthropic_tokens, event

AnthropicUpstream = ApisUpstream

__all__ = ["AnthropicUpstream", "anthropic_tokens", "event"]
