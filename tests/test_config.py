"""The table configuration: valid files load; invalid ones are refused with line and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import EXAMPLE, ConfigError, load, parse
from kiosk.rules.money import RoundingFavour
from kiosk.rules.punto_banco import BetKind, CommissionMode


def test_example_loads_with_money_in_cents(tmp_path: Path) -> None:
    f = tmp_path / "table.toml"
    f.write_text(EXAMPLE)
    cfg = load(f)
    assert cfg.table_id == "PB-01" and cfg.rules.decks == 8 and cfg.rules.areas == 7
    assert cfg.rules.limit(BetKind.BANKER).minimum == 5_000  # rule 2.2, R50
    assert cfg.rules.limit(BetKind.TIE).maximum == 500_000
    assert cfg.rules.chips.smallest_chip == 500
    assert cfg.rules.chips.favour is RoundingFavour.HOUSE
    assert cfg.rules.commission_mode is CommissionMode.NET
    assert cfg.journal == tmp_path / "data" / "PB-01.db"


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (("areas = 7 ", "areas = 20 "), 11, "7 to 14 numbered betting areas"),  # rule 5.2
        (("smallest = 5 ", "smallest = 2.5 "), 21, "not a decimal number"),
        (('commission_mode = "net"', 'commission_mode = "half"'), 13, "one of net, commission"),
        (("minimum = 50, maximum = 50000 }\nplayer", "minimum = 500, maximum = 50 }\nplayer"),
         16, "at most the maximum"),
        (('dialect = "line"', 'dialect = "morse"'), 27, "line, plain"),
    ],
)
def test_invalid_values_name_line_and_reason(edit: tuple[str, str], line: int,
                                             words: str) -> None:
    assert edit[0] in EXAMPLE
    with pytest.raises(ConfigError) as err:
        parse(EXAMPLE.replace(edit[0], edit[1], 1), Path("table.toml"))
    assert f"table.toml, line {line}:" in str(err.value)
    assert words in str(err.value)


def test_broken_toml_and_missing_file() -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML.*line 2"):
        parse('[table]\nid = "x\n', Path("t.toml"))
    with pytest.raises(ConfigError, match="cannot read"):
        load("/nonexistent/table.toml")
    with pytest.raises(ConfigError, match=r"\[table\] section is missing"):
        parse("[chips]\nsmallest = 5\n")
