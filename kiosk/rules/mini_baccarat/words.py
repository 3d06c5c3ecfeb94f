"""What the dealer reads and what the screens ask on a mini baccarat table: punto banco's
steps, and the malfunction procedure's while it stops the coup (rules 12.1-12.5)."""

from __future__ import annotations

from kiosk.rules.baccarat import engine as pb
from kiosk.rules.errors import Said
from kiosk.rules.mini_baccarat import malfunction as mf
from kiosk.rules.mini_baccarat.house import DEALER, Fact
from kiosk.rules.mini_baccarat.state import MiniBaccaratState

_STEP_ACT = {
    mf.Step.REMOVE: "remove_damaged_cards",
    mf.Step.TRANSFER: "transfer_cards",
    mf.Step.REPLACE: "replace_damaged_cards",
    mf.Step.TERMINATE: "terminate_coup",
    mf.Step.OFFER: "offer_wager_back",
    mf.Step.RESHUFFLE: "reshuffle_cards",
    mf.Step.CONTINUE: "continue_coup",
}


def next_step(state: MiniBaccaratState) -> Said:
    """The one next thing the dealer must do: the procedure's step while a malfunction stops
    the coup, punto banco's otherwise."""
    if state.stopped:
        return mf.procedure_words(state)
    return pb.next_step(state)


def legal_actions(state: MiniBaccaratState) -> frozenset[str]:
    """The dealer's acts allowed now, by name (the dealer screen enables its buttons from
    it): while the coup is stopped only the procedure's step, otherwise punto banco's acts
    and the malfunction button while a coup is dealt."""
    if state.stopped:
        now = mf.where(state)
        assert now is not None
        if now.step is mf.Step.FACT:
            return frozenset({"establish_fact"})
        if now.step is mf.Step.CUT:
            return frozenset({"cut_cards", "refuse_cut"})
        return frozenset({_STEP_ACT[now.step]})
    out = set(pb.legal_actions(state))
    if mf.can_shuffler_malfunction(state, "", DEALER):
        out.add("shuffler_malfunction")
    return frozenset(out)


def asks(state: MiniBaccaratState) -> Fact | None:
    """The fact the procedure asks now, if any."""
    now = mf.where(state)
    return now.fact if now is not None and now.step is mf.Step.FACT else None


