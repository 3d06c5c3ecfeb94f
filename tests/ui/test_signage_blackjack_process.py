"""The signage process at a blackjack and a Touch 21 table (docs/architecture.md:
the signage is its own process): `python -m kiosk.ui.signage` follows a journal this test
process writes as the dealer app does, and shows the game, the limits (rule 2.2), the
dealer's drawing rule (rules 4.2, 7.2) and each round's dealer cards; the burned card (rule
4.7 shuffle and cut) never appears.
What it shows is read from its --trace lines (the texts on screen) and from the pixels of its
--screenshot."""

from __future__ import annotations

import json
import queue
import struct
import subprocess
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.rules.blackjack import engine as bj
from kiosk.ui import theme
from kiosk.ui.capture import Frame
from tests.ui.test_signage_blackjack_feed import (
    BURNED,
    TOUCH_RULES,
    BjSession,
    get_ready,
    open_bj,
    play_round,
    play_touch_round,
    replace_journal,
)
from tests.ui.test_signage_process import _signage

SEEN_WITHIN = 5.0  # seconds for one row: generous; the latencies are printed and checked below
STANDARD_RULE = "Dealer draws to 16, stands on all 17s"  # rule 4.2
TOUCH_RULE = "Dealer draws to soft 17, stands on hard 17"  # rule 7.2
TOUCH_BURNED = "KH"


class Trace:
    """The signage process's --trace lines, read as they come."""

    def __init__(self, proc: subprocess.Popen[str], log: Path) -> None:
        self.proc, self.log = proc, log
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def wait_for(self, done: Callable[[dict[str, Any]], bool], timeout: float,
                 what: str) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            if done(line):
                return line
        pytest.fail(f"the signage did not show {what} within {timeout} s: "
                    f"{self.log.read_text()[-2000:]}")


def _no_burned_card(lines: list[dict[str, Any]], codes: tuple[str, ...]) -> None:
    assert lines
    for line in lines:
        assert line["shown"], "the trace lists what is on screen"
        for text in line["shown"]:
            for code in codes:
                assert code not in text, (code, text)


def test_the_signage_process_follows_a_blackjack_table(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = open_bj(path)
    log_path = tmp_path / "signage.log"
    log = log_path.open("w")
    proc = _signage("--journal", str(path), "--trace", "--size", "800x480", stderr=log)
    trace = Trace(proc, log_path)
    try:
        first = trace.wait_for(lambda ln: ln["seq"] >= 1, 30, "the opened table")  # start-up
        assert (first["game"], first["view"], first["table_id"]) == (
            "blackjack", "BlackjackSignage", "BJ-01")
        shown = first["shown"]
        # The game's name, the limits per box (rule 2.2), the odds (rule 2.6, 4.7) and the
        # dealer's drawing rule (rule 4.2), from the table's journaled rules.
        for text in ("BLACKJACK", "MIN", "R50", "MAX", "R10,000", STANDARD_RULE, "3:2", "2:1",
                     "SHUFFLING", "Table BJ-01"):
            assert text in shown, (text, shown)
        latencies: list[float] = []

        def step(action: Callable[[], object], check: Callable[[dict[str, Any]], bool] =
                 lambda _ln: True) -> dict[str, Any]:
            t0 = time.monotonic()  # CLOCK_MONOTONIC is one clock for both processes
            action()
            rows = session.journal.count()
            line = trace.wait_for(lambda ln: ln["seq"] >= rows, SEEN_WITHIN, f"row {rows}")
            latencies.append(line["t"] - t0)
            assert line["seq"] == rows and check(line), line
            return line

        step(lambda: get_ready(session), lambda ln: "PLACE YOUR BETS" in ln["shown"])
        line = step(lambda: play_round(session, settle=False))
        assert line["phase"] == "paying" and "DEALER 20" in line["shown"]
        assert [c for c in ("6D", "TC", "4S") if c in line["shown"]] == ["6D", "TC", "4S"]
        # The round is settled: the dealer's cards and total of the last round stay up.
        line = step(lambda: session.perform(bj.confirm_payouts))
        assert line["phase"] == "betting" and line["round"] == 2
        for text in ("DEALER   ·   LAST ROUND", "6D", "TC", "4S", "20", "Dealer 20",
                     "PLACE YOUR BETS", STANDARD_RULE):
            assert text in line["shown"], (text, line["shown"])
        # The dealer app restarts: the signage carries on with the reopened journal.
        session.journal.close()
        session = open_bj(path)
        line = step(lambda: session.perform(lambda s: bj.place_bet(s, 5, 5_000)))
        assert line["round"] == 2 and not line["refolded"]
        ms = sorted(x * 1000 for x in latencies)
        print(f"blackjack signage update latency over {len(ms)} steps: "
              f"median {ms[len(ms) // 2]:.0f} ms, max {ms[-1]:.0f} ms")
        # The data_version poll runs every 50 ms: a write is on screen in about 100 ms.
        assert ms[len(ms) // 2] < 500
        # Another table's journal takes its place: Touch 21, folded afresh.
        session.journal.close()
        other = tmp_path / "touch.db"
        touch = open_bj(other, TOUCH_RULES, "BJ-02")
        get_ready(touch, burn=TOUCH_BURNED)
        play_touch_round(touch)
        rows = touch.journal.count()
        touch.journal.close()
        replace_journal(other, path)
        line = trace.wait_for(lambda ln: ln["table_id"] == "BJ-02" and ln["seq"] == rows,
                              SEEN_WITHIN, "the Touch 21 journal")
        assert line["refolded"] and line["view"] == "BlackjackSignage"
        for text in ("TOUCH 21", TOUCH_RULE, "R25", "R5,000", "6D", "AC", "2D",
                     "Dealer 19"):
            assert text in line["shown"], (text, line["shown"])
        assert STANDARD_RULE not in line["shown"]
        assert proc.poll() is None, "the signage is still running"
        _no_burned_card(trace.seen, (BURNED, TOUCH_BURNED))
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


# --- --screenshot -------------------------------------------------------------------------


def read_png(path: Path) -> Frame:
    """An 8-bit RGB or RGBA PNG as a Frame (rows bottom-up, as Kivy's coordinates)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and not interlace, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(
            v for j in range(0, stride, 4) for v in line[j:j + 3]))
        prev = line
    return Frame(w, h, b"".join(reversed(rows)))


def close_to(pixel: tuple[int, int, int], colour: tuple[float, ...], tol: int = 8) -> bool:
    return all(abs(a - round(b * 255)) <= tol for a, b in zip(pixel, colour[:3], strict=False))


def share(frame: Frame, x: float, y: float, w: float, h: float,
          colour: tuple[float, ...]) -> float:
    counts = frame.region_colours(x, y, w, h, step=3)
    return sum(n for c, n in counts.items() if close_to(c, colour)) / max(
        1, sum(counts.values()))


def _touch_21_journal(path: Path) -> BjSession:
    session = open_bj(path, TOUCH_RULES, "BJ-02")
    get_ready(session, burn=TOUCH_BURNED)
    play_touch_round(session)
    return session


def test_screenshot_of_a_touch_21_table(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = _touch_21_journal(path)
    rows = session.journal.count()
    session.journal.close()
    shot = tmp_path / "out" / "signage.png"
    w, h = 800, 480
    proc = _signage("--journal", str(path), "--size", f"{w}x{h}", "--name", "Salon 4",
                    "--screenshot", str(shot), "--after", "0.3", "--trace",
                    stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err[-2000:]
    trace = [json.loads(line) for line in out.splitlines()]
    last = trace[-1]
    assert (last["seq"], last["game"], last["phase"]) == (rows, "blackjack", "betting")
    for text in ("Salon 4", "TOUCH 21", TOUCH_RULE, "R25", "R5,000", "Dealer 19",
                 "19", "6D", "AC", "2D"):
        assert text in last["shown"], (text, last["shown"])
    _no_burned_card(trace, (TOUCH_BURNED,))
    frame = read_png(shot)
    assert (frame.width, frame.height) == (w, h)
    assert not frame.is_blank()
    unit = h / 100  # the view's sizes are in 1% of its height
    # The blackjack view's felt, its ivory limits plaque along the bottom (rule 2.2), the
    # gold call "Place your bets" in the banner; the live link's green dot, top right.
    assert share(frame, 0, 0, w, h, theme.FELT) > 0.1
    assert share(frame, 4 * unit, 3 * unit, w - 8 * unit, 8 * unit, theme.IVORY) > 0.5
    assert share(frame, 0, h - 30 * unit, w * 0.5, 20 * unit, theme.GOLD) > 0.02
    dot = (w - 2.2 * unit - 1.3 * unit, h - 1.6 * unit - 3.5 * unit)
    assert close_to(frame.pixel(*dot), theme.TIE), frame.pixel(*dot)
    # The dealer's last cards (6D AC 2D) are drawn: ivory card faces in the dealer panel.
    assert share(frame, 3 * unit, 14 * unit, w * 0.5, 40 * unit, theme.IVORY) > 0.15
