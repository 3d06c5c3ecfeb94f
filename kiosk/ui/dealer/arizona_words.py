"""The Arizona Hold'em dealer screen's words: pure functions from the state to what a box's
tile and the reveal's payout sheet say (no Kivy; tested without drawing). The screen
(`arizona.py`) places them.

Colour is never the only signal: what to do with each bet is a word (PAY, TAKE) beside it.
The screen's words are in the dealer's language (kiosk/i18n.py); a hand's name ("a pair of
tens") is said as the players' sign says it, in the dealer's language; the journal keeps the
rules' English."""

from __future__ import annotations

from kiosk.i18n import _
from kiosk.rules.arizona import engine as az
from kiosk.rules.arizona.operations import COMMUNITY, BoxResult
from kiosk.rules.arizona.payouts import box_result
from kiosk.rules.arizona.state import CIRCLES, circle_in_play, deciding, next_place
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow, money, tile_money
from kiosk.ui.dealer.punto_banco_words import pay_words, take_words
from kiosk.ui.signage.arizona_words import hand as sign_hand


def box_title(box: int) -> str:
    return _("Box %(box)s") % {"box": box}


def raised_words(state: az.ArizonaState, box: int) -> str:
    """The circles a box raised, in its tile ("raise 1, 2"; "" for none): each raise is the
    ante's amount (rule 6.2), so the circles say it all."""
    raised = [str(c) for c in CIRCLES if state.raise_of(box, c)]
    if not raised:
        return ""
    # TRANSLATORS: in a box's tile 80 pixels wide: the circles (1, 2) the player raised in.
    return _("raise %(circles)s") % {"circles": ", ".join(raised)}


def box_detail(state: az.ArizonaState, box: int) -> str:
    """A box's tile: its ante and each circle's raise or check; at the reveal, what the box
    wins or loses (the sheet has each bet)."""
    cur = state.rules.currency
    ante = state.ante_of(box)
    if not ante:
        # TRANSLATORS: in a box's tile: no ante on this box yet.
        return _("no ante")
    if state.phase is az.Phase.REVEAL:
        result = box_result(state, box)
        net = result.net
        paid = pay_words(tile_money(net, cur)) if net > 0 else take_words(tile_money(-net, cur))
        return f"{paid}\n{hand_words(result.hand)}"
    # TRANSLATORS: in a box's tile: the ante, in box "A" (rule 6.2): "A R50".
    lines = [_("A %(amount)s") % {"amount": tile_money(ante, cur)}, raised_words(state, box)]
    return "\n".join(line for line in lines if line)


def hand_words(english: str) -> str:
    """A hand as the sign says it ("A pair of tens"), in the dealer's language."""
    return sign_hand(english).words


def box_turn(state: az.ArizonaState, box: int) -> bool:
    """The box whose player decides now (rule 6.2, each in turn)."""
    return deciding(state) == box


def due_words(state: az.ArizonaState) -> str:
    """Whose card the card keypad asks for (the next place of rule 6.2's deal)."""
    place = next_place(state) if state.phase is az.Phase.DEALING else None
    if place is None:
        return ""
    box, slot = place
    if box == COMMUNITY:
        # TRANSLATORS: whose card the card keypad asks for: "Key in the card for the first
        # community card".
        return (_("the first community card") if slot == 0
                else _("the second community card"))
    # TRANSLATORS: whose card the card keypad asks for: "Key in the card for box 3".
    return _("box %(box)s") % {"box": box}


def circle_name(circle: int) -> str:
    if circle == 0:
        # TRANSLATORS: the ante bet, box "A" of a player's box (rule 6.2).
        return _("Ante")
    return _("Raise %(circle)s") % {"circle": circle}


def result_rows(result: BoxResult, currency: str) -> tuple[PanelRow, ...]:
    """One box at the reveal: its hand and the odds, each bet (ante, raise 1, raise 2) paid
    at the odds or taken, and the box's net."""
    rows: list[PanelRow] = []
    odds = f"{result.odds}:1" if result.odds is not None else ""
    # TRANSLATORS: in large type: below a pair of tens every bet of the box loses (rule 6.6).
    rows.append(PanelRow(hand_words(result.hand), odds or _("LOSES"),
                         "even" if odds else "take"))
    for circle, stake in ((0, result.ante), (1, result.first), (2, result.second)):
        if not stake:
            continue
        bet = {"bet": circle_name(circle), "stake": money(stake, currency)}
        if result.odds is not None:
            rows.append(PanelRow(_("%(bet)s %(stake)s wins %(odds)s") % {**bet, "odds": odds},
                                 pay_words(money(stake * result.odds, currency)), "pay"))
        else:
            rows.append(PanelRow(_("%(bet)s %(stake)s loses") % bet,
                                 take_words(money(stake, currency)), "take"))
    net = result.net
    # TRANSLATORS: the last line of a box at the reveal: what it wins or loses in all.
    rows.append(PanelRow(_("Box in all"), pay_words(money(net, currency)) if net > 0
                         else take_words(money(-net, currency)), "pay" if net > 0 else "take"))
    return tuple(rows)


def reveal_blocks(state: az.ArizonaState) -> list[PanelBlock]:
    """Every box at the reveal, left to right (rule 6.2): its five cards in the title."""
    cur = state.rules.currency
    blocks = []
    for box in state.boxes:
        result = box_result(state, box)
        cards = " ".join(c.code for c in result.cards[:3]) + " + " + " ".join(
            c.code for c in result.cards[3:])
        blocks.append(PanelBlock(f"{box_title(box)}: {cards}", result_rows(result, cur)))
    return blocks


def circle_now(state: az.ArizonaState) -> int | None:
    return circle_in_play(state)
