"""Delphi's records: the options a table is set with, the decisions seats face (its
DecisionKind), the actions they take, the events they make, and what each seat is shown.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.cards import FrenchCard
from bot.engine import Action, DecisionKind, Event
from bot.i18n import N_

STARTING_TOKENS = 1
MAX_RULE_LENGTH = 300  # a modal's answer holds no more
SALT_BITS = 128
RULE_QUESTION = N_("Write your secret rule")  # said with _() where asked
RULE_SECONDS = 300  # the oracle has at least five minutes to write a rule

AnswerKind = Literal["yes", "no", "abstain"]
VerdictKind = Literal["correct", "incorrect", "unjudged"]


# ---- decisions --------------------------------------------------------------------------------


class DelphiKind(DecisionKind):
    """What a Delphi decision asks: the oracle's secret rule, or (secretly) an answer or a
    verdict."""

    RULE = "rule"
    ANSWER = "answer"
    JUDGE = "judge"


class DelphiOptions(BaseModel):
    oracle: Literal["players", "bot"] = Field(
        default="players", description="Who is the oracle: each player in turn, or the bot"
    )
    bot_hands: int = Field(
        default=1, ge=1, le=10, description="Hands to play when the bot is the oracle"
    )
    difficulty: Literal["easy", "medium", "hard", "any"] = Field(
        default="medium", description="How hard the bot's rules are"
    )
    cards: int = Field(
        default=52, ge=6, le=52, description="Cards placed per hand, the starter included"
    )


# ---- actions ----------------------------------------------------------------------------------


class WriteRule(Action):
    """A player oracle's rule, in words (from the modal)."""

    kind: Literal["rule"] = "rule"
    text: str


class DrawRule(Action):
    """The oracle lets the bot draw a rule from its library (and judge it)."""

    kind: Literal["draw_rule"] = "draw_rule"


class Answer(Action):
    """A player's secret answer to the card: yes (correct), no, or abstain."""

    kind: AnswerKind


class Verdict(Action):
    """A player oracle's secret verdict on the card: correct or incorrect. "unjudged" (set
    aside) is never offered: it is only the timeout default."""

    kind: VerdictKind


DelphiAction = Annotated[WriteRule | DrawRule | Answer | Verdict, Field(discriminator="kind")]

YES, NO, ABSTAIN = Answer(kind="yes"), Answer(kind="no"), Answer(kind="abstain")
CORRECT, INCORRECT, UNJUDGED = (
    Verdict(kind="correct"),
    Verdict(kind="incorrect"),
    Verdict(kind="unjudged"),
)


# ---- events -----------------------------------------------------------------------------------


class OracleWrites(Event):
    kind: Literal["oracle_writes"] = "oracle_writes"
    oracle: int


class RuleSealed(Event):
    """The rule is fixed: its seal (SHA-256 of "salt:rule") is shown, the rule stays secret."""

    kind: Literal["rule_sealed"] = "rule_sealed"
    oracle: int | None  # None: the bot is the oracle
    seal: str
    drawn: bool  # a rule from the bot's library, which the bot judges
    level: str | None = None  # a drawn rule's difficulty


class StarterTurned(Event):
    kind: Literal["starter"] = "starter"
    card: FrenchCard


class CardTurned(Event):
    kind: Literal["card_turned"] = "card_turned"
    card: FrenchCard
    number: int  # 1 for the first card after the starter
    of: int


class Revealed(Event):
    """All answers and the verdict, shown together; each player's token change."""

    kind: Literal["revealed"] = "revealed"
    card: FrenchCard
    verdict: VerdictKind
    answers: dict[int, AnswerKind]
    paid: dict[int, int]  # +1 won from the bank, -1 paid back, 0
    tokens: list[int]


class HandResult(BaseModel):
    """A finished hand, shown between hands: the rule unsealed and the scores."""

    oracle: int | None
    rule: str
    drawn: bool
    salt: str
    seal: str
    tokens: list[int | None]  # per seat; None for the oracle
    scores: list[int]  # the hand's score per seat (the oracle's own score for the oracle)


class HandScored(Event):
    kind: Literal["hand_scored"] = "hand_scored"
    result: HandResult
    totals: list[int]


# ---- what players see -------------------------------------------------------------------------


class DelphiView(BaseModel):
    hand: int
    hands: int
    phase: str
    oracle: int | None
    bot_judges: bool
    level: str | None  # a drawn rule's difficulty
    seal: str | None
    line: list[FrenchCard]
    below: list[list[FrenchCard]]  # the incorrect cards under each card of the line
    aside: list[FrenchCard]  # cards the oracle left unjudged
    current: FrenchCard | None
    number: int  # the card being judged, counted from 1 after the starter
    of: int
    answered: list[int]  # players whose answer is in (never what it is)
    oracle_judged: bool
    tokens: list[int | None]  # None for the oracle
    scores: list[int]  # match totals
    last: Revealed | None
    result: HandResult | None
    seat: int | None = None
    my_answer: AnswerKind | None = None
    my_verdict: VerdictKind | None = None
    my_rule: str | None = None  # a player oracle's own rule
