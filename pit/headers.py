"""The headers every answer of the pit carries, pages, the API and error pages alike: a
Content-Security-Policy that lets a page run only the pit's own script and style files and
talk only to the pit, no framing by another site (clickjacking), and no guessing of types.

The dashboard's pages therefore hold no inline script or style: they load /static/pit.css
and /static/live.js, which starts the shared worker /static/events.js (pit/dashboard.py)."""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


class SecurityHeaders:
    """ASGI middleware that adds `HEADERS` to every HTTP answer. It wraps the whole app,
    outside Starlette's own error handling, so a 500 carries them too."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)
