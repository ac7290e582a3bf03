"""Counting a prompt with the upstream's own tokenizer, and saying which counter checked the fit.

With the server's tokenizer (``tokenizer: server``, or :attr:`GatewayConfig.server_tokenizer
<context_compactor.gateway.config.GatewayConfig.server_tokenizer>`), the prompt a compaction built is
counted by the upstream itself before it goes (llama-cpp-python's ``/extras/tokenize/count``, llama.cpp's
and vLLM's ``/tokenize``), once per compaction: the turns that keep that compaction's prompt start are
estimated as usual. A count above the window the prompt was planned for has the turn compacted again for
the window scaled by the server's count against our estimate (as after a context-length error, but before
the server is sent anything), and the count is the turn's usage when the server reports none (so the
ratio calibrates). A server without a tokenize route leaves our ratio estimate in charge;
``/context-stats`` says which of the two checked the fit (:func:`fit_line`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .http1 import split_target
from .parts import GatewayParts
from .upstream import UpstreamError, request_headers

SERVER_TOKENIZER = "server"  # the tokenizer setting that has a compaction's prompt counted by the upstream


def chat_text(messages: list[Any]) -> str:
    """The messages as a chat template lays them out (ChatML: role line, content, end mark), tool calls as
    their JSON: what the server's tokenizer counts in place of the template it applies."""
    parts = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False) if content else ""
        if message.get("tool_calls"):
            text += json.dumps(message["tool_calls"], ensure_ascii=False)
        parts.append(f"<|im_start|>{message.get('role')}\n{text}<|im_end|>\n")
    return "".join(parts) + "<|im_start|>assistant\n"


def prompt_text(messages: list[Any], tools: list[Any]) -> str:
    """What the server's tokenizer counts for a prompt: the messages as :func:`chat_text` lays them out, and
    the tool schemas as their JSON (where a template puts them, give or take its framing)."""
    text = chat_text(messages)
    return (json.dumps(tools, ensure_ascii=False) + "\n" + text) if tools else text


@dataclass(frozen=True)
class FitCount:
    """How the fit of a session's last compaction was checked: the server's count (None: it cannot count)
    beside our estimate and the window, the route that counted, and which compaction it was."""

    server_tokens: int | None
    estimate: int | None
    window: int | None
    route: str
    compaction: int


def fit_line(gw: GatewayParts, key: str) -> str | None:
    """The ``/context-stats`` line that says which counter checked the fit of the session's last compaction;
    None when the server's tokenizer is not asked for."""
    settings = gw.runtime.settings
    if not gw.config.server_tokenizer and str(settings.tokenizer) != SERVER_TOKENIZER:
        return None
    done = gw.fit_counts.get(key)
    if done is None:
        return ("- fit checked by: our estimate so far (tokenizer: server counts the prompt of each compaction "
                "once, with the server's own tokenizer; none has been made)")
    if done.server_tokens is None:
        return ("- fit checked by: our estimate (tokenizer: server asked, but the server has no tokenize route: "
                "/extras/tokenize/count and /tokenize were tried)")
    return (f"- fit checked by: the server's tokenizer (POST {done.route}): {done.server_tokens:,} tokens in the "
            f"prompt of compaction {done.compaction}, our estimate {done.estimate or 0:,}, window "
            f"{done.window or 0:,}; the turns after it are estimated")


async def server_count(gw: GatewayParts, model: str, text: str) -> int | None:
    """Tokens of ``text`` by the upstream's own tokenizer: llama-cpp-python's ``/extras/tokenize/count``, else
    ``/tokenize`` (llama-server reads ``content``, vLLM ``model`` and ``prompt``: both are sent); None when the
    server has neither (remembered: not asked again)."""
    base = gw.config.base
    root = base[: -len("/v1")] if base.endswith("/v1") else base
    ways = [gw.tokenize_path] if gw.tokenize_path else ([] if gw.tokenize_path == "" else
                                                       ["/extras/tokenize/count", "/tokenize"])
    headers = [*request_headers([], gw.config), (b"content-type", b"application/json")]
    for path in ways:
        body = {"input": text, "model": model} if path.startswith("/extras") else \
            {"content": text, "model": model, "prompt": text}
        try:
            response = await gw.client.request("POST", split_target(root + path), headers, json.dumps(body).encode())
            try:
                data = json.loads(await response.read()) if response.status_code == 200 else None
            finally:
                await response.aclose()
        except (UpstreamError, ValueError):
            data = None
        count = data.get("count") if isinstance(data, dict) else None
        if count is None and isinstance(data, dict) and isinstance(data.get("tokens"), list):
            count = len(data["tokens"])
        if isinstance(count, int):
            gw.tokenize_path = path
            return count
    gw.tokenize_path = ""
    return None
