"""What a replay finds (rule 2.8): each round recomputed from the journal, and every
difference from what was recorded. Each game's audit (`GameSpec.audit`) fills these in as the
one fold (`kiosk/table/fold.py`) walks the journal; `kiosk/replay.py` drives it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


class Row(Protocol):
    """The journal row an Operation came from (kiosk.store.journal.Entry)."""

    @property
    def seq(self) -> int: ...

    @property
    def wall_time(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class HandDrawn:
    """One hand of a round as an inspector sees it: its name ("player", "dealer", "box 3/1",
    "community"), its cards as codes ("7C", "TS"), its total in the game's words ("7",
    "soft 18 / 8", "a pair of tens") and a word beside it ("wins", "blackjack")."""

    name: str
    cards: tuple[str, ...]
    total: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class BetDrawn:
    """One bet of a round: where it lay (an area and its bet, a box and hand, a colour and
    its place on the layout), its stake, its outcome ("win", "lose", "push", "handed back"),
    the amount paid on it beyond the stake and the amount given back in all, in cents."""

    place: str
    stake: int
    outcome: str
    paid: int
    returned: int
    detail: str = ""  # "pays 19/20", "commission 5%", "2 chips of R5.00"


@dataclass(frozen=True, slots=True)
class StepDrawn:
    """One step of a round's procedure in the order the rules' text makes it: a payment and
    its source ("area 2 wins: paid from the float"), a decision and who made it; `amount`
    the cents it moves (None: no money moves), `clause` the rule it follows ("13.1.8")."""

    words: str
    amount: int | None = None
    clause: str = ""


@dataclass(frozen=True, slots=True)
class RoundDrawing:
    """A round drawn for an inspector (the pit's round page): the hands with their cards and
    totals, the winner in words, a roulette number and its colour, and every bet. Each game's
    audit draws its own (`draw` in its audit module) from the state the round settled or
    voided in: the pit names no game."""

    currency: str
    hands: tuple[HandDrawn, ...] = ()
    winner: str = ""
    number: str = ""  # roulette: the pocket called ("17", "00")
    number_colour: str = ""  # its colour: "red", "black" or "green"
    bets: tuple[BetDrawn, ...] = ()
    voided: bool = False
    by: tuple[tuple[str, str], ...] = ()
    """Who did what in the round ((role, name) pairs), once the table journals people."""
    steps: tuple[StepDrawn, ...] = ()
    """The round's procedure step by step (pai gow's payments with their sources, mini
    baccarat's shuffler malfunction); none for a game whose bets say it all."""


@dataclass
class RoundReplay:
    """One round as replay recomputed it: `number` is the round's number in its game (the
    coup in punto banco, the spin at roulette), `word` what its game calls it (the spec's
    `round_word`, set by replay), for the report's lines."""

    number: int
    status: str  # settled | voided
    seq: int
    wall_time: str
    player_cards: list[str] = field(default_factory=list)
    banker_cards: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    settlements: list[dict[str, Any]] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    reason: str = ""
    hands: dict[str, list[str]] | None = None  # blackjack: "dealer", "box 3/1", ...
    dealer: str = ""
    """Who dealt the round ("4471 Thandi M."), when a dealer was signed in (docs/roles.md)."""
    overrides: list[dict[str, str]] = field(default_factory=list)
    """The overrides on record since the round before, each as journaled (who, role, why)."""
    outcome: str = ""
    """The round's outcome in one line, in its game's words ("banker 7-6", "number 17"):
    filled in by the game's audit, shown as it is by the pit's rounds list (which names no
    game). Not part of `as_json`: replay's JSON holds the parts it is made of."""
    word: str = "round"
    """What the round's game calls a round ("coup", "spin", "hand"): not part of `as_json`,
    whose keys are the same for every game ("round")."""
    drawing: RoundDrawing | None = None
    """The round drawn for an inspector (filled in by the game's audit; None: the pit draws
    what the parts above hold). Not part of `as_json` either."""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "round": self.number, "status": self.status, "seq": self.seq,
            "wall_time": self.wall_time, "player_cards": self.player_cards,
            "banker_cards": self.banker_cards, "result": self.result,
            "settlements": self.settlements, "differences": self.differences,
        }
        if self.hands is not None:  # hands by name instead of player/banker
            out = {k: v for k, v in out.items() if k not in ("player_cards", "banker_cards")}
            out["hands"] = self.hands
        if self.reason:
            out["reason"] = self.reason
        if self.dealer:  # journals with no sign-in read as before
            out["dealer"] = self.dealer
        if self.overrides:
            out["overrides"] = self.overrides
        return out

    def who(self) -> tuple[tuple[str, str], ...]:
        """Who did what in the round, as (role, words) pairs: its dealer, then each override
        with its act and reason (the pit's round page shows them)."""
        out = [("dealer", self.dealer)] if self.dealer else []
        for o in self.overrides:
            name = f"{o['person']} {o['name']}".strip()
            out.append((o["role"], f"{name}: {o['action'].replace('_', ' ')} ({o['reason']})"))
        return tuple(out)

    def line(self) -> str:
        """One line of `tableside replay`'s report."""
        differs = "" if not self.differences else "  DIFFERS: " + "; ".join(self.differences)
        if self.dealer:
            differs = f"  dealer {self.dealer}{differs}"
        for o in self.overrides:
            differs += f"  {o['action']} by {o['role']} {o['person']}: {o['reason']}"
        if self.hands is not None:
            hands = "  ".join(f"{k} {' '.join(v)}" for k, v in self.hands.items())
            return f"{self.word} {self.number:>4} {self.status:<8} {hands}{differs}"
        res = self.result or {}
        return (f"{self.word} {self.number:>4} {self.status:<8} P {' '.join(self.player_cards):<9} "
                f"B {' '.join(self.banker_cards):<9} {res.get('winner', '-'):<6} "
                f"{res.get('player_total', '')}-{res.get('banker_total', '')}{differs}")


def drawing_of(coup: RoundReplay, currency: str = "R") -> RoundDrawing:
    """The round's drawing: its game's (`coup.drawing`), or one made from the parts every
    round has: its hands (or player and banker cards) and its settlements' `stake`, `paid`,
    `returned` and `outcome` (no totals, the outcome line as the winner)."""
    if coup.drawing is not None:
        return coup.drawing
    hands: list[HandDrawn] = []
    if coup.hands is not None:
        hands = [HandDrawn(name, tuple(cards)) for name, cards in coup.hands.items()]
    elif coup.player_cards or coup.banker_cards:
        hands = [HandDrawn("player", tuple(coup.player_cards)),
                 HandDrawn("banker", tuple(coup.banker_cards))]
    winner = coup.outcome or (f"void: {coup.reason}" if coup.status == "voided" else "")
    return RoundDrawing(currency, tuple(hands), winner,
                        bets=tuple(_bet(s) for s in coup.settlements),
                        voided=coup.status == "voided")


def _bet(s: dict[str, Any]) -> BetDrawn:
    place = " ".join(f"{key} {s[key]}" for key in ("area", "box", "hand", "colour", "kind")
                     if key in s and s[key] not in (None, ""))

    def cents(key: str) -> int:
        value = s.get(key, 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    return BetDrawn(place or "bet", cents("stake"), outcome_word(str(s.get("outcome", ""))),
                    cents("paid"), cents("returned"))


@dataclass
class ReplayReport:
    source: str
    chain_ok: bool
    chain_reason: str
    entries: int
    table_id: str = ""
    rounds: list[RoundReplay] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    disputes: list[str] = field(default_factory=list)
    """Rounds flagged as disputed (rule 2.8), a line each with the row it is on record in."""
    exchanges: list[str] = field(default_factory=list)
    """Chip changes and colour-ups (rule 2.1), a line each with the chips taken and given."""

    @property
    def differences(self) -> int:
        return sum(len(c.differences) for c in self.rounds) + len(self.problems)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.differences == 0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source, "table_id": self.table_id, "entries": self.entries,
            "chain": {"ok": self.chain_ok, "reason": self.chain_reason},
            "rounds": [c.as_json() for c in self.rounds], "problems": self.problems}
        if self.disputes:  # a journal with none reports exactly as before
            out["disputes"] = self.disputes
        if self.exchanges:  # as the disputes: only a journal with some has the key
            out["exchanges"] = self.exchanges
        return {**out, "differences": self.differences, "ok": self.ok}


class Audit(Protocol):
    """A game's replay audit: called with the state just before `op` is folded; it adds
    the rounds it recomputed to `report.rounds` and anything else to `report.problems`."""

    def __call__(self, state: Any, op: Any, row: Row, report: ReplayReport) -> None: ...


_OUTCOME_WORDS = {"stand_off": "stand off", "returned": "handed back",
                  "even_money": "even money"}


def outcome_word(outcome: str) -> str:
    """A settlement's outcome as an inspector reads it ("stand_off" -> "stand off", a bet
    given back untouched -> "handed back")."""
    return _OUTCOME_WORDS.get(outcome, outcome.replace("_", " "))


def odds_words(odds: object) -> str:
    """Odds as a fraction's text in words: "19/20" -> "19 to 20", "3/2" -> "3 to 2"."""
    top, _, bottom = str(odds).partition("/")
    return f"{top} to {bottom or 1}"


def codes(cards: Any) -> str:
    return " ".join(c.code for c in cards) or "none"
