"""Early sends: a turn that the hooks will not change goes upstream while they run.

The hooks are held (a wrapper that waits after them) so that "before" and "after" are plain to see in
the order of events: on a turn that should go early, the hooks hold until the fake upstream has the
request (up to 30 s, so a loaded machine only makes it slower); on a turn that must wait for them,
they hold a moment for a request that must not come. Each assertion compares the upstream's receive
time with the end of the hooks, an ordering, never a duration.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from convo import coding_session, user
from fakes.harness import RunningGateway, Upstream, fake_upstream, gateway_for

from context_compactor.hookspecs import (AfterTurnEvent, BeforeAgentStartEvent, BeforeAgentStartResult, HookContext,
                                         hookimpl)

EARLY_WAIT = 30.0  # how long held hooks wait for a request that should go early (only a failure waits it out)
HOLD = 0.3  # how long held hooks give a request that must not go early the chance to (wrongly) arrive


class SlowHooks:
    """Holds ``before_agent_start`` after it ran (until the upstream has the turn's request after
    :meth:`expect_early`, else ``HOLD`` seconds) and notes when each call ended."""

    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream
        self.ended: list[float] = []
        self.sent_before: int | None = None  # set by expect_early(): the session's requests before that turn
        self.notice: str | None = None  # added to a result that has no notices

    @hookimpl(wrapper=True)
    def before_agent_start(self, event: BeforeAgentStartEvent,
                           ctx: HookContext) -> Generator[None, Any, BeforeAgentStartResult | None]:
        early, seen = self.sent_before is not None, self.sent_before
        self.sent_before = None
        if seen is None:
            seen = len(sessions(self.upstream))
        result = yield
        deadline = time.monotonic() + (EARLY_WAIT if early else HOLD)
        while len(sessions(self.upstream)) == seen and time.monotonic() < deadline:
            time.sleep(0.01)
        self.ended.append(time.monotonic())
        if self.notice is not None and (result is None or not result.notices):
            return BeforeAgentStartResult(messages=result.messages if result else None, notices=[self.notice])
        return result

    def expect_early(self) -> None:
        """The next turn should go upstream while the hooks run (it may be sent before they even start)."""
        self.sent_before = len(sessions(self.upstream))


class TurnsSettled:
    """Counts the ``after_turn`` calls that have run all their hooks (the gateway runs them off the reply
    path, so a reply can reach the client before its turn's bookkeeping, a window lift included, is done)."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    @hookimpl(wrapper=True)
    def after_turn(self, event: AfterTurnEvent, ctx: HookContext) -> Generator[None, Any, Any]:
        try:
            return (yield)
        finally:
            with self.changed:
                self.count += 1
                self.changed.notify_all()

    def wait(self, turns: int) -> None:
        """Wait until ``turns`` after_turn calls have run (EARLY_WAIT seconds at most)."""
        with self.changed:
            assert self.changed.wait_for(lambda: self.count >= turns, timeout=EARLY_WAIT), "after_turn never ran"


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    with fake_upstream(first_chunk_delay=0.5, chunk_delay=0.01) as up:
        yield up


def slowed(gw: RunningGateway, upstream: Upstream) -> SlowHooks:
    hooks = SlowHooks(upstream)
    gw.app.pm.register(hooks)
    return hooks


def ask(gw: RunningGateway, messages: list[dict[str, Any]]) -> tuple[dict[str, str], str]:
    """One streamed turn of session "e" through the SDK: the response headers and the reply text."""
    client = openai.OpenAI(base_url=gw.url + "/v1", api_key="x", max_retries=0, timeout=30)
    with client.chat.completions.with_streaming_response.create(
            model="m", messages=messages, stream=True, extra_headers={"X-Session-Id": "e"}) as raw:
        text = "".join(c.choices[0].delta.content or "" for c in raw.parse() if c.choices)
        return dict(raw.headers), text


def conversation(turns: int) -> list[dict[str, Any]]:
    return coding_session(turns, details=120, answers=150)


def sessions(up: Upstream) -> list[Any]:
    return [r for r in up.app.chats() if r.headers.get("x-session-id") == "e"]


def test_a_turn_the_hooks_leave_alone_goes_out_while_they_run(upstream: Upstream, tmp_path: Path) -> None:
    """The first turn of a session waits for the hooks; the next, under the trigger, does not, and still
    carries the hooks' figures in its headers."""
    with gateway_for(upstream.url, tmp_path) as gw:
        hooks = slowed(gw, upstream)
        messages = conversation(2) + [user("first question")]
        first, _ = ask(gw, messages)
        messages += [{"role": "assistant", "content": "an answer"}, user("second question")]
        hooks.expect_early()
        second, text = ask(gw, messages)
    one, two = sessions(upstream)
    assert one.at > hooks.ended[0]  # nothing known of the session yet: hooks first
    assert two.at < hooks.ended[1]  # sent while the hooks were still running
    assert two.body["messages"] == messages and text.startswith("reply #")
    assert second["x-context-compactor-compacted"] == "0"
    before, after = (int(n) for n in second["x-context-compactor-tokens"].split("->"))
    assert before == after > int(first["x-context-compactor-tokens"].split("->")[0])


def test_an_early_request_the_hooks_change_is_dropped_and_theirs_sent(upstream: Upstream, tmp_path: Path) -> None:
    """When the window shrinks between turns (an overflow elsewhere, a probe), the turn that went out early
    is over the new trigger: the hooks compact it, the early request is closed, the compacted one answers.
    (The built-in ledger writes the summary: with the session model on this upstream, the fold is large enough
    for a narrative, and the turn waits out the summary's time budget, 20 s, while the early request finishes.)"""
    with gateway_for(upstream.url, tmp_path, settings={"summarizeWithSessionModel": False}) as gw:
        hooks = slowed(gw, upstream)
        settled = TurnsSettled()
        gw.app.pm.register(settled)
        messages = conversation(3) + [user("first question")]
        ask(gw, messages)
        settled.wait(1)  # else the first turn's usage report, if it comes later, lifts the window set next
        gw.runtime.learn_window("m", 1500, "error")
        messages += [{"role": "assistant", "content": "an answer"}, user("second question")]
        hooks.expect_early()
        headers, text = ask(gw, messages)
        deadline = time.monotonic() + EARLY_WAIT  # only a failure waits it out
        while not sessions(upstream)[1].disconnected and time.monotonic() < deadline:
            time.sleep(0.02)
    _first, early, compacted = sessions(upstream)
    assert early.at < hooks.ended[1] and early.body["messages"] == messages
    assert early.disconnected and not early.finished
    assert compacted.at > hooks.ended[1] and len(compacted.body["messages"]) < len(messages) and compacted.finished
    assert headers["x-context-compactor-compacted"] == "1" and text.startswith("reply #")


def test_an_early_request_stays_when_the_hooks_only_have_something_to_say(upstream: Upstream,
                                                                         tmp_path: Path) -> None:
    """A notice without a changed prompt keeps the early request (no second one) and reaches the headers."""
    with gateway_for(upstream.url, tmp_path) as gw:
        hooks = slowed(gw, upstream)
        messages = conversation(2) + [user("first question")]
        ask(gw, messages)
        hooks.notice = "a word from the hooks"
        messages += [{"role": "assistant", "content": "an answer"}, user("second question")]
        hooks.expect_early()
        headers, text = ask(gw, messages)
    seen = sessions(upstream)
    assert len(seen) == 2 and seen[1].at < hooks.ended[1] and seen[1].finished and not seen[1].disconnected
    assert headers["x-context-compactor-notice"] == "a word from the hooks" and text.startswith("reply #")


def test_compact_now_makes_the_next_turn_wait_for_the_hooks(upstream: Upstream, tmp_path: Path) -> None:
    """After /compact-now the next turn is compacted, so it is not sent before the hooks have run."""
    with gateway_for(upstream.url, tmp_path) as gw:
        hooks = slowed(gw, upstream)
        messages = conversation(4) + [user("first question")]
        ask(gw, messages)
        messages += [{"role": "assistant", "content": "an answer"}, user("second question")]
        hooks.expect_early()
        ask(gw, messages)
        ask(gw, [*messages, user("/compact-now")])
        messages += [{"role": "assistant", "content": "another answer"}, user("third question")]
        headers, _ = ask(gw, messages)
    seen = sessions(upstream)
    assert len(seen) == 3 and seen[1].at < hooks.ended[1]  # the second turn went early
    assert seen[2].at > hooks.ended[2] and seen[2].body["messages"] != messages
    before, after = (int(n) for n in headers["x-context-compactor-tokens"].split("->"))
    assert headers["x-context-compactor-compacted"] == "1" and after < before
