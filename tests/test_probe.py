"""Asking model servers for their context window, against fakes that answer in each server's shape."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fakes import free_port
from llmfakes import Behaviour, FakeModelServer

from context_compactor.hookspecs import BeforeAgentStartEvent, HookContext, ModelInfo
from context_compactor.hooks.commands import context_stats
from context_compactor.plugins import get_plugin_manager
from context_compactor.runtime import Runtime
from context_compactor.settings import Settings
from context_compactor.store import Store
from context_compactor.summarizer import ModelError
from context_compactor.summarizer.client import Endpoint, chat, make_client
from context_compactor.summarizer.idle_gate import IdleGate, add_gate
from context_compactor.summarizer.probe import probe_window

OLLAMA_SHOW = {
    "modelfile": "FROM llama3.2\nPARAMETER num_ctx 16384",
    "parameters": 'num_ctx                        16384\nstop                           "<|eot_id|>"',
    "template": "{{ .Prompt }}",
    "details": {"format": "gguf", "family": "llama", "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
    "model_info": {"general.architecture": "llama", "llama.context_length": 131072, "llama.embedding_length": 3072},
}
LLAMA_PROPS = {"default_generation_settings": {"id": 0, "n_ctx": 4096, "params": {"n_predict": -1}},
               "total_slots": 1, "model_path": "models/qwen.gguf", "chat_template": "..."}
LMSTUDIO_MODEL = {"id": "qwen2.5-7b-instruct", "object": "model", "type": "llm", "publisher": "lmstudio-community",
                  "arch": "qwen2", "compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "loaded",
                  "max_context_length": 32768, "loaded_context_length": 8192}
VLLM_MODELS = {"object": "list", "data": [{"id": "Qwen/Qwen2.5-7B-Instruct", "object": "model", "created": 1,
                                           "owned_by": "vllm", "root": "Qwen/Qwen2.5-7B-Instruct", "parent": None,
                                           "max_model_len": 32768, "permission": []}]}
LONG = 120.0  # a summary call's own limit: a cancel that waited for it would show as a 'timeout'
LLAMA_CPP_PYTHON_MODELS = {"object": "list", "data": [{"id": "smollm2", "object": "model", "owned_by": "me",
                                                       "permissions": []}]}


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client() as c:
        yield c


def probe(client: httpx.Client, routes: dict[str, Behaviour], model: str, api: str = "openai") -> Any:
    with FakeModelServer(routes) as fake:
        found = probe_window(client, Endpoint(fake.url + "/v1", model, api))
        return found, [r.path for r in fake.requests]


def test_ollama_show_num_ctx(client: httpx.Client) -> None:
    """Ollama: the num_ctx parameter of /api/show, asked first."""
    found, paths = probe(client, {"/api/show": Behaviour.ok(OLLAMA_SHOW)}, "llama3.2", api="ollama")
    assert (found.window, found.detail) == (16384, "Ollama /api/show num_ctx") and paths == ["/api/show"]


def test_ollama_show_without_num_ctx_uses_the_context_length(client: httpx.Client) -> None:
    """Ollama: without num_ctx, the model's <arch>.context_length."""
    show = {**OLLAMA_SHOW, "parameters": 'stop "<|eot_id|>"'}
    found, _ = probe(client, {"/api/show": Behaviour.ok(show)}, "llama3.2", api="ollama")
    assert (found.window, found.detail) == (131072, "Ollama /api/show context_length")


def test_llama_cpp_server_props(client: httpx.Client) -> None:
    """llama.cpp server: /props default_generation_settings.n_ctx."""
    found, paths = probe(client, {"/props": Behaviour.ok(LLAMA_PROPS)}, "qwen")
    assert (found.window, found.detail) == (4096, "llama.cpp /props n_ctx") and paths == ["/props"]


def test_lm_studio_loaded_context_length(client: httpx.Client) -> None:
    """LM Studio: /api/v0/models/{id}, the loaded context length before the maximum."""
    found, paths = probe(client, {"/api/v0/models/qwen2.5-7b-instruct": Behaviour.ok(LMSTUDIO_MODEL)},
                         "qwen2.5-7b-instruct")
    assert found.window == 8192 and paths == ["/props", "/api/v0/models/qwen2.5-7b-instruct"]
    unloaded = {k: v for k, v in LMSTUDIO_MODEL.items() if k != "loaded_context_length"}
    found, _ = probe(client, {"/api/v0/models/qwen2.5-7b-instruct": Behaviour.ok(unloaded)}, "qwen2.5-7b-instruct")
    assert found.window == 32768


def test_vllm_max_model_len(client: httpx.Client) -> None:
    """vLLM: the model's max_model_len in /v1/models (ids with a slash are quoted in the LM Studio path)."""
    found, paths = probe(client, {"/v1/models": Behaviour.ok(VLLM_MODELS)}, "Qwen/Qwen2.5-7B-Instruct")
    assert (found.window, found.detail) == (32768, "/v1/models max_model_len")
    assert "/api/v0/models/Qwen%2FQwen2.5-7B-Instruct" in paths


def test_llama_cpp_python_states_nothing(client: httpx.Client) -> None:
    """llama-cpp-python's /v1/models has no length and the rest is 404: no window, and the reason says so."""
    found, paths = probe(client, {"/v1/models": Behaviour.ok(LLAMA_CPP_PYTHON_MODELS)}, "smollm2")
    assert found.window is None
    assert "/props: HTTP 404" in found.detail and "/v1/models: no context size in the answer" in found.detail
    assert paths == ["/props", "/api/v0/models/smollm2", "/v1/models", "/api/show"]


def test_nobody_listening_is_quick_and_harmless(client: httpx.Client) -> None:
    """A refused connection ends the probe at once, with no window."""
    found = probe_window(client, Endpoint(f"http://127.0.0.1:{free_port()}/v1", "m"))
    assert found.window is None and "ConnectError" in found.detail


# --- through the runtime ---------------------------------------------------------------------------


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime(Settings(), store=Store.open(tmp_path / "store.sqlite"))
    yield rt
    rt.close()


def run_turn(runtime: Runtime, model: ModelInfo) -> str:
    pm = get_plugin_manager(load_entry_points=False)
    ctx = HookContext("s", runtime, model)
    pm.hook.before_agent_start(event=BeforeAgentStartEvent(messages=[{"role": "user", "content": "hi"}], model=model),
                               ctx=ctx)
    return context_stats("", ctx)


def test_the_runtime_probes_once_per_model_and_shows_the_source(runtime: Runtime) -> None:
    """With no configured window the server is asked once; /context-stats names where the size came from."""
    with FakeModelServer({"/props": Behaviour.ok(LLAMA_PROPS)}) as fake:
        model = ModelInfo(id="qwen", base_url=fake.url + "/v1", api="openai")
        stats = run_turn(runtime, model)
        run_turn(runtime, model)
        assert len(fake.requests) == 1
    assert runtime.window_for(runtime.settings, model) == (4096, "probe")
    assert "context window: 4,096 tokens (reported by the model server (llama.cpp /props n_ctx))" in stats


def test_a_server_that_states_nothing_gets_8192_and_a_warning(runtime: Runtime) -> None:
    """Nothing stated: 8,192 tokens, never 200k, and /context-stats says it is a guess and why."""
    with FakeModelServer({"/v1/models": Behaviour.ok(LLAMA_CPP_PYTHON_MODELS)}) as fake:
        stats = run_turn(runtime, ModelInfo(id="smollm2", base_url=fake.url + "/v1", api="openai"))
    assert "context window: 8,192 tokens (DEFAULT: unknown model, set contextWindow;" in stats
    assert "did not state a context size" in stats


def test_the_host_or_the_config_wins_over_the_probe(tmp_path: Path) -> None:
    """A window from the config or the host means the server is never asked."""
    with FakeModelServer({"/props": Behaviour.ok(LLAMA_PROPS)}) as fake:
        rt = Runtime(Settings(contextWindow=2048), store=Store.open(tmp_path / "a.sqlite"))
        assert rt.window_for(rt.settings, ModelInfo(id="q", base_url=fake.url)) == (2048, "config")
        rt.close()
        rt = Runtime(Settings(), store=Store.open(tmp_path / "b.sqlite"))
        assert rt.window_for(rt.settings, ModelInfo(id="q", base_url=fake.url, context_window=3000)) == (3000, "host")
        rt.close()
        assert fake.requests == []


def test_a_summary_model_without_a_window_is_probed(tmp_path: Path) -> None:
    """summaryModel without contextWindow: its server is asked, and the answer sizes what it is sent."""
    with FakeModelServer({"/api/show": Behaviour.ok(OLLAMA_SHOW)}) as fake:
        rt = Runtime(Settings(summaryModel={"baseUrl": fake.url, "model": "llama3.2", "api": "ollama"}),
                     store=Store.open(tmp_path / "s.sqlite"))
        llm = rt.summarizer_for(rt.settings, ModelInfo(id="session"))
        rt.close()
    assert llm.endpoint.api == "ollama" and llm.context_window == 16384


def test_asking_again_happens_in_the_background(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that stated nothing is asked again later, but a turn never waits for that second question
    (here the server hangs on it); its answer serves the turns after it."""
    import time

    import context_compactor.runtime as runtime_module

    model_fields = {"/v1/models": [Behaviour.ok(LLAMA_CPP_PYTHON_MODELS), Behaviour("hang", delay=1.0),
                                   Behaviour.ok(VLLM_MODELS)]}
    with FakeModelServer(model_fields) as fake:
        model = ModelInfo(id="Qwen/Qwen2.5-7B-Instruct", base_url=fake.url + "/v1", api="openai")
        assert "8,192 tokens (DEFAULT" in run_turn(runtime, model)  # asked once: nothing stated
        monkeypatch.setattr(runtime_module, "REPROBE_SECONDS", 0.0)
        started = time.monotonic()
        run_turn(runtime, model)  # the second question starts; the server hangs on it for a second
        run_turn(runtime, model)  # one question at a time: no third one yet
        waited = time.monotonic() - started
        deadline = time.monotonic() + 10
        while runtime.window_for(runtime.settings, model)[1] != "probe" and time.monotonic() < deadline:
            time.sleep(0.05)
        asked = len(fake.seen("/v1/models"))
    assert waited < 0.5
    assert runtime.window_for(runtime.settings, model) == (32768, "probe")
    assert asked == 3  # the hung question, then (with a zero interval) the one that found the window


def test_a_window_stated_in_an_error_is_not_replaced_by_a_probe(runtime: Runtime) -> None:
    runtime.learn_window("m", 4000, "error")
    runtime.learn_window("m", 32768, "probe")
    assert runtime.window_for(runtime.settings, ModelInfo(id="m")) == (4000, "error")


# --- the probe's connections (issue 28) -------------------------------------------------------------


class SocketServer:
    """A model server on a real socket that says, per connection, what came over it and when it closed:
    ``/props`` is answered (HTTP/1.1, kept alive unless the request asks otherwise), a chat request is read
    and never answered (a server still reading a long prompt). ``log`` holds (connection, what) in order."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.log: list[tuple[int, str]] = []
        self.heads: list[bytes] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        count = 0
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn, count), daemon=True).start()
            count += 1

    def _serve(self, conn: socket.socket, n: int) -> None:
        data = b""
        with conn:
            while True:
                head, sep, rest = data.partition(b"\r\n\r\n")
                if not sep:
                    piece = conn.recv(65536)
                    if not piece:
                        self.log.append((n, "closed"))
                        return
                    data += piece
                    continue
                length = int(re.search(rb"(?im)^content-length:\s*(\d+)", head).group(1)) \
                    if re.search(rb"(?im)^content-length:", head) else 0
                while len(rest) < length:
                    rest += conn.recv(65536)
                data = rest[length:]
                self.heads.append(head)
                path = head.split(b" ")[1].decode()
                self.log.append((n, path))
                if path.endswith("/chat/completions"):
                    continue  # reading the prompt: no answer until the client goes
                body = json.dumps(LLAMA_PROPS).encode()
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                             + str(len(body)).encode() + b"\r\n\r\n" + body)

    def close(self) -> None:
        self.sock.close()


def wait_for(condition: Any, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_the_probe_leaves_no_connection_open() -> None:
    """The probe asks for ``Connection: close``, and its connection is closed once it has the answer: the
    runtime's pool keeps nothing a summary call could go out on."""
    server = SocketServer()
    try:
        with make_client() as client:
            found = probe_window(client, Endpoint(server.url + "/v1", "qwen"))
            assert found.window == 4096
            assert wait_for(lambda: (0, "closed") in server.log), server.log
    finally:
        server.close()
    assert re.search(rb"(?im)^connection:\s*close", server.heads[0])


def test_a_summary_after_a_probe_is_cut_while_the_server_reads_its_prompt() -> None:
    """After a probe, a summary call goes out on a connection of its own, so a client's turn that cancels it
    while the server still reads the prompt (no byte answered yet) closes it at once."""
    server = SocketServer()
    gate = IdleGate(quiet=0.0)
    client = make_client(read_timeout=LONG)
    add_gate(client, gate)
    outcome: list[BaseException] = []
    endpoint = Endpoint(server.url + "/v1", "qwen", "openai", timeout=LONG)

    def summary() -> None:
        try:
            chat(client, endpoint, [{"role": "user", "content": "sum up"}], 64, retries=0)
        except ModelError as exc:
            outcome.append(exc)

    try:
        assert probe_window(client, endpoint).window == 4096
        thread = threading.Thread(target=summary, daemon=True)
        thread.start()
        assert wait_for(lambda: any(what == "/v1/chat/completions" for _, what in server.log)), server.log
        gate.enter(server.url)  # a client's turn comes for the same server
        thread.join(LONG / 2)
        waiting = thread.is_alive()
        chat_conn = next(n for n, what in server.log if what == "/v1/chat/completions")
        gone = wait_for(lambda: (chat_conn, "closed") in server.log)
    finally:
        client.close()
        server.close()
    assert not waiting, "the summary still waited for the server's first byte"
    assert chat_conn != 0 and gone, server.log
    assert [getattr(e, "kind", None) for e in outcome] == ["cancelled"]
