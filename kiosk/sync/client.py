"""The sync: ships the journal's rows to the pit in seq order, in batches, and keeps the head
the pit acknowledged.

It runs on its own thread (never Kivy's) with its own read-only connection to the journal, so
a journal commit never waits for it. It starts from the pit's own head, so a batch whose
answer was lost, or a client killed mid-batch, simply sends those rows again: the pit stores
each (table, seq) once. While the pit cannot be reached it probes it again within a few
seconds (the wait doubles, with equal jitter, up to `probe_every`, 4 s), so a network that
comes back is used within seconds and the backlog sent at once, batch after batch with no
wait between; the state file says when the next try is ("reconnecting in 3 s"). A pit that
refuses (a chain break, a wrong credential) is asked again more slowly, up to
`max_backoff` (60 s), and a pit that answers 429 is waited for as its Retry-After says (at
most `max_backoff`).

While there is nothing to send it still tells the pit it is there, every `heartbeat_every`
seconds: an empty batch, carrying the rows waiting on the table (none then), so the floor
shows it live. When stopped it sends what the journal holds beyond the pit's head once more
(a table that quits leaves nothing waiting when the pit can be reached), and writes that it
was stopped: not running.

It also anchors the journal's head at the pit (kiosk/anchor.py): at least every
`ANCHOR_EVERY` seconds while the journal grows, and after every settled round, even while
the batch upload is behind, a small request signed with the table's key. At start and after
every reconnect it reads from the pit, never from the file beside the journal, the newest head
it anchored and the last row the pit holds; a journal that no longer holds both, unchanged, is
not sent on from: the pit is told (it raises a STOP alert, with the first row that differs)
and the sync refuses until a technician has looked.

Its state file (`kiosk/sync/state.py`) is written when something a reader needs changes (the
acknowledged head, connected or not, the last problem), and otherwise at most every
`FRESH_EVERY` seconds to show the sync still runs: not five times a second while idle, which
would wear the SD card. `kiosk/sync/status.py` reads a file older than `STALE_AFTER` as the
sync not running.
"""

from __future__ import annotations

import json
import logging
import random
import ssl
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from itertools import islice
from pathlib import Path
from typing import Any

import httpx

from kiosk.anchor import (
    ANCHOR_EVERY,
    Anchor,
    AnchorKeyError,
    parse_head,
    sign,
    split_credential,
)
from kiosk.store.canonical import GENESIS_HASH, canonical_json, format_wall_time
from kiosk.store.journal import Entry, Journal, JournalError
from kiosk.sync import state as sync_state
from kiosk.sync.pit_config import (
    PitConfigError,
    SignedConfig,
    offer_path,
    read_offer,
    write_offer,
)
from kiosk.sync.state import SyncState, write_whole
from kiosk.sync.status import SyncStatus, status

log = logging.getLogger(__name__)

BATCH = 500
IDLE = 0.2  # seconds between looks at the journal when everything is sent
BASE_BACKOFF = 0.5
PROBE_EVERY = 4.0
"""The longest wait between tries while the pit cannot be reached: a restored network is used
within seconds."""
MAX_BACKOFF = 60.0
"""The longest wait of all: after the pit refused (asking again quickly only repeats the
refusal), or as its Retry-After (429) says."""
HEARTBEAT_EVERY = 10.0
"""Seconds between the idle sync's heartbeats (the floor turns a table late after 30 s)."""
CONFIG_EVERY = 10.0  # seconds between asking the pit for a newer configuration
RETRY_WRITE_EVERY = 10.0
"""Seconds between writes of the state file while only the time of the next try changes (an
SD card wears: a long cut is not a write every probe)."""
FRESH_EVERY = 30.0
"""Seconds between writes of an unchanged state while the sync runs (its "still here")."""


class SyncRefused(Exception):
    """The pit answered but refused: a wrong credential, a chain break. Retrying later is
    right (a technician may fix it), but quickly would only repeat the refusal."""


class PitUnreachable(Exception):
    """The pit did not answer (network, DNS, timeout, its 5xx)."""


class PitBusy(PitUnreachable):
    """The pit answered 429: slow down. `retry_after` is its Retry-After in seconds (None
    when it gave none that reads)."""

    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header: a number of seconds or an HTTP date (RFC 9110
    10.2.3); None when there is none or it does not read."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def to_wire(entry: Entry) -> dict[str, Any]:
    """A journal row as the pit receives it: the payload as the canonical text it hashed."""
    return {"seq": entry.seq, "table_id": entry.table_id, "wall_time": entry.wall_time,
            "kind": entry.kind, "payload": canonical_json(entry.payload),
            "prev_hash": entry.prev_hash, "hash": entry.hash}


def _now() -> str:
    return format_wall_time(datetime.now(UTC))


__all__ = ["PitBusy", "PitUnreachable", "SyncClient", "SyncRefused", "SyncStatus", "status",
           "to_wire"]


class SyncClient:
    """Sends one table's journal to the pit at `url` with the table's `credential`."""

    def __init__(self, journal_path: str | Path, table_id: str, url: str, credential: str, *,
                 batch: int = BATCH, http: httpx.Client | None = None,
                 timeout: float = 10.0, max_backoff: float = MAX_BACKOFF,
                 probe_every: float = PROBE_EVERY,
                 idle: float = IDLE, config_every: float = CONFIG_EVERY,
                 rng: random.Random | None = None,
                 sleep: Callable[[float], None] | None = None,
                 verify: ssl.SSLContext | bool = True) -> None:
        self.journal_path = Path(journal_path)
        self.table_id = table_id
        self.url = url.rstrip("/")
        self.batch = batch
        self.idle = idle
        self.config_every = config_every
        self._config_asked = -config_every
        self.max_backoff = max_backoff
        self.probe_every = probe_every
        # verify: how the pit's HTTPS certificate is checked ([sync] ca_file: SyncConfig.tls)
        self._http = http or httpx.Client(timeout=timeout, verify=verify)
        try:
            token, self._key = split_credential(credential)
        except AnchorKeyError as exc:  # the rows still go; the anchors wait for a good key
            log.error("the sync sends no anchors: %s", exc)
            token, self._key = credential.strip().partition("\n")[0].strip(), None
            key_problem = str(exc)
        else:
            key_problem = ""
        self._headers = {"Authorization": f"Bearer {token}"}
        self.anchor_every = ANCHOR_EVERY
        self._anchor: tuple[int, str] | None = None  # the newest the pit holds, as it said
        self._anchored_at = -float("inf")  # time.monotonic() of the last anchor sent
        self.anchors_sent = 0
        self.anchor_problem = key_problem  # why anchors are not sent (no key, refused)
        self._rng = rng or random.Random()
        self.heartbeat_every = HEARTBEAT_EVERY
        self._heard = -float("inf")  # time.monotonic() the pit last took a request of ours
        self.heartbeats = 0
        self._timeout: float | None = None  # each request's, for the last send when stopping
        self._stop = threading.Event()
        self._stopped = False  # stop() has run: the last send made, the client closed
        self._sleep = sleep or self._stop.wait
        self._journal: Journal | None = None
        self._pit_head: tuple[int, str] | None = None
        self._thread: threading.Thread | None = None
        self.state_file = sync_state.state_path(self.journal_path)
        self.state = sync_state.load(self.state_file).with_(pit=self.url)
        self.failures = 0
        self.fresh_every = FRESH_EVERY
        self.writes = 0  # state files written (the SD card's wear; tests count them)
        self._written = -float("inf")  # time.monotonic() of the last write

    # --- one step ------------------------------------------------------------------------

    def step(self) -> int:
        """Send the next batch (learning the pit's head first if need be); the rows the pit
        now holds beyond what it held. Raises PitUnreachable or SyncRefused."""
        if self._pit_head is None:
            self._pit_head = self._ask_head()
        self.maybe_anchor()
        seq = self._pit_head[0]
        entries = list(islice(self._journal_().entries(seq), self.batch))
        if not entries:
            self._heartbeat()
            self._acked(self._pit_head)
            return 0
        waiting = max(0, self._journal_().count() - entries[-1].seq)
        body = {"rows": [to_wire(e) for e in entries], "waiting": waiting}
        answer = self._call("POST", f"/api/v1/tables/{self.table_id}/rows", json=body)
        new_head = _head_of(answer.get("head"))
        if answer.get("quarantined"):
            self._acked(new_head)
            raise SyncRefused(str(answer.get("error") or answer.get("reason")))
        self._heard = time.monotonic()
        self._pit_head = new_head
        self._acked(new_head)
        return new_head[0] - seq

    def _heartbeat(self) -> None:
        """Tell the pit the table is there when nothing was sent for `heartbeat_every`
        seconds: an empty batch, with the rows waiting on the table (its last sync)."""
        if time.monotonic() - self._heard < self.heartbeat_every:
            return
        waiting = max(0, self._journal_().count() - (self._pit_head or (0, ""))[0])
        answer = self._call("POST", f"/api/v1/tables/{self.table_id}/rows",
                            json={"rows": [], "waiting": waiting})
        self._pit_head = _head_of(answer.get("head"))
        self._heard = time.monotonic()
        self.heartbeats += 1

    def sync_all(self) -> int:
        """Send until nothing is left (no waiting); rows sent."""
        total = 0
        while (sent := self.step()) > 0:
            total += sent
        return total

    def fetch_config(self) -> bool:
        """Ask the pit for a configuration newer than the one already offered to the kiosk and
        leave it beside the journal (the kiosk checks its signature and takes it up between
        rounds: kiosk/sync/offers.py). True when a new one was left."""
        offered = 0
        try:
            current = read_offer(self.journal_path)
            offered = current.version if current is not None else 0
        except PitConfigError:
            pass  # the kiosk refuses that one on record; ask for whatever the pit has
        answer = self._call("GET", f"/api/v1/tables/{self.table_id}/config",
                            params={"after": offered})
        if not answer:
            return False
        try:
            doc = SignedConfig.from_json(answer)
        except PitConfigError:
            doc = None
        if doc is None or doc.version <= offered:
            if doc is None:  # left as it came: the kiosk refuses it on record, in words
                write_whole(offer_path(self.journal_path), json.dumps(answer, sort_keys=True))
            return doc is None
        write_offer(self.journal_path, doc)
        return True

    def _ask_head(self) -> tuple[int, str]:
        """The last row the pit holds, and the newest head this table anchored there, read
        from the pit; SyncRefused when this journal no longer holds both unchanged (the pit
        is told first, with the first row that differs, and raises a STOP alert)."""
        answer = self._call("GET", f"/api/v1/tables/{self.table_id}/head")
        head = _head_of(answer)
        anchor = parse_head(answer.get("anchor")) or (0, GENESIS_HASH)
        journal = self._journal_()
        local = journal.count()
        why = ""
        for seq, digest, what in ((head[0], head[1], "holds"), (*anchor, "anchored")):
            if not seq or why:
                continue
            if local < seq:
                why = (f"the pit {what} rows up to {seq} but this journal ends at row {local}: "
                       "it was replaced or cut short")
            elif self._local_hash(seq) != digest:
                why = (f"row {seq} of this journal differs from the row the pit {what}: the "
                       "journal was changed")
        self._anchor = anchor
        if why:
            first = self._first_differing(head, local)
            if first is not None:
                why += f"; the first row that differs is row {first}"
            else:
                why += self._span(head, local)
            if first == 1:  # another journal from its first row: a new card, or a forgery
                why += (f". If this table is on a new card, pit staff say so at the pit "
                        f"(tableside pit new-card {self.table_id}) and give it the new "
                        "credential")
            self._tell_pit(first, head)
            raise SyncRefused(why)
        return head

    def _local_hash(self, seq: int) -> str:
        """This journal's hash of row `seq` (64 zeros for row 0, "" when it has no such row)."""
        if seq == 0:
            return GENESIS_HASH
        entry = self._journal_().entry(seq)
        return entry.hash if entry is not None else ""

    def _pit_hash(self, seq: int) -> str | None:
        answer = self._call("GET", f"/api/v1/tables/{self.table_id}/hash/{seq}")
        digest = answer.get("hash")
        return digest if isinstance(digest, str) else None

    def _first_differing(self, head: tuple[int, str], local: int) -> int | None:
        """The first row of this journal that differs from the rows the pit holds, found by
        halving (a chain that matches at a row matches at every row before it); None when
        the rows the pit holds all match (what differs is beyond them: only anchored)."""
        if not head[0] or self._local_hash(head[0]) == head[1]:
            return None
        low, high = 1, min(head[0], local)  # the first differing row is in low..high+1
        while low <= high:
            mid = (low + high) // 2
            if self._pit_hash(mid) == self._local_hash(mid):
                low = mid + 1
            else:
                high = mid - 1
        return low

    def _span(self, head: tuple[int, str], local: int) -> str:
        """Where the change is, in words, when the pit holds only anchored heads of it: after
        the last head that still matches, at or before the first that does not."""
        answer = self._call("GET", f"/api/v1/tables/{self.table_id}/anchors",
                            params={"after": head[0], "limit": 10000})
        after = head[0]
        for item in answer.get("anchors") or []:
            found = parse_head(item)
            if found is None:
                continue
            if self._local_hash(found[0]) == found[1]:
                after = found[0]
                continue
            last = min(found[0], local + 1)
            return (f"; the rows that differ are among rows {after + 1}–{last} (the pit holds "
                    "only the anchored heads of them)")
        return ""

    def _tell_pit(self, first: int | None, head: tuple[int, str]) -> None:
        """Anchor this journal's head as it is now, naming the first row that differs: the pit
        raises its STOP alert. And send the rows from that one when the pit holds it: the pit
        compares them with its own and quarantines them (a chain break on its floor, even
        for a table with no anchor key). Best effort: the refusal stands whatever the pit
        answers."""
        try:
            self.anchor_now(first_differs=first)
        except (SyncRefused, PitUnreachable) as exc:
            log.warning("the pit was told the journal changed: %s", exc)
        if first is None or first > head[0]:
            return
        entries = list(islice(self._journal_().entries(first - 1), self.batch))
        if not entries:
            return
        try:
            self._call("POST", f"/api/v1/tables/{self.table_id}/rows",
                       json={"rows": [to_wire(e) for e in entries], "waiting": 0})
        except (SyncRefused, PitUnreachable) as exc:
            log.warning("the changed rows were not shown to the pit: %s", exc)

    # --- anchors -------------------------------------------------------------------------

    def maybe_anchor(self) -> bool:
        """Anchor the journal's head when one is due: the journal grew and the last anchor is
        `anchor_every` seconds old, or a round was settled since it. True when one was sent."""
        if self._key is None or self._anchor is None:
            if self._key is None and not self.anchor_problem:
                self.anchor_problem = ("no anchor key in the credential file (enrolled before "
                                       "anchors): enrol the table again")
            return False
        journal = self._journal_()
        head = journal.count()
        if head <= self._anchor[0]:
            return False
        if (time.monotonic() - self._anchored_at < self.anchor_every
                and not journal.settled_after(self._anchor[0])):
            return False
        self.anchor_now()
        return True

    def anchor_now(self, first_differs: int | None = None) -> tuple[int, str] | None:
        """Send this journal's head to the pit, signed; the pit's newest anchor after it.
        SyncRefused when the pit finds the journal no longer extends what it holds."""
        if self._key is None:
            return None
        last = self._journal_().last()
        if last is None:
            return None
        extends = self._anchor or (0, GENESIS_HASH)
        made = Anchor(self.table_id, last.seq, last.hash, extends[0],
                      self._local_hash(extends[0]), first_differs)
        self._anchored_at = time.monotonic()
        try:
            answer = self._call("POST", f"/api/v1/tables/{self.table_id}/anchor",
                                json=made.to_json(sign(self._key, made)))
        except SyncRefused as exc:
            self.anchor_problem = str(exc)
            log.warning("the pit refused the anchor: %s", exc)
            if first_differs is not None:
                raise
            return None
        newest = parse_head(answer.get("anchor"))
        if newest is not None:
            self._anchor = newest
        if answer.get("error") and not answer.get("stale"):
            raise SyncRefused(str(answer["error"]))
        if answer.get("stale"):
            self._anchored_at = -float("inf")  # again at once, from the anchor the pit has
            return self._anchor
        self.anchors_sent += 1
        self.anchor_problem = ""
        return self._anchor

    def _call(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        if self._timeout is not None:
            kwargs["timeout"] = self._timeout
        try:
            response = self._http.request(method, self.url + path, headers=self._headers,
                                          **kwargs)
        except httpx.HTTPError as exc:
            if "CERTIFICATE_VERIFY_FAILED" in str(exc):
                raise PitUnreachable(f"the pit at {self.url} is not the pit this table trusts: "
                                     "its certificate is not signed by the CA in [sync] "
                                     f"ca_file (or the system's) ({exc})") from exc
            raise PitUnreachable(f"the pit at {self.url} does not answer ({exc})") from exc
        try:
            answer = response.json()
        except ValueError:
            answer = {}
        data: dict[str, Any] = answer if isinstance(answer, dict) else {}
        if response.status_code >= 500:
            raise PitUnreachable(f"the pit answered {response.status_code}")
        if response.status_code == 429:
            wait = retry_after(response.headers.get("Retry-After"))
            after = f" (retry after {wait:.0f} s)" if wait is not None else ""
            raise PitBusy(f"the pit asks the table to slow down{after}", wait)
        if response.status_code == 409 and ("head" in data or "anchor" in data):
            return data  # quarantine, a gap, an anchor refused: where the pit stands
        if response.status_code >= 400:
            raise SyncRefused(str(data.get("error") or f"the pit answered "
                                                       f"{response.status_code}"))
        return data

    def _journal_(self) -> Journal:
        if self._journal is None:
            self._journal = Journal.open(self.journal_path, self.table_id, read_only=True)
        return self._journal

    def _acked(self, head: tuple[int, str]) -> None:
        now = _now()
        changed = head != (self.state.acked_seq, self.state.acked_hash)
        state = self.state.with_(connected=True, last_attempt_at=now, last_error="",
                                 retry_at="", stopped=False,
                                 anchored_seq=self._anchor[0] if self._anchor else 0,
                                 anchor_problem=self.anchor_problem)
        if changed:
            state = state.with_(acked_seq=head[0], acked_hash=head[1], acked_at=now)
        self._save(state)

    def _failed(self, why: str, connected: bool = False, wait: float | None = None) -> None:
        """Keep the failure `why`, and when the next try is (`wait` seconds from now)."""
        moment = datetime.now(UTC)
        retry = (format_wall_time(moment + timedelta(seconds=wait)) if wait is not None
                 else "")
        self._save(self.state.with_(connected=connected, last_attempt_at=format_wall_time(
            moment), last_error=why, retry_at=retry, stopped=False))

    def _save(self, state: SyncState) -> None:
        """Keep `state`; write it when a reader would see a change (the head, the link, the
        problem), or when the last write is `fresh_every` seconds old (the time of the last
        attempt alone changes on every look at the journal). The time of the next try alone
        changes on every probe of a pit that is down: that is written at most every
        `RETRY_WRITE_EVERY` seconds (in between, a reader of the file sees it due: "0 s")."""
        old, self.state = self.state, state
        since = time.monotonic() - self._written
        news = (state.with_(last_attempt_at="", retry_at="")
                != old.with_(last_attempt_at="", retry_at=""))
        if state.retry_at != old.retry_at and (not state.retry_at
                                               or since >= RETRY_WRITE_EVERY):
            news = True
        if news or since >= self.fresh_every:
            try:
                sync_state.save(self.state_file, state)
            except OSError as exc:  # a full disk: the pit still has the head; ask it again
                log.warning("cannot save the sync state %s: %s", self.state_file, exc)
                return
            self.writes += 1
            self._written = time.monotonic()

    # --- the loop ------------------------------------------------------------------------

    def backoff(self, most: float | None = None) -> float:
        """The wait after the current run of failures: the step doubles from BASE_BACKOFF up
        to `most` (by default `probe_every`, within `max_backoff`), and the wait is drawn
        between half the step and the whole of it ("equal jitter": never less than half, so a
        pit that is down is not hammered, yet tables coming back together do not arrive in
        step)."""
        top = min(self.probe_every, self.max_backoff) if most is None else most
        cap = min(top, BASE_BACKOFF * 2 ** min(self.failures - 1, 30))
        return self._rng.uniform(cap / 2, cap)

    def wait_for(self, exc: Exception) -> float:
        """The wait after the failure `exc`: the pit's Retry-After when it gave one (at
        least BASE_BACKOFF, at most `max_backoff`); after a refusal, `backoff()` up to
        `max_backoff`; else (the pit not reached) `backoff()`, `probe_every` at most."""
        if isinstance(exc, PitBusy) and exc.retry_after is not None:
            return min(self.max_backoff, max(BASE_BACKOFF, exc.retry_after))
        if isinstance(exc, SyncRefused):
            return self.backoff(self.max_backoff)
        return self.backoff()

    def run(self) -> None:
        """Sync until `stop()`: send while there is something to send, then look again
        every `idle` seconds; back off while the pit fails."""
        while not self._stop.is_set():
            try:
                sent = self.step()
            except (PitUnreachable, SyncRefused, JournalError) as exc:
                self.failures += 1
                self._pit_head = None  # ask again after any failure: the pit may have moved
                # A pit that asks us to slow down is there: connected, but waited for.
                wait = self.wait_for(exc)
                self._failed(str(exc), connected=isinstance(exc, PitBusy), wait=wait)
                self._sleep(wait)
                continue
            except Exception as exc:  # never let the sync thread die silently
                log.exception("sync step failed")
                self.failures += 1
                self._pit_head = None
                wait = self.backoff()
                self._failed(f"{type(exc).__name__}: {exc}", wait=wait)
                self._sleep(wait)
                continue
            self.failures = 0
            if not sent:
                self._maybe_fetch_config()
                self._sleep(self.idle)

    def _maybe_fetch_config(self) -> None:
        now = time.monotonic()
        if now - self._config_asked < self.config_every:
            return
        self._config_asked = now
        try:
            self.fetch_config()
        except (PitUnreachable, SyncRefused, OSError) as exc:
            log.info("the pit's configuration was not fetched: %s", exc)

    @property
    def alive(self) -> bool:
        """Whether the sending thread runs (started and not ended)."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Run on a daemon thread of its own."""
        self._thread = threading.Thread(target=self.run, name="tableside-sync", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0, last_send: bool = True) -> None:
        """Stop the thread, send what is left once more (`last_send`, each request given at
        most `timeout` seconds: the table is quitting), and say so in the state file: a
        stopped sync is not running, not connected. Stopping a stopped sync does nothing."""
        if self._stopped:
            return
        self._stopped = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if last_send and not self.alive:  # a thread still in a request owns the connection
            self.send_last(timeout)
        self._save(self.state.with_(connected=False, last_attempt_at=_now(),
                                    last_error="the sync was stopped", retry_at="",
                                    stopped=True))
        self.close()

    def send_last(self, timeout: float = 5.0) -> int:
        """Send the rows the pit does not hold yet, once, before the sync stops (best effort:
        a pit that cannot be reached leaves them for the next start); rows sent."""
        self._timeout = timeout
        sent = 0
        try:
            self._pit_head = None  # from the pit's own head, as at every start
            deadline = time.monotonic() + 4 * timeout
            while time.monotonic() < deadline and (step := self.step()) > 0:
                sent += step
        except (PitUnreachable, SyncRefused, JournalError) as exc:
            log.info("the last send before stopping did not finish: %s", exc)
        finally:
            self._timeout = None
        return sent

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self._http.close()

    def status(self) -> SyncStatus:
        return status(self.journal_path, self.state)


def _head_of(value: object) -> tuple[int, str]:
    if (isinstance(value, dict) and isinstance(value.get("seq"), int)
            and isinstance(value.get("hash"), str)):
        return int(value["seq"]), str(value["hash"])
    raise PitUnreachable("the pit's answer has no head")

