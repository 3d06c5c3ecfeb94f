"""Arizona Hold'em (the Mpumalanga table game rules, section 6): the five-card evaluator,
rule 6.6's pay table, the engine (`engine.py` is its public API) and the exact odds.

One hand, from the antes to the payouts:

>>> from kiosk.rules.cards import Card
>>> from kiosk.rules.arizona.engine import *
>>> from kiosk.rules.arizona.config import ArizonaRules
>>> game = ArizonaHoldem()
>>> rules = ArizonaRules(minimum=1_000, maximum=10_000, boxes=2)
>>> state = game.initial_state(rules, "AZ-1")
>>> def do(op):
...     global state
...     state = game.apply(state, op)
>>> do(game.open_table(rules, "AZ-1")); do(shuffle(state))
>>> do(place_bet(state, 1, 1_000)); do(place_bet(state, 2, 2_000)); do(close_betting(state))
>>> str(game.next_step(state))
'Deal a card face down to box 1'
>>> for code in ["TS", "2C", "TD", "9H", "4C", "KD", "3S", "7D"]:
...     do(game.shoe_card(state, Card.parse(code)))
>>> str(game.next_step(state))
'Box 1: raise in circle 1, or check'
>>> sorted(legal_actions(state))
['check', 'misdeal', 'raise_bet', 'void_round']
>>> raise_bet(state, 2, 1)
Traceback (most recent call last):
...
kiosk.rules.errors.NotAllowed: Box 1 decides first: each player in turn (rule 6.2)
>>> do(raise_bet(state, 1, 1)); do(check(state, 2, 1)); do(turn_community(state))
>>> do(check(state, 1, 2)); do(raise_bet(state, 2, 2)); do(turn_community(state))
>>> [(b.box, b.hand, b.odds, b.net) for b in confirm_payouts(state).boxes]
[(1, 'a pair of tens', 1, 2000), (2, 'king high', None, -4000)]"""
