"""The shuffle and the cut for blackjack and Touch 21: the shared procedure of
`kiosk/rules/cut.py` (mini baccarat's malfunction procedure shuffles and cuts the same way,
its rule 12.5.3), named here as blackjack's code has always imported it."""

from __future__ import annotations

from kiosk.rules.cut import (
    DECK as DECK,
    SUPERVISOR as SUPERVISOR,
    sc as sc,
    ShuffleReason as ShuffleReason,
    Stage as Stage,
    FARTHEST_RIGHT as FARTHEST_RIGHT,
    ShoePrep as ShoePrep,
    verify_shuffle as verify_shuffle,
    after_shuffle as after_shuffle,
    verify_refuse as verify_refuse,
    verify_cut as verify_cut,
    cut_margin as cut_margin,
    after_cut as after_cut,
    needs_shuffle as needs_shuffle,
    step_words as step_words,
)
