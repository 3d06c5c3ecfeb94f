"""Time of `tableside odds punto-banco` (target < 2 s), in-process and as a whole command."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kiosk.rules.odds import baccarat_odds


def main() -> None:
    for decks in (1, 6, 8):
        t = time.perf_counter()
        baccarat_odds(decks)
        print(f"baccarat_odds({decks}): {time.perf_counter() - t:.3f} s")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kiosk.cli", "odds", "punto-banco", "--decks", "8"],
                   check=True, capture_output=True)
    print(f"tableside odds punto-banco --decks 8 (whole process): "
          f"{time.perf_counter() - t:.3f} s")


if __name__ == "__main__":
    main()
