"""Delphi on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/delphi rules` shows, read from rules.md beside this module. Its slash commands are
cogs/delphi.py. Its layout picture is picture.py."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.discord.controls import ActionButton, Controls, TextButton
from bot.discord.format import plural
from bot.discord.game_ui import GameUI, action_controls, rules_beside
from bot.engine import Action, Event
from bot.games.delphi import (
    DELPHI,
    DelphiOptions,
    DelphiView,
    HandResult,
    HandScored,
    OracleWrites,
    Revealed,
    RuleSealed,
    StarterTurned,
)
from bot.games.delphi.picture import render_layout
from bot.tables import Table, action_token

RULES = rules_beside(__name__)

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
