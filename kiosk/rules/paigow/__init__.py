"""Pai gow tiles (the Mpumalanga table game rules, section 13): the 32 tiles, their hands, the
house way, the three banking procedures of 13.1-13.3 and the engine. `engine.py` is the public
API; its names are stable (the dealer screen and the sign are built on them):

- tiles (`tiles.py`): `Tile` (21 kinds, the value its code: "66" teen, "12" a Gee Joon tile),
  `SET` (the 32), `parse_tile`, `parse_tiles` (keypad codes, either end first), `read_tile`
  (a tile reader's b"36\\r\\n");
- hands (`hands.py`): `hand(a, b)` -> `Hand` (`kind`, `points`, `key`, `words`), `Setting`
  (`high`, `low`), `splits(four)`, `match(player, banker)` -> `Result` (copies go to the
  banker);
- the house way (`houseway.py`): `house_way(four, HouseWay)` -> `Decision` (`setting`, `why`);
- the state (`state.py`): `PaiGowState` (`phase`: `Phase`, `bank`: `Bank`, `chung`,
  `banker_wager`, `bets`, `hands`, `bank_hand`, `bank_why`, `confirmed_by`, `to_set`,
  `in_order()`, `last`);
- the acts, each `verify_x`/`can_x`/`x` (`x` returns the record to journal): `shuffle` (wash
  the tiles), `take_bank(bank, area, wager)`, `place_bet(area, amount)`, `remove_bet(area)`,
  `close_betting`, `set_hand(area, high, low)`, `unset_hand(area)` (a hand keyed wrong,
  before the bank's is set), `set_bank(tiles, high=None)`,
  `confirm_house_way(supervisor)`, `confirm_payouts`, `void_round(reason)`; and
  `legal_actions`, `next_step`;
- the records (`operations.py`): `Washed`, `BankTaken`, `BetPlaced`, `BetTakenBack`,
  `BettingClosed`, `HandSet`, `HandUnset`, `BankHandSet`, `HouseWayConfirmed`, `Settled`
  (its `areas`: `AreaResult`s, its `steps`: every `Step` of the procedure in order), `Voided`;
  `settle(state)` and `ledger(steps)` (each party's net).

One round with the House banking (rule 13.1):

>>> from kiosk.rules.paigow.engine import *
>>> game = PaiGow()
>>> rules = PaiGowRules(minimum=1_000, maximum=10_000, areas=4)
>>> state = game.initial_state(rules, "PG-1")
>>> def do(op):
...     global state
...     state = game.apply(state, op)
>>> do(game.open_table(rules, "PG-1")); do(shuffle(state))
>>> str(game.next_step(state))
'The House banks: the chung is on area one (rule 13.1.1). Place your bets'
>>> do(place_bet(state, 2, 1_000)); do(place_bet(state, 3, 2_000)); do(close_betting(state))
>>> str(game.next_step(state))
'Area 2: key in the tiles as the player set them, high then low'
>>> do(set_hand(state, 2, parse_tiles("66 45"), parse_tiles("55 16")))
>>> set_bank(state, parse_tiles("56 15 34 26"))
Traceback (most recent call last):
...
kiosk.rules.errors.NotAllowed: Area 3 sets its hands first: the bank's come last (rule 13.1.2)
>>> do(set_hand(state, 3, parse_tiles("33 35"), parse_tiles("22 25")))
>>> do(set_bank(state, parse_tiles("56 15 34 26")))
>>> state.bank_why
'no pair: the strongest low hand, 5 (chop bot), with 7 (foo)'
>>> sorted(legal_actions(state))
['confirm_house_way', 'void_round']
>>> do(confirm_house_way(state, "Thandi"))
>>> settled = confirm_payouts(state)
>>> [(a.area, a.result.value, a.net) for a in settled.areas]
[(2, 'win', 900), (3, 'lose', -2000)]
>>> for s in settled.steps:
...     print(s.clause, s.move.value, s.area, s.amount, s.source.value or "-", s.to.value or "-")
13.1.3 expose 1 0 - -
13.1.7 lose 3 2000 player float
13.1.8 pay 2 1000 float player
14.1 commission 2 100 player commission
"""
