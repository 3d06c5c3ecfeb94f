"""The `tableside` command."""


def main() -> None:
    raise SystemExit("not yet")
