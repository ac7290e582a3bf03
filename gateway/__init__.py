"""The OpenAI-compatible compaction gateway (ASGI).

``context-compactor serve --upstream URL`` puts it between any OpenAI-compatible client and any
model server: the client keeps sending the full history, the model receives a prompt that fits.
Every chat request runs the same hooks as every other host (``before_agent_start``, then the
upstream, then ``after_turn``); see :mod:`context_compactor.gateway.app` for the routes.
"""

from __future__ import annotations

from .app import Gateway
from .config import GatewayConfig

__all__ = ["Gateway", "GatewayConfig"]
