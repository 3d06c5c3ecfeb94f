"""Signed update bundles (kiosk/update/) on this machine: real Ed25519 signatures, real tar
files, a real venv installed by pip offline, the image's own launcher and units scripts
(image-build/system/bin/), and systemd stood in for by a fake `systemctl` or an injected
object. The same bundles on a booted image: tests/image/test_boot.py."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from kiosk.cli import main
from kiosk.config import example
from kiosk.store.journal import Journal
from kiosk.table.fold import fold
from kiosk.update import (
    DEALER,
    BundleRefused,
    Manifest,
    Outcome,
    Releases,
    ServiceState,
    Systemd,
    Target,
    ThisTable,
    Updater,
    check,
    extract,
    install,
    journal_recorder,
    make_bundle,
    public_hex,
    trusted_keys,
    version_key,
    wait_ready,
)
from kiosk.update.bundle import MODELS
from tests.image.bundles import fake_wheel

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / "image-build" / "system" / "bin"
PI4 = ThisTable("aarch64", "pi4", "Raspberry Pi 4 Model B Rev 1.4", "3.11")
UNIT = "[Unit]\nDescription=dealer {v}\n[Service]\nExecStart=/opt/tableside/bin/tableside run\n"


@pytest.fixture()
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def _bundle(tmp_path: Path, key: Ed25519PrivateKey, version: str = "0.2.0",
            target: Target | None = None, broken: bool = False, name: str = "") -> Path:
    folder = tmp_path / f"src-{version}{'-broken' if broken else ''}"
    wheels = [fake_wheel(folder / "wheels", version, broken),
              fake_wheel(folder / "wheels", "1.0", name="helper_lib")]
    (folder / "units").mkdir(parents=True, exist_ok=True)
    unit = folder / "units" / "tableside-dealer.service"
    unit.write_text(UNIT.format(v=version))
    out = tmp_path / (name or f"tableside-{version}{'-broken' if broken else ''}.bundle")
    make_bundle(out, version, wheels, [unit], key, target, "tests")
    return out


def _retar(bundle: Path, out: Path, change: dict[str, bytes | None],
           add: dict[str, bytes] | None = None) -> Path:
    """A copy of `bundle` with members replaced (bytes) or left out (None), others added."""
    with tarfile.open(bundle) as src, tarfile.open(out, "w") as dst:
        for info in src.getmembers():
            data = src.extractfile(info).read()  # type: ignore[union-attr]
            if info.name in change:
                new = change[info.name]
                if new is None:
                    continue
                data = new
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))
        for name, data in (add or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))
    return out


# --- checking ---------------------------------------------------------------------------


def test_a_signed_bundle_for_this_table_is_accepted_and_extracted(
        tmp_path: Path, key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key)
    manifest = check(bundle, [key.public_key()], PI4, in_use="0.1.0")
    assert manifest.version == "0.2.0" and manifest.target == Target()
    assert manifest.wheels == ["wheels/helper_lib-1.0-py3-none-any.whl",
                               "wheels/tableside-0.2.0-py3-none-any.whl"]
    assert manifest.units == ["units/tableside-dealer.service"]
    extract(bundle, manifest, tmp_path / "staged")
    assert (tmp_path / "staged" / "units" / "tableside-dealer.service").read_text() == \
        UNIT.format(v="0.2.0")


def test_a_bundle_signed_by_another_key_is_refused(tmp_path: Path,
                                                   key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, Ed25519PrivateKey.generate())
    with pytest.raises(BundleRefused, match="is not signed by a publisher this table trusts: "
                                            "its signature matches none of the 1 key"):
        check(bundle, [key.public_key()], PI4)


def test_a_manifest_changed_after_signing_is_refused(tmp_path: Path,
                                                     key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key)
    with tarfile.open(bundle) as tar:
        raw = tar.extractfile("manifest.json").read()  # type: ignore[union-attr]
    forged = _retar(bundle, tmp_path / "forged.bundle",
                    {"manifest.json": raw.replace(b'"pi4"', b'"pi5"')})
    with pytest.raises(BundleRefused, match="not signed by a publisher this table trusts"):
        check(forged, [key.public_key()], PI4)


def test_a_wheel_changed_after_signing_is_refused_and_nothing_is_left(
        tmp_path: Path, key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key)
    name = "wheels/tableside-0.2.0-py3-none-any.whl"
    with tarfile.open(bundle) as tar:
        data = bytearray(tar.extractfile(name).read())  # type: ignore[union-attr]
    data[-30] ^= 0xFF  # same size, other bytes
    changed = _retar(bundle, tmp_path / "changed.bundle", {name: bytes(data)})
    manifest = check(changed, [key.public_key()], PI4)  # the sizes still agree
    with pytest.raises(BundleRefused, match=f"{name} does not match its manifest \\(sha256 "
                                            "differs\\): it was changed after signing"):
        extract(changed, manifest, tmp_path / "staged")
    assert not (tmp_path / "staged").exists()
    cut = _retar(bundle, tmp_path / "cut.bundle", {name: bytes(data[:-10])})
    with pytest.raises(BundleRefused, match=f"{name} is \\d+ bytes, its manifest says \\d+"):
        check(cut, [key.public_key()], PI4)


def test_files_added_or_left_out_are_refused(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key)
    added = _retar(bundle, tmp_path / "added.bundle", {},
                   {"units/tableside-extra.service": b"[Service]\n"})
    with pytest.raises(BundleRefused, match="holds units/tableside-extra.service, which its "
                                            "signed manifest does not list"):
        check(added, [key.public_key()], PI4)
    lacking = _retar(bundle, tmp_path / "lacking.bundle",
                     {"units/tableside-dealer.service": None})
    with pytest.raises(BundleRefused, match="lacks units/tableside-dealer.service"):
        check(lacking, [key.public_key()], PI4)
    unsigned = _retar(bundle, tmp_path / "unsigned.bundle", {"manifest.sig": None})
    with pytest.raises(BundleRefused, match="is not an update bundle: it has no manifest.sig"):
        check(unsigned, [key.public_key()], PI4)


def test_a_link_inside_the_bundle_is_refused(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key)
    with tarfile.open(bundle, "a") as tar:
        link = tarfile.TarInfo("wheels/evil.whl")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/shadow"
        tar.addfile(link)
    with pytest.raises(BundleRefused, match="wheels/evil.whl is not a plain file"):
        check(bundle, [key.public_key()], PI4)


def test_a_pi4_bundle_updates_a_pi4_with_raspberry_pis_kernel_too(
        tmp_path: Path, key: Ed25519PrivateKey) -> None:
    """pi4-rpi differs from pi4 only in the kernel: it takes pi4 bundles, so one bundle
    updates every Pi 4 table (those made before pi4-rpi too); a Pi 5 bundle fits neither, and
    no bundle is made for pi4-rpi itself."""
    dsi = ThisTable("aarch64", "pi4-rpi", "Raspberry Pi 4 Model B Rev 1.5", "3.11")
    bundle = _bundle(tmp_path / "pi4", key)  # Target(): pi4, its boards
    for table in (PI4, dsi):
        assert check(bundle, [key.public_key()], table).target.flavour == "pi4"
    pi5 = _bundle(tmp_path / "pi5", key, target=Target(flavour="pi5", models=MODELS["pi4"]))
    with pytest.raises(BundleRefused, match=r"flavour pi5 .* flavour pi4-rpi \(it takes pi4 "
                                            r"bundles\), Python 3.11"):
        check(pi5, [key.public_key()], dsi)
    assert sorted(MODELS) == ["pi4", "pi5"]  # what `tableside update make --flavour` offers


@pytest.mark.parametrize(("target", "words"), [
    (Target(flavour="pi5", models=("Raspberry Pi 5",)),
     "the bundle is for aarch64 tables of flavour pi5 (Raspberry Pi 5) with Python 3.11; this "
     "table is a Raspberry Pi 4 Model B Rev 1.4, aarch64, flavour pi4, Python 3.11"),
    (Target(machine="x86_64"), "the bundle is for x86_64 tables of flavour pi4"),
    (Target(models=("Raspberry Pi 400",)), "(Raspberry Pi 400)"),
    (Target(python="3.13"), "with Python 3.13; this table is"),
])
def test_a_bundle_for_other_tables_is_refused_in_words(tmp_path: Path, key: Ed25519PrivateKey,
                                                      target: Target, words: str) -> None:
    bundle = _bundle(tmp_path, key, target=target)
    with pytest.raises(BundleRefused) as refused:
        check(bundle, [key.public_key()], PI4)
    assert words in str(refused.value)


def test_an_older_version_is_refused_unless_asked_for(tmp_path: Path,
                                                      key: Ed25519PrivateKey) -> None:
    bundle = _bundle(tmp_path, key, version="0.1.0")
    with pytest.raises(BundleRefused, match="version 0.1.0 is not newer than 0.1.0, the "
                                            "version in use \\(--allow-older"):
        check(bundle, [key.public_key()], PI4, in_use="0.1.0")
    assert check(bundle, [key.public_key()], PI4, "0.2.0", allow_older=True).version == "0.1.0"
    assert version_key("0.10.0") > version_key("0.9.3") > version_key("0.9") == \
        version_key("0.9.0+emu")


def test_what_is_not_a_bundle_is_refused(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    junk = tmp_path / "junk.bundle"
    junk.write_bytes(b"\x00not a tar" * 100)
    with pytest.raises(BundleRefused, match="junk.bundle is not an update bundle \\(not a "
                                            "tar file"):
        check(junk, [key.public_key()], PI4)
    with pytest.raises(BundleRefused, match="no such file"):
        check(tmp_path / "gone.bundle", [key.public_key()], PI4)


def test_the_tables_keys_file(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    keys = tmp_path / "update-keys"
    keys.write_text(f"# the publisher, 2026\n{public_hex(key)}\n\n")
    assert len(trusted_keys(keys)) == 1
    keys.write_text("# nobody yet\n")
    with pytest.raises(BundleRefused, match="this table trusts no publisher: no key in"):
        trusted_keys(keys)
    keys.write_text("abc\n")
    with pytest.raises(BundleRefused, match="line 1: not a public key"):
        trusted_keys(keys)


def test_the_manifest_reads_back_and_refuses_what_it_cannot_read() -> None:
    m = Manifest("1.2.3", Target(), {"wheels/a.whl": (3, "ab" * 32)}, "2026-11-25T00:00:00Z",
                 "tests")
    assert Manifest.from_bytes(m.to_bytes()) == m
    with pytest.raises(BundleRefused, match="manifest cannot be read"):
        Manifest.from_bytes(b'{"format": 1}')
    with pytest.raises(BundleRefused, match="is not a version number"):
        Manifest.from_bytes(m.to_bytes().replace(b"1.2.3", b"latest"))


# --- switching and going back ------------------------------------------------------------


@dataclass
class FakeSystemd:
    """systemd as the update sees it: the dealer app comes up (a new pid, active/running)
    unless the version the `current` link names is `broken`."""

    releases: Releases
    broken: set[str] = field(default_factory=set)
    calls: list[str] = field(default_factory=list)
    pid: int = 100

    def units(self) -> None:
        self.calls.append(f"units {self.releases.version(self.releases.in_use())}")

    def restart(self, unit: str) -> None:
        self.calls.append(f"restart {unit}")
        self.pid += 1

    def try_restart(self, unit: str) -> None:
        self.calls.append(f"try-restart {unit}")

    def state(self, unit: str) -> ServiceState:
        if self.releases.version(self.releases.in_use()) in self.broken:
            return ServiceState("activating", "auto-restart", 0, 3, "exit-code")
        return ServiceState("active", "running", self.pid, 0, "success")


def _factory(tmp_path: Path, version: str = "0.1.0") -> Path:
    """The image's own version, as /opt/tableside holds it (a venv with the dist-info)."""
    factory = tmp_path / "opt"
    site = factory / "venv" / "lib" / "python3.11" / "site-packages"
    (site / f"tableside-{version}.dist-info").mkdir(parents=True)
    (factory / "venv" / "bin").mkdir(parents=True)
    (factory / "venv" / "bin" / "tableside").touch(mode=0o755)
    return factory


def _fake_install(release: Path, staged: Path, manifest: Manifest) -> None:
    site = release / "venv" / "lib" / "python3.11" / "site-packages"
    (site / f"tableside-{manifest.version}.dist-info").mkdir(parents=True)
    (release / "venv" / "bin").mkdir(parents=True)
    (release / "venv" / "bin" / "tableside").touch(mode=0o755)
    (release / "units").mkdir()


def _updater(tmp_path: Path, key: Ed25519PrivateKey, services: FakeSystemd | None = None,
             records: list[Outcome] | None = None) -> tuple[Updater, FakeSystemd]:
    (tmp_path / "data").mkdir()
    releases = Releases(tmp_path / "data" / "tableside", _factory(tmp_path))
    fake = services or FakeSystemd(releases)
    up = Updater(releases, fake, keys=lambda: [key.public_key()], here=lambda: PI4,
                 installer=_fake_install, record=(records.append if records is not None
                                                  else lambda o: None),
                 wait=0.3, settle=0.2, poll=0.05)
    return up, fake


def test_an_update_that_starts_is_kept(tmp_path: Path, key: Ed25519PrivateKey) -> None:
    records: list[Outcome] = []
    up, fake = _updater(tmp_path, key, records=records)
    done = up.apply(_bundle(tmp_path, key))
    assert (done.outcome, done.version, done.previous) == ("applied", "0.2.0", "0.1.0")
    rel = up.releases
    assert rel.in_use() == rel.folder / "0.2.0" and not rel.on_trial()
    assert os.readlink(rel.root / "current") == "releases/0.2.0"
    assert fake.calls == ["units 0.2.0", f"restart {DEALER}",
                          "try-restart tableside-signage.service",
                          "try-restart tableside-sync.service"]
    assert records == [done] and rel.history()[-1]["outcome"] == "applied"
    assert not list(rel.folder.glob(".incoming-*"))  # the extracted wheels are gone


def test_an_update_that_does_not_start_is_rolled_back(tmp_path: Path,
                                                      key: Ed25519PrivateKey) -> None:
    records: list[Outcome] = []
    up, fake = _updater(tmp_path, key, records=records)
    assert up.apply(_bundle(tmp_path, key, "0.2.0")).ok
    fake.broken.add("0.3.0")
    fake.calls.clear()
    done = up.apply(_bundle(tmp_path, key, "0.3.0"))
    assert done.outcome == "rolled back" and (done.version, done.previous) == ("0.3.0", "0.2.0")
    assert done.detail == ("the dealer app did not report ready within 0.3 s (activating/"
                           "auto-restart, exit-code, restarted 3 time(s)); 0.2.0 runs again")
    rel = up.releases
    assert rel.in_use() == rel.folder / "0.2.0" and not rel.on_trial()
    assert not (rel.folder / "0.3.0").exists()  # the version that failed is not kept
    assert fake.calls.count(f"restart {DEALER}") == 2
    assert fake.calls[0] == "units 0.3.0" and "units 0.2.0" in fake.calls
    assert [r.outcome for r in records] == ["applied", "rolled back"]


def test_a_dealer_app_that_stops_soon_after_ready_is_rolled_back(tmp_path: Path) -> None:
    states = iter([ServiceState("active", "running", 7)] * 2 +
                  [ServiceState("activating", "auto-restart", 0, 1, "watchdog")] * 50)

    class Flaky:
        def state(self, unit: str) -> ServiceState:
            return next(states)

    t = [0.0]

    def sleep(s: float) -> None:
        t[0] += s

    why = wait_ready(Flaky(), DEALER, 5, 10, ServiceState("active", "running", 6),  # type: ignore[arg-type]
                     poll=1, clock=lambda: t[0], sleep=sleep)
    assert why == ("the dealer app reported ready, then stopped within 10 s (activating/"
                   "auto-restart, watchdog, restarted 1 time(s))")


def test_the_old_process_still_running_is_not_taken_for_the_new_one() -> None:
    old = ServiceState("active", "running", 6)

    class Slow:
        def state(self, unit: str) -> ServiceState:
            return old  # the restart has not reached it yet

    t = [0.0]
    why = wait_ready(Slow(), DEALER, 2, 1, old, poll=0.5, clock=lambda: t[0],  # type: ignore[arg-type]
                     sleep=lambda s: t.__setitem__(0, t[0] + s))
    assert why.startswith("the dealer app did not report ready within 2 s")


def test_a_refused_bundle_changes_nothing_and_is_on_record(tmp_path: Path,
                                                          key: Ed25519PrivateKey) -> None:
    records: list[Outcome] = []
    up, fake = _updater(tmp_path, key, records=records)
    done = up.apply(_bundle(tmp_path, Ed25519PrivateKey.generate()))
    assert done.outcome == "refused" and "not signed by a publisher" in done.detail
    assert fake.calls == [] and up.releases.in_use() == up.releases.factory
    assert records == [done]


def test_a_tampered_older_bundle_leaves_the_copy_to_go_back_to_in_place(
        tmp_path: Path, key: Ed25519PrivateKey) -> None:
    """--allow-older with a bundle whose wheel was changed after signing (same size: the
    manifest's check passes, the sha256 does not): refused, and releases/0.2.0, the copy the
    table would go back to, is still there, file for file."""
    records: list[Outcome] = []
    up, fake = _updater(tmp_path, key, records=records)
    good = _bundle(tmp_path, key, "0.2.0")
    assert up.apply(good).ok and up.apply(_bundle(tmp_path, key, "0.3.0")).ok
    rel = up.releases
    older = rel.folder / "0.2.0"
    before = sorted(str(p.relative_to(older)) for p in older.rglob("*"))
    assert before and rel.in_use() == rel.folder / "0.3.0"
    name = "wheels/tableside-0.2.0-py3-none-any.whl"
    with tarfile.open(good) as tar:
        data = bytearray(tar.extractfile(name).read())  # type: ignore[union-attr]
    data[-30] ^= 0xFF  # same size, other bytes
    tampered = _retar(good, tmp_path / "tampered-0.2.0.bundle", {name: bytes(data)})
    fake.calls.clear()
    done = up.apply(tampered, allow_older=True)
    assert done.outcome == "refused" and f"{name} does not match its manifest" in done.detail
    assert sorted(str(p.relative_to(older)) for p in older.rglob("*")) == before
    assert rel.in_use() == rel.folder / "0.3.0" and fake.calls == []
    assert not list(rel.folder.glob(".incoming-*"))
    assert records[-1] == done
    # the same bundle untouched still goes back to 0.2.0 on purpose
    back = up.apply(good, allow_older=True)
    assert (back.outcome, back.version, back.previous) == ("applied", "0.2.0", "0.3.0")


def test_an_install_that_fails_leaves_the_table_as_it_was(tmp_path: Path,
                                                         key: Ed25519PrivateKey) -> None:
    from kiosk.update import UpdateFailed

    up, fake = _updater(tmp_path, key)

    def failing(release: Path, staged: Path, manifest: Manifest) -> None:
        release.mkdir()
        raise UpdateFailed("installing 0.2.0: pip install failed: no space left")

    up.installer = failing
    done = up.apply(_bundle(tmp_path, key))
    assert done.outcome == "not installed" and "no space left" in done.detail
    assert fake.calls == [] and not (up.releases.folder / "0.2.0").exists()


def test_revert_goes_back_to_the_images_own_version(tmp_path: Path,
                                                   key: Ed25519PrivateKey) -> None:
    up, fake = _updater(tmp_path, key)
    assert up.apply(_bundle(tmp_path, key)).ok
    done = up.revert()
    assert (done.outcome, done.version, done.previous) == ("reverted", "0.1.0", "0.2.0")
    assert up.releases.in_use() == up.releases.factory
    assert (up.releases.folder / "0.2.0").exists()  # still there to apply again


def test_the_outcome_goes_into_the_tables_journal_and_every_fold_knows_it(
        tmp_path: Path) -> None:
    """A journal row the fold does not know stops the dealer app at start-up: the record
    lives with the table's other records (kiosk/table/records.py)."""
    config = tmp_path / "table.toml"
    config.write_text(example().replace('journal = "data/PB-01.db"',
                                        f'journal = "{tmp_path / "PB-01.db"}"'))
    journal_recorder(config)(Outcome("0.2.0", "0.1.0", "rolled back", "did not start"))
    with Journal.open(tmp_path / "PB-01.db", "PB-01") as j:
        rows = list(j.entries())
    assert [(r.kind, r.payload["outcome"]) for r in rows] == [("software_update",
                                                              "rolled back")]
    assert fold(rows).seq == 1  # followed, not refused


# --- the image's launcher and units scripts, with pip and a fake systemctl -------------------


def _fake_systemctl(tmp_path: Path) -> Path:
    """`systemctl` for the scripts and the updater: `restart` of the dealer runs the launcher
    as the unit would (`tableside run`); `show` says active/running with a new pid if it
    started, activating/auto-restart if it failed."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir()
    script = bin_dir / "systemctl"
    script.write_text(f"""#!/bin/sh
echo "$*" >> "{tmp_path}/systemctl.log"
state="{tmp_path}/dealer.state"
case "$1" in
  restart)
    if "{BIN}/tableside" run --config /data/table.toml >> "{tmp_path}/dealer.out" 2>&1; then
      n=$(( $(cat "{tmp_path}/pid" 2>/dev/null || echo 100) + 1 )); echo $n > "{tmp_path}/pid"
      printf 'ActiveState=active\\nSubState=running\\nMainPID=%s\\n' $n > "$state"
    else
      printf 'ActiveState=activating\\nSubState=auto-restart\\nMainPID=0\\n' > "$state"
      printf 'NRestarts=2\\nResult=exit-code\\n' >> "$state"
    fi;;
  show) cat "$state" 2>/dev/null || printf 'ActiveState=active\\nSubState=running\\n';;
esac
exit 0
""")
    script.chmod(0o755)
    return script


def test_the_real_install_launcher_and_units_with_a_fake_systemctl(
        tmp_path: Path, key: Ed25519PrivateKey, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip installs the bundle's wheels into a new venv; the image's launcher then runs the
    new version; its units are put in /run's place; a broken version is rolled back and the
    launcher runs the version before again."""
    factory = tmp_path / "opt"
    (factory / "venv" / "bin").mkdir(parents=True)
    (factory / "venv" / "bin" / "tableside").write_text("#!/bin/sh\necho factory \"$@\"\n")
    (factory / "venv" / "bin" / "tableside").chmod(0o755)
    data = tmp_path / "data" / "tableside"
    data.parent.mkdir()
    env = {"TABLESIDE_RELEASES": str(data), "TABLESIDE_FACTORY": str(factory),
           "TABLESIDE_OWNER": str(os.geteuid()), "TABLESIDE_UNIT_DIR": str(tmp_path / "run"),
           "SYSTEMCTL": str(_fake_systemctl(tmp_path))}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    releases = Releases(data, factory)
    services = Systemd(systemctl=env["SYSTEMCTL"], units_script=str(BIN / "tableside-units"))
    up = Updater(releases, services, keys=lambda: [key.public_key()], here=lambda: PI4,
                 installer=install, wait=3, settle=0.3, poll=0.1)

    def launcher(*args: str) -> str:
        return subprocess.run([str(BIN / "tableside"), *args], capture_output=True, text=True,
                              check=True).stdout.strip()

    assert launcher("--version") == "factory --version"
    done = up.apply(_bundle(tmp_path, key, "0.2.0"))
    assert done.outcome == "applied", done.detail
    assert launcher("--version") == "tableside, version 0.2.0"
    assert (tmp_path / "run" / "tableside-dealer.service").read_text() == UNIT.format(v="0.2.0")
    assert "daemon-reload" in (tmp_path / "systemctl.log").read_text()

    broken = up.apply(_bundle(tmp_path, key, "0.3.0", broken=True))
    assert broken.outcome == "rolled back", broken.detail
    assert broken.detail.startswith("the dealer app did not report ready within 3 s "
                                    "(activating/auto-restart, exit-code")
    assert broken.detail.endswith("; 0.2.0 runs again")
    assert launcher("--version") == "tableside, version 0.2.0"
    assert "this build cannot start" in (tmp_path / "dealer.out").read_text()
    assert (tmp_path / "run" / "tableside-dealer.service").read_text() == UNIT.format(v="0.2.0")

    assert up.revert().outcome == "reverted"  # the image's own: no unit overrides
    assert launcher("x") == "factory x" and not list((tmp_path / "run").iterdir())


def test_the_launcher_runs_nothing_from_a_folder_another_user_could_change(
        tmp_path: Path, key: Ed25519PrivateKey) -> None:
    factory = tmp_path / "opt"
    (factory / "venv" / "bin").mkdir(parents=True)
    (factory / "venv" / "bin" / "tableside").write_text("#!/bin/sh\necho factory\n")
    (factory / "venv" / "bin" / "tableside").chmod(0o755)
    data = tmp_path / "data" / "tableside"
    planted = data / "releases" / "9.9.9" / "venv" / "bin" / "tableside"
    planted.parent.mkdir(parents=True)
    planted.write_text("#!/bin/sh\necho planted\n")
    planted.chmod(0o755)
    for d in (data, data / "releases", data / "releases" / "9.9.9"):
        d.chmod(0o755)
    os.symlink("releases/9.9.9", data / "current")
    env = {**os.environ, "TABLESIDE_RELEASES": str(data), "TABLESIDE_FACTORY": str(factory),
           "TABLESIDE_OWNER": str(os.geteuid())}

    def runs() -> str:
        return subprocess.run([str(BIN / "tableside")], capture_output=True, text=True,
                              env=env, check=True).stdout.strip()

    assert runs() == "planted"  # root's alone: the version the link names
    (data / "releases").chmod(0o775)  # writable by a group
    assert runs() == "factory"
    (data / "releases").chmod(0o755)
    assert runs() == "planted"
    assert subprocess.run([str(BIN / "tableside")], capture_output=True, text=True, check=True,
                          env={**env, "TABLESIDE_OWNER": "4242"}).stdout.strip() == "factory"
    os.remove(data / "current")
    os.symlink(str(tmp_path), data / "current")  # a link out of the releases folder
    assert runs() == "factory"


def test_at_boot_an_update_never_confirmed_is_undone(tmp_path: Path) -> None:
    """A power cut while a new version was tried: the `trial` link is still there, and the
    boot goes back to the version it names before any Tableside service starts."""
    data = tmp_path / "tableside"
    for v in ("0.2.0", "0.3.0"):
        (data / "releases" / v / "venv" / "bin").mkdir(parents=True)
        (data / "releases" / v / "venv" / "bin" / "tableside").touch(mode=0o755)
    os.symlink("releases/0.3.0", data / "current")
    os.symlink("releases/0.2.0", data / "trial")
    env = {**os.environ, "TABLESIDE_RELEASES": str(data),
           "TABLESIDE_FACTORY": str(tmp_path / "opt"), "TABLESIDE_OWNER": str(os.geteuid()),
           "TABLESIDE_UNIT_DIR": str(tmp_path / "run"), "SYSTEMCTL": "/bin/true"}
    proc = subprocess.run([str(BIN / "tableside-units"), "--boot"], capture_output=True,
                          text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "cut short before the dealer app confirmed it: back to releases/0.2.0" in proc.stderr
    assert os.readlink(data / "current") == "releases/0.2.0" and not (data / "trial").exists()
    logged = json.loads((data / "updates.log").read_text().splitlines()[-1])
    assert logged["outcome"] == "rolled back" and "power cut" in logged["detail"]
    again = subprocess.run([str(BIN / "tableside-units"), "--boot"], capture_output=True,
                           text=True, env=env)
    assert again.returncode == 0 and again.stderr == ""  # nothing more to do


# --- the command ---------------------------------------------------------------------------


def test_keygen_and_make_from_the_command_line(tmp_path: Path) -> None:
    runner = CliRunner()
    keyfile = tmp_path / "publisher.pem"
    made = runner.invoke(main, ["update", "keygen", str(keyfile)])
    assert made.exit_code == 0 and len(made.output.strip()) == 64
    assert oct(keyfile.stat().st_mode & 0o777) == "0o600"
    again = runner.invoke(main, ["update", "keygen", str(keyfile)])
    assert again.exit_code == 2 and "is never overwritten" in again.output
    fake_wheel(tmp_path / "w", "0.2.0")
    out = tmp_path / "t.bundle"
    said = runner.invoke(main, ["update", "make", "--version", "0.2.0", "--wheels",
                                str(tmp_path / "w"), "--key", str(keyfile), "--flavour", "pi5",
                                "-o", str(out)])
    assert said.exit_code == 0, said.output
    assert "version 0.2.0 for aarch64 tables of flavour pi5 (Raspberry Pi 5" in said.output
    keys = tmp_path / "keys"
    keys.write_text(made.output)
    pi5 = ThisTable("aarch64", "pi5", "Raspberry Pi 5 Model B Rev 1.0", "3.11")
    assert check(out, trusted_keys(keys), pi5).target.flavour == "pi5"
    wrong = runner.invoke(main, ["update", "make", "--version", "0.3.0", "--wheels",
                                 str(tmp_path / "w"), "--key", str(keyfile), "-o", str(out)])
    assert wrong.exit_code == 1 and "no tableside-0.3.0-*.whl among the wheels" in wrong.output
