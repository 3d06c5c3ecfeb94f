"""High card: a toy game that proves the game seam (docs/adding-a-game.md), with every hook a
game has. Everything it needs is in this package; `spec.py` registers it with one line.
One round through its rules, as the table plays it:

>>> from kiosk.rules.cards import Card
>>> from tests.toy_game.rules import *
>>> state = initial_state(HighCardRules(minimum=1_000, maximum=10_000), "HC-1")
>>> state = apply(state, shuffle(state))
>>> sorted(legal_actions(state))
['place_bet', 'shuffle']
>>> str(next_step(state))
'Place your bets'
>>> place_bet(state, Side.PLAYER, 50_000)
Traceback (most recent call last):
...
kiosk.rules.errors.NotAllowed: The bet is outside the table's limits
>>> state = apply(state, place_bet(state, Side.PLAYER, 2_000))
>>> state = apply(state, close_betting(state))
>>> state = apply(state, shoe_card(state, Card.parse("KS")))
>>> state = apply(state, shoe_card(state, Card.parse("9D")))
>>> str(next_step(state))
'Player: pay and confirm'
>>> settled = confirm_payouts(state)
>>> settled.winner, settled.paid
('player', (('player', 2000),))
>>> state = apply(state, settled)
>>> state.round, state.results
(2, ('player',))
"""
