"""What the browser checks share: Debian's Chromium driven by Playwright with the network
unplugged, a local server for the site, and their JavaScript (``tools/js/*.js``).

Used by ``tools/check_site.py`` (every page of the site) and ``tools/pdf.py`` (the printed
book). "Network unplugged": Chromium resolves no host name except 127.0.0.1
(``--host-resolver-rules``), runs no background networking, and :func:`block_offsite` aborts
and reports every request that is not to the local server or the site folder.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

JS_DIR = Path(__file__).resolve().parent / "js"

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]


def js(name: str) -> str:
    """The source of ``tools/js/<name>.js``: a function for ``page.evaluate``."""
    return (JS_DIR / f"{name}.js").read_text(encoding="utf-8")


def launch(playwright, profile: str, **options):
    """A headless Chromium context on a fresh profile folder, network unplugged."""
    return playwright.chromium.launch_persistent_context(
        profile,
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        service_workers="block",
        **options,
    )


def is_local_to(prefix: str) -> Callable[[str], bool]:
    """True for a URL under ``prefix`` (the server or the site folder) or an inline one."""
    return lambda url: url.startswith(prefix) or url.startswith(("data:", "blob:", "about:"))


def block_offsite(page, is_local: Callable[[str], bool], on_blocked: Callable[[str], None]):
    """Let local requests through and abort the others, telling ``on_blocked`` their URL.
    Returns the route handler (for ``page.unroute``)."""

    def on_route(route) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            on_blocked(url)
            route.abort("blockedbyclient")

    page.route("**/*", on_route)
    return on_route


def banner(lines: list[str]) -> None:
    width = max(len(s) for s in lines) + 4
    print("\n" + "#" * width)
    for s in lines:
        print(f"# {s.ljust(width - 4)} #")
    print("#" * width + "\n", flush=True)


def ensure_chromium() -> bool:
    """Return True when Chromium is there, installing it with apt-get if we can."""
    if Path(CHROMIUM).is_file():
        return True
    print(f"{CHROMIUM} not found.", flush=True)
    if CHROMIUM == "/usr/bin/chromium" and os.geteuid() == 0 and shutil.which("apt-get"):
        print(
            "installing Debian's chromium: apt-get update && apt-get install -y chromium",
            flush=True,
        )
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        ok = subprocess.run(["apt-get", "update", "-q"], env=env).returncode == 0 and (
            subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], env=env).returncode == 0
        )
        if ok and Path(CHROMIUM).is_file():
            return True
        print("apt-get could not install chromium.", flush=True)
    return False


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"
