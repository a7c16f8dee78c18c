"""A static file server on a loopback port that compresses text the way a real host does.

Lighthouse judges transfer sizes, so the pages are served gzipped (as GitHub Pages serves
them), with GitHub Pages' ten-minute cache lifetime. The machine is offline: MathJax, the
one script the book takes from a CDN, is answered from the MathJax 3 files of the
``django-static-mathjax`` wheel under ``/_mathjax/`` (the HTML's CDN address is rewritten
as it is served; the files on disk are unchanged).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import mimetypes
import threading
from pathlib import Path
from urllib.parse import unquote, urlsplit

MATHJAX_CDN = b"https://cdn.jsdelivr.net/npm/mathjax@3/es5/"
MATHJAX_LOCAL = "/_mathjax/"
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


def mathjax_dir() -> Path | None:
    """The wheel's MathJax 3 ``es5`` folder, or None when the wheel is not installed."""
    try:
        import mathjax
    except ImportError:
        return None
    return Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        if path.startswith(MATHJAX_LOCAL) and mathjax_dir() is not None:
            file = mathjax_dir() / path.removeprefix(MATHJAX_LOCAL)
        else:
            file = Path(self.translate_path(path))
            if file.is_dir():
                file = file / "index.html"
        if not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind == "text/html":
            body = body.replace(MATHJAX_CDN, MATHJAX_LOCAL.encode())
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
