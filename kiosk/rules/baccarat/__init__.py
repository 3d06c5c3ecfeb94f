"""Punto banco (section 5 of the Mpumalanga rules), the game's package.

Its public API is `engine` (`from kiosk.rules.baccarat import engine as pb`); the parts live
beside it: the house rules (`house.py`), the state (`state.py`), the journal records
(`operations.py`), the cards' values and the drawing table (`drawing.py`), the acts
(`betting.py`, `dealing.py`, `payouts.py`), the dealer's words and the acts allowed now
(`words.py`), the one fold (`fold.py`); beside the engine, the coup's result (`outcomes.py`),
the roads (`roads.py`), the exact odds (`odds.py`), its configuration, replay audit,
simulated dealer and registration (`spec.py`).

One coup, as the table plays it: every act is checked by the rules (`verify_x` raises,
`can_x` answers, `x` returns the record) and every record is folded by `apply`.

>>> from kiosk.rules.baccarat import engine as pb
>>> from kiosk.rules.cards import Card
>>> rules = pb.PuntoBancoRules()  # eight decks, seven areas, banker paid 19:20 (rule 5.7)
>>> state = pb.initial_state(rules, "PB-01")
>>> print(pb.next_step(state))
Shuffle and load a new shoe
>>> state = pb.apply(state, pb.shuffle(state))
>>> state = pb.apply(state, pb.place_bet(state, "1", pb.BetKind.PLAYER, 10_000))
>>> state = pb.apply(state, pb.place_bet(state, "2", pb.BetKind.BANKER, 20_000))
>>> sorted(pb.legal_actions(state))
['burn', 'close_betting', 'cut_card_out', 'place_bet', 'remove_bet', 'shuffle', 'void_round']
>>> state = pb.apply(state, pb.close_betting(state))
>>> pb.can_place_bet(state, "3", pb.BetKind.PLAYER, 5_000)
False
>>> pb.close_betting(state)
Traceback (most recent call last):
    ...
kiosk.rules.errors.NotAllowed: Bets are already closed for this coup (rule 5.6)

The shoe's cards go player, banker, player, banker (rule 5.2); a natural 9 ends the coup:

>>> for code in ["9H", "5S", "KD", "2C"]:
...     print(pb.next_step(state))
...     state = pb.apply(state, pb.shoe_card(state, Card.parse(code)))
Player's first card
Banker's first card
Player's second card
Banker's second card
>>> print(pb.next_step(state))
Coup complete: Player wins 9 to 7. Pay and confirm
>>> settled = pb.confirm_payouts(state)
>>> [(s.area, s.kind.value, s.outcome.value, s.returned) for s in settled.settlements]
[('1', 'player', 'win', 20000), ('2', 'banker', 'lose', 0)]
>>> state = pb.apply(state, settled)
>>> state.coup, [r.winner.value for r in state.results]
(2, ['player'])
"""
