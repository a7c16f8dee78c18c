"""A static file server on a loopback port that compresses text the way a real host does.

Lighthouse judges transfer sizes, so the pages are served gzipped (as GitHub Pages serves
them), with GitHub Pages' ten-minute cache lifetime. The book asks no other site for
anything (its formulas come typeset, their font is in its ``_static``), so the machine
being offline changes nothing.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import mimetypes
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        file = Path(self.translate_path(path))
        if file.is_dir():
            file = file / "index.html"
        if not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        gzipped = "gzip" in self.headers.get("Accept-Encoding", "") and kind.startswith(
            COMPRESSIBLE
        )
        if gzipped:
            body = gzip.compress(body, compresslevel=6)
        self.send_response(200)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if "text" in kind else ""))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)


def serve_gzipped(directory: Path):
    """Serve ``directory`` on 127.0.0.1; returns (base url, server). Stop with ``shutdown()``."""
    handler = functools.partial(_GzipHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server
