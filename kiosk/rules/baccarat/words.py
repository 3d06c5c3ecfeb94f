"""What the dealer reads and what the screens ask: the next step in words and the acts allowed
now (`legal_actions`).
"""

from __future__ import annotations

from typing import Any

from kiosk.rules.baccarat.betting import verify_close_betting, verify_place_bet
from kiosk.rules.baccarat.dealing import (
    verify_accept_queried_card,
    verify_burn,
    verify_cut_card_out,
    verify_shuffle,
    verify_unread_card,
)
from kiosk.rules.baccarat.drawing import coup_result, next_hand
from kiosk.rules.baccarat.house import BetKind, Hand, Phase
from kiosk.rules.baccarat.outcomes import Winner
from kiosk.rules.baccarat.payouts import (
    verify_collect_commission,
    verify_confirm_payouts,
    verify_void_round,
)
from kiosk.rules.baccarat.state import PuntoBancoState
from kiosk.rules.errors import Said, Word, allowed


def next_step(state: PuntoBancoState) -> Said:
    """The one next thing the dealer must do, in the words of rule 5.2 (a `Said`: English,
    with its sentence for the dealer's language)."""
    if state.phase is Phase.BETTING:
        if state.shoe is None:
            return Said.words("Shuffle and load a new shoe")
        return Said.words("Place your bets")
    if state.phase is Phase.PAYING:
        r = coup_result(state.player_cards, state.banker_cards)
        if r.winner is Winner.TIE:
            head = Said.words("Tie %(player)s to %(banker)s", player=r.player_total,
                           banker=r.banker_total)
        else:
            won, lost = ((r.banker_total, r.player_total) if r.winner is Winner.BANKER
                         else (r.player_total, r.banker_total))
            head = Said.words("%(winner)s wins %(won)s to %(lost)s",
                           winner=_hand_word(r.winner.value), won=won, lost=lost)
        return Said.words("Coup complete: %(result)s. Pay and confirm", result=head)
    if state.pending is not None:
        p = state.pending
        if p.reason == "unread":
            return Said.words("Key in the unread %(hand)s card", hand=_hand_word(p.hand.value))
        return Said.words("Queried card for the %(hand)s: key the right card or void",
                       hand=_hand_word(p.hand.value))
    n_p, n_b = len(state.player_cards), len(state.banker_cards)
    nxt = next_hand(state)
    if n_p + n_b < 4:
        hand = _hand_word((nxt or Hand.PLAYER).value)
        if n_p + n_b < 2:
            return Said.words("%(hand)s's first card", hand=hand)
        return Said.words("%(hand)s's second card", hand=hand)
    if nxt is Hand.PLAYER:
        return Said.words("Player draws")
    if nxt is Hand.BANKER:
        return Said.words("Banker draws")
    return Said.words("Coup complete")  # pragma: no cover - PAYING covers it


def _hand_word(value: str) -> Word:
    """Player or Banker as the step says it ("Player"), the screens' word in another
    language ("Speler")."""
    return Word(value.title())


def legal_actions(state: PuntoBancoState) -> frozenset[str]:
    """The dealer's acts allowed now, by name, without probing each card or amount: the
    dealer screen enables its buttons from this set. `place_bet` means some bet is allowed
    (its amount and area are checked when made); `deal_card` that a card may be keyed in."""
    rules = state.rules
    out: set[str] = set()
    checks: dict[str, tuple[Any, tuple[Any, ...]]] = {
        "shuffle": (verify_shuffle, ()),
        "close_betting": (verify_close_betting, ()),
        "confirm_payouts": (verify_confirm_payouts, ()),
        "void_round": (verify_void_round, ("reason to be given",)),
        "unread_card": (verify_unread_card, ()),
        "accept_queried_card": (verify_accept_queried_card, ("inspector",)),
        "burn": (verify_burn, (None,)),
        "cut_card_out": (verify_cut_card_out, ()),
    }
    for name, (verify, args) in checks.items():
        if allowed(verify, state, *args):
            out.add(name)
    if state.phase is Phase.BETTING and any(
            allowed(verify_place_bet, state, area, kind, rules.limit(kind).minimum)
            for area in rules.area_ids() for kind in BetKind):
        out.add("place_bet")
    if state.phase is Phase.BETTING and state.bets:
        out.add("remove_bet")
    if (state.phase is Phase.DEALING and next_hand(state) is not None
            and state.shoe is not None and state.shoe.remaining > 0):
        out.add("deal_card")
    if any(allowed(verify_collect_commission, state, area) for area, _ in state.commission_owed):
        out.add("collect_commission")
    return frozenset(out)
