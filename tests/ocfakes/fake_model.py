"""What the fake model of the OpenClaw end-to-end test answers, and who asked.

The server is :class:`fakes.FakeUpstream` (``fake_upstream(respond=respond)``), which records every
request; :func:`classify` says who sent one:

    "summary"           context-compactor's summarizer (its system prompt): six ``##`` sections
    "openclaw-summary"  OpenClaw's own compaction summarizer: the headings it asks for
    "agent"             an agent turn (the request carries tools): a short "reply #n" text
    "other"             anything else: a short text
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakes.chat import sectioned, text_of

if TYPE_CHECKING:
    from fakes.harness import Upstream


def classify(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    system = " ".join(text_of(m.get("content")) for m in messages if m.get("role") in ("system", "developer"))
    if "You maintain the working memory" in system:
        return "summary"
    if "context summarization assistant" in system:
        return "openclaw-summary"
    return "agent" if body.get("tools") else "other"


def model_requests(model: Upstream) -> list[dict[str, Any]]:
    """Every chat request the fake model got, in order: ``{"kind": who asked (classify), "body": ...}``."""
    chats = [r.body for r in list(model.app.requests) if r.path.endswith("/chat/completions")]
    return [{"kind": classify(body), "body": body} for body in chats if isinstance(body, dict)]


def agent_requests(model: Upstream) -> list[dict[str, Any]]:
    """The bodies of the agent turns' requests (``classify`` "agent") the fake model got, in order."""
    return [r["body"] for r in model_requests(model) if r["kind"] == "agent"]


def respond(body: dict[str, Any], n: int) -> str:
    """The text of the answer to request number ``n`` (a ``Behaviour.respond`` of the fake upstream)."""
    kind = classify(body)
    if kind == "summary":
        return sectioned(f"FAKE-SUMMARY (request {n})")
    if kind == "openclaw-summary":
        messages = body.get("messages") or []
        last_user = next((text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")
        heads = [line.strip() for line in last_user.splitlines() if line.strip().startswith("## ")]
        return "\n\n".join(f"{h}\n- fake item" for h in dict.fromkeys(heads)) or "## Summary\n- fake"
    return f"reply #{n}: ok"
