"""A click command run as a program (`tableside`, `python -m kiosk.ui.signage`): every error
in one format on stderr, `tableside: <message>`, with no traceback, and one exit status for
each kind (docs/technician.md, "Exit status"):

- 2: bad usage, the command was refused what it was given: an unknown option, a bad value,
  a configuration file with a mistake (click's usage errors, `ConfigError`, our refusals);
- 1: the command could not do its job (no display, a journal that cannot be read) or a
  check it ran failed;
- 130 after Ctrl-C, 0 after SIGTERM (kiosk/stopping.py).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click

from kiosk.rules.errors import TablesideError
from kiosk.stopping import exit_status

USAGE = 2
"""The exit status of bad usage, click's own."""
FAILED = 1


def say(message: str) -> None:
    """One error line (or lines) on stderr, in the one format."""
    click.echo(f"tableside: {message}", err=True)


def refuse(message: str) -> NoReturn:
    """Refuse what the command was given: the reason, exit status 2 (bad usage)."""
    raise Refused(message)


class Refused(click.ClickException):
    """What the command was given is refused (bad usage): exit status 2."""

    exit_code = USAGE


def _usage_error(exc: click.UsageError) -> None:
    say(exc.format_message())
    ctx = exc.ctx
    if ctx is not None:
        names = ctx.help_option_names
        flag = names[0] if names else "--help"
        click.echo(f"Try '{ctx.command_path} {flag}' for help.", err=True)


def run(main: Callable[[], Any]) -> NoReturn:
    """Call `main` (a click command's `main(..., standalone_mode=False)`) and exit with its
    status, any error said in the one format."""
    try:
        rv = main()
    except click.UsageError as exc:
        _usage_error(exc)
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        say(exc.format_message())
        sys.exit(exc.exit_code)
    except click.Abort as exc:  # click turns a Ctrl-C it sees into this
        if isinstance(exc.__cause__, KeyboardInterrupt):
            sys.exit(exit_status(signal.SIGINT))
        say("stopped")
        sys.exit(FAILED)
    except KeyboardInterrupt:
        sys.exit(exit_status(signal.SIGINT))
    except TablesideError as exc:
        from kiosk.config import ConfigError

        say(str(exc))
        sys.exit(USAGE if isinstance(exc, ConfigError) else FAILED)
    except BrokenPipeError:  # `tableside ... | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(FAILED)
    sys.exit(rv if isinstance(rv, int) else 0)
