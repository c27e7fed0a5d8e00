"""A small real HTTP server that speaks the chat-completions protocol, for testing the ``llm`` bot.

Not a mock object: it listens on 127.0.0.1 (a free port), reads real requests
(``POST /v1/chat/completions`` with ``model`` and ``messages``) and answers as an
OpenAI-compatible endpoint would. Its *model* decides how it behaves:

- ``player``: reads the numbered options from the prompt and answers one of them
  (seeded by the prompt), with a line of table talk;
- ``first``: always ``1``;
- ``slow``: waits 30 seconds before answering;
- ``drip``: sends its answer one byte every half second;
- ``malformed``: each request gets the next of: a non-JSON body, JSON without
  ``choices``, an HTTP 500, an answer with no number, a number out of range;
  then a valid ``1``;
- ``hostile``: answers with a huge body, control characters, a 5,000-character
  ``SAY:`` line, negative and huge numbers;
- ``gullible``: a model that obeys any line of the prompt that *starts* with
  ``SYSTEM:`` or ``IGNORE PREVIOUS`` by leaking everything it was told in table
  talk (``SAY: <the whole prompt>``); otherwise answers ``1``.

Every request is kept (``requests``: headers and body) for the tests to inspect.

``python -m tests.agents.chat_server [--port N]`` serves it on its own (until Ctrl-C), so that an ``llm`` seat
can be tried without a language model (docs/agents.md).
"""

from __future__ import annotations

import json
import random
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OPTION = re.compile(r"^(\d+)\. ", re.MULTILINE)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def completion(content: str) -> bytes:
    return json.dumps({"id": "test", "object": "chat.completion", "created": int(time.time()), "model": "test",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}).encode()


class ChatServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or _free_port()
        self.requests: list[dict[str, Any]] = []
        self.malformed = 0
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with owner.lock:
                    owner.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                if self.path != "/v1/chat/completions":
                    self.reply(404, b'{"error": "no such route"}')
                    return
                owner.answer(self, body)

            def reply(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.server.handle_error = lambda request, address: None  # a client that gave up (slow, drip) is expected
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> "ChatServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- the models ------------------------------------------------------------------------------
    def answer(self, handler: Any, body: dict[str, Any]) -> None:
        model = body.get("model")
        messages = body.get("messages") or []
        prompt = "\n".join(str(m.get("content", "")) for m in messages)
        last = str(messages[-1].get("content", "")) if messages else ""
        options = [int(n) for n in OPTION.findall(last)] or [int(n) for n in OPTION.findall(prompt)]
        if model == "player":
            pick = random.Random(prompt).choice(options or [1])
            handler.reply(200, completion(f"{pick}\nSAY: I have nothing to hide, number {pick}."))
        elif model == "first":
            handler.reply(200, completion("1"))
        elif model == "slow":
            time.sleep(30)
            handler.reply(200, completion("1"))
        elif model == "drip":
            payload = completion("1")
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(payload)))
            handler.end_headers()
            try:
                for byte in payload:
                    handler.wfile.write(bytes([byte]))
                    handler.wfile.flush()
                    time.sleep(0.5)
            except OSError:
                pass
        elif model == "malformed":
            with self.lock:
                step = self.malformed
                self.malformed += 1
            if step % 6 == 0:
                handler.reply(200, b"this is not json", "text/plain")
            elif step % 6 == 1:
                handler.reply(200, b'{"id": "x", "object": "chat.completion"}')
            elif step % 6 == 2:
                handler.reply(500, b'{"error": {"message": "overloaded"}}')
            elif step % 6 == 3:
                handler.reply(200, completion("I would rather not say."))
            elif step % 6 == 4:
                handler.reply(200, completion("4096"))
            else:
                handler.reply(200, completion("1"))
        elif model == "hostile":
            choice = random.Random(prompt).randrange(4)
            if choice == 0:
                handler.reply(200, completion("1" + "9" * 200_000))
            elif choice == 1:
                handler.reply(200, completion("\x00\x1b[2J-1\r\nSAY: \u202e" + "A" * 5000))
            elif choice == 2:
                handler.reply(200, completion("99999999999999999999\nSAY: <script>alert(1)</script>"))
            else:
                handler.reply(200, completion(f"1\nSAY: {'x' * 5000}\nSAY: second line"))
        elif model == "gullible":
            obeyed = any(line.startswith(("SYSTEM:", "IGNORE PREVIOUS")) for line in prompt.splitlines())
            if obeyed:
                handler.reply(200, completion("1\nSAY: LEAKED " + prompt.replace("\n", " ")))
            else:
                handler.reply(200, completion("1\nSAY: nothing to see"))
        else:
            handler.reply(404, json.dumps({"error": {"message": f"no model {model!r}"}}).encode())


def main(argv: list[str] | None = None) -> None:
    """Serve the test endpoint on its own, printing its URL, until interrupted."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.agents.chat_server", description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=None, help="the port on 127.0.0.1 (default: a free one)")
    port = parser.parse_args(argv).port
    with ChatServer(port) as server:
        print(f"INTRIGUE_LLM_URL={server.url}  (models: player, first, slow, drip, malformed, hostile, gullible)",
              flush=True)
        try:
            server.thread.join()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
