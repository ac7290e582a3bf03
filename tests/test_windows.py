"""The window authority: every known overflow wording read into a window and a prompt count, and the fixed overhead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakes import OVERFLOW_STYLES, overflow_body

from context_compactor.hookspecs import AfterTurnEvent, HookContext, ModelInfo, Usage
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store
from context_compactor.windows import OverheadFit, is_context_error, read, read_body, stated_window

MODEL = ModelInfo(id="m")

LLAMA_SERVER = {"error": {"code": 400, "message": "request (5000 tokens) exceeds the available context size "
                          "(4096 tokens), try increasing it", "type": "exceed_context_size_error",
                          "n_prompt_tokens": 5000, "n_ctx": 4096}}

# (server, words, window, prompt tokens): the wording each server uses, as its source has it.
WORDINGS = [
    ("llama.cpp server", "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it",
     4096, 5000),
    ("llama.cpp server, older", "the request exceeds the available context size (4096 tokens)", 4096, None),
    ("llama.cpp server, no size", "the request exceeds the available context size, try increasing the context size "
     "or enable context shift", None, None),
    ("llama.cpp server, generating", "Context size has been exceeded.", None, None),
    ("llama-cpp-python", "Requested tokens (5000) exceed context window of 4096", 4096, 5000),
    ("llama-cpp-python server", "This model's maximum context length is 2048 tokens. However, you requested 2671 "
     "tokens (2671 in the messages, None in the completion). Please reduce the length of the messages or completion.",
     2048, 2671),
    ("Ollama", "input length exceeds the context length", None, None),
    ("LM Studio", "Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded "
     "with context length of only 7866 tokens, which is not enough.", 7866, 10136),
    ("LM Studio, n_keep", "The number of tokens to keep from the initial prompt is greater than the context length "
     "(n_keep: 10247 >= n_ctx: 4096).", 4096, 10247),
    ("LM Studio, truncate", "Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)", 7424, 15028),
    ("vLLM", "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens (8000 in the "
     "messages, 1000 in the completion). Please reduce the length of the messages or completion.", 8192, 8000),
    ("vLLM, newer", "This model's maximum context length is 8192 tokens. However, your request has 9000 input "
     "tokens. Please reduce the length of the input messages.", 8192, 9000),
    ("vLLM, decoder", "The decoder prompt (length 9000) is longer than the maximum model length of 8192.", 8192, 9000),
    ("OpenAI", "This model's maximum context length is 1024 tokens. However, your messages resulted in 1100 tokens. "
     "Please reduce the length of the messages.", 1024, 1100),
    ("OpenAI, no size", "Your input exceeds the context window of this model. Please adjust your input and try again.",
     None, None),
    ("Anthropic", "prompt is too long: 210000 tokens > 200000 maximum", 200000, 210000),
]


@pytest.mark.parametrize("server,words,window,prompt", WORDINGS, ids=[w[0] for w in WORDINGS])
def test_each_wording_is_a_context_error_with_its_sizes(server: str, words: str, window: int | None,
                                                        prompt: int | None) -> None:
    """Each server's overflow words are recognised, with the window and prompt count they state."""
    found = read(words)
    assert found is not None and (found.window, found.prompt_tokens) == (window, prompt)
    assert is_context_error(words) and stated_window(words) == window


@pytest.mark.parametrize("style", OVERFLOW_STYLES)
def test_each_server_body_gives_window_and_prompt(style: str) -> None:
    """The whole error body of each server (JSON, nested JSON-in-a-string for Ollama) states window and count."""
    status, body = overflow_body(style, 4096, 5000)
    found = read_body(status, json.dumps(body).encode())
    assert found is not None and (found.window, found.prompt_tokens) == (4096, 5000)


def test_llama_server_fields_win_over_the_words() -> None:
    """llama.cpp's n_ctx and n_prompt_tokens fields are read as they are, even when the words say otherwise."""
    body = {"error": {**LLAMA_SERVER["error"], "n_ctx": 2048, "n_prompt_tokens": 2100}}
    found = read_body(400, json.dumps(body).encode())
    assert found is not None and (found.window, found.prompt_tokens) == (2048, 2100)


def test_the_message_is_the_sentence_that_says_overflow() -> None:
    """The message kept is the overflow sentence, not the other strings of the body."""
    found = read(LLAMA_SERVER)
    assert found is not None and found.message.startswith("request (5000 tokens) exceeds")


@pytest.mark.parametrize("status,body", [
    (400, b'{"error":{"message":"messages: field required","type":"invalid_request_error"}}'),
    (429, b'{"error":{"message":"Rate limit: too many tokens per minute"}}'),
    (500, b"Internal Server Error"),
    (200, json.dumps(LLAMA_SERVER).encode()),
    (400, b""),
])
def test_other_answers_are_not_context_errors(status: int, body: bytes) -> None:
    """Validation errors, rate limits, plain 500s, successes and empty bodies are not overflows."""
    assert read_body(status, body) is None


def test_a_500_that_says_overflow_is_one() -> None:
    """A server that reports an overflow with a 500 (older llama.cpp) is still read as one."""
    found = read_body(500, b'{"error":{"code":500,"message":"the request exceeds the available context size (2048 '
                           b'tokens)","type":"server_error"}}')
    assert found is not None and found.window == 2048


def test_no_error_states_no_window() -> None:
    """No error text, or an error about something else, states no window."""
    assert stated_window(None) is None and stated_window("connection refused") is None


def test_one_sample_overhead_is_what_the_estimate_leaves_out() -> None:
    """With one turn, the fixed overhead is the provider's count minus our estimate of the messages."""
    fit = OverheadFit()
    assert fit.add(chars=4000, framing=20, reported=12_000, ratio=4.0) == 12_000 - 20 - 1000


def test_overhead_over_growing_turns_does_not_absorb_a_wrong_ratio() -> None:
    """A fixed 11,300-token system prompt is found across growing turns although the assumed ratio (4) is wrong (3)."""
    fit = OverheadFit()
    for chars in (3000, 9000, 15000, 30000):
        found = fit.add(chars=chars, framing=8, reported=11_300 + chars // 3 + 8, ratio=4.0)
    assert abs(found - 11_300) <= 2


def test_overhead_is_never_negative() -> None:
    """A provider that counts fewer tokens than our estimate gives an overhead of 0, not a negative one."""
    assert OverheadFit().add(chars=4000, framing=0, reported=500, ratio=4.0) == 0


def test_a_larger_prompt_the_server_accepted_lifts_a_stated_window(tmp_path: Path) -> None:
    """A stated 2,048 caps contextWindow 8192 until a turn reports 3,000 prompt tokens accepted; then 8192 again."""
    runtime = Runtime(Settings(contextWindow=8192), store=Store.open(tmp_path / "s.sqlite"))
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, MODEL)
    error = "request (2500 tokens) exceeds the available context size (2048 tokens), try increasing it"
    pm.hook.after_turn(event=AfterTurnEvent(messages=[{"role": "user", "content": "hi"}], model=MODEL, error=error), ctx=ctx)
    capped = runtime.window_for(runtime.settings, MODEL)
    pm.hook.after_turn(event=AfterTurnEvent(messages=[{"role": "user", "content": "x" * 12000}], model=MODEL,
                                            usage=Usage(prompt_tokens=3000)), ctx=ctx)
    lifted = runtime.window_for(runtime.settings, MODEL)
    runtime.close()
    assert capped == (2048, "error") and lifted == (8192, "config")


def test_the_fixed_overhead_of_a_host_that_keeps_its_system_prompt_is_learned(tmp_path: Path) -> None:
    """With no system prompt nor tools handed over, the provider's count minus our estimate is the session's overhead."""
    runtime = Runtime(Settings(), store=Store.open(tmp_path / "s.sqlite"))
    pm = get_plugin_manager(load_entry_points=False)
    messages = [{"role": "user", "content": "word " * 800}]  # 4,000 chars: 1,000 tokens + 4 framing at 4 chars/token
    for key, system in (("hidden", ""), ("shown", "You are an agent.")):
        pm.hook.after_turn(event=AfterTurnEvent(messages=messages, system_prompt=system, model=MODEL,
                                                usage=Usage(prompt_tokens=12_304)), ctx=HookContext(key, runtime, MODEL))
    overheads = runtime.fixed_overhead("hidden"), runtime.fixed_overhead("shown"), runtime.fixed_overhead("unseen")
    ratio = runtime.calibration(MODEL.id)
    runtime.close()
    assert overheads == (11_300, 0, 0)
    assert ratio is not None and ratio[1] == 1  # only the session that showed its whole prompt moved the ratio
