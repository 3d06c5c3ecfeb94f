"""The shuffle and the cut (the blackjack shuffle-and-cut procedure, rules 4.1-4.7), shared by
blackjack and Touch 21 and by mini baccarat's shuffler malfunction procedure (its rule 12.5.3).

Clauses of that text are cited as "rule 4.x (shuffle and cut)" to keep them apart from
section 4 of the Mpumalanga rules. The engine keeps a `ShoePrep`: why the cards must be
shuffled, who must cut, and whether the first card still has to be burned. Everything here is
pure; the dealer's entries (who cut, where) come in as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from kiosk.rules.errors import NotAllowed, Said

DECK = 52
SUPERVISOR = "supervisor"


def sc(clause: str) -> str:
    """A clause of the shuffle-and-cut text, as `NotAllowed` prints it."""
    return f"{clause} (shuffle and cut)"


class ShuffleReason(StrEnum):
    START = "start"  # rule 4.1.1: immediately prior to the start of play
    CUT_CARD_FIRST = "cut_card_first"  # rule 4.1.2: the cutting card came out first
    CUT_CARD_ROUND = "cut_card_round"  # rule 4.1.3: the cutting card came out in a round
    NEW_CARDS = "new_cards"  # rule 4.2.5: the cards were replaced
    HOUSE = "house"  # Mpumalanga rule 4.4: "at any other time as determined by management"


class Stage(StrEnum):
    SHUFFLE = "shuffle"  # the cards must be shuffled (rule 4.1)
    HAND_SHUFFLE = "hand_shuffle"  # new decks shuffled by hand, now into the device (4.6.1)
    CUT = "cut"  # shuffled; offered for the cut (rules 4.2, 4.3)
    BURN = "burn"  # in the shoe; the first card is burned unseen (rule 4.7)
    READY = "ready"  # play


# Who cuts after each reason (rule 4.2): the clause and whether it is the player farthest
# to the right of the dealer (the highest occupied box: boxes are numbered from the dealer's
# left, and the dealer deals and offers the cut clockwise, box 1 first).
FARTHEST_RIGHT = "farthest right"


@dataclass(frozen=True, slots=True)
class ShoePrep:
    """Where the shoe stands between shuffles.

    `cut_place` is where the cutting card appeared in the last round: a box number, or 0 for
    the dealer's hand (rules 4.2.2, 4.2.3). `seated` are the boxes with players, in box order
    (the last round's boxes): the cut passes clockwise among them (rule 4.3).
    """

    stage: Stage = Stage.SHUFFLE
    reason: ShuffleReason = ShuffleReason.START
    cut_place: int | None = None
    seated: tuple[int, ...] = ()
    refused: tuple[int, ...] = ()  # boxes that refused the cut, in order (rule 4.3)
    cut_at: int = 0  # cards from the front where the stack was cut (rule 4.4)
    cutting_card_from_back: int = 0  # where the dealer put the cutting card (rule 4.5)
    method: str = ""  # "hand" or "shuffler"

    # --- who cuts (rules 4.2, 4.3) ---------------------------------------------------


    def first_offer(self) -> tuple[int | None, str]:
        """The box the cut is offered to first and the clause that says so; None when the
        dealer must name the box (the first player to the table, rule 4.2.1)."""
        if self.reason is ShuffleReason.START:
            return None, "4.2.1"
        if self.reason is ShuffleReason.CUT_CARD_ROUND and self.cut_place:
            return self.cut_place, "4.2.2"
        clause = {ShuffleReason.CUT_CARD_ROUND: "4.2.3", ShuffleReason.CUT_CARD_FIRST: "4.2.4",
                  ShuffleReason.NEW_CARDS: "4.2.5"}.get(self.reason, "4.2.5")
        return (self.seated[-1] if self.seated else None), clause

    def offered_to(self) -> int | None:
        """The box the cut is offered to now: the first offer, then clockwise past each
        refusal (rule 4.3); None when the dealer names it or a supervisor must cut."""
        if self.stage is not Stage.CUT:
            return None
        first, _ = self.first_offer()
        if not self.refused:
            return first
        order = self._clockwise_from(first if first is not None else self.refused[0])
        for box in order:
            if box not in self.refused:
                return box
        return None  # everyone refused: a supervisor cuts (rule 4.3)

    def supervisor_must_cut(self) -> bool:
        """Rule 4.3: no player accepted the cut (or nobody is seated to be offered it)."""
        if self.stage is not Stage.CUT:
            return False
        return bool(self.refused) and bool(self.seated) and self.offered_to() is None

    def _clockwise_from(self, start: int) -> list[int]:
        seats = sorted(set(self.seated) | set(self.refused) | {start})
        i = seats.index(start)
        return seats[i:] + seats[:i]

    def who_cuts(self) -> Said:
        """In the dealer's words, citing the clause (a `Said`)."""
        if self.supervisor_must_cut():
            return Said.words("No player accepted the cut: a game supervisor cuts", clause="4.3")
        box = self.offered_to()
        first, clause = self.first_offer()
        if box is None:
            return Said.words("Offer the cut to the first player at the table", clause=clause)
        if self.refused:
            return Said.words("Offer the cut to box %(box)s, next clockwise", clause="4.3",
                           box=box)
        if clause == "4.2.2":
            return Said.words("Offer the cut to box %(box)s: the cutting card appeared there",
                           clause=clause, box=box)
        if clause == "4.2.3":
            return Said.words("Offer the cut to box %(box)s: the cutting card appeared on the "
                           "dealer's hand; farthest right", clause=clause, box=box)
        if clause == "4.2.4":
            return Said.words("Offer the cut to box %(box)s: the cutting card came out first; "
                           "farthest right", clause=clause, box=box)
        if clause == "4.2.5":
            return Said.words("Offer the cut to box %(box)s: farthest to the right of the dealer",
                           clause=clause, box=box)
        return Said.words("Offer the cut to box %(box)s", clause=clause, box=box)


# --- verify / can / action-free checks used by the engine -----------------------------


def verify_shuffle(prep: ShoePrep, method: str, shuffler: bool, round_started: bool,
                   new_cards: bool) -> None:
    """Rule 4.1 (and 4.6 with a shuffling device)."""
    if round_started:
        raise NotAllowed.of("Cards cannot be shuffled in the middle of a round; the shuffle "
                            "comes at the end of the round", clause=sc("4.1.3"))
    if method not in ("hand", "shuffler"):
        raise NotAllowed(f"Unknown shuffle method {method!r}: hand or shuffler")
    if method == "shuffler" and not shuffler:
        raise NotAllowed.of("This table has no shuffling device: shuffle by hand", clause=sc("4.1"))
    if shuffler and method == "hand" and not (new_cards or (prep.reason in (
            ShuffleReason.START, ShuffleReason.NEW_CARDS) and prep.stage is Stage.SHUFFLE)):
        raise NotAllowed.of("With a shuffling device, only new decks are shuffled by hand, "
                            "before they go into the device", clause=sc("4.6.1"))
    if shuffler and method == "shuffler" and prep.stage is Stage.SHUFFLE and prep.reason in (
            ShuffleReason.START, ShuffleReason.NEW_CARDS):
        raise NotAllowed.of("New decks are shuffled by hand before they go into the shuffling "
                            "device", clause=sc("4.6.1"))


def after_shuffle(prep: ShoePrep, method: str, shuffler: bool, new_cards: bool,
                  seated: tuple[int, ...]) -> ShoePrep:
    if prep.stage is Stage.READY:
        # A shuffle rule 4.1 did not call for: new cards (rule 4.2.5) or the house's own
        # decision (Mpumalanga rule 4.4); rule 4.2.5's farthest-right player cuts either way.
        prep = replace(prep, reason=ShuffleReason.NEW_CARDS if new_cards else ShuffleReason.HOUSE)
    elif new_cards and prep.reason is not ShuffleReason.START:
        prep = replace(prep, reason=ShuffleReason.NEW_CARDS)
    # Shuffled again before the cut: the same player is owed the cut, and those who refused
    # it have refused (rules 4.2, 4.3).
    refused = prep.refused if prep.stage is Stage.CUT else ()
    # Rule 4.6.1: new decks by hand first; rules 4.6.2-4.6.3: the device shuffles, no cut;
    # rule 4.6.4: the device takes the place of the shoe (its cards count as the shoe's).
    device_stage = Stage.HAND_SHUFFLE if method == "hand" else Stage.BURN
    stage = device_stage if shuffler else Stage.CUT
    return replace(prep, stage=stage, refused=refused, cut_at=0, cutting_card_from_back=0,
                   method=method, seated=seated or prep.seated)


def verify_refuse(prep: ShoePrep, box: int) -> None:
    if prep.stage is not Stage.CUT:
        raise NotAllowed.of("The cards are not being offered for the cut", clause=sc("4.2"))
    offered = prep.offered_to()
    if offered is not None and box != offered:
        raise NotAllowed.of("The cut is offered to box %(offered)s, not box %(box)s",
                            clause=sc("4.3"), offered=offered, box=box)
    if box in prep.refused:
        raise NotAllowed.of("Box %(box)s has already refused the cut", clause=sc("4.3"),
                            box=box)
    if offered is None and prep.seated and box not in prep.seated:
        raise NotAllowed.of("Box %(box)s has no player to offer the cut to",
                            clause=sc("4.2.1"), box=box)


def verify_cut(prep: ShoePrep, decks: int, cutter: int | None, supervisor: str, cut_at: int,
               cutting_card_from_back: int) -> None:
    """Rules 4.2-4.5: the right person cuts at least a deck from either end, and the cutting
    card goes no more than half way in from the back."""
    if prep.stage is not Stage.CUT:
        if prep.stage is Stage.BURN and prep.method == "shuffler":
            raise NotAllowed.of("Cards from a shuffling device are not cut", clause=sc("4.6.3"))
        raise NotAllowed.of("The cards must be shuffled before they are cut", clause=sc("4.2"))
    size = DECK * decks
    margin = cut_margin(decks)
    offered = prep.offered_to()
    if cutter is None:
        if not supervisor.strip():
            raise NotAllowed.of("Say which box cut, or the supervisor's name", clause=sc("4.2"))
        nobody_seated = not prep.seated  # the dealer says nobody else will cut
        if not (prep.supervisor_must_cut() or nobody_seated):
            who = (Said.words("box %(box)s", box=offered) if offered is not None
                   else Said.words("the players"))
            raise NotAllowed.of("The cut is offered to %(who)s first; a supervisor cuts only "
                                "when no player accepts", clause=sc("4.3"), who=who)
    else:
        if prep.supervisor_must_cut():
            raise NotAllowed.of("Every player refused the cut: a game supervisor cuts",
                                clause=sc("4.3"))
        if cutter in prep.refused:
            raise NotAllowed.of("Box %(box)s refused the cut", clause=sc("4.3"), box=cutter)
        if offered is not None and cutter != offered:
            first, clause = prep.first_offer()
            raise NotAllowed.of("Box %(offered)s cuts, not box %(cutter)s",
                                clause=sc("4.3" if prep.refused else clause),
                                offered=offered, cutter=cutter)
        if offered is None and prep.seated and cutter not in prep.seated:
            raise NotAllowed.of("Box %(box)s has no player to cut (players at boxes %(boxes)s)",
                                clause=sc("4.2.1"), box=cutter,
                                boxes=", ".join(map(str, prep.seated)))
    if not margin <= cut_at <= size - margin:
        raise NotAllowed.of("The cut must be at least %(margin)s in from either end: between "
                            "%(least)s and %(most)s cards, not %(cut)s", clause=sc("4.4"),
                            margin=_deck_words(margin), least=margin, most=size - margin,
                            cut=cut_at)
    if not 1 <= cutting_card_from_back <= size // 2:
        raise NotAllowed.of("The cutting card goes at most half way in from the back: 1 to "
                            "%(most)s cards from the back, not %(given)s", clause=sc("4.5"),
                            most=size // 2, given=cutting_card_from_back)


def cut_margin(decks: int) -> int:
    """Rule 4.4 (shuffle and cut): at least one deck in from either end. A single deck (Touch
    21, rule 7.5) cannot be cut a deck from both ends; there the cut is at least a quarter of
    the deck from either end (our reading, docs/blackjack.md)."""
    return DECK if decks >= 2 else DECK // 4


def _deck_words(cards: int) -> str:
    return Said.words("one deck") if cards == DECK else Said.words("%(n)s cards", n=cards)


def after_cut(prep: ShoePrep, cut_at: int, cutting_card_from_back: int) -> ShoePrep:
    return replace(prep, stage=Stage.BURN, cut_at=cut_at,
                   cutting_card_from_back=cutting_card_from_back)


def needs_shuffle(reason: ShuffleReason, seated: tuple[int, ...], cut_place: int | None = None
                  ) -> ShoePrep:
    return ShoePrep(stage=Stage.SHUFFLE, reason=reason, seated=seated, cut_place=cut_place)


def step_words(prep: ShoePrep, shuffler: bool) -> Said:
    """The dealer's next step while the shoe is being prepared (a `Said`)."""
    if prep.stage is Stage.SHUFFLE:
        by_hand = shuffler and prep.reason in (ShuffleReason.START, ShuffleReason.NEW_CARDS)
        if prep.reason is ShuffleReason.START:
            return (Said.words("Shuffle the new decks by hand, before play starts (rule 4.1.1 "
                            "shuffle and cut); then load the shuffler (rule 4.6.1)") if by_hand
                    else Said.words("Shuffle: before play starts (rule 4.1.1 shuffle and cut)"))
        if prep.reason is ShuffleReason.NEW_CARDS:
            return (Said.words("Shuffle the new decks by hand, new cards (rule 4.2.5 shuffle and "
                            "cut); then load the shuffler (rule 4.6.1)") if by_hand
                    else Said.words("Shuffle: new cards (rule 4.2.5 shuffle and cut)"))
        if prep.reason is ShuffleReason.CUT_CARD_FIRST:
            return Said.words("Shuffle: the cutting card came out first (rule 4.1.2 shuffle and "
                           "cut)")
        if prep.reason is ShuffleReason.CUT_CARD_ROUND:
            return Said.words("Shuffle: the cutting card came out last round (rule 4.1.3 shuffle "
                           "and cut)")
        return Said.words("Shuffle: as management decided")
    if prep.stage is Stage.HAND_SHUFFLE:
        return Said.words("Put the cards in the shuffling device (rule 4.6.2 shuffle and cut)")
    if prep.stage is Stage.CUT:
        return prep.who_cuts()
    if prep.stage is Stage.BURN:
        return Said.words("Burn the first card face down, unseen (rule 4.7 shuffle and cut)")
    return Said("")
