"""``serve --workers N``: N processes on one port over one store, one session's turns landing on any of
them, and a stop that ends them all."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path

import pytest
from fakes.harness import serve_upstream
from fakes.upstream import Behaviour
from test_gateway_cli import environment, serving
from test_gateway_recall import RecallingModel
from test_store_pg_replicas import DETERMINISTIC, play, same_reply, turns

pytestmark = pytest.mark.slow
TURNS = 24
ENV = DETERMINISTIC


def workers_of(pid: int, count: int) -> list[int]:
    """The processes ``pid`` forked (Linux's /proc), once there are ``count`` of them."""
    deadline = time.monotonic() + 30
    while True:
        found = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(p) for p in (task / "children").read_text().split()]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_two_workers_answer_one_session_as_one_process_and_stop_together(tmp_path: Path) -> None:
    """One session's turns through ``--workers 2`` on one SQLite store (both workers answering some) send
    the upstream the bytes one process sends; SIGTERM stops both workers, and serve exits 0."""
    requests = turns(TURNS)
    with serve_upstream(RecallingModel(Behaviour(respond=same_reply))) as up:
        (tmp_path / "one").mkdir()
        with serving(tmp_path / "one", "--upstream", up.url + "/v1", "--context-window", "8000",
                     env=environment(tmp_path / "one", **ENV)) as (url, _p, _log):
            alone = play([url], requests, up)
    with serve_upstream(RecallingModel(Behaviour(respond=same_reply))) as up:
        (tmp_path / "two").mkdir()
        with serving(tmp_path / "two", "--upstream", up.url + "/v1", "--context-window", "8000", "--workers", "2",
                     env=environment(tmp_path / "two", **ENV)) as (url, process, log):
            children = workers_of(process.pid, 2)
            assert len(children) == 2
            shared = play([url], requests, up)
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
    assert [json.dumps(m) for m in shared] == [json.dumps(m) for m in alone]
    served = {int(n) for n in re.findall(r"gateway\.request .*?worker=(\d+)", log.read_text())}
    assert served == {1, 2}, log.read_text()[-3000:]
    for pid in children:
        assert not os.path.exists(f"/proc/{pid}") or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_workers_below_one_is_a_usage_error(tmp_path: Path) -> None:
    """``--workers 0`` is refused with one line that names the option, before anything listens."""
    import subprocess

    from test_gateway_cli import SCRIPT

    done = subprocess.run([SCRIPT, "serve", "--upstream", "http://127.0.0.1:9/v1", "--workers", "0", "--port", "0",
                           "--store", str(tmp_path / "s.sqlite")], capture_output=True, text=True,
                          env=environment(tmp_path), timeout=60)
    assert done.returncode == 2 and "--workers 0" in done.stderr, done.stderr


def test_connections_opened_at_once_are_spread_over_the_workers(tmp_path: Path) -> None:
    """A client that opens its keep-alive connections all at once (a load balancer's pool, a benchmark)
    gets both workers: each listens with a socket of its own on the port, so one worker waking first
    cannot take every connection. Each of 16 connections asks ``/metrics`` which process answers."""
    import http.client
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import urlsplit

    with serve_upstream(RecallingModel(Behaviour(respond=same_reply))) as up:
        with serving(tmp_path, "--upstream", up.url + "/v1", "--workers", "2",
                     env=environment(tmp_path, **ENV)) as (url, process, _log):
            children = set(workers_of(process.pid, 2))
            port = urlsplit(url).port
            conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(16)]

            def ask(conn: http.client.HTTPConnection) -> set[int]:
                pids = set()
                for _ in range(3):  # the same connection answers from the same process each time
                    conn.request("GET", "/metrics")
                    text = conn.getresponse().read().decode()
                    pids |= {int(p) for p in re.findall(r'process_info\{pid="(\d+)"\}', text)}
                return pids

            try:
                with ThreadPoolExecutor(16) as pool:
                    per_connection = list(pool.map(ask, conns))
            finally:
                for conn in conns:
                    conn.close()
    assert all(len(pids) == 1 for pids in per_connection), per_connection
    answered = set().union(*per_connection)
    assert answered == children, (answered, children)
