"""The `tableside` command: run the table, the demo, the odds, the journal tools, replay."""

from __future__ import annotations

import json
import os
import sys
from fractions import Fraction
from typing import Any

import click

from kiosk.rules.errors import TablesideError
from kiosk.rules.registry import EXTRA_GAMES, load_games

load_games(os.environ.get(EXTRA_GAMES, ""))  # before the commands list the games


def _fail(exc: Exception) -> None:
    click.echo(f"tableside: {exc}", err=True)
    sys.exit(2)


@click.group()
def main() -> None:
    """Tableside: the computer at a casino gaming table."""


# --- odds ---------------------------------------------------------------------------------


@main.group()
def odds() -> None:
    """Exact odds and house edges computed from the engine's own rules."""


@odds.command("punto-banco")
@click.option("--decks", type=click.IntRange(1, 16), default=8, show_default=True)
@click.option("--commission", "commission_mode", type=click.Choice(["net", "commission"]),
              default="net", show_default=True, help="rule 5.7 banker payout mode")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_punto_banco(decks: int, commission_mode: str, as_json: bool) -> None:
    """Count every ordered 6-card deal (unused cards counted) through the table's drawing
    rules (5.2) and print each bet's probability and house edge (5.7)."""
    from kiosk.rules.baccarat.engine import CommissionMode, PuntoBancoRules
    from kiosk.rules.baccarat.odds import baccarat_odds

    result = baccarat_odds(decks)
    rules = PuntoBancoRules(decks=decks, commission_mode=CommissionMode(commission_mode))
    edges = result.house_edges(rules)
    counts = {"banker": result.banker, "player": result.player, "tie": result.tie}
    if as_json:
        click.echo(json.dumps({
            "decks": decks, "total": result.total, "counts": counts,
            "probability": {k: _ratio(Fraction(v, result.total)) for k, v in counts.items()},
            "house_edge": {k: _ratio(v) for k, v in edges.items()},
            "payouts": dict(rules.odds()),
        }, indent=2))
        return
    click.echo(f"Punto banco, {decks} deck{'s' if decks != 1 else ''}: "
               f"{result.total:,} ordered 6-card deals")
    for k, v in counts.items():
        click.echo(f"  {k:<7} {v:>26,}   p = {float(Fraction(v, result.total)):.8f}")
    click.echo("House edge at the configured payouts:")
    for name, pay in rules.odds():
        click.echo(f"  {name:<7} {pay:<28} {float(edges[name.lower()] * 100):.4f}%")


@odds.command("blackjack")
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="the table's configuration (game blackjack or touch-21); default: the "
                   "standard game's defaults")
@click.option("--touch-21", "touch", is_flag=True, help="without --config: Touch 21's defaults")
@click.option("--target", type=float, default=0.1, show_default=True,
              help="95%% confidence half-width to reach, in percent")
@click.option("--max-seconds", type=float, default=540.0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--strategy", "show_strategy", is_flag=True, help="print the strategy charts")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def odds_blackjack(config_path: str | None, touch: bool, target: float, max_seconds: float,
                   workers: int, seed: int, show_strategy: bool, as_json: bool) -> None:
    """The house edge of the configured blackjack rules: the engine itself plays seven boxes
    of basic strategy (computed for those rules) until the 95% interval is within --target,
    beside the combinatorial figure for the same strategy (docs/blackjack-odds.md)."""
    from kiosk.house_edge import estimate
    from kiosk.rules.blackjack.analysis import house_edge
    from kiosk.rules.blackjack.house import BlackjackRules
    from kiosk.rules.blackjack.strategy import basic_strategy, describe

    if config_path:
        from kiosk.config import load

        try:
            cfg = load(config_path)
        except TablesideError as exc:
            _fail(exc)
        if not isinstance(cfg.rules, BlackjackRules):
            _fail(ValueError(f"{config_path} configures {cfg.game}, not blackjack"))
        rules = cfg.rules
    else:
        rules = BlackjackRules.touch_21() if touch else BlackjackRules()
    analytic = house_edge(rules)

    def progress(tally: Any, elapsed: float) -> None:
        if not as_json:
            click.echo(f"  {tally.rounds:>10,} rounds  {elapsed:6.0f} s  edge "
                       f"{tally.edge * 100:.3f}% +/- {tally.half_width * 100:.3f}%", err=True)

    if not as_json:
        click.echo(f"{rules.game_name}: {describe(rules)}")
        if show_strategy:
            click.echo(basic_strategy(rules).table())
    tally, seconds = estimate(rules, target=target / 100, max_seconds=max_seconds,
                              workers=workers, seed=seed, progress=progress)
    met = tally.half_width * 100 <= target
    if as_json:
        click.echo(json.dumps({
            "game": rules.game_name, "rules": describe(rules), "rounds": tally.rounds,
            "hands": tally.hands, "seconds": round(seconds, 1),
            "house_edge_percent": round(tally.edge * 100, 4),
            "half_width_percent": round(tally.half_width * 100, 4),
            "target_met": met, "combinatorial_percent": round(analytic * 100, 4),
        }, indent=2))
        return
    click.echo(f"Simulated through the engine: {tally.hands:,} hands in {tally.rounds:,} "
               f"rounds, {seconds:.0f} s")
    click.echo(f"  house edge {tally.edge * 100:.3f}% +/- {tally.half_width * 100:.3f}% "
               f"(95%){'' if met else '  (target not reached in the time allowed)'}")
    click.echo(f"Combinatorial, same strategy: {analytic * 100:.3f}%")


def _ratio(f: Fraction) -> dict[str, Any]:
    return {"exact": f"{f.numerator}/{f.denominator}", "decimal": f"{float(f):.10f}",
            "percent": f"{float(f * 100):.4f}"}


# --- journal ------------------------------------------------------------------------------


@main.group()
def journal() -> None:
    """The tamper-evident journal: verify it, export it."""


@journal.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--head", help="expected head as SEQ:HASH (from the pit server)")
def journal_verify(path: str, head: str | None) -> None:
    """Recompute the hash chain and name the first bad row."""
    from kiosk.store.journal import verify

    expected = None
    if head:
        seq, _, digest = head.partition(":")
        expected = (int(seq), digest)
    try:
        report = verify(path, expected_head=expected)
    except TablesideError as exc:
        _fail(exc)
    if report.ok:
        click.echo(f"OK: {report.rows} rows, head {report.head_hash}")
        return
    click.echo(f"BROKEN at row {report.first_bad_seq}: {report.reason} "
               f"({report.rows} good rows before it)")
    sys.exit(1)


@journal.command("export")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--out", type=click.Path(dir_okay=False), help="file (default: stdout)")
def journal_export(path: str, out: str | None) -> None:
    """Write the journal as JSONL (docs/journal.md)."""
    from kiosk.store.export import export_jsonl

    if out:
        with open(out, "w", encoding="utf-8") as fh:
            n = export_jsonl(path, fh)
        click.echo(f"{n} rows written to {out}", err=True)
    else:
        export_jsonl(path, sys.stdout)


# --- replay -------------------------------------------------------------------------------


@main.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def replay(source: str, as_json: bool) -> None:
    """Recompute every coup of a journal (database or JSONL export) and report differences
    from what was recorded (rule 2.8). Exit status 1 when anything differs."""
    from kiosk.replay import load_entries, replay as run_replay

    try:
        report = run_replay(load_entries(source), source)
    except TablesideError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2))
    else:
        chain = "intact" if report.chain_ok else f"BROKEN: {report.chain_reason}"
        click.echo(f"{source}: table {report.table_id}, {report.entries} rows, chain {chain}")
        for c in report.coups:
            click.echo(c.line())
        for p in report.problems:
            click.echo(f"problem: {p}")
        click.echo(f"{report.differences} difference(s)")
    sys.exit(0 if report.ok else 1)


# --- config -------------------------------------------------------------------------------


@main.group()
def config() -> None:
    """Table configuration files."""


def game_names() -> list[str]:
    """The registered games' names, for --game choices."""
    from kiosk.rules.registry import games as registered

    return [g.name for g in registered()]


@config.command("example")
@click.option("--game", type=click.Choice(game_names()), default=game_names()[0],
              show_default=True)
def config_example(game: str) -> None:
    """Print a commented example table.toml."""
    from kiosk.config import example

    click.echo(example(game), nl=False)


@config.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
def config_check(path: str) -> None:
    """Check a table.toml; print the line and the reason when it is not valid."""
    from kiosk.config import load
    from kiosk.rules.registry import game

    try:
        cfg = load(path)
    except TablesideError as exc:
        _fail(exc)
    spec = game(cfg.game)
    decks = getattr(cfg.rules, "decks", None)
    shoe = f"{decks} decks, " if decks else ""
    click.echo(f"OK: table {cfg.table_id} ({cfg.name}), {cfg.game}, {shoe}"
               f"{spec.places.count(cfg.rules)} {spec.places.word}, journal {cfg.journal}")


@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def games_command(as_json: bool) -> None:
    """The games this build runs, with the rule sections each implements."""
    from kiosk.rules.registry import games

    rows = [{"name": g.name, "title": g.title, "aliases": list(g.aliases),
             "rules": g.rule_sections, "config_section": g.config.section,
             "devices": list(g.devices), "family": g.family} for g in games()]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        also = f" (also {', '.join(r['aliases'])})" if r["aliases"] else ""
        click.echo(f"{r['name']:<12} {r['title']}{also}: rules {r['rules']}; "
                   f"[{r['config_section']}], devices: {', '.join(r['devices']) or 'none'}")


def _attach_optional() -> None:
    from hardware.simulators.cli import simulate
    from kiosk.commands import demo, run
    from kiosk.ui.signage.app import signage

    main.add_command(simulate)
    main.add_command(run)
    main.add_command(demo)
    main.add_command(signage)


_attach_optional()


if __name__ == "__main__":  # pragma: no cover
    main()

