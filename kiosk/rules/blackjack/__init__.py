"""Standard blackjack (section 4), Touch 21 (section 7) and the shuffle and cut.

Its public API is `engine` (`from kiosk.rules.blackjack import engine as bj`); the parts live
beside it: the house rules (`house.py`), the state (`state.py`), the journal records
(`operations.py`), hands and totals (`hands.py`), the shuffle and cut (`cut.py`,
`preparation.py`), the acts (`betting.py`, `dealing.py`, `insurance.py`, `decisions.py`,
`payouts.py`), whose turn it is (`turns.py`), the dealer's words and the acts allowed now
(`words.py`), the one fold (`fold.py`); beside the engine, the basic strategy and the exact
house edge (`strategy.py`, `analysis.py`), the simulator that plays the engine itself
(`simulation.py`), its configuration, replay audit, simulated dealer and registration
(`spec.py`).

One round, as the table plays it: every act is checked by the rules (`verify_x` raises,
`can_x` answers, `x` returns the record) and every record is folded by `apply`. A new shoe is
shuffled, cut by the first player (rule 4.2.1) and its first card burned (rule 4.7):

>>> from kiosk.rules.blackjack import engine as bj
>>> from kiosk.rules.cards import Card
>>> rules = bj.BlackjackRules()  # six decks, seven boxes, dealer stands on soft 17
>>> state = bj.initial_state(rules, "BJ-01")
>>> state = bj.apply(state, bj.shuffle(state))
>>> print(bj.next_step(state))
Offer the cut to the first player at the table (rule 4.2.1)
>>> state = bj.apply(state, bj.cut_cards(state, 1, 156, 78))
>>> state = bj.apply(state, bj.shoe_card(state, Card.parse("9S")))
>>> state = bj.apply(state, bj.place_bet(state, 1, 10_000, "A"))
>>> state = bj.apply(state, bj.place_bet(state, 2, 10_000, "B"))
>>> state = bj.apply(state, bj.close_betting(state))

A card to each box, one to the dealer, a second to each box and none to the dealer (rule 4.2
item 3); then each box decides in turn:

>>> for code in ["TS", "9H", "6D", "7C", "QH"]:
...     state = bj.apply(state, bj.shoe_card(state, Card.parse(code)))
>>> print(bj.next_step(state))
Box 1: 17 against 6: draw, stand, double?
>>> sorted(bj.legal_actions(state))
['cut_card_out', 'deal_card', 'double', 'stand', 'unread_card', 'void_round']
>>> bj.can_surrender(state)
False
>>> bj.surrender(state)
Traceback (most recent call last):
    ...
kiosk.rules.errors.NotAllowed: This house does not allow surrender (rule 4.2 item 4a)
>>> state = bj.apply(state, bj.stand(state))
>>> state = bj.apply(state, bj.stand(state))
>>> for code in ["TC", "3D"]:
...     print(bj.next_step(state))
...     state = bj.apply(state, bj.shoe_card(state, Card.parse(code)))
Dealer's second card
Dealer draws (16): dealer draws to 16, stands on all 17s
>>> print(bj.next_step(state))
Round complete: Dealer 19. Pay and confirm
>>> settled = bj.confirm_payouts(state)
>>> [(s.box, s.player, s.outcome.value, s.returned) for s in settled.settlements]
[(1, 'A', 'lose', 0), (2, 'B', 'push', 10000)]
>>> state = bj.apply(state, settled)
>>> state.round
2
"""
