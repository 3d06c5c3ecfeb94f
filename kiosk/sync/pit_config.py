"""The pit's configuration offered to this table, left beside the journal by the sync for the
kiosk (kiosk/sync/offers.py checks it before anything counts). The signed document itself, and
the one check both the pit and the table read it with, are in kiosk/signed_config.py; its
names are here too, for the sync's side.
"""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.signed_config import (
    DOMAIN,
    MAX_PIT_BODY,
    PitConfigError,
    SignedConfig,
    check_body,
    public_key_hex,
    table_name,
    verify,
)
from kiosk.sync.state import write_whole

__all__ = ["DOMAIN", "MAX_PIT_BODY", "PitConfigError", "SignedConfig", "check_body",
           "offer_path", "public_key_hex", "read_offer", "table_name", "verify", "write_offer"]


def offer_path(journal: str | Path) -> Path:
    """Where the sync leaves the newest configuration the pit offers this table:
    data/T1.db -> data/T1.pit-config.json (the kiosk checks it before anything counts)."""
    path = Path(journal)
    return path.with_name(path.stem + ".pit-config.json")


def write_offer(journal: str | Path, doc: SignedConfig) -> None:
    """Leave `doc` for the kiosk beside the journal, replacing the file whole."""
    write_whole(offer_path(journal), json.dumps(doc.to_json(), sort_keys=True, indent=1))


def read_offer(journal: str | Path) -> SignedConfig | None:
    """The configuration the sync left for the kiosk; None when there is none. A file that is
    not a document raises `PitConfigError` (it is refused on record, like a bad signature)."""
    try:
        text = offer_path(journal).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PitConfigError(f"the pit's configuration cannot be read: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise PitConfigError("the pit's configuration file is not JSON") from None
    return SignedConfig.from_json(data)
