"""Inspectors' logins: passwords hashed with scrypt, sessions by cookie, a CSRF token per
session that every form must send back."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from kiosk.store.canonical import format_wall_time
from kiosk.table.roles import check_pin, hash_pin
from pit.store import PitStore

SESSION_HOURS = 12  # one shift
MIN_PASSWORD = 10


class LoginError(ValueError):
    """A name or password that cannot be used; the message says why."""


# One scrypt hashing for the pit's passwords and the tables' PINs (kiosk/table/roles.py).
hash_password = hash_pin
check_password = check_pin


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Session:
    name: str
    csrf: str


class Inspectors:
    """Inspector accounts and their sessions in the pit's database."""

    def __init__(self, store: PitStore) -> None:
        self.store = store
        self.db = store.db

    def add(self, name: str, password: str) -> None:
        """Add an inspector, or set a new password for one."""
        if not name or len(name) > 64 or not name.isprintable():
            raise LoginError("an inspector's name is 1 to 64 printable characters")
        if len(password) < MIN_PASSWORD:
            raise LoginError(f"a password has at least {MIN_PASSWORD} characters")
        stored = hash_password(password)
        with self.db.transaction() as tx:
            if tx.one("SELECT name FROM pit_inspectors WHERE name = ?", (name,)) is None:
                tx.execute("INSERT INTO pit_inspectors (name, password_hash, created_at) "
                           "VALUES (?, ?, ?)", (name, stored, self.store.clock()))
            else:
                tx.execute("UPDATE pit_inspectors SET password_hash = ? WHERE name = ?",
                           (stored, name))
            tx.execute("DELETE FROM pit_sessions WHERE name = ?", (name,))

    def login(self, name: str, password: str) -> str | None:
        """A new session token for the right password, else None."""
        row = self.db.one("SELECT password_hash FROM pit_inspectors WHERE name = ?", (name,))
        # Check a password even for an unknown name, so timing does not tell names apart.
        stored = str(row[0]) if row else hash_password("not a real password", b"0" * 16)
        if not check_password(password, stored) or row is None:
            return None
        token = secrets.token_urlsafe(32)
        expires = format_wall_time(datetime.now(UTC) + timedelta(hours=SESSION_HOURS))
        self.db.execute("INSERT INTO pit_sessions (token_hash, name, csrf, expires_at) "
                        "VALUES (?, ?, ?, ?)",
                        (_digest(token), name, secrets.token_urlsafe(24), expires))
        return token

    def session(self, token: str | None) -> Session | None:
        if not token:
            return None
        row = self.db.one("SELECT name, csrf, expires_at FROM pit_sessions "
                          "WHERE token_hash = ?", (_digest(token),))
        if row is None or str(row[2]) < format_wall_time(datetime.now(UTC)):
            return None
        return Session(str(row[0]), str(row[1]))

    def logout(self, token: str) -> None:
        self.db.execute("DELETE FROM pit_sessions WHERE token_hash = ?", (_digest(token),))
