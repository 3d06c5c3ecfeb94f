"""Mini baccarat (punto banco's coup, rules 5.1-5.7, at one dealer's table of seven or nine
seats) with the shuffling device malfunction procedure of rules 12.1-12.5, the game's package.

Its public API is `engine` (`from kiosk.rules.mini_baccarat import engine as mb`); the parts
live beside it: the house rules and the procedure's values (`house.py`), the state
(`state.py`), its own records (`operations.py`: the opening and the procedure's; the coup's
are punto banco's), the procedure's acts (`malfunction.py`), punto banco's acts refused while
the coup is stopped (`dealing.py`), the words (`words.py`) and the fold (`fold.py`); its
configuration, replay audit, simulated dealer and registration (`spec.py`).

A coup dealt from the shuffler; the shuffler jams after three cards (rule 12.1.2):

>>> from kiosk.rules.mini_baccarat import engine as mb
>>> from kiosk.rules.cards import Card
>>> state = mb.initial_state(mb.MiniBaccaratRules(), "MB-01")
>>> state = mb.apply(state, mb.shuffle(state, "shuffler"))
>>> state = mb.apply(state, mb.place_bet(state, "1", mb.BetKind.BANKER, 10_000))
>>> state = mb.apply(state, mb.place_bet(state, "4", mb.BetKind.PLAYER, 5_000))
>>> state = mb.apply(state, mb.close_betting(state))
>>> for code in ["9H", "5S", "KD"]:
...     state = mb.apply(state, mb.shoe_card(state, Card.parse(code)))
>>> state = mb.apply(state, mb.shuffler_malfunction(state, "E12: jam", mb.SHUFFLER))
>>> print(mb.next_step(state))
Shuffler malfunction: are any cards in it damaged? (rule 12.3)
>>> mb.can_shoe_card(state, Card.parse("2C"))
False
>>> mb.void_round(state, "jam")
Traceback (most recent call last):
    ...
kiosk.rules.errors.NotAllowed: The shuffler malfunction stops the coup (rule 12.1)

The facts, each with who established it: no damage, nobody disadvantaged (the inspector's
call), no spare device: rule 12.5.

>>> thandi = mb.inspector("Thandi", "4411")
>>> for fact, answer, who in [(mb.Fact.DAMAGED, False, mb.DEALER),
...                           (mb.Fact.DISADVANTAGED, False, thandi),
...                           (mb.Fact.SPARE, False, thandi)]:
...     state = mb.apply(state, mb.establish_fact(state, fact, answer, who))
>>> print(mb.next_step(state))
Seat 1: offer the player the wagers back (rule 12.5.1)
>>> state = mb.apply(state, mb.offer_wager_back(state, "1", True, mb.DEALER))
>>> state = mb.apply(state, mb.offer_wager_back(state, "4", False, mb.DEALER))
>>> [(b.area, b.amount) for b in state.malfunction.returned]
[('1', 10000)]
>>> state = mb.apply(state, mb.reshuffle_cards(state, mb.DEALER))
>>> print(mb.next_step(state))
Offer the cut to seat 4, as under rule 4 (rule 12.5.3)
>>> sorted(mb.legal_actions(state))
['cut_cards', 'refuse_cut']
>>> state = mb.apply(state, mb.cut_cards(state, 4, 200, 60))
>>> state = mb.apply(state, mb.continue_coup(state, mb.DEALER))
>>> state.device.value, state.stopped
('shoe', False)

The coup is completed from the dealing shoe for seat 4 alone (rule 12.5.4), settled by punto
banco's code (rule 5.7):

>>> state = mb.apply(state, mb.shoe_card(state, Card.parse("2C")))
>>> print(mb.next_step(state))
Coup complete: Player wins 9 to 7. Pay and confirm
>>> settled = mb.confirm_payouts(state)
>>> [(s.area, s.kind.value, s.outcome.value, s.returned) for s in settled.settlements]
[('4', 'player', 'win', 10000)]
>>> state = mb.apply(state, settled)
>>> state.coup, state.malfunction is None
(2, True)
"""
