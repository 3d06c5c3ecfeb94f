"""The pai gow tiles dealer screen's words: pure functions from tiles, hands and the state to
what the screen and its dialogs say (no Kivy; tested without drawing).

The tiles' and pairs' names are the Chinese names dealers use (teen, day, gor, chop gow, gee
joon), said as they are in every language; the words around them are in the dealer's
language (kiosk/i18n.py). The journal keeps the rules' English."""

from __future__ import annotations

from kiosk.i18n import N_, _
from kiosk.rules.paigow.hands import Hand, Kind, Result, Setting, hand
from kiosk.rules.paigow.operations import Bank, Move, Place, Step
from kiosk.rules.paigow.settlement import results, settle
from kiosk.rules.paigow.state import PaiGowState, Phase
from kiosk.rules.paigow.tiles import GROUP, GROUP_NAME, Tile
from kiosk.ui.dealer.payout_words import PanelBlock, PanelRow, money, tile_money
from kiosk.ui.dealer.punto_banco_words import pay_words, take_words


def tile_words(tile: Tile) -> str:
    """A tile's name on its key: its Chinese name ("teen"); the military tiles, two to a
    name, with their pips ("chop gow 4-5")."""
    if tile.civil:
        return tile.name_words
    return f"{tile.name_words} {tile.code[0]}-{tile.code[1]}"


def hand_words(h: Hand) -> str:
    """A two-tile hand as the dealer says it: "teen pair", "wong", "gong", "high nine",
    "7 (teen)", "0"."""
    kind = h.kind
    if kind is Kind.PAIR:
        # TRANSLATORS: a pai gow pair: the pair's Chinese name ("teen"), then "pair".
        return _("%(name)s pair") % {"name": GROUP_NAME[GROUP[h.tiles[0]]]}
    if kind is Kind.HIGH_NINE:
        # TRANSLATORS: pai gow: teen or day with a seven, the strongest nine.
        return _("high nine")
    if kind is not Kind.POINTS:
        return kind.value  # wong, gong: Chinese names, the same in every language
    if h.points == 0:
        return "0"
    return f"{h.points} ({h.high_tile.name_words})"


def setting_words(setting: Setting) -> str:
    """A way to set four tiles, on two lines: the high hand, then the low."""
    # TRANSLATORS: a pai gow player's high hand (the back hand) and low hand, on a button.
    return "\n".join((_("High: %(hand)s") % {"hand": hand_words(setting.high)},
                      _("Low: %(hand)s") % {"hand": hand_words(setting.low)}))


def area_title(area: int) -> str:
    return _("Area %(area)s") % {"area": area}


# --- the state, in the screen's words ---------------------------------------------------------

PLACES = {Place.FLOAT: N_("the float"), Place.LOSING: N_("the losing wagers"),
          Place.BANKER_WAGER: N_("the banker's wager"),
          Place.COBANK_WAGER: N_("the co-bank wager"), Place.BANKER: N_("the player/banker"),
          Place.COMMISSION: N_("the House")}
"""Where chips come from or go in a settlement (section 13), in the dealer's words."""


def place_words(place: Place) -> str:
    return _(PLACES[place]) if place in PLACES else ""


def rule(clause: str) -> str:
    return _("(rule %(clause)s)") % {"clause": clause} if clause else ""


def bank_words(state: PaiGowState) -> str:
    """Who banks, in the header: "The House banks", "Area 3 banks R500", "Area 3 and the
    House co-bank R500 each"."""
    cur = state.rules.currency
    if state.bank is Bank.HOUSE:
        # TRANSLATORS: the pai gow dealer screen's header: the House banks (rule 13.1).
        return _("The House banks")
    wager = tile_money(state.banker_wager, cur)
    if state.bank is Bank.PLAYER:
        # TRANSLATORS: the pai gow dealer screen's header: a player/banker banks (13.2).
        return _("Area %(area)s banks %(wager)s") % {"area": state.chung, "wager": wager}
    # TRANSLATORS: the pai gow dealer screen's header: the player/banker and the House
    # co-bank, each putting up the wager (13.3.2).
    return _("Area %(area)s and the House co-bank %(wager)s each") % {
        "area": state.chung, "wager": wager}


def pair_words(pair: tuple[Tile, Tile]) -> str:
    return hand_words(hand(*pair))


def area_detail(state: PaiGowState, area: int) -> str:
    """An area's tile: the chung and the bank; its wager; once set, its hands; at the reveal,
    its result and what to pay or take."""
    cur = state.rules.currency
    if area == state.chung:
        # TRANSLATORS: in an area's tile: the chung is here (rules 13.1.1, 13.2.1).
        return _("CHUNG") + "\n" + (_("the bank") if state.bank is Bank.HOUSE
                                    else tile_money(state.banker_wager, cur))
    wager = state.wager_of(area)
    if not wager:
        # TRANSLATORS: in an area's tile: no wager on this area.
        return _("no wager")
    lines = [tile_money(wager, cur)]
    if state.phase is Phase.REVEAL and state.bank_hand is not None:
        result = next(r for r in results(state) if r.area == area)
        lines.append(result_words(result.result, result.net, cur))
    return "\n".join(lines)


def result_words(result: Result, net: int, currency: str) -> str:
    if result is Result.WIN:
        return pay_words(tile_money(net, currency))
    if result is Result.LOSE:
        return take_words(tile_money(-net, currency))
    # TRANSLATORS: a pai gow stand-off, in large type: the wager stays (rule 13.1.9).
    return _("STAND-OFF")


def step_row(s: Step, currency: str) -> PanelRow:
    """One movement of chips of the settlement, in the order of the text: what it is, with
    its clause, and what the dealer does (PAY, TAKE)."""
    amount = money(s.amount, currency)
    where = {"area": s.area, "source": place_words(s.source), "to": place_words(s.to)}
    tone = "pay"
    match s.move:
        case Move.WAGER:
            text = (_("The player/banker's wager") if s.source is Place.BANKER
                    # TRANSLATORS: rule 13.3.2: the House puts up as much as the
                    # player/banker, from the float.
                    else _("As much from the float"))
            tone = "bet"
        case Move.EXPOSE:
            text, amount, tone = _("Expose the bank's hands"), "", "even"
        case Move.LOSE:
            text, amount, tone = (_("Area %(area)s loses: to %(to)s") % where,
                                  take_words(amount), "take")
        case Move.PAY:
            text, amount = _("Area %(area)s wins: from %(source)s") % where, pay_words(amount)
        case Move.SHORTFALL:
            # TRANSLATORS: rules 13.2.8, 13.3.11: what the losing wagers lacked to pay.
            text, amount = _("Area %(area)s: short, from %(source)s") % where, pay_words(amount)
        case Move.COMMISSION:
            text = (_("Area %(area)s: commission") % where if s.source is Place.PLAYER
                    else _("The player/banker: commission"))
            amount, tone = take_words(amount), "take"
        case Move.STANDOFF:
            text, amount, tone = (_("Area %(area)s: the wager remains") % where,
                                  _("STAND-OFF"), "even")
        case Move.REMAINDER:
            text, amount = _("The rest to %(to)s") % where, pay_words(amount)
        case Move.SPLIT:
            # TRANSLATORS: rules 13.3.9-13.3.11: a co-banker's half.
            text, amount = _("A half to %(to)s") % where, pay_words(amount)
        case _:
            text, amount = _("The wager back to %(to)s") % where, pay_words(amount)
    return PanelRow(f"{text} {rule(s.clause)}" if s.clause else text, amount, tone)


ROWS_PER_BLOCK = 3
"""Lines in one panel of the settlement sheet: two panels a page still pay from 4 mm type,
and each line's words, with their clause, have two lines at full size."""


def settlement_blocks(state: PaiGowState) -> list[PanelBlock]:
    """The settlement in the order of the bank's procedure (13.1, 13.2 or 13.3): the bank's
    hands and each area's, then every movement of chips in order, three to a panel."""
    cur = state.rules.currency
    areas, steps = settle(state)
    blocks = []
    assert state.bank_hand is not None
    high, low = state.bank_hand
    rows = [PanelRow(_("The bank's hands: %(hands)s")
                     % {"hands": f"{pair_words(high)} / {pair_words(low)}"}, "", "even")]
    for r in areas:
        rows.append(PanelRow(f"{area_title(r.area)}: {pair_words(r.high)} / "
                             f"{pair_words(r.low)}", result_words(r.result, r.net, cur),
                             {Result.WIN: "pay", Result.LOSE: "take"}.get(r.result, "even")))
    # TRANSLATORS: the title of the settlement sheet's first panels: each hand and its result.
    blocks += _chunks(_("The hands"), rows)
    moves = [step_row(s, cur) for s in steps if s.amount or s.move is not Move.WAGER]
    # TRANSLATORS: the title of the settlement sheet's panels: each movement of chips, in
    # the order of the banking procedure's text.
    blocks += _chunks(_("In order"), moves)
    return blocks


def _chunks(title: str, rows: list[PanelRow]) -> list[PanelBlock]:
    parts = [rows[i:i + ROWS_PER_BLOCK] for i in range(0, len(rows), ROWS_PER_BLOCK)]
    if len(parts) <= 1:
        return [PanelBlock(title, tuple(rows))]
    return [PanelBlock(f"{title} ({i + 1}/{len(parts)})", tuple(p))
            for i, p in enumerate(parts)]
