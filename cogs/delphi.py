"""/delphi: Delphi tables (3-7 players, an oracle's secret rule, secret yes/no answers)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from PIL import Image, ImageDraw, ImageFont

from bot.cards import FrenchCard, Suit
from bot.discord.commands import table_game_cog
from bot.discord.controls import ActionButton, Controls, TextButton
from bot.discord.format import plural
from bot.discord.game_ui import GameUI, action_controls
from bot.engine import Action, Event
from bot.games.delphi import (
    DELPHI,
    MAX_RULE_LENGTH,
    RULE_SECONDS,
    DelphiOptions,
    DelphiView,
    HandResult,
    HandScored,
    OracleWrites,
    Revealed,
    RuleSealed,
    StarterTurned,
)
from bot.games.delphi.library import LIBRARY
from bot.tables import Table, action_token

if TYPE_CHECKING:
    from bot.app import CardTableBot

RULES = f"""\
**Delphi** · 3-7 players · French 52 · Martin Kruskal's simplified Eleusis
**The oracle.** Each hand one oracle holds a secret rule saying which cards are correct, \
judged only from the line of correct cards before them. The players are everyone but the \
oracle. With the option `oracle: players` (the default) every player is the oracle once, \
passing left; the game ends when all have been. With `oracle: bot` the bot is the oracle for \
`bot_hands` hands (1 by default) and everyone plays: it draws its rule from a library of \
{len(LIBRARY)} rules (colours, suits, parity, higher or lower than the last correct card, faces \
and numbers...) of the table's `difficulty`: easy, medium (default), hard or any.
**The sealed rule.** A player oracle writes the rule in a form (from their DM). The bot seals \
it at once: the table shows its seal, the SHA-256 of `salt:rule` (UTF-8, the salt a random \
hex string), and the rule and salt are shown when the hand ends, so anyone can check it \
(`printf '%s' 'salt:rule' | sha256sum`). The bot's own rules are sealed the same way.
**Play.** Every player starts the hand with 1 token; the bank is unlimited. A starter is \
turned face up to begin the line. Then each card is turned from the stock and every player \
answers in secret, all at once, in their DM: **yes** (correct), **no**, or **abstain**. The \
table shows only who has answered. The oracle judges every card **correct** or **incorrect**. \
When everyone is in, the answers and the oracle's verdict are shown together: a correct card \
extends the line to the right, an incorrect one goes below the last correct card. A right \
answer wins a token from the bank, a wrong one pays a token back (nothing if you have none), \
an abstention neither. The hand ends when all 52 cards are on the table (51 judged). The \
table shows the layout as a picture and in words.
**Scoring.** Your hand score is the difference between your tokens and each other player's, \
added up: with n players and T tokens among them, n x your tokens - T. The oracle scores \
every player's shortfall to each player who has more tokens, added up. In the rule text's \
example (29, 26, 19, 11, 9 and 6 tokens) C scores 14, F -64 and the oracle 174 (the text's \
136 comes from a slip: D's and E's shortfalls are 41 and 49, not 25 and 27). Scores add up \
over the hands; the highest total wins, equal totals share a place.
**House decisions.** The host is the first oracle. The starter is correct by definition: \
nobody answers it. A player oracle judges each card in secret while the players answer, and \
a bot rule's difficulty is announced when it is sealed. You may abstain on purpose; when time \
runs out you abstain (no payout, no penalty). Leaving a card unjudged is not a choice: only \
an oracle who hasn't judged in time leaves the card unjudged. It is set aside, apart from the \
line, and nobody wins or pays a token on it, so no one gains or loses by the oracle's absence \
and the line never shows a false verdict. An oracle who writes no rule in time, or presses \
"Let the bot draw a rule", gets one of the table's difficulty from the library, which the \
bot then judges; they still score as the oracle. A rule holds at most \
{MAX_RULE_LENGTH} characters; line breaks and runs of spaces become single spaces before it \
is sealed. A card is revealed as soon as everyone has answered, or when the turn time runs \
out: a hand is 51 rounds, so the turn time is 30 s unless the table sets another (an oracle \
always has at least {RULE_SECONDS // 60} minutes to write a rule). Time out twice in a row and \
you are marked away: you abstain (as the oracle, leave the card unjudged) at once until you \
press My hand. The option `cards` (default 52, at least 6) ends each hand once that many \
cards are placed, for a quicker game. Leaving ends the match when the hand ends: the leaver \
forfeits (placed last), the others are placed by their totals."""

ANSWER_WORDS = {"yes": "yes", "no": "no", "abstain": "abstained"}
ACTION_LABELS = {
    "yes": "Yes, correct",
    "no": "No",
    "abstain": "Abstain",
    "correct": "Correct",
    "incorrect": "Incorrect",
    "draw_rule": "Let the bot draw a rule",
}
VERDICT_WORDS = {
    "correct": "correct: it extends the line",
    "incorrect": "incorrect: it goes below the line",
    "unjudged": "left unjudged: set aside",
}


def quoted(rule: str) -> str:
    """A player's rule, shown as written, never as markdown. (It is only ever shown in embeds,
    where a mention pings nobody; escaping one would change the text the seal is checked on.)"""
    return f"“{discord.utils.escape_markdown(rule)}”"


def a_rule(level: str) -> str:
    """ "an easy rule", "a medium rule", "a hard rule"."""
    return f"{'an' if level[0] in 'aeiou' else 'a'} {level} rule"


def short_seal(seal: str) -> str:
    return f"`{seal[:12]}…`"


def oracle_name(view: DelphiView, names: list[str]) -> str:
    return "the bot" if view.oracle is None else names[view.oracle]


def line_text(view: DelphiView) -> str:
    """The line left to right, each card's incorrect cards in brackets after it."""
    if not view.line:
        return "no cards yet"
    parts = []
    for card, under in zip(view.line, view.below, strict=True):
        below = f" [{' '.join(c.label for c in under)}]" if under else ""
        parts.append(f"{card.label}{below}")
    text = " · ".join(parts)
    if view.aside:
        text += f"\nSet aside, unjudged: {' '.join(c.label for c in view.aside)}"
    return text[-1024:]


def seat_list(seats: Iterable[int], names: list[str]) -> str:
    return ", ".join(names[seat] for seat in seats) or "nobody"


class DelphiUI(GameUI[DelphiView, DelphiOptions]):
    game_id = DELPHI.id
    colour = discord.Colour.purple()

    # ---- the table ---------------------------------------------------------------------------

    def public_embed(self, table: Table, view: DelphiView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Delphi · hand {view.hand} of {view.hands}", colour=self.colour
        )
        embed.description = self.situation(view, names)
        embed.add_field(
            name="Line (incorrect cards in brackets)", value=line_text(view), inline=False
        )
        tokens = [
            f"{names[seat]} {count}" for seat, count in enumerate(view.tokens) if count is not None
        ]
        embed.add_field(name="Tokens", value=" · ".join(tokens))
        embed.add_field(
            name="Scores",
            value=" · ".join(f"{n} {s}" for n, s in zip(names, view.scores, strict=True)),
        )
        if view.seal:
            embed.add_field(name="Sealed rule (SHA-256)", value=f"`{view.seal}`", inline=False)
        return embed

    def situation(self, view: DelphiView, names: list[str]) -> str:
        oracle = oracle_name(view, names)
        if view.phase == "rule":
            return f"**{oracle}** is the oracle and is writing a secret rule."
        if view.phase == "answer":
            assert view.current is not None  # the card everyone answers on
            judge = (
                " (the bot judges a rule it drew)"
                if view.oracle is not None and view.bot_judges
                else ""
            )
            level = f" ({a_rule(view.level)})" if view.oracle is None and view.level else ""
            answered = seat_list(view.answered, names)
            judged = ""
            if view.oracle is not None and not view.bot_judges:
                judged = f" · {oracle} {'has judged' if view.oracle_judged else 'is judging'}"
            return (
                f"Oracle: **{oracle}**{level}{judge}\n"
                f"Card {view.number} of {view.of}: **{view.current.label}**. Is it correct?\n"
                f"Answered: {answered}{judged}"
            )
        if view.result is not None:
            return f"Hand over. The rule was {quoted(view.result.rule)}"
        return "The game is over."

    def private_embed(self, table: Table, view: DelphiView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=f"Delphi · hand {view.hand} of {view.hands} · table {table.id}",
            colour=self.colour,
        )
        embed.description = self.situation(view, names)
        if view.my_rule:
            embed.add_field(name="Your rule", value=quoted(view.my_rule), inline=False)
        if view.my_verdict is not None:
            embed.add_field(
                name="Your verdict", value=f"{view.my_verdict} (waiting for the others)"
            )
        if view.my_answer is not None:
            embed.add_field(name="Your answer", value=f"{view.my_answer} (waiting for the others)")
        mine = view.tokens[view.seat] if view.seat is not None else None
        if mine is not None:
            embed.add_field(name="Your tokens", value=str(mine))
        embed.add_field(
            name="Line (incorrect cards in brackets)", value=line_text(view), inline=False
        )
        return embed

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """Writing the rule: the form's button, and letting the bot draw one instead."""
        decision = table.decision(seat)
        if decision is None or decision.text_question is None:
            return action_controls(table, seat, self)
        prompt = table.seats[seat].prompt
        view = Controls()
        view.button(**TextButton.look(table.id, prompt, "Write your rule"))
        state_view = table.view(seat)
        assert isinstance(state_view, DelphiView)  # a Delphi table's
        for action in table.legal_actions(seat):
            label = self.action_label(state_view, action)
            view.button(**ActionButton.look(table.id, prompt, action_token(action), label))
        return view

    def image(self, view: DelphiView) -> bytes:
        return render_layout(view)

    def options_text(self, options: DelphiOptions) -> str:
        if options.oracle == "players":
            oracle = "each player in turn"
        else:
            oracle = f"the bot ({options.difficulty} rules, {plural(options.bot_hands, 'hand')})"
        return f"oracle: {oracle}, cards per hand: {options.cards}"

    def action_label(self, view: DelphiView, action: Action) -> str:
        return ACTION_LABELS.get(action.kind, action.kind.title())

    # ---- events -----------------------------------------------------------------------------

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case OracleWrites():
                return f"{names[event.oracle]} is the oracle and writes a secret rule."
            case RuleSealed():
                seal = short_seal(event.seal)
                if event.oracle is not None and not event.drawn:
                    return f"{names[event.oracle]} has written the rule: sealed {seal}."
                assert event.level is not None  # a rule the bot drew has a difficulty
                level = a_rule(event.level)
                if event.oracle is None:
                    return f"The bot is the oracle: {level}, sealed {seal}."
                return (
                    f"The bot drew {level} for {names[event.oracle]} and judges it: sealed {seal}."
                )
            case StarterTurned():
                return f"The starter is {event.card.label}: the line begins."
            case Revealed():
                return self.reveal_line(event, names)
            case HandScored():
                return f"Hand over: the rule was {quoted(event.result.rule)}"
        return None

    def reveal_line(self, event: Revealed, names: list[str]) -> str:
        groups = []
        for answer in ("yes", "no", "abstain"):
            seats = [seat for seat, given in event.answers.items() if given == answer]
            if not seats:
                continue
            who = ", ".join(
                f"{names[seat]}{f' {event.paid[seat]:+d}' if event.paid[seat] else ''}"
                for seat in seats
            )
            groups.append(f"{ANSWER_WORDS[answer]}: {who}")
        return f"{event.card.label} is {VERDICT_WORDS[event.verdict]} · {' · '.join(groups)}"

    def hand_summary(
        self, table: Table, view: DelphiView, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        embed = discord.Embed(title=f"Delphi · hand {view.hand} over", colour=self.colour)
        author = (
            f"written by {names[result.oracle]}"
            if result.oracle is not None and not result.drawn
            else "drawn by the bot"
        )
        embed.description = (
            f"**The rule** ({author}): {quoted(result.rule)}\n"
            f"**Salt:** `{result.salt}`\n"
            f"**Seal:** `{result.seal}`\n"
            "Check: the seal is the SHA-256 of the salt, a colon and the rule."
        )
        embed.add_field(name="This hand", value=self.scores_text(result, view, names), inline=False)
        return embed

    def scores_text(self, result: HandResult, view: DelphiView, names: list[str]) -> str:
        lines = []
        for seat, name in enumerate(names):
            tokens = result.tokens[seat]  # None for the oracle
            what = "oracle" if tokens is None else plural(tokens, "token")
            lines.append(f"{name} ({what}): {result.scores[seat]:+d} · total {view.scores[seat]}")
        return "\n".join(lines)


# ---- the layout as a picture -----------------------------------------------------------------

CARD_W, CARD_H, GAP, PEEK, MARGIN = 46, 64, 6, 22, 14
COLUMNS = 13  # line cards per band before the line wraps
Colour = tuple[int, int, int]
FELT = (31, 81, 48)
PAPER = (248, 249, 250)
INK = (33, 37, 41)
RED = (201, 42, 42)
GOLD = (250, 219, 95)
MUTED = (190, 210, 195)
HEADER_H = CARD_H + 2 * MARGIN


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def render_layout(view: DelphiView) -> bytes:
    """The card to judge above; the line left to right in bands of 13, each card with its
    incorrect cards fanned below it; the cards set aside at the bottom."""
    width = 2 * MARGIN + COLUMNS * (CARD_W + GAP)
    bands = [
        (view.line[i : i + COLUMNS], view.below[i : i + COLUMNS])
        for i in range(0, len(view.line), COLUMNS)
    ]
    heights = [band_height(below) for _, below in bands]
    aside_h = (PEEK + CARD_H + MARGIN) if view.aside else 0
    height = HEADER_H + sum(heights) + aside_h + MARGIN
    image = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(image)
    draw_header(draw, view)
    top = HEADER_H
    for (line, below), band in zip(bands, heights, strict=True):
        for column, (card, under) in enumerate(zip(line, below, strict=True)):
            x = MARGIN + column * (CARD_W + GAP)
            draw_card(draw, (x, top), card)
            for index, incorrect in enumerate(under):
                draw_card(draw, (x, top + CARD_H + GAP + index * PEEK), incorrect)
        top += band
    if view.aside:
        draw.text((MARGIN, top), "Set aside, unjudged", fill=MUTED, font=font(14))
        step = min(CARD_W + GAP, (width - 2 * MARGIN - CARD_W) // max(1, len(view.aside) - 1))
        for index, card in enumerate(view.aside):
            draw_card(draw, (MARGIN + index * step, top + PEEK), card)
    out = io.BytesIO()
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()


def band_height(below: list[list[FrenchCard]]) -> int:
    deepest = max((len(under) for under in below), default=0)
    fanned = GAP + CARD_H + (deepest - 1) * PEEK if deepest else 0
    return CARD_H + fanned + MARGIN


def draw_header(draw: ImageDraw.ImageDraw, view: DelphiView) -> None:
    if view.current is not None:
        draw_card(draw, (MARGIN, MARGIN), view.current, outline=GOLD)
        text = f"Card {view.number} of {view.of}: correct or not?"
    elif view.phase == "rule":
        text = "The oracle is writing the secret rule"
    else:
        text = "Hand over"
    x = MARGIN + (CARD_W + 2 * GAP if view.current is not None else 0)
    draw.text((x, MARGIN + CARD_H // 2), text, fill=PAPER, font=font(20), anchor="lm")


def draw_card(
    draw: ImageDraw.ImageDraw, at: tuple[int, int], card: FrenchCard, outline: Colour = INK
) -> None:
    assert card.rank is not None and card.suit is not None  # Delphi's pack has no jokers
    x, y = at
    draw.rounded_rectangle(
        (x, y, x + CARD_W, y + CARD_H), radius=6, fill=PAPER, outline=outline, width=2
    )
    colour = RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else INK
    draw.text((x + 5, y + 3), card.rank.label, fill=colour, font=font(16))
    draw_suit(draw, card.suit, (x + CARD_W - 11, y + 11), 6, colour)
    draw_suit(draw, card.suit, (x + CARD_W // 2, y + CARD_H // 2 + 8), 12, colour)


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: Suit, centre: tuple[int, int], r: float, colour: Colour
) -> None:
    """♠ ♥ ♦ ♣ from plain shapes (the default font has no suit glyphs)."""
    x, y = centre
    if suit is Suit.DIAMONDS:
        draw.polygon([(x, y - r), (x + r * 0.75, y), (x, y + r), (x - r * 0.75, y)], fill=colour)
        return
    if suit is Suit.CLUBS:
        lobe = r * 0.48
        for cx, cy in ((x, y - r * 0.45), (x - r * 0.5, y + r * 0.15), (x + r * 0.5, y + r * 0.15)):
            draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=colour)
    else:  # a heart, or a spade: a heart upside down
        sign = 1 if suit is Suit.HEARTS else -1
        lobe = r * 0.52
        for cx in (x - r * 0.48, x + r * 0.48):
            cy = y - sign * r * 0.3
            draw.ellipse((cx - lobe, cy - lobe, cx + lobe, cy + lobe), fill=colour)
        draw.polygon(
            [(x - r, y - sign * r * 0.15), (x + r, y - sign * r * 0.15), (x, y + sign * r)],
            fill=colour,
        )
    if suit in (Suit.SPADES, Suit.CLUBS):  # the stem
        draw.polygon([(x, y), (x - r * 0.35, y + r), (x + r * 0.35, y + r)], fill=colour)


Delphi = table_game_cog("delphi", DELPHI, RULES)


async def setup(bot: CardTableBot) -> None:
    bot.presenter.register(DelphiUI())
    await bot.add_cog(Delphi(bot))
