"""A quiet static file server on a free loopback port, for the browser tests."""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1; returns (base url, server). Stop with ``shutdown()``."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def not_local(base: str) -> re.Pattern:
    """The URLs of every host but the server at ``base``: a page routes only these through
    Python (a local request needs no decision, and routing each cost CPU for nothing)."""
    return re.compile(rf"^(?!{re.escape(base)}/)")
