"""Signed links to the web pages (README, Web pages). A link names a server, a page and a
language, and carries its expiry and an HMAC-SHA256 of all of them under the bot's link secret:
whoever holds the link may read that page, for that server, until it expires. A link altered in
any part, expired, unsigned or signed with another secret fails the check, and the page answers
404 as for a page that does not exist: nothing tells which part was wrong.

The secret is WEB_SECRET, or else one derived from DISCORD_TOKEN (an HMAC under a fixed label),
so a bot needs no new setting to sign links, and a new token voids every link given before."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlencode

LINK_DAYS = 7
LIFETIME = timedelta(days=LINK_DAYS)
DERIVED_LABEL = b"card-table web links"
SIGNATURE_CHARS = 32  # 192 bits of the HMAC, in base64url
# What a signed path may be: a server's id, then the page's words and ids.
PATH = re.compile(r"/(?P<guild>[1-9][0-9]{0,18})(?P<page>(?:/[a-z0-9_-]{1,40}){1,3})")


def derived_secret(token: str) -> bytes:
    return hmac.new(token.encode(), DERIVED_LABEL, hashlib.sha256).digest()


@dataclass(frozen=True)
class SignedPage:
    """What a link that passed the check opens: a server's page in a language, until `expires`."""

    guild_id: int
    page: str  # "/board/chips", "/member/42", "/table/7", "/hand/7/2", "/tournament/3"
    language: str
    expires: int  # Unix seconds


class Links:
    def __init__(self, secret: bytes, public_url: str) -> None:
        self.secret = secret
        self.public_url = public_url.rstrip("/")

    def url(self, guild_id: int, page: str, language: str, now: datetime) -> str:
        """A link to the page, valid for a week from `now`."""
        expires = int((now + LIFETIME).timestamp())
        return self.public_url + self.path(SignedPage(guild_id, page, language, expires))

    def path(self, signed: SignedPage) -> str:
        """The link's path and query, for a page with the same server, language and expiry
        (links between pages keep the expiry of the link that opened them)."""
        path = f"/{signed.guild_id}{signed.page}"
        query = {"l": signed.language, "x": str(signed.expires)}
        query["s"] = self._signature(path, query["l"], query["x"])
        return f"{path}?{urlencode(query)}"

    def check(self, path: str, query: dict[str, str], now: datetime) -> SignedPage | None:
        """The page a request may open, or None: unsigned, altered or expired."""
        shape = PATH.fullmatch(path)
        language, expires, signature = query.get("l", ""), query.get("x", ""), query.get("s", "")
        if (
            shape is None
            or not expires.isdigit()
            or len(expires) > 12
            or set(query) != {"l", "x", "s"}
        ):
            return None
        expected = self._signature(path, language, expires)
        if not hmac.compare_digest(expected.encode(), signature.encode()):
            return None
        if int(expires) <= now.timestamp():
            return None
        return SignedPage(int(shape["guild"]), shape["page"], language, int(expires))

    def _signature(self, path: str, language: str, expires: str) -> str:
        message = f"{path}\n{language}\n{expires}".encode()
        digest = hmac.new(self.secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_CHARS]
