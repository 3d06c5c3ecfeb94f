"""American roulette (rules section 3) on a single-zero wheel; double zero as a house option.

Its public API is `engine` (`from kiosk.rules.roulette import engine as rl`); the parts live
beside it: the house rules (`house.py`), the state (`state.py`), the journal records
(`operations.py`), the wheel and the layout's bets (`wheel.py`, `bets.py`), the acts
(`betting.py`, `spin.py`, `payouts.py`), the dealer's words and the acts allowed now
(`words.py`), the one fold (`fold.py`); beside the engine, the exact odds (`odds.py`), the
wheel's statistics (`history.py`, `integrity.py`), its configuration, replay audit, simulated
dealer and registration (`spec.py`).

One spin, as the table plays it: every act is checked by the rules (`verify_x` raises,
`can_x` answers, `x` returns the record) and every record is folded by `apply`. Each player
changes money for wheel chips of one colour (rule 3.5):

>>> from kiosk.rules.roulette import engine as rl
>>> rules = rl.RouletteRules()  # single zero, seven colours
>>> state = rl.initial_state(rules, "RL-01")
>>> state = rl.apply(state, rl.chip_change(state, "pink", 20, 500))
>>> state = rl.apply(state, rl.chip_change(state, "blue", 10, 1000))
>>> state = rl.apply(state, rl.place_bet(state, "pink", rl.BetKind.STRAIGHT, 2, ("17",)))
>>> state = rl.apply(state, rl.place_bet(state, "blue", rl.BetKind.RED, 5))
>>> sorted(rl.legal_actions(state))
['chip_change', 'place_bet', 'place_call_bet', 'spin_ball', 'take_back', 'void_round']
>>> state = rl.apply(state, rl.spin_ball(state, rl.Direction.CLOCKWISE))
>>> state = rl.apply(state, rl.close_betting(state))
>>> print(rl.next_step(state))
No more bets: wait for the number
>>> rl.place_bet(state, "pink", rl.BetKind.RED, 1)
Traceback (most recent call last):
    ...
kiosk.rules.errors.NotAllowed: No more bets: chips placed now are a no bet (rule 3.4)

The winning number; a straight up pays 35 to 1 in the colour's own chips (rule 3.5):

>>> state = rl.apply(state, rl.call_number(state, "17"))
>>> print(rl.next_step(state))
17: pay and confirm
>>> settled = rl.confirm_payouts(state)
>>> [rl.payout_words(p, rules) for p in settled.payouts]
['Pink: 70 chips + R0 in cash value', 'Blue: 0 chips + R0 in cash value']
>>> state = rl.apply(state, settled)
>>> state.spin, state.results, [(s.colour, s.chips) for s in state.stacks]
(2, ('17',), [('pink', 90), ('blue', 5)])
>>> print(rl.next_step(state))  # each spin the other way round (rule 3.2)
Place your bets; spin the ball anticlockwise
"""
