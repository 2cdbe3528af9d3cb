"""The web pages' server (README, Web pages): aiohttp's, in the bot's own process and event
loop. Every page is read-only and opened by a signed link (bot/web/links.py); anything else
answers 404 with the same page whatever was wrong. Every answer carries a content security
policy that allows the site's own stylesheet and script and nothing else, and no Referer is
sent from a page, so its link never leaks to another site. A client asking too often is
answered 429 until it slows down."""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable
from importlib import resources

from aiohttp import web
from jinja2 import Environment, PackageLoader, select_autoescape

from bot.i18n import ENGLISH, LANGUAGES, _, language_of_locale, speaking
from bot.store.guild_settings import GuildSettings
from bot.web.links import Links
from bot.web.pages import Asked, Page, WebHost, find_page

log = logging.getLogger(__name__)

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:;"
        " base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "X-Robots-Tag": "noindex, nofollow",
    "Cache-Control": "private, no-store",
}
STATIC = {"site.css": "text/css", "replay.js": "text/javascript"}
# A client may ask BURST pages at once, then one per 1/REFILL_PER_SECOND seconds.
BURST, REFILL_PER_SECOND = 30, 2.0
MOST_CLIENTS = 10_000  # buckets kept; past it, the full ones are forgotten
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RateLimit:
    """A token bucket per client address: BURST requests, refilled at REFILL_PER_SECOND."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)

    def allow(self, client: str) -> bool:
        now = self.clock()
        tokens, when = self.buckets.get(client, (BURST, now))
        tokens = min(BURST, tokens + (now - when) * REFILL_PER_SECOND)
        if len(self.buckets) >= MOST_CLIENTS:
            self._forget_idle(now)
        if tokens < 1:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1, now)
        return True

    def _forget_idle(self, now: float) -> None:
        full = BURST / REFILL_PER_SECOND
        self.buckets = {c: (t, w) for c, (t, w) in self.buckets.items() if now - w < full}


def client_of(request: web.Request) -> str:
    """The client's address; behind a reverse proxy on the same host, the one it forwards."""
    peer = request.remote or ""
    forwarded = request.headers.get("X-Forwarded-For", "")
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    if local and forwarded:
        return forwarded.rsplit(",", 1)[-1].strip()
    return peer


def browser_language(accepted: str) -> str:
    """The first of the bot's languages an Accept-Language header names ("es-ES,es;q=0.9"),
    in the header's order of preference; English if none."""
    tags = []
    for index, part in enumerate(accepted.split(",")[:20]):
        tag, _semicolon, weight = part.strip().partition(";q=")
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            continue
        tags.append((-quality, index, tag.strip()))
    for _quality, _index, tag in sorted(tags):
        code = language_of_locale(tag) or BY_TAG.get(tag.lower()) or BY_TAG.get(tag[:2].lower())
        if code in LANGUAGES:
            return code
    return ENGLISH


# Browsers' language tags for the bot's languages that Discord's locales don't spell alike.
BY_TAG = {
    "en": ENGLISH,
    "es": "es",
    "ca": "ca",
    "it": "it",
    "fr": "fr",
    "de": "de",
    "pt": "pt_BR",
    "zh": "zh_Hans",
    "zh-hans": "zh_Hans",
    "zh-sg": "zh_Hans",
    "zh-hant": "zh_Hant",
    "zh-hk": "zh_Hant",
    "zh-mo": "zh_Hant",
}


class WebPages:
    def __init__(self, host: WebHost, links: Links) -> None:
        self.host = host
        self.links = links
        self.guilds = GuildSettings(host.database)
        self.limit = RateLimit()
        self.templates = Environment(
            loader=PackageLoader("bot.web", "templates"),
            autoescape=select_autoescape(default=True, default_for_string=True),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.globals["_"] = _
        folder = resources.files("bot.web").joinpath("static")
        self.static = {name: folder.joinpath(name).read_bytes() for name in STATIC}

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers, self._slowed])
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/robots.txt", self._robots)
        app.router.add_get("/{path:.*}", self._page)
        return app

    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as refused:
            response = (
                self._not_found(request)
                if refused.status == 404
                else web.Response(status=refused.status, text=refused.text)
            )
        except Exception:  # a fault of the bot's: logged, and the reader told no more
            log.exception("the web page %s failed", request.path)
            response = web.Response(status=500, text="Something went wrong on our side.\n")
        response.headers.update(HEADERS)
        return response

    @web.middleware
    async def _slowed(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not self.limit.allow(client_of(request)):
            return web.Response(
                status=429,
                text="Too many requests: wait a few seconds, then try again.\n",
                headers={"Retry-After": str(int(1 / REFILL_PER_SECOND) + 1)},
            )
        return await handler(request)

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            return self._not_found(request)
        return web.Response(body=self.static[name], content_type=STATIC[name])

    async def _robots(self, request: web.Request) -> web.Response:
        return web.Response(text="User-agent: *\nDisallow: /\n")

    async def _page(self, request: web.Request) -> web.Response:
        now = self.host.clock()
        signed = self.links.check(request.path, dict(request.query), now)
        if signed is None or signed.language not in LANGUAGES:
            return self._not_found(request)
        if not await self.guilds.web_pages(signed.guild_id):
            return self._not_found(request)
        with speaking(signed.language):
            page = await find_page(Asked(self.host, signed, self.links))
            if page is not None:
                return self._html(page, signed.language)
        return self._not_found(request)

    def _html(self, page: Page, language: str, status: int = 200) -> web.Response:
        template = self.templates.get_template(page.template)
        html = template.render(title=page.title, lang=language.replace("_", "-"), **page.context)
        return web.Response(text=html, content_type="text/html", status=status)

    def _not_found(self, request: web.Request) -> web.Response:
        """The one page every bad link gets, in the language the browser asks for: nothing
        in it depends on the link."""
        language = browser_language(request.headers.get("Accept-Language", ""))
        with speaking(language):
            return self._html(Page("not_found.html", _("Page not found")), language, 404)


async def serve(pages: WebPages, host: str, port: int) -> web.AppRunner:
    """The pages served on host:port until the runner is cleaned up."""
    runner = web.AppRunner(pages.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("serving the web pages on %s:%d", host, port)
    return runner
