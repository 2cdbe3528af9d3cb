"""Delphi (bot/games/delphi/rules.md): Kruskal's oracle game, for 3-7 players.

The oracle holds a secret rule saying which cards are correct, judged from the line of correct
cards before them. The oracle is each seated player in turn (who writes the rule in words,
sealed by the bot and revealed when the hand ends) or the bot (a rule from its library,
bot/games/delphi/library.py). A starter begins the line; then each card turned from the stock is
answered yes or no by every player at once and in secret, and the oracle's verdict (correct
or incorrect) is revealed with the answers: a correct card extends the line, an incorrect one
goes below its last card. A right answer wins a token from the bank, a wrong one pays one back
(if the player has one). Only an oracle who does not judge in time leaves a card unjudged: it
is set aside with no payments.

The players of a hand are everyone but the oracle. With n players and T tokens among them, a
player scores n x own tokens - T; the oracle scores the sum of every player's shortfall to each
player who collected more. A match lasts until every player has been the oracle once (with the
bot as oracle: a number of hands); the highest total wins.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Literal

from bot.cards import FrenchCard, french_deck
from bot.engine import (
    Action,
    Decision,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Rng,
    TextAnswers,
    UnlistedActions,
    Viewer,
)
from bot.games.delphi.library import BY_ID, LEVEL_NAMES, rules_at
from bot.games.delphi.records import (
    ABSTAIN,
    CORRECT,
    INCORRECT,
    MAX_RULE_LENGTH,
    NO,
    RULE_QUESTION,
    RULE_SECONDS,
    SALT_BITS,
    STARTING_TOKENS,
    UNJUDGED,
    YES,
    Answer,
    AnswerKind,
    CardTurned,
    DelphiKind,
    DelphiOptions,
    DelphiView,
    DrawRule,
    HandResult,
    HandScored,
    OracleWrites,
    Revealed,
    RuleSealed,
    StarterTurned,
    Verdict,
    VerdictKind,
    WriteRule,
)
from bot.games.hands import PointsMatchHands
from bot.games.matches import Match
from bot.i18n import _, n_

# ---- scoring (the rule text's definitions) ----------------------------------------------------


def player_scores(tokens: Sequence[int]) -> list[int]:
    """Each player's own count less every other player's, added up: n x own - total."""
    total = sum(tokens)
    return [len(tokens) * own - total for own in tokens]


def oracle_score(tokens: Sequence[int]) -> int:
    """Everything the players subtract: each one's shortfall to every player who has more."""
    return sum(other - own for own in tokens for other in tokens if other > own)


def seal_of(salt: str, rule: str) -> str:
    return hashlib.sha256(f"{salt}:{rule}".encode()).hexdigest()


def clean_rule(text: str) -> str:
    """The rule as sealed and shown: runs of spaces and line breaks become one space."""
    return " ".join(text.split())


# ---- the game ---------------------------------------------------------------------------------


class DelphiState(TextAnswers, UnlistedActions, PointsMatchHands):
    # Unlisted: an oracle's choices are correct and incorrect, and `legal_actions` lists only those;
    # `verify` also accepts "unjudged" from an oracle still judging, as its timeout default
    # must pass (the table applies it like any action). So the legal list is not all that is
    # accepted: the runtime plays only listed actions for a button, never "unjudged".

    options: DelphiOptions
    phase: Literal["rule", "answer", "between", "over"] = "rule"
    stock: list[FrenchCard] = []
    line: list[FrenchCard] = []
    below: list[list[FrenchCard]] = []
    aside: list[FrenchCard] = []
    current: FrenchCard | None = None
    judged: int = 0
    answers: dict[int, AnswerKind] = {}
    verdict: VerdictKind | None = None
    tokens: list[int] = []
    rule: str = ""
    library_rule: str | None = None  # the id of a drawn rule: the bot judges by it
    salt: str = ""
    seal: str = ""
    last: Revealed | None = None
    result: HandResult | None = None

    # ---- who plays --------------------------------------------------------------------------

    @property
    def oracle(self) -> int | None:
        """The oracle's seat; None when the bot is the oracle."""
        return self.dealer if self.options.oracle == "players" else None

    def seats(self) -> range:
        return range(self.seat_count)

    def players(self) -> list[int]:
        return [seat for seat in self.seats() if seat != self.oracle]

    def oracle_judges(self) -> bool:
        """A player oracle judges the cards, unless the bot drew the rule for them."""
        return self.oracle is not None and self.library_rule is None

    # ---- the flow of a hand -----------------------------------------------------------------

    def start_hand(self) -> list[Event]:
        self.stock = self.rng.shuffled(french_deck())
        self.line, self.below, self.aside, self.current = [], [], [], None
        self.judged, self.answers, self.verdict = 0, {}, None
        self.rule, self.library_rule, self.salt, self.seal = "", None, "", ""
        self.last, self.result = None, None
        self.tokens = [STARTING_TOKENS if seat != self.oracle else 0 for seat in self.seats()]
        events: list[Event] = [HandStarted(hand=self.hand)]
        if self.oracle is not None:
            self.phase = "rule"
            return [*events, OracleWrites(oracle=self.oracle)]
        return [*events, *self.draw_rule(), *self.begin_line()]

    def seal_rule(self, rule: str) -> None:
        self.rule = rule
        self.salt = f"{self.rng.randrange(2**SALT_BITS):0{SALT_BITS // 4}x}"
        self.seal = seal_of(self.salt, rule)

    def draw_rule(self) -> list[Event]:
        """The bot draws a rule of the table's difficulty from its library."""
        choices = rules_at(self.options.difficulty)
        rule = choices[self.rng.randrange(len(choices))]
        self.library_rule = rule.id
        self.seal_rule(rule.text)
        level = LEVEL_NAMES[rule.level]
        return [RuleSealed(oracle=self.oracle, seal=self.seal, drawn=True, level=level)]

    def begin_line(self) -> list[Event]:
        """The starter begins the line of correct cards; then the first card is turned."""
        starter = self.stock.pop(0)
        self.line, self.below = [starter], [[]]
        return [StarterTurned(card=starter), *self.turn_card()]

    def turn_card(self) -> list[Event]:
        self.current = self.stock.pop(0)
        self.answers, self.verdict, self.phase = {}, None, "answer"
        return [CardTurned(card=self.current, number=self.judged + 1, of=self.to_judge())]

    def to_judge(self) -> int:
        """The cards judged in a hand: every card placed but the starter."""
        return self.options.cards - 1

    def judge(self, card: FrenchCard) -> VerdictKind:
        if self.oracle_judges():
            assert self.verdict is not None  # the card is revealed once the oracle judged it
            return self.verdict
        assert self.library_rule is not None  # else a player oracle judges
        correct = BY_ID[self.library_rule].judge(self.line, card)
        return "correct" if correct else "incorrect"

    def reveal(self) -> list[Event]:
        """Everyone has answered: the verdict, the tokens, and the card placed."""
        card = self.current
        assert card is not None  # the card answered about
        verdict = self.judge(card)
        answers = {seat: self.answers.get(seat, "abstain") for seat in self.players()}
        paid = {seat: self.payment(seat, answer, verdict) for seat, answer in answers.items()}
        for seat, tokens in paid.items():
            self.tokens[seat] += tokens
        if verdict == "correct":
            self.line.append(card)
            self.below.append([])
        elif verdict == "incorrect":
            self.below[-1].append(card)
        else:
            self.aside.append(card)
        self.judged, self.current = self.judged + 1, None
        self.last = Revealed(
            card=card, verdict=verdict, answers=answers, paid=paid, tokens=list(self.tokens)
        )
        if self.judged < self.to_judge() and self.stock:
            return [self.last, *self.turn_card()]
        return [self.last, *self.end_hand()]

    def payment(self, seat: int, answer: AnswerKind, verdict: VerdictKind) -> int:
        """A token from the bank for a right answer; one back for a wrong one, if held."""
        if answer == "abstain" or verdict == "unjudged":
            return 0
        if (answer == "yes") == (verdict == "correct"):
            return 1
        return -1 if self.tokens[seat] > 0 else 0

    def end_hand(self) -> list[Event]:
        players = self.players()
        scores = [0] * self.seat_count
        own = player_scores([self.tokens[seat] for seat in players])
        for seat, score in zip(players, own, strict=True):
            scores[seat] = score
        if self.oracle is not None:
            scores[self.oracle] = oracle_score([self.tokens[s] for s in players])
        self.result = HandResult(
            oracle=self.oracle,
            rule=self.rule,
            drawn=self.library_rule is not None,
            salt=self.salt,
            seal=self.seal,
            tokens=[None if seat == self.oracle else self.tokens[seat] for seat in self.seats()],
            scores=scores,
        )
        over = self.match.add_hand(scores)
        best = max(scores)
        events: list[Event] = [
            HandScored(result=self.result, totals=list(self.match.scores)),
            HandEnded(
                hand=self.hand,
                players=list(self.seats()),
                net_chips=[0] * self.seat_count,
                scores=list(scores),
                winners=[seat for seat in self.seats() if scores[seat] == best],
            ),
        ]
        self.phase = "over" if over else "between"
        return [*events, self.standings()] if over else events

    # ---- the protocol -----------------------------------------------------------------------

    def pending_seats(self) -> list[int]:
        """Who must decide now (cheaper than building their decisions; none is optional)."""
        oracle = self.oracle
        if self.phase == "rule":
            assert oracle is not None  # only a player oracle writes a rule
            return [oracle]
        if self.phase != "answer":
            return []
        seats = [seat for seat in self.players() if seat not in self.answers]
        if self.oracle_judges() and self.verdict is None:
            assert oracle is not None  # oracle_judges: a player oracle
            seats.append(oracle)
        return seats

    def required_seats(self) -> list[int]:
        return self.pending_seats()

    def pending(self) -> list[Decision]:
        oracle = self.oracle
        if self.phase == "rule":
            assert oracle is not None  # only a player oracle writes a rule
            prompt = _(
                "You are the oracle. Write a secret rule saying which cards are correct, judged "
                "only from the line of correct cards before them (the starter comes first). The "
                "bot seals it and shows it when the hand ends. Or let the bot draw a rule."
            )
            return [
                Decision(
                    seat=oracle,
                    kind=DelphiKind.RULE,
                    prompt=prompt,
                    text_question=_(RULE_QUESTION),
                    least_seconds=RULE_SECONDS,
                )
            ]
        if self.phase != "answer":
            return []
        assert self.current is not None  # the card answered about
        card = {"number": self.judged + 1, "of": self.to_judge(), "card": self.current.label}
        answer = _(
            "Card {number} of {of}: {card}. Is it correct? Answer in secret: yes, no, or abstain.",
            **card,
        )
        judge = _(
            "Card {number} of {of}: {card}. Judge it by your rule, in secret: correct or "
            "incorrect.",
            **card,
        )
        return [
            Decision(seat=seat, kind=DelphiKind.JUDGE, prompt=judge, secret=True)
            if seat == oracle
            else Decision(seat=seat, kind=DelphiKind.ANSWER, prompt=answer, secret=True)
            for seat in self.pending_seats()
        ]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase == "rule":
            return [DrawRule()]  # and any rule in words (see verify)
        if seat == self.oracle:
            return [CORRECT, INCORRECT]  # "unjudged" only when time runs out
        return [YES, NO, ABSTAIN]

    def text_action(self, seat: int, text: str) -> Action:
        rule = clean_rule(text)
        if not rule:
            raise IllegalAction(_("Write your rule: which cards are correct, after which cards."))
        if len(rule) > MAX_RULE_LENGTH:
            raise IllegalAction(
                n_(
                    "Keep your rule to {count} character.",
                    "Keep your rule to {count} characters.",
                    MAX_RULE_LENGTH,
                )
            )
        return WriteRule(text=rule)

    def verify(self, seat: int, action: Action) -> None:
        writing = self.phase == "rule" and seat == self.oracle
        if isinstance(action, WriteRule) and writing and not self.is_over():
            if self.text_action(seat, action.text) != action:
                raise IllegalAction(_("Write your rule as plain words."))
            return
        if action == UNJUDGED and self.judging(seat):
            return  # the timeout default: the table plays it, no button offers it
        super().verify(seat, action)

    def judging(self, seat: int) -> bool:
        """`seat` is the player oracle and has yet to judge the card."""
        return self.phase == "answer" and seat == self.oracle and seat in self.pending_seats()

    def default_action(self, seat: int) -> Action:
        """No rule written: the bot draws one and judges it. No verdict: the card is set aside
        unjudged. No answer: the player abstains."""
        if self.phase == "rule":
            return DrawRule()
        return UNJUDGED if seat == self.oracle else ABSTAIN

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, WriteRule):
            self.seal_rule(action.text)
            sealed = RuleSealed(oracle=seat, seal=self.seal, drawn=False)
            return [sealed, *self.begin_line()]
        if isinstance(action, DrawRule):
            return [*self.draw_rule(), *self.begin_line()]
        if isinstance(action, Verdict):
            self.verdict = action.kind
        else:
            assert isinstance(action, Answer)  # verify lets no other action through
            self.answers[seat] = action.kind
        return self.reveal() if not self.pending_seats() else []

    # ---- views ------------------------------------------------------------------------------

    def view(self, viewer: Viewer) -> DelphiView:
        drawn = BY_ID.get(self.library_rule) if self.library_rule else None
        view = DelphiView.model_construct(  # built from the state's own valid fields
            hand=self.hand,
            hands=self.match.hands_to_play(),
            phase=self.phase,
            oracle=self.oracle,
            bot_judges=drawn is not None,
            level=LEVEL_NAMES[drawn.level] if drawn else None,
            seal=self.seal or None,
            line=list(self.line),
            below=[list(cards) for cards in self.below],
            aside=list(self.aside),
            current=self.current,
            number=self.judged + 1,
            of=self.to_judge(),
            answered=sorted(self.answers) if self.phase == "answer" else [],
            oracle_judged=self.verdict is not None,
            tokens=[None if seat == self.oracle else self.tokens[seat] for seat in self.seats()],
            scores=list(self.match.scores),  # one side per seat, in seat order
            last=self.last,
            result=self.result,
            seat=viewer,
        )
        if viewer is not None and viewer == self.oracle and self.oracle_judges() and self.rule:
            view.my_rule = self.rule
        if viewer is not None and self.phase == "answer":  # the card still being answered
            view.my_answer = self.answers.get(viewer)
            view.my_verdict = self.verdict if viewer == self.oracle else None
        return view

    def all_cards(self) -> list[FrenchCard]:
        under = [card for cards in self.below for card in cards]
        turned = [self.current] if self.current is not None else []
        return [*self.stock, *self.line, *under, *self.aside, *turned]

    def hidden_from(self, viewer: Viewer) -> set[FrenchCard]:
        return set(self.stock)


def new_delphi(
    options: DelphiOptions, stacks: list[int], rng: Rng
) -> tuple[DelphiState, list[Event]]:
    seats = len(stacks)
    hands = seats if options.oracle == "players" else options.bot_hands
    state = DelphiState(
        rng=rng, seat_count=seats, options=options, match=Match.for_hands(seats, hands)
    )
    return state, state.start_hand()
