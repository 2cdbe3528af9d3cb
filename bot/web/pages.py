"""The web pages' contents: each page's data read from the store and put into words in the
reader's language, for its template (bot/web/templates). A page that does not exist, or is not
the server's, is None: the server answers 404 for it as for a bad link.

What a page shows is what the server's channels showed: the boards, the ratings /stats gives,
a tournament's message, and a closed table's hands drawn by the game's own UI from its public
views at each step (bot/discord/history.py's `step_message` with no seat: a folded hand or any
card never shown at the table stays out of the page)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import discord
from markupsafe import Markup

from bot.discord.boards import ranking_of, record
from bot.discord.history import hand_line, step_message
from bot.discord.message import seed_revealed
from bot.discord.stats import ordinal, rated_unit, skill_record, tournament_line
from bot.discord.tournament_picture import layout
from bot.discord.tournament_text import footer, sections, summary
from bot.discord.web_links import WebLinkHost
from bot.engine import registry
from bot.i18n import _, decimal
from bot.i18n.pictures import drawn_by_a_browser
from bot.store.history import HistoryStore, TableLog
from bot.store.names import member_names
from bot.store.ratings import rated_scope
from bot.store.table_reads import TableReads
from bot.tables.history import ReplayUnavailable, find_hand, replay_table
from bot.tables.tournament_draws import rounds_planned
from bot.text import chips
from bot.web.bracket import bracket_svg
from bot.web.chart import skill_chart
from bot.web.links import Links, SignedPage
from bot.web.markdown import to_html

if TYPE_CHECKING:
    from bot.discord.presenter import TablePresenter
    from bot.settings import Settings
    from bot.store import Leaderboards, Ledger
    from bot.store.tournaments import TournamentStore

BOARD_ROWS = 100  # a board's page lists its first hundred
CHART_RESULTS = 200  # the skill chart's last rated results


class WebHost(WebLinkHost, Protocol):
    """What the pages read: the store, the settings, the clock, and the presenter that draws a
    replayed step as the channel saw it."""

    @property
    def settings(self) -> Settings: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def leaderboards(self) -> Leaderboards: ...
    @property
    def tournament_store(self) -> TournamentStore: ...
    @property
    def presenter(self) -> TablePresenter: ...


@dataclass(frozen=True)
class Page:
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Asked:
    """A request for a signed page: what it may open, and how to link to the server's others."""

    host: WebHost
    signed: SignedPage
    links: Links

    @property
    def guild_id(self) -> int:
        return self.signed.guild_id

    def link(self, page: str) -> str:
        """A link to another of the server's pages, expiring when this one's does."""
        return self.links.path(replace(self.signed, page=page))


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    value: str
    href: str = ""


PageMaker = Callable[..., Awaitable[Page | None]]


async def find_page(asked: Asked) -> Page | None:
    for pattern, make in PAGES:
        found = pattern.fullmatch(asked.signed.page)
        if found:
            return await make(
                asked, **{k: int(v) if v.isdigit() else v for k, v in found.groupdict().items()}
            )
    return None


# ---- boards ---------------------------------------------------------------------------------


def game_links(asked: Asked) -> list[tuple[str, str]]:
    """Every game's board, by name, for the boards' menu."""
    games = sorted(registry.games(), key=lambda game: _(game.name))
    return [(_(game.name), asked.link(f"/board/{game.id}")) for game in games]


def unknown(member_id: int) -> str:
    """A member never seated at the server's tables: the bot knows no name of theirs."""
    return _("Member {number}", number=str(member_id)[-4:])


async def rows_named(asked: Asked, ranked: Sequence[tuple[int, int, str]]) -> list[Row]:
    """(rank, member, value) as rows with each member's name and page."""
    names = await member_names(asked.host.database, asked.guild_id, {m for _r, m, _v in ranked})
    return [
        Row(rank, names.get(member) or unknown(member), value, asked.link(f"/member/{member}"))
        for rank, member, value in ranked
    ]


async def chip_board(asked: Asked) -> Page:
    held = await asked.host.leaderboards.leaderboard(asked.guild_id, offset=0, limit=BOARD_ROWS)
    rows = await rows_named(asked, [(s.rank, s.member_id, chips(s.chips)) for s in held])
    title = _("Chip leaderboard")
    boards = [(title, _("Chips"), rows)]
    return Page("board.html", title, {"boards": boards, "games": game_links(asked)})


async def game_board(asked: Asked, game: str) -> Page | None:
    try:
        spec = registry.get(game)
    except KeyError:
        return None
    host = asked.host
    standings = await host.leaderboards.game_standings(
        asked.guild_id, spec.id, 0, BOARD_ROWS, ranking_of(spec)
    )
    results = await rows_named(asked, [(s.rank, s.member_id, record(s, spec)) for s in standings])
    title = _("{game} leaderboard", game=_(spec.name))
    boards = [(title, _("Results"), results)]
    if rated_scope(spec.id):
        least = host.settings.rating_min_matches
        rated = await host.ledger.ratings.board(asked.guild_id, spec.id, least, 0, BOARD_ROWS)
        unit = rated_unit(spec.id)
        skill = await rows_named(
            asked, [(r.rank, r.member_id, skill_record(r, unit)) for r in rated]
        )
        boards.append((_("{game} skill ratings", game=_(spec.name)), _("Skill"), skill))
    return Page("board.html", title, {"boards": boards, "games": game_links(asked)})


# ---- a member -------------------------------------------------------------------------------


async def member_page(asked: Asked, member: int) -> Page:
    host, guild_id = asked.host, asked.guild_id
    name = (await member_names(host.database, guild_id, [member])).get(member) or unknown(member)
    games = []
    for rating in await host.ledger.ratings.member(guild_id, member):
        spec = registry.get(rating.game_id)
        recent = await host.ledger.ratings.recent(guild_id, member, spec.id, CHART_RESULTS)
        skills = [result.skill for result in reversed(recent)]
        label = _("{name}'s skill at {game}", name=name, game=_(spec.name))
        results = [
            _(
                "{place}: skill {skill} ({change})",
                place=ordinal(r.placing),
                skill=decimal(r.skill),
                change=decimal(r.change, signed=True),
            )
            for r in recent[:10]
        ]
        games.append(
            {
                "name": _(spec.name),
                "record": skill_record(rating, rated_unit(spec.id)),
                "chart": skill_chart(skills, label) if skills else None,
                "results": results,
                "board": asked.link(f"/board/{spec.id}"),
            }
        )
    placings = await host.tournament_store.placings_of(guild_id, member)
    tournaments = tournament_line(placings) if placings else ""
    title = _("Skill ratings of {name}", name=name)
    return Page(
        "member.html",
        title,
        {"games": games, "tournaments": tournaments, "chips": asked.link("/board/chips")},
    )


# ---- a closed table and its hands ----------------------------------------------------------


async def closed_table(asked: Asked, table: int) -> TableLog | None:
    log = await HistoryStore(asked.host.database).table_log(table)
    if log is None or log.guild_id != asked.guild_id or not log.closed or log.solo:
        return None
    return log


async def table_page(asked: Asked, table: int) -> Page | None:
    log = await closed_table(asked, table)
    if log is None:
        return None
    spec = registry.get(log.game_id)
    hands = await HistoryStore(asked.host.database).hands_at_table(table)
    names = {seat.member_id: seat.name for seat in log.seats}
    listed = [
        (
            to_html(hand_line(hand), names),
            asked.link(f"/hand/{table}/{hand.hand}") if hand.replayable else "",
        )
        for hand in hands
    ]
    saved = await TableReads(asked.host.database).load(table)
    deals = None
    if (
        saved.deal_seed
        and spec.unseeded_deal(spec.options_model.model_validate_json(log.options)) is None
    ):
        deals = to_html(seed_revealed(saved), names)
    title = _("{game} · table {table}", game=_(spec.name), table=str(table))
    return Page(
        "table.html",
        title,
        {"hands": listed, "deals": deals, "players": [s.name for s in log.seats]},
    )


async def hand_page(asked: Asked, table: int, hand: int) -> Page | None:
    log = await closed_table(asked, table)
    if log is None:
        return None
    spec = registry.get(log.game_id)
    try:
        hands = await asyncio.to_thread(replay_table, spec, log)
    except ReplayUnavailable:
        return None
    found = find_hand(hands, hand)
    if found is None or not found.ended:
        return None
    names = {seat.member_id: seat.name for seat in log.seats}
    steps = [
        embeds_html(step_message(asked.host, spec, log, found, step, 0)[0], names)
        for step in range(len(found.steps))
    ]
    title = _(
        "{game} · table {table} · hand {hand}", game=_(spec.name), table=str(table), hand=hand
    )
    return Page("hand.html", title, {"steps": steps, "table": asked.link(f"/table/{table}")})


def embeds_html(embeds: Sequence[discord.Embed], names: dict[int, str]) -> list[dict[str, Any]]:
    """The embeds a step is drawn as, as HTML parts: title, description, fields, footer."""
    parts = []
    for embed in embeds:
        shown = embed.to_dict()
        parts.append(
            {
                "title": to_html(shown.get("title", ""), names),
                "description": to_html(shown.get("description", ""), names),
                "fields": [
                    (to_html(f["name"], names), to_html(f["value"], names))
                    for f in shown.get("fields", [])
                ],
                "footer": to_html(shown.get("footer", {}).get("text", ""), names),
            }
        )
    return parts


# ---- a tournament -----------------------------------------------------------------------------


async def tournament_page(asked: Asked, tournament: int) -> Page | None:
    store = asked.host.tournament_store
    found = await store.load(tournament)
    if found is None or found.guild_id != asked.guild_id:
        return None
    progress = await store.progress(tournament)
    names = {e.member_id: e.name for e in progress.entries}
    # A section whose lines the message joins on one line (the players) is one paragraph.
    parts = [
        (title, [to_html(line, names) for line in lines], separator != "\n")
        for title, lines, separator, _limit in sections(found, progress)
    ]
    bracket: Markup | None = None
    if found.format == "elimination" and progress.matches:
        with drawn_by_a_browser():  # every word in the reader's language, names as written
            plan = layout(progress, rounds_planned(found, progress))
        bracket = bracket_svg(plan, _("The bracket"))
    game = registry.get(found.game_id)
    title = _("{game} tournament #{tournament}", game=_(game.name), tournament=str(found.id))
    return Page(
        "tournament.html",
        title,
        {
            "summary": [to_html(line, names) for line in summary(found, progress)],
            "parts": parts,
            "bracket": bracket,
            "footer": to_html(footer(found), names),
        },
    )


NUMBER = r"[1-9][0-9]{0,18}"  # an id: Discord's and the database's fit in 63 bits
PAGES: list[tuple[re.Pattern[str], PageMaker]] = [
    (re.compile(r"/board/chips"), chip_board),
    (re.compile(r"/board/(?P<game>[a-z_]{1,40})"), game_board),
    (re.compile(rf"/member/(?P<member>{NUMBER})"), member_page),
    (re.compile(rf"/table/(?P<table>{NUMBER})"), table_page),
    (re.compile(rf"/hand/(?P<table>{NUMBER})/(?P<hand>{NUMBER})"), hand_page),
    (re.compile(rf"/tournament/(?P<tournament>{NUMBER})"), tournament_page),
]
