"""One input provider per touch device: on a display the dealer app reads
each touchscreen with one Kivy provider (probesysfs, mtdev) and tells SDL not to turn the
same touches into mouse clicks, so a tap on the Pi's KMS/DRM screen arrives once; offscreen
it has no input providers at all. Checked in a fresh process: Kivy's Config is global."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import json, os
from kiosk.ui.launcher import KioskOptions, prepare_kivy
prepare_kivy(KioskOptions(headless={headless}))
from kivy.config import Config
print(json.dumps({{"input": dict(Config.items("input")),
                   "touch_mouse": os.environ.get("SDL_TOUCH_MOUSE_EVENTS")}}))
"""


def _probe(headless: bool, tmp_path: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "SDL_TOUCH_MOUSE_EVENTS"}
    env.update(KIVY_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROBE.format(headless=headless)], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_on_a_display_each_touch_arrives_once(tmp_path: Path) -> None:
    found = _probe(False, tmp_path)
    assert found["input"] == {"mouse": "mouse", "touchscreens": "probesysfs,provider=mtdev"}
    assert found["touch_mouse"] == "0"


def test_offscreen_there_is_no_input_at_all(tmp_path: Path) -> None:
    found = _probe(True, tmp_path)
    assert found["input"] == {}
    assert found["touch_mouse"] is None
