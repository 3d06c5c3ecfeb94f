"""The shuffle and the cut for blackjack and Touch 21: the shared procedure of
`kiosk/rules/cut.py` (mini baccarat's malfunction procedure shuffles and cuts the same way,
its rule 12.5.3), named here as blackjack's code has always imported it."""

from __future__ import annotations

from kiosk.rules.cut import (
    DECK as DECK,
    FARTHEST_RIGHT as FARTHEST_RIGHT,
    SUPERVISOR as SUPERVISOR,
    ShoePrep as ShoePrep,
    ShuffleReason as ShuffleReason,
    Stage as Stage,
    after_cut as after_cut,
    after_shuffle as after_shuffle,
    cut_margin as cut_margin,
    needs_shuffle as needs_shuffle,
    sc as sc,
    step_words as step_words,
    verify_cut as verify_cut,
    verify_refuse as verify_refuse,
    verify_shuffle as verify_shuffle,
)
