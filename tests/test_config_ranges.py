"""Every numeric setting has a range: the example configuration says it on the setting's line
(or its section's), `config check` refuses a value just outside it naming the line, and no
value, however large or small, gives a traceback (`config check`, `run`)."""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import main
from kiosk.config import MAX_AMOUNT, ConfigError, example, load, parse
from kiosk.rules.registry import games
from tests.test_cli_errors import one_format, tableside

RANGE = re.compile(r"(-?\d[\d_]*(?:\.\d+)?) to (-?\d[\d_]*(?:\.\d+)?)")
SETTING = re.compile(r"^\s*([A-Za-z_]+)\s*=")


def _numbers(line: str) -> list[tuple[str, object]]:
    """The numeric settings one line of the example sets: (key, value), a list's first item,
    each key of an inline table."""
    try:
        parsed = tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return []
    out: list[tuple[str, object]] = []
    for key, value in parsed.items():
        items = value.items() if isinstance(value, dict) else [(key, value)]
        for k, v in items:
            first = v[0] if isinstance(v, list) and v else v
            if isinstance(first, int) and not isinstance(first, bool):
                out.append((k, first))
    return out


def _range(comment: str) -> tuple[Decimal, Decimal] | None:
    found = RANGE.search(comment)
    if found is None:
        return None
    return Decimal(found[1].replace("_", "")), Decimal(found[2].replace("_", ""))


def _with(line: str, key: str, value: Decimal) -> str:
    """`line` with `key` (or its list's first item) set to `value`, written as TOML."""
    text = f'"{value}"' if value != value.to_integral_value() else str(int(value))
    code, sep, comment = line.partition("#")
    if re.search(rf"\b{key}\s*=\s*\[", code):
        code = re.sub(rf"(\b{key}\s*=\s*\[)\s*-?[\d_]+", rf"\g<1>{text}", code, count=1)
    else:
        code = re.sub(rf"(\b{key}\s*=\s*)-?[\d_]+", rf"\g<1>{text}", code, count=1)
    return code + sep + comment


def _settings(text: str) -> list[tuple[int, str, object, tuple[Decimal, Decimal] | None]]:
    """(line number, key, value, documented range) of every numeric setting in `text`."""
    out = []
    header = ""
    for n, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("["):
            header = line.partition("#")[2]
            continue
        if line.lstrip().startswith("#") or not SETTING.match(line):
            continue
        comment = line.partition("#")[2]
        for key, value in _numbers(line):
            out.append((n, key, value, _range(comment) or _range(header)))
    return out


@pytest.mark.parametrize("game", [g.name for g in games()])
def test_every_numeric_setting_in_the_example_has_its_range_said_and_enforced(
        game: str) -> None:
    text = example(game)
    parse(text)  # the example itself is good
    lines = text.splitlines()
    settings = _settings(text)
    assert len(settings) >= 20  # chips, devices, gpio, display and the game's own
    for n, key, value, span in settings:
        assert span is not None, f"line {n}: {key} has no range in the example"
        lo, hi = span
        assert lo <= Decimal(str(value)) <= hi, (n, key, value, span)
        step = Decimal("0.01") if lo != lo.to_integral_value() else Decimal(1)
        for outside in (lo - step, hi + step):
            edited = lines.copy()
            edited[n - 1] = _with(lines[n - 1], key, outside)
            assert edited[n - 1] != lines[n - 1], (n, key)
            with pytest.raises(ConfigError) as err:
                parse("\n".join(edited) + "\n")
            assert f"config, line {n}: " in str(err.value), (n, key, outside, str(err.value))
            assert "\n" not in str(err.value)


@pytest.mark.parametrize(("edit", "line", "words"), [
    (("smallest = 5 ", "smallest = 0 "), 21,
     "chips.smallest: must be positive, an amount from 0.01 to 10_000, not 0"),
    (("smallest = 5 ", "smallest = -50 "), 21,
     "chips.smallest: must be positive, an amount from 0.01 to 10_000, not -50"),
    (("smallest = 5 ", 'smallest = "-0.50" '), 21, "chips.smallest: must be positive"),
    (("smallest = 5 ", 'smallest = "inf" '), 21, "chips.smallest: must be an amount from"),
    (("smallest = 5 ", 'smallest = "1e9999999999" '), 21,
     "chips.smallest: '1e9999999999' is not an amount"),
    (("smallest = 5 ", 'smallest = "NaN" '), 21, "chips.smallest: must be an amount from"),
    (("baudrate = 9600", "baudrate = -9600"), 28,
     "devices.shoe.baudrate: must be a whole number from 50 to 4_000_000, not -9600"),
    (("baudrate = 9600", "baudrate = 0"), 28, "devices.shoe.baudrate: must be a whole number "
                                              "from 50 to 4_000_000, not 0"),
    (("baudrate = 9600", "baudrate = 123456789012345678901234567890"), 28,
     "devices.shoe.baudrate: must be a whole number from 50 to 4_000_000, not 1234567890..."
     "(30 digits)"),
    (("banker = { minimum = 50, maximum = 50000 }",
      "banker = { minimum = 50, maximum = 1000000000000000000000000000000 }"), 16,
     "punto_banco.limits.banker.maximum: must be an amount from 0.01 to 10_000_000, not"),
    (("tie = { minimum = 10, maximum = 5000 }", "tie = { minimum = 10, maximum = 10000005 }"),
     18, "punto_banco.limits.tie.maximum: must be an amount from 0.01 to 10_000_000, not "
         "10000005"),
    (("player = { minimum = 50,", "player = { minimum = 51,"), 17,
     "punto_banco.limits.player: limits must be whole chips of 5"),
])
def test_out_of_range_values_are_refused_in_one_line(edit: tuple[str, str], line: int,
                                                     words: str) -> None:
    text = example("punto-banco")
    assert edit[0] in text
    with pytest.raises(ConfigError) as err:
        parse(text.replace(edit[0], edit[1], 1))
    assert str(err.value).startswith(f"config, line {line}: {words}"), str(err.value)


def test_the_largest_amount_is_accepted_and_one_cent_more_is_not() -> None:
    text = example("punto-banco").replace(
        "banker = { minimum = 50, maximum = 50000 }",
        'banker = { minimum = 50, maximum = "10_000_000" }')
    cfg = parse(text)
    assert max(lim.maximum for lim in cfg.rules.limits) == MAX_AMOUNT
    with pytest.raises(ConfigError, match="line 16: .* not 10000000.01"):
        parse(text.replace('"10_000_000"', '"10000000.01"'))


def _cli_config(tmp_path: Path, old: str, new: str) -> Path:
    text = example("punto-banco")
    assert old in text
    path = tmp_path / "table.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(("old", "new", "words"), [
    ("smallest = 5 ", "smallest = 0 ", "line 21: chips.smallest: must be positive"),
    ('journal = "data/PB-01.db"', 'journal = "/proc/nope/x.db"',
     "line 7: table.journal: /proc/nope/x.db cannot be made: /proc does not take a new file "
     "or folder"),
    ('port = "simulated"', 'port = "/dev/null"', None),  # with a real port: tried, not run
])
def test_config_check_and_run_refuse_in_one_line_never_a_traceback(
        tmp_path: Path, old: str, new: str, words: str | None) -> None:
    path = _cli_config(tmp_path, old, new)
    if words is None:  # a port that is there and the largest baudrate: the check tries it
        path.write_text(path.read_text().replace(
            "baudrate = 9600", "baudrate = 123456789012345678901234567890"))
        words = "line 28: devices.shoe.baudrate: must be a whole number from 50 to 4_000_000"
    check = CliRunner().invoke(main, ["config", "check", str(path)])
    assert check.exit_code == 2 and words in check.stderr, check.output
    one_format(check.stderr)
    run = tableside(tmp_path, "run", "--config", str(path), "--console")
    assert run.returncode == 2 and words in run.stderr, run.stderr
    one_format(run.stderr)
    assert len(run.stderr.splitlines()) == 1


def test_a_journal_on_a_read_only_or_missing_place_is_refused(tmp_path: Path) -> None:
    text = example("punto-banco")
    ro = tmp_path / "ro"
    ro.mkdir()
    (tmp_path / "a-file").write_text("")
    for journal, words in (
            (str(tmp_path / "a-file" / "x.db"), "a-file is not a folder"),
            (str(tmp_path), "is a folder; name the journal's file"),
            ("/proc/nope/deeper/x.db", "cannot be made: /proc does not take")):
        path = tmp_path / "t.toml"
        path.write_text(text.replace('"data/PB-01.db"', f'"{journal}"'))
        with pytest.raises(ConfigError, match=f"line 7: table.journal: .*{words}"):
            load(path)
    good = tmp_path / "t.toml"
    good.write_text(text.replace('"data/PB-01.db"', '"deep/er/x.db"'))
    assert load(good).journal == tmp_path / "deep" / "er" / "x.db"
    assert not (tmp_path / "deep").exists()  # tried, nothing left behind
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".tableside-")] == []
