"""Which screen is the dealer's and which the players', on a table with one display device.

A Raspberry Pi's screens (its two HDMI ports, or the DSI touch panel and one HDMI) are
outputs of one KMS device, and KMS lets one process drive a device. The dealer app and the
signage are two processes, so the SD image runs one display server on the device (Xorg,
image-build/system/xorg.conf.d: no window manager, no X input: Kivy reads the touchscreen
itself) and puts the two windows on its outputs. `tableside screens` (the display service's
last start step) reads `xrandr --query`, picks the dealer's output and the sign's, gives
each the size the table's configuration asks for ([display] width/height,
signage_width/height: the sizes the layouts are proven at), places them side by side, and
writes where each window goes:

    TABLESIDE_DEALER_SCREEN=HDMI-1
    TABLESIDE_DEALER_AT=0,0
    TABLESIDE_SIGN_SCREEN=HDMI-2
    TABLESIDE_SIGN_AT=800,0

`tableside run --position` and `tableside signage --position` read those (docs/technician.md,
"Screens and touch").

The dealer's output: `[display] dealer_screen` when set; else a DSI panel (the official
touch display) when one is connected; else the first connected output xrandr lists (on a
Pi 4 HDMI-1, the micro-HDMI port beside the power socket). The sign's: the next connected one.

When a screen is plugged in or out later (udev runs `tableside screens --replug`), each
screen keeps its role: an unplugged screen keeps its place, so its app's window stays where
it was and shows again when the screen comes back; a screen plugged in for the first time
(or into another port) becomes the sign's when the sign has none, and only then does the
signage start again on it. The dealer's screen is never given to the players.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import click

Size = tuple[int, int]

_OUTPUT = re.compile(r"^(?P<name>\S+) (?P<state>connected|disconnected|unknown connection)\b")
_MODE = re.compile(r"^\s+(?P<w>\d+)x(?P<h>\d+)(?P<i>i?)\s+(?P<rates>.*)$")


@dataclass(frozen=True)
class Output:
    """One of the display device's connectors, as xrandr lists it."""

    name: str
    connected: bool
    modes: tuple[Size, ...] = ()  # progressive modes, in xrandr's order, each once
    preferred: Size | None = None  # the screen's own choice ('+' in xrandr)


def parse_at(text: str) -> tuple[int, int]:
    """A window's top-left corner written X,Y (as `Layout.env` writes it)."""
    try:
        x, y = (int(v) for v in text.split(","))
    except ValueError:
        raise ValueError(f"{text!r}: give X,Y, e.g. 800,0") from None
    if x < 0 or y < 0:
        raise ValueError(f"{text!r}: a corner on the desktop is at 0,0 or right and below it")
    return x, y


def at_option(_ctx: click.Context, _param: click.Parameter, value: str | None
              ) -> tuple[int, int] | None:
    """A click callback for `--position X,Y` (`tableside run`, `signage`, `selftest`)."""
    if value is None:
        return None
    try:
        return parse_at(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def parse_xrandr(text: str) -> list[Output]:
    """The outputs in `xrandr --query`'s words, in its order. Interlaced modes are left
    out: a sign does not flicker."""
    outputs: list[Output] = []
    name = ""
    connected = False
    modes: list[Size] = []
    preferred: Size | None = None

    def close() -> None:
        if name:
            outputs.append(Output(name, connected, tuple(modes), preferred))

    for line in text.splitlines():
        head = _OUTPUT.match(line)
        if head:
            close()
            name, connected = head["name"], head["state"] == "connected"
            modes, preferred = [], None
            continue
        mode = _MODE.match(line)
        if mode and name and not mode["i"]:
            size = (int(mode["w"]), int(mode["h"]))
            if size not in modes:
                modes.append(size)
            if "+" in mode["rates"] and preferred is None:
                preferred = size
    close()
    return outputs


@dataclass(frozen=True)
class Placed:
    """An output in use: its mode, where its top-left corner is, and its rotation."""

    output: str
    mode: Size
    at: tuple[int, int]
    rotate: str = "normal"  # xrandr's: normal, left
    plugged: bool = True  # False: unplugged for now, kept for its app (left as it is)

    @property
    def size(self) -> Size:
        """The window's size on this output: the mode, turned when the screen is."""
        w, h = self.mode
        return (h, w) if self.rotate != "normal" else (w, h)


@dataclass
class Layout:
    """Where the dealer's window and the sign's go, and what did not fit the configuration
    (each problem in words, for the technician's log)."""

    dealer: Placed | None
    sign: Placed | None
    off: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def xrandr_args(self) -> list[str]:
        """`xrandr` arguments that set it up."""
        args: list[str] = []
        for placed in (self.dealer, self.sign):
            if placed is not None and placed.plugged:
                w, h = placed.mode
                args += ["--output", placed.output, "--mode", f"{w}x{h}",
                         "--pos", f"{placed.at[0]}x{placed.at[1]}", "--rotate", placed.rotate]
        for name in self.off:
            args += ["--output", name, "--off"]
        return args

    def env(self) -> str:
        """The environment file the dealer's and the sign's services read."""
        lines = []
        for role, placed in (("DEALER", self.dealer), ("SIGN", self.sign)):
            if placed is not None:
                lines += [f"TABLESIDE_{role}_SCREEN={placed.output}",
                          f"TABLESIDE_{role}_AT={placed.at[0]},{placed.at[1]}"]
        return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class Roles:
    """Which output was the dealer's and which the sign's, and where their windows went: the
    environment file `tableside screens` wrote last."""

    dealer: str = ""
    sign: str = ""
    dealer_at: tuple[int, int] = (0, 0)
    sign_at: tuple[int, int] = (0, 0)

    @classmethod
    def read(cls, text: str) -> Roles:
        """From `Layout.env`'s lines; what does not parse is left out (no role kept)."""
        got = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)

        def at(key: str) -> tuple[int, int]:
            try:
                return parse_at(got.get(key, "0,0"))
            except ValueError:
                return (0, 0)

        return cls(got.get("TABLESIDE_DEALER_SCREEN", ""), got.get("TABLESIDE_SIGN_SCREEN", ""),
                   at("TABLESIDE_DEALER_AT"), at("TABLESIDE_SIGN_AT"))


def moved(before: str, after: str) -> list[str]:
    """The roles ("dealer", "sign") whose screen or place differ between two environment
    files: the apps to start again."""
    old, new = Roles.read(before), Roles.read(after)
    out = []
    if (old.dealer, old.dealer_at) != (new.dealer, new.dealer_at):
        out.append("dealer")
    if (old.sign, old.sign_at) != (new.sign, new.sign_at):  # no sign: "" at 0,0
        out.append("sign")
    return out


def _mode_for(output: Output, want: Size, role: str) -> tuple[Size, str, str]:
    """The mode and rotation that show a `want` window on `output`, and a problem ("" when
    none): the wanted mode; for a portrait sign, the landscape mode turned; else the
    screen's preferred mode, which does not match the configuration."""
    if want in output.modes:
        return want, "normal", ""
    turned = (want[1], want[0])
    if role == "sign" and want[0] < want[1] and turned in output.modes:
        return turned, "left", ""
    fallback = output.preferred or (output.modes[0] if output.modes else want)
    offered = ", ".join(f"{w}x{h}" for w, h in output.modes) or "none"
    key = "width/height" if role == "dealer" else "signage_width/signage_height"
    return fallback, "normal", (
        f"the {role} screen {output.name} has no {want[0]}x{want[1]} mode (it offers "
        f"{offered}): set [display] {key} to one of them; meanwhile the screen runs at "
        f"{fallback[0]}x{fallback[1]} and the window keeps {want[0]}x{want[1]}")


def arrange(outputs: list[Output], dealer_size: Size, sign_size: Size | None,
            dealer_screen: str = "", keep: Roles | None = None) -> Layout:
    """Pick and place the dealer's output and the sign's (`sign_size` None: no sign).
    `keep`: the roles before a screen was plugged in or out, which each screen keeps."""
    keep = keep or Roles()
    connected = [o for o in outputs if o.connected]
    listed = {o.name for o in outputs}
    problems: list[str] = []

    def plugged(name: str) -> Output | None:
        return next((o for o in connected if o.name == name), None)

    kept_sign = plugged(keep.sign) if sign_size is not None else None
    dealer: Output | None = None
    if dealer_screen:
        dealer = plugged(dealer_screen)
        if dealer is None and keep.dealer != dealer_screen:
            names = ", ".join(o.name for o in connected) or "none"
            problems.append(f"[display] dealer_screen {dealer_screen} is not connected "
                            f"(connected: {names}); the dealer's screen is the first one")
    placed_dealer: Placed | None = None
    if dealer is None and keep.dealer:
        dealer = plugged(keep.dealer)
        if dealer is None and keep.dealer in listed:  # unplugged: its window stays
            placed_dealer = Placed(keep.dealer, dealer_size, keep.dealer_at, plugged=False)
            problems.append(f"the dealer's screen {keep.dealer} is unplugged: plug it back "
                            "in (the dealer app waits on it)")
    if dealer is None and placed_dealer is None:
        free = [o for o in connected if o is not kept_sign]
        dsi = [o for o in free if o.name.upper().startswith("DSI")]
        dealer = next(iter(dsi or free), None)
    if dealer is not None:
        mode, rotate, problem = _mode_for(dealer, dealer_size, "dealer")
        placed_dealer = Placed(dealer.name, mode, (0, 0), rotate)
        problems += [problem] if problem else []
    if placed_dealer is None:
        return Layout(None, None, [o.name for o in outputs],
                      ["no screen is connected: plug in the dealer's touchscreen"])
    placed_sign = None
    if sign_size is not None:
        others = [o for o in connected if o.name != placed_dealer.output]
        sign: Output | None = kept_sign if kept_sign in others else None
        sign = sign or next(iter(others), None)
        beside = (placed_dealer.size[0], 0)
        if sign is not None:
            mode, rotate, problem = _mode_for(sign, sign_size, "sign")
            placed_sign = Placed(sign.name, mode, beside, rotate)
            problems += [problem] if problem else []
        elif keep.sign in listed and keep.sign != placed_dealer.output:  # unplugged
            placed_sign = Placed(keep.sign, sign_size, keep.sign_at, plugged=False)
            problems.append(f"the players' screen {keep.sign} is unplugged: the sign shows "
                            "again when it is plugged back in")
        else:
            problems.append("no second screen is connected: the players' sign is not shown")
    used = {p.output for p in (placed_dealer, placed_sign) if p is not None}
    off = [o.name for o in outputs if o.name not in used]
    return Layout(placed_dealer, placed_sign, off, problems)


def query(wait: float, run: Callable[[list[str]], tuple[int, str]]) -> str:
    """`xrandr --query` once the display server answers (it is starting: up to `wait` s)."""
    deadline = time.monotonic() + wait
    while True:
        status, text = run(["xrandr", "--query"])
        if status == 0:
            return text
        if time.monotonic() >= deadline:
            raise RuntimeError(f"the display server did not answer in {wait:g} s: "
                               f"{text.strip() or 'xrandr failed'}")
        time.sleep(0.25)


def run_command(args: list[str]) -> tuple[int, str]:
    """Run a command; its status and what it wrote (both streams)."""
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return done.returncode, done.stdout + done.stderr
