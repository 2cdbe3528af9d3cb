"""Delphi on Discord: its GameUI (how its table, hands and events read) and RULES, what
`/delphi rules` shows, read from rules.md beside this module. Its slash commands are
cogs/delphi.py. Its layout picture is picture.py."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.discord.controls import ActionButton, Controls
from bot.discord.format import kind_name
from bot.discord.game_ui import GameUI, action_controls, rules_beside
from bot.discord.text_answers import TextButton
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
from bot.games.delphi.library import LIBRARY
from bot.games.delphi.picture import render_layout
from bot.i18n import N_, _, n_
from bot.tables import Table, action_token

RULES = rules_beside(__name__)

ANSWER_GROUPS = {
    "yes": N_("yes: {players}"),
    "no": N_("no: {players}"),
    "abstain": N_("abstained: {players}"),
}
ACTION_LABELS = {
    "yes": N_("Yes, correct"),
    "no": N_("No"),
    "abstain": N_("Abstain"),
    "correct": N_("Correct"),
    "incorrect": N_("Incorrect"),
    "draw_rule": N_("Let the bot draw a rule"),
}
VERDICT_LINES = {
    "correct": N_("{card} is correct: it extends the line"),
    "incorrect": N_("{card} is incorrect: it goes below the line"),
    "unjudged": N_("{card} is left unjudged: set aside"),
}
A_RULE = {"easy": N_("an easy rule"), "medium": N_("a medium rule"), "hard": N_("a hard rule")}
RULES_OF = {
    "easy": N_("easy rules"),
    "medium": N_("medium rules"),
    "hard": N_("hard rules"),
    "any": N_("any rules"),
}
# A seat's own answer or verdict, by its kind, while the others answer.
WAITING = {
    "yes": N_("yes (waiting for the others)"),
    "no": N_("no (waiting for the others)"),
    "abstain": N_("abstain (waiting for the others)"),
    "correct": N_("correct (waiting for the others)"),
    "incorrect": N_("incorrect (waiting for the others)"),
    "unjudged": N_("unjudged (waiting for the others)"),
}
LIBRARY_TEXTS = frozenset(rule.text for rule in LIBRARY)


def quoted(rule: str) -> str:
    """A player's rule, shown as written, never as markdown. (It is only ever shown in embeds,
    where a mention pings nobody; escaping one would change the text the seal is checked on.)"""
    return _("“{rule}”", rule=discord.utils.escape_markdown(rule))


def in_words(rule: str) -> str:
    """A rule in the reader's language: one of the bot's library (drawn, or written by an AI
    oracle) is translated; a player's is shown as written."""
    return _(rule) if rule in LIBRARY_TEXTS else rule


def a_rule(level: str) -> str:
    """ "an easy rule", "a medium rule", "a hard rule"."""
    return _(A_RULE[level])


def short_seal(seal: str) -> str:
    return f"`{seal[:12]}…`"


def oracle_name(view: DelphiView, names: list[str]) -> str:
    return _("the bot") if view.oracle is None else names[view.oracle]


def line_text(view: DelphiView) -> str:
    """The line left to right, each card's incorrect cards in brackets after it."""
    if not view.line:
        return _("no cards yet")
    parts = []
    for card, under in zip(view.line, view.below, strict=True):
        below = f" [{' '.join(c.label for c in under)}]" if under else ""
        parts.append(f"{card.label}{below}")
    text = " · ".join(parts)
    if view.aside:
        aside = " ".join(c.label for c in view.aside)
        text += "\n" + _("Set aside, unjudged: {cards}", cards=aside)
    return text[-1024:]


def seat_list(seats: Iterable[int], names: list[str]) -> str:
    return ", ".join(names[seat] for seat in seats) or _("nobody")


class DelphiUI(GameUI[DelphiView, DelphiOptions]):
    game_id = DELPHI.id
    colour = discord.Colour.purple()

    # ---- the table ---------------------------------------------------------------------------

    def public_embed(self, table: Table, view: DelphiView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_("Delphi · hand {number} of {hands}", number=view.hand, hands=view.hands),
            colour=self.colour,
        )
        embed.description = self.situation(view, names)
        embed.add_field(
            name=_("Line (incorrect cards in brackets)"), value=line_text(view), inline=False
        )
        tokens = [
            f"{names[seat]} {count}" for seat, count in enumerate(view.tokens) if count is not None
        ]
        embed.add_field(name=_("Tokens"), value=" · ".join(tokens))
        embed.add_field(
            name=_("Scores"),
            value=" · ".join(f"{n} {s}" for n, s in zip(names, view.scores, strict=True)),
        )
        if view.seal:
            embed.add_field(name=_("Sealed rule (SHA-256)"), value=f"`{view.seal}`", inline=False)
        return embed

    def situation(self, view: DelphiView, names: list[str]) -> str:
        oracle = oracle_name(view, names)
        if view.phase == "rule":
            return _("**{oracle}** is the oracle and is writing a secret rule.", oracle=oracle)
        if view.phase == "answer":
            assert view.current is not None  # the card everyone answers on
            if view.oracle is None and view.level:
                who = _("Oracle: **{oracle}** ({rule})", oracle=oracle, rule=a_rule(view.level))
            elif view.oracle is not None and view.bot_judges:
                who = _("Oracle: **{oracle}** (the bot judges a rule it drew)", oracle=oracle)
            else:
                who = _("Oracle: **{oracle}**", oracle=oracle)
            card = _(
                "Card {number} of {of}: **{card}**. Is it correct?",
                number=view.number,
                of=view.of,
                card=view.current.label,
            )
            answered = _("Answered: {players}", players=seat_list(view.answered, names))
            if view.oracle is not None and not view.bot_judges:
                if view.oracle_judged:
                    answered += " · " + _("{oracle} has judged", oracle=oracle)
                else:
                    answered += " · " + _("{oracle} is judging", oracle=oracle)
            return "\n".join((who, card, answered))
        if view.result is not None:
            rule = quoted(in_words(view.result.rule))
            return _("Hand over. The rule was {rule}", rule=rule)
        return _("The game is over.")

    def private_embed(self, table: Table, view: DelphiView, names: list[str]) -> discord.Embed:
        embed = discord.Embed(
            title=_(
                "Delphi · hand {number} of {hands} · table {table}",
                number=view.hand,
                hands=view.hands,
                table=str(table.id),
            ),
            colour=self.colour,
        )
        embed.description = self.situation(view, names)
        if view.my_rule:
            embed.add_field(name=_("Your rule"), value=quoted(view.my_rule), inline=False)
        if view.my_verdict is not None:
            embed.add_field(name=_("Your verdict"), value=_(WAITING[view.my_verdict]))
        if view.my_answer is not None:
            embed.add_field(name=_("Your answer"), value=_(WAITING[view.my_answer]))
        mine = view.tokens[view.seat] if view.seat is not None else None
        if mine is not None:
            embed.add_field(name=_("Your tokens"), value=str(mine))
        embed.add_field(
            name=_("Line (incorrect cards in brackets)"), value=line_text(view), inline=False
        )
        return embed

    def private_controls(self, table: Table, seat: int) -> discord.ui.View | None:
        """Writing the rule: the form's button, and letting the bot draw one instead."""
        decision = table.decision(seat)
        if decision is None or decision.text_question is None:
            return action_controls(table, seat, self)
        prompt = table.seats[seat].prompt
        view = Controls()
        view.button(**TextButton.look(table.id, prompt, _("Write your rule")))
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
            return _("oracle: each player in turn, cards per hand: {cards}", cards=options.cards)
        return n_(
            "oracle: the bot ({rules}, {count} hand), cards per hand: {cards}",
            "oracle: the bot ({rules}, {count} hands), cards per hand: {cards}",
            options.bot_hands,
            rules=_(RULES_OF[options.difficulty]),
            cards=options.cards,
        )

    def action_label(self, view: DelphiView, action: Action) -> str:
        label = ACTION_LABELS.get(action.kind)
        return _(label) if label is not None else kind_name(action.kind)

    # ---- events -----------------------------------------------------------------------------

    def event_line(self, event: Event, names: list[str]) -> str | None:
        match event:
            case OracleWrites():
                return _("{name} is the oracle and writes a secret rule.", name=names[event.oracle])
            case RuleSealed():
                seal = short_seal(event.seal)
                if event.oracle is not None and not event.drawn:
                    return _(
                        "{name} has written the rule: sealed {seal}.",
                        name=names[event.oracle],
                        seal=seal,
                    )
                assert event.level is not None  # a rule the bot drew has a difficulty
                level = a_rule(event.level)
                if event.oracle is None:
                    return _("The bot is the oracle: {rule}, sealed {seal}.", rule=level, seal=seal)
                return _(
                    "The bot drew {rule} for {name} and judges it: sealed {seal}.",
                    rule=level,
                    name=names[event.oracle],
                    seal=seal,
                )
            case StarterTurned():
                return _("The starter is {card}: the line begins.", card=event.card.label)
            case Revealed():
                return self.reveal_line(event, names)
            case HandScored():
                rule = quoted(in_words(event.result.rule))
                return _("Hand over: the rule was {rule}", rule=rule)
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
            groups.append(_(ANSWER_GROUPS[answer], players=who))
        verdict = _(VERDICT_LINES[event.verdict], card=event.card.label)
        return f"{verdict} · {' · '.join(groups)}"

    def hand_summary(
        self, table: Table, view: DelphiView, names: list[str]
    ) -> discord.Embed | None:
        result = view.result
        if result is None:
            return None
        title = _("Delphi · hand {number} over", number=view.hand)
        embed = discord.Embed(title=title, colour=self.colour)
        rule = quoted(in_words(result.rule))
        if result.oracle is not None and not result.drawn:
            author = names[result.oracle]
            lines = [_("**The rule** (written by {name}): {rule}", name=author, rule=rule)]
        else:
            lines = [_("**The rule** (drawn by the bot): {rule}", rule=rule)]
        if in_words(result.rule) != result.rule:  # translated: the seal is on the original
            lines.append(_("**Sealed as:** {rule}", rule=quoted(result.rule)))
        lines += [
            _("**Salt:** `{salt}`", salt=result.salt),
            _("**Seal:** `{seal}`", seal=result.seal),
            _("Check: the seal is the SHA-256 of the salt, a colon and the rule."),
        ]
        embed.description = "\n".join(lines)
        embed.add_field(
            name=_("This hand"), value=self.scores_text(result, view, names), inline=False
        )
        return embed

    def scores_text(self, result: HandResult, view: DelphiView, names: list[str]) -> str:
        lines = []
        for seat, name in enumerate(names):
            tokens = result.tokens[seat]  # None for the oracle
            score, total = f"{result.scores[seat]:+d}", view.scores[seat]
            if tokens is None:
                line = _(
                    "{name} (oracle): {score} · total {total}", name=name, score=score, total=total
                )
            else:
                line = n_(
                    "{name} ({count} token): {score} · total {total}",
                    "{name} ({count} tokens): {score} · total {total}",
                    tokens,
                    name=name,
                    score=score,
                    total=total,
                )
            lines.append(line)
        return "\n".join(lines)
