"""The Cammegh SS2 wheel controller's bytes, read and answered (docs/protocols/wheel-ss2.md).

Sans-IO: `SS2Parser.feed(bytes)` returns events and never raises. It reads the spec's
"Framing" (packets start with `*` and end with CR and/or LF; the plain winning-number line has
no `*`), the "Status report" (semicolons, and colons as some third-party code writes them),
and the replies of "Commands". It then works out what the reports mean, as "Exceptions, as
the maker tells integrators to handle them" says, counting reports (500 ms each) rather than
reading a clock: a miss-spin at once, no ball after 10 reports (5 s), a failed launch after
the first 6 reports (3 s) of the launch, a component fault, a drop to state 6 in play (and
the field notes' recovery with `*P 1` about once a second for up to 10 s).

`answer(event)` gives the bytes the host sends back by itself: `*R` to acknowledge a void
game, `*P 1` while recovering. `COMMANDS` are the named commands the table may send.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hardware.events import BadInput, BadKind, DeviceEvent
from hardware.lines import LineFramer
from hardware.shoe.stats import ParserStats
from hardware.wheel.events import (
    ANTICLOCKWISE,
    CLOCKWISE,
    WHEEL,
    BallInRim,
    BetsClosed,
    BettingOpened,
    ComponentFault,
    LaunchFailed,
    MissSpin,
    NoBall,
    SelfTestCode,
    WheelClosed,
    WheelRecovering,
    WheelReply,
    WheelStatistic,
    WheelStatus,
    WinningNumber,
)

MAX_LINE = 120
"""Longest packet kept (the longest reply, `*d g HH:MM:SS - DD/MM/YY`, is under 30 bytes)."""

NO_BALL_REPORTS = 10  # "ignore for at least 5 s (10 reports at 500 ms)"
LAUNCH_GRACE_REPORTS = 6  # "ignore during the first 3 s of state 3"
RECOVERY_ATTEMPTS = 10  # field notes: `*P 1` about once a second for up to 10 s
SPIN_WRAP = 256

BALL_REMOVED, BALL_WITH_WHEEL, COMPONENT_FAULT, LAUNCH_FAILED = 1, 2, 4, 8
IN_PLAY = frozenset({2, 3, 4})

SELF_TEST_CODES = {
    0: "no error", 1: "hardware fault", 2: "no ball detected", 3: "no ball position",
    4: "wrong ball direction", 5: "motor not driving the wheel",
    6: "encoder failed or not calibrated", 7: "cannot play clockwise",
    8: "cannot play anticlockwise", 11: "sensor 0 stuck on", 12: "sensor 1 stuck on",
    13: "sensor 2 stuck on", 21: "sensor 0 stuck off", 22: "sensor 1 stuck off",
    23: "sensor 2 stuck off", 100: "test timed out",
}

POCKETS = frozenset({"00", *(str(n) for n in range(37))})

COMMANDS = {
    "start": b"*u 1\r\n",  # start a game (mode bit 2: the host starts each game)
    "reset": b"*R\r\n",  # back to state 1; also acknowledges a void game
    "self_test": b"*F\r\n",  # idle only, up to 5 minutes
    "statistics": b"*w\r\n",  # chi-squared of the wheel's results
    "power_on": b"*P 1\r\n",
    "status": b"*X\r\n",
    "version": b"*S\r\n",
}

_FIELD = re.compile(r"[;:]")


def command(text: str) -> bytes:
    """A host packet: `*` + text + CR LF."""
    return b"*" + text.encode("ascii") + b"\r\n"


def direction_name(code: int) -> str:
    return ANTICLOCKWISE if code == 1 else CLOCKWISE


def answer(event: object) -> bytes | None:
    """The bytes the host sends at once in answer to `event` (the maker's way), or None."""
    if isinstance(event, MissSpin):
        return COMMANDS["reset"]
    if isinstance(event, WheelRecovering):
        return COMMANDS["power_on"]
    return None


@dataclass
class _Game:
    """What the parser knows of the game in progress."""

    spin: int = 0
    direction: str = CLOCKWISE
    number: str | None = None  # the winning number, once told
    miss_spin: bool = False
    no_ball: int = 0
    no_ball_told: bool = False
    launch: int = 0
    launch_told: bool = False
    fault_told: bool = False


class SS2Parser:
    """SS2 bytes -> wheel events (hardware/wheel/events.py) and `BadInput`; never raises."""

    def __init__(self, device: str = WHEEL) -> None:
        self.device = device
        self.stats = ParserStats()
        self._lines = LineFramer(device, self.stats, MAX_LINE, "packet")
        self._state: int | None = None
        self._spin: int | None = None  # the spin counter at the last new game
        self.games = 0  # games since the driver started, across the counter's wrap
        self._game = _Game()
        self._recovering = False
        self._in_six = 0
        self._attempts = 0

    @property
    def pending(self) -> int:
        return self._lines.pending

    def reset(self) -> list[DeviceEvent]:
        """Give up a half-received packet (the link was reopened); the game is kept."""
        line = self._lines.take_unfinished()
        if line.strip():
            return [self._bad(BadKind.TRUNCATED, line, "packet cut short")]
        return []

    def feed(self, data: bytes) -> list[DeviceEvent]:
        return self._lines.feed(data, self._packet)

    # --- one packet ------------------------------------------------------------------------

    def _packet(self, line: bytes) -> list[DeviceEvent]:
        if not line.strip():
            return []  # the empty gap inside CR LF
        if any(b < 0x20 or b > 0x7E for b in line):
            return [self._bad(BadKind.NOISE, line, "control or non-ASCII byte")]
        text = line.decode("ascii")
        if not text.startswith("*"):
            number = text.strip()
            if len(text) <= 3 and number in POCKETS:
                self.stats.frames += 1
                return self._number(number, line)
            return [self._bad(BadKind.NOISE, line, "not a packet nor a winning number")]
        body = text[1:].strip()
        if body[:1] == "X" and len(body) > 1 and body[1] in ";:":
            return self._status(body, line)
        return self._reply(body, line)

    def _reply(self, body: str, line: bytes) -> list[DeviceEvent]:
        if not body:
            return [self._bad(BadKind.MALFORMED, line, "an empty packet")]
        cmd, _, rest = body.partition(" ")
        rest = rest.strip()
        self.stats.frames += 1
        if cmd == "F" and rest.isdigit():
            code = int(rest)
            return [SelfTestCode(device=self.device, code=code,
                                 text=SELF_TEST_CODES.get(code, "unknown code"))]
        if cmd == "w":
            parts = rest.split()
            if len(parts) == 2 and all(_decimal(p) for p in parts):
                return [WheelStatistic(device=self.device, chi2=parts[0], percent=parts[1])]
            self.stats.frames -= 1
            return [self._bad(BadKind.BAD_VALUE, line, "a *w reply is <chi2> <percent>")]
        return [WheelReply(device=self.device, command=cmd, text=rest)]

    def _status(self, body: str, line: bytes) -> list[DeviceEvent]:
        fields = _FIELD.split(body)
        if len(fields) != 7:
            return [self._bad(BadKind.BAD_FIELDS, line,
                              f"a status has 7 fields, this one {len(fields)}")]
        _x, state_s, spin_s, number_s, warning_s, speed_s, dir_s = fields
        number = number_s.strip() or None
        if not (state_s.isdigit() and 1 <= int(state_s) <= 6):
            return [self._bad(BadKind.BAD_VALUE, line, f"state {state_s!r} is not 1 to 6")]
        if not (spin_s.isdigit() and 1 <= int(spin_s) <= SPIN_WRAP):
            return [self._bad(BadKind.BAD_VALUE, line, f"spin {spin_s!r} is not 1 to 256")]
        if number is not None and number not in POCKETS:
            return [self._bad(BadKind.BAD_VALUE, line, f"{number!r} is not a pocket")]
        if len(warning_s) != 1 or warning_s not in "0123456789ABCDEFabcdef":
            return [self._bad(BadKind.BAD_VALUE, line, f"warning {warning_s!r} is not hex")]
        if not speed_s.isdigit() or dir_s not in ("0", "1"):
            return [self._bad(BadKind.BAD_VALUE, line, "speed or direction unreadable")]
        self.stats.frames += 1
        status = WheelStatus(device=self.device, state=int(state_s), spin=int(spin_s),
                             number=number, warning=int(warning_s, 16),
                             rpm_tenths=int(speed_s), direction=int(dir_s))
        return [status, *self._meaning(status, line)]

    # --- what the reports mean -----------------------------------------------------------

    def _meaning(self, st: WheelStatus, line: bytes) -> list[DeviceEvent]:
        out: list[DeviceEvent] = []
        dev, state, spin = self.device, st.state, st.spin
        before = self._state
        if state != before:
            if state == 2:
                self._new_game(spin)
                out.append(BettingOpened(device=dev, spin=spin, games=self.games))
            elif state == 3:
                self._game.direction = direction_name(st.direction)
                out.append(BallInRim(device=dev, spin=spin, direction=self._game.direction))
            elif state == 4:
                out.append(BetsClosed(device=dev, spin=spin))
            elif state == 5 and st.number is not None:
                out.extend(self._number(st.number, line, spin))
            elif state == 6:
                in_play = before in IN_PLAY
                out.append(WheelClosed(device=dev, spin=spin, during_play=in_play))
                if in_play:
                    self._recovering, self._in_six, self._attempts = True, 0, 0
            self._state = state
        game = self._game
        if state == 3 and st.warning & BALL_WITH_WHEEL and not game.miss_spin:
            game.miss_spin = True
            out.append(MissSpin(device=dev, spin=spin))
        if state == 4 and st.warning & BALL_REMOVED:
            game.no_ball += 1
            if game.no_ball >= NO_BALL_REPORTS and not game.no_ball_told:
                game.no_ball_told = True
                out.append(NoBall(device=dev, spin=spin, reports=game.no_ball))
        else:
            game.no_ball = 0
        if state in (2, 3) and st.warning & LAUNCH_FAILED:
            game.launch += 1
            if game.launch > LAUNCH_GRACE_REPORTS and not game.launch_told:
                game.launch_told = True
                out.append(LaunchFailed(device=dev, spin=spin, reports=game.launch))
        else:
            game.launch = 0
        if st.warning & COMPONENT_FAULT and not game.fault_told:
            game.fault_told = True
            out.append(ComponentFault(device=dev, spin=spin))
        if state == 6 and self._recovering:
            self._in_six += 1
            if self._in_six % 2 == 0 and self._attempts < RECOVERY_ATTEMPTS:
                self._attempts += 1
                out.append(WheelRecovering(device=dev, attempt=self._attempts))
        return out

    def _new_game(self, spin: int) -> None:
        if self._spin is None:
            self.games += 1
        else:
            self.games += (spin - self._spin) % SPIN_WRAP  # 0: the same game re-spun
        self._spin = spin
        self._game = _Game(spin=spin)
        self._recovering = False

    def _number(self, number: str, line: bytes, spin: int | None = None) -> list[DeviceEvent]:
        """The winning number, told once a game from whichever of the plain line and the
        state-5 report comes first; the other must agree."""
        game = self._game
        if game.number is not None:
            if game.number != number:
                return [self._bad(BadKind.BAD_VALUE, line,
                                  f"the wheel reported {number} after {game.number}")]
            return []
        game.number = number
        return [WinningNumber(device=self.device, spin=spin or game.spin or self._spin or 0,
                              number=number, direction=game.direction)]

    def _bad(self, kind: BadKind, raw: bytes, reason: str) -> BadInput:
        return self._lines.bad(kind, raw, reason)


def _decimal(text: str) -> bool:
    whole, _, part = text.partition(".")
    return whole.isdigit() and (part == "" or part.isdigit())
