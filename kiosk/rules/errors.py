"""The small tree of errors every layer raises (docs/architecture.md, "Conventions").

Two kinds of trouble are kept apart, because the dealer's way forward differs:

- `UnreadableInput`: bytes or codes that do not mean anything (a bad frame, a bad card code).
  The way forward is to read again or key the value in.
- `NotAllowed`: a well-formed action the rules do not allow now (a bet after "no more bets",
  over the limit, a card the shoe cannot contain). It names the rule clause it breaks.

Every error's message, `str(exc)`, is English: the journal, the log and the alerts record it
so. A refusal raised with `of` also keeps its `Sentence`: the English template, the values
put in it and the clause, so that a dealer screen can say it in the dealer's language
(docs/dealer-screen.md, "Languages"). The template is a literal at the call, where
`scripts/catalogues` finds it (`-k of`); nothing here translates (the rules stay pure).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from kiosk.rules.amounts import format_money


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount of money in a refusal: written the rules' way in English ("R1,234.50"), and
    as the house writes money on a dealer screen."""

    cents: int
    currency: str = "R"

    def __str__(self) -> str:
        return format_money(self.cents, self.currency)


@dataclass(frozen=True, slots=True)
class Word:
    """A value that is itself a word (a bet's kind, a chip's colour): `text` as the English
    writes it ("banker"), `name` the screens' word for it ("Banker", which a screen in
    another language says in its words: "Bankier"); `name` is `text` when not given."""

    text: str
    name: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Sentence:
    """A message as the rules word it: an English `template` with named placeholders
    ("Box %(box)s: %(amount)s is over the table maximum of %(maximum)s"), the `values` put
    in it (ints, text, `Amount`s, `Word`s) and the clause it cites. `english()` is the message
    every record holds; the template is a message id of the catalogues."""

    template: str
    values: Mapping[str, object]
    clause: str | None = None

    def english(self) -> str:
        text = self.template % dict(self.values)
        return f"{text} (rule {self.clause})" if self.clause else text


class Said(str):
    """Words of the rules for the dealer that are not a refusal (the next step: "Coup
    complete: Player wins 9 to 7. Pay and confirm"): the English, which is what every report,
    log and console prints and compares, carrying its `Sentence` when worded with `words`, for a
    dealer screen to say it in the dealer's language. A value may itself be a `Said` (a
    hand's name inside a step) or a `Word`."""

    sentence: Sentence | None

    def __new__(cls, english: str, sentence: Sentence | None = None) -> Said:
        made = super().__new__(cls, english)
        made.sentence = sentence
        return made

    @classmethod
    def words(cls, template: str, clause: str | None = None, **values: object) -> Said:
        """`template % values` (with " (rule CLAUSE)" after it when a clause is given), the
        template kept for the dealer's language. `template` is a literal at the call
        (`scripts/catalogues` extracts it, `-k words`)."""
        sentence = Sentence(template, values, clause)
        return cls(sentence.english(), sentence)

    @classmethod
    def listing(cls, words: Sequence[Said | Word]) -> Said:
        """Words one after another, as English lists them ("draw, stand, double"), each
        said in the dealer's language on a screen."""
        names = {f"w{i}": w for i, w in enumerate(words)}
        template = ", ".join(f"%({k})s" for k in names)  # no words of its own to translate
        return cls(", ".join(str(w) for w in words), Sentence(template, names))


class TablesideError(ValueError):
    """Base of every error Tableside raises on purpose; the message is for a dealer."""

    sentence: Sentence | None = None
    """The message as a template and values, when it was raised with `of` (else None: the
    message has no other form than its English)."""


class UnreadableInput(TablesideError):
    """Input that cannot be understood: a bad frame, a bad card code, a corrupt record."""

    @classmethod
    def of(cls, template: str, **values: object) -> Self:
        """The error whose message is `template % values`: the same English as an f-string,
        with the template kept for the dealer's language. `template` is a literal at the
        call (the catalogues are extracted from the calls)."""
        err = cls(template % values)
        err.sentence = Sentence(template, values)
        return err


class NotAllowed(TablesideError):
    """A well-formed action the rules do not allow at this moment."""

    def __init__(self, message: str, clause: str | None = None) -> None:
        self.clause = clause
        super().__init__(f"{message} (rule {clause})" if clause else message)

    @classmethod
    def of(cls, template: str, clause: str | None = None, **values: object) -> Self:
        """The refusal whose message is `template % values` and the clause: the same English
        as an f-string, with the template kept for the dealer's language. `template` is a
        literal at the call (the catalogues are extracted from the calls)."""
        err = cls(template % values, clause=clause)
        err.sentence = Sentence(template, values, clause)
        return err


def resolve_first(reason: str, hand: str | None = None) -> NotAllowed:
    """The refusal while a card waits for the dealer ("First resolve the unread card for the
    player"): `reason` the card's ("unread", "impossible", "not allowed"), `hand` the hand it
    belongs to when the game names one ("player")."""
    card = {"unread": Said.words("unread"), "impossible": Said.words("impossible"),
            "not allowed": Said.words("not allowed")}.get(reason, reason)
    if hand is None:
        return NotAllowed.of("First resolve the %(card)s card", card=card)
    return NotAllowed.of("First resolve the %(card)s card for the %(hand)s", card=card,
                         hand=Word(hand, hand.title()))


def allowed(verify: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
    """`can_x` from `verify_x`: whether the action is allowed now (the UI enables its buttons
    from it), with the same arguments."""
    try:
        verify(*args, **kwargs)
    except NotAllowed:
        return False
    return True


class ImpossibleCard(NotAllowed):
    """A card the shoe cannot contain: more copies seen than the decks hold (rule 5.4)."""
