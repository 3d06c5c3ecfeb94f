"""[blackjack] in table.toml: the house's choices for standard blackjack (section 4) or
Touch 21 (section 7); the defaults are the section's own rules."""

from __future__ import annotations

from kiosk.rules.blackjack.house import BOXES, BlackjackRules, DealerBlackjackTakes, SplitMatch
from kiosk.rules.registry import HouseSettings, SectionReader

SECTION = "blackjack"

EXAMPLE = """\
[blackjack]                 # section 4 (game = "blackjack") or 7 (game = "touch-21")
decks = 6                   # rule 4.5: 4 to 8 (rule 7.5: 1 or 2 for Touch 21)
boxes = 7                   # rules 4.3, 7.3: 1 to 7 boxes on the layout
minimum = 50                # rule 2.2, per bet on a box: 5 to 10_000_000, whole chips
maximum = 10000             # 5 to 10_000_000, whole chips, at least the minimum
surrender = false           # rule 4.2 item 4a (never in Touch 21, rule 7.2 item 8)
double_after_split = true   # rule 4.2 item 4e
max_hands = 4               # resplits up to this many hands per box: 2 to 8
dealer_blackjack_takes = "all"  # all | original: what doubles and splits lose to it
shuffler = false            # rule 4.6 (shuffle and cut): a shuffling device, no cut
"""
# The dealer's 17s are not a house choice: rule 4.2 "draw on 16 and stand on 17" for the
# standard game, rule 7.2 "draws on soft 17" for Touch 21. The key is still read, so a file
# that says what the rules say passes and one that contradicts them is refused by name.

TOUCH_21_EXAMPLE = EXAMPLE.replace("decks = 6                   # rule 4.5: 4 to 8 (rule 7.5: "
                                   "1 or 2 for Touch 21)",
                                   "decks = 2                   # rule 7.5: 1 to 2 for Touch 21")


def parse_standard(reader: SectionReader, house: HouseSettings) -> BlackjackRules:
    return _parse(reader, house, BlackjackRules(chips=house.chips, currency=house.currency))


def parse_touch_21(reader: SectionReader, house: HouseSettings) -> BlackjackRules:
    return _parse(reader, house, BlackjackRules.touch_21(chips=house.chips,
                                                         currency=house.currency))


def _parse(reader: SectionReader, house: HouseSettings, base: BlackjackRules
           ) -> BlackjackRules:
    sec = reader.section(SECTION, required=False)
    where = SECTION
    soft_17 = reader.boolean(sec, where, "dealer_hits_soft_17", base.dealer_hits_soft_17)
    if soft_17 != base.dealer_hits_soft_17:
        said = ("in Touch 21 the dealer draws on soft 17 (rule 7.2)" if base.dealer_hits_soft_17
                else "the dealer must draw on 16 and stand on 17, soft 17 included "
                     "(rule 4.2); a dealer who draws soft 17 is Touch 21 (section 7)")
        reader.fail(where, "dealer_hits_soft_17", said)
    limits = {key: reader.money(sec, where, key, getattr(base, key))
              for key in ("minimum", "maximum")}
    for key, cents in limits.items():  # each on its own line, before the two together
        if cents % house.chips.smallest_chip:
            reader.fail(where, key, "the limits must be whole chips of the smallest chip")
    if limits["maximum"] < limits["minimum"]:
        reader.fail(where, "maximum", "the limits must satisfy 0 < minimum <= maximum "
                                      "(rule 2.2)")
    try:
        return BlackjackRules(
            variant=base.variant,
            decks=reader.integer(sec, where, "decks", base.decks, lo=1, hi=16),
            boxes=reader.integer(sec, where, "boxes", base.boxes, lo=1, hi=BOXES,
                                 why="boxes: the layout has seven (rules 4.3, 7.3)"),
            minimum=limits["minimum"],
            maximum=limits["maximum"],
            dealer_hits_soft_17=soft_17,
            surrender=reader.boolean(sec, where, "surrender", base.surrender),
            double_after_split=reader.boolean(sec, where, "double_after_split",
                                              base.double_after_split),
            max_hands=reader.integer(sec, where, "max_hands", base.max_hands, lo=2, hi=8,
                                     why="hands a box may split into"),
            split_match=SplitMatch(reader.choice(sec, where, "split_match",
                                                 [m.value for m in SplitMatch], "value")),
            dealer_blackjack_takes=DealerBlackjackTakes(reader.choice(
                sec, where, "dealer_blackjack_takes", [m.value for m in DealerBlackjackTakes],
                "all")),
            even_money=reader.boolean(sec, where, "even_money", True),
            shuffler=reader.boolean(sec, where, "shuffler", False),
            chips=house.chips,
            currency=house.currency,
        )
    except ValueError as exc:
        text = str(exc)
        key = next((k for k in ("deck", "box", "surrender", "limit", "hands") if k in text), "")
        keys = {"deck": "decks", "box": "boxes", "limit": "minimum", "hands": "max_hands"}
        reader.fail(where, keys.get(key, key), text)
