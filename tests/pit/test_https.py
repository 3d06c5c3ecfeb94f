"""The sync over HTTPS, end to end: `tableside pit serve --tls-cert --tls-key` with a
certificate signed by a CA made here, a table whose `[sync] ca_file` names that CA, and a
table trusting another CA, which the sync refuses to talk to, in words."""

from __future__ import annotations

import datetime
import ipaddress
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from kiosk.config import ConfigError, example, load
from kiosk.selftest import check_pit
from kiosk.store.journal import Journal, head_of
from kiosk.sync.client import PitUnreachable, SyncClient
from tests.pit.conftest import free_port
from tests.pit.day import Day
from tests.pit.test_pit_cli import _env, tableside


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def make_ca(folder: Path, name: str) -> tuple[Path, ec.EllipticCurvePrivateKey, x509.Certificate]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(_name(name))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                         False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                           critical=False)
            .sign(key, hashes.SHA256()))
    path = folder / f"{name}.pem"
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return path, key, cert


def make_server_cert(folder: Path, ca_key: ec.EllipticCurvePrivateKey,
                     ca: x509.Certificate) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(_name("pit.casino.test"))
            .issuer_name(ca.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    cert_path, key_path = folder / "pit.crt", folder / "pit-tls.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def _table_toml(folder: Path, sync: str) -> Path:
    path = folder / "table.toml"
    path.write_text(example("punto-banco") + "\n" + sync, encoding="utf-8")
    return path


def test_the_sync_over_https_trusts_only_its_ca(tmp_path: Path) -> None:
    ca_path, ca_key, ca = make_ca(tmp_path, "casino-ca")
    other_ca, _, _ = make_ca(tmp_path, "someone-else")
    cert, key = make_server_cert(tmp_path, ca_key, ca)
    port = free_port()
    (tmp_path / "data").mkdir()
    enrolled = tableside("pit", "enroll", "PB-01", "--db", "pit.db", "--pit-url",
                         f"https://127.0.0.1:{port}", "--credential-out",
                         "data/PB-01.credential", cwd=tmp_path)
    assert enrolled.returncode == 0, enrolled.stderr

    half = tableside("pit", "serve", "--db", "pit.db", "--tls-cert", str(cert), cwd=tmp_path)
    assert (half.returncode, half.stderr) == (2, "tableside: HTTPS needs both --tls-cert and "
                                                 "--tls-key\n")
    wrong = tableside("pit", "serve", "--db", "pit.db", "--tls-cert", str(ca_path),
                      "--tls-key", str(key), cwd=tmp_path)
    assert wrong.returncode == 2
    assert wrong.stderr.startswith(f"tableside: --tls-cert {ca_path} and --tls-key {key} do "
                                   "not make a certificate and its key")

    cfg = load(_table_toml(tmp_path, enrolled.stdout + 'ca_file = "casino-ca.pem"\n'))
    assert cfg.sync.ca_file == ca_path
    checked = tableside("config", "check", "table.toml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    journal = Journal.open(cfg.journal, "PB-01")
    Day(journal).play(10)

    pit = subprocess.Popen([sys.executable, "-m", "kiosk.cli", "pit", "serve", "--db",
                            "pit.db", "--port", str(port), "--tls-cert", str(cert),
                            "--tls-key", str(key)], cwd=tmp_path, env=_env(),
                           stderr=subprocess.PIPE, text=True)
    try:
        client = SyncClient(cfg.journal, "PB-01", cfg.sync.pit, cfg.sync.credential(),
                            verify=cfg.sync.tls())
        deadline = time.monotonic() + 30
        while True:
            try:
                sent = client.sync_all()
                break
            except PitUnreachable as exc:  # not listening yet
                assert "does not answer" in str(exc)
                assert time.monotonic() < deadline, "the pit did not start"
                time.sleep(0.1)
        client.close()
        assert sent == journal.count()
        assert client.state.acked_seq == head_of(journal.path)[0]

        stranger = load(_table_toml(tmp_path, enrolled.stdout +
                                    f'ca_file = "{other_ca.name}"\n'))
        refused = SyncClient(stranger.journal, "PB-01", stranger.sync.pit,
                             stranger.sync.credential(), verify=stranger.sync.tls())
        with pytest.raises(PitUnreachable) as why:
            refused.step()
        refused.close()
        # The self-test's pit check trusts the same CA, and only it.
        assert check_pit(cfg).ok, check_pit(cfg).detail
        stranger_check = check_pit(stranger)
        assert not stranger_check.ok and "CERTIFICATE_VERIFY_FAILED" in stranger_check.detail
        assert str(why.value).startswith(
            f"the pit at https://127.0.0.1:{port} is not the pit this table trusts: its "
            "certificate is not signed by the CA in [sync] ca_file (or the system's)")
    finally:
        pit.terminate()
        assert pit.wait(10) in (0, -signal.SIGTERM)
        journal.close()
    assert pit.stderr is not None
    assert f"dashboard at https://127.0.0.1:{port}/" in pit.stderr.read()


@pytest.mark.parametrize(("sync", "reason"), [
    ('pit = "https://pit.lan"\nca_file = "nowhere.pem"\n',
     "sync.ca_file: {folder}/nowhere.pem: cannot read it (No such file or directory)"),
    ('pit = "https://pit.lan"\nca_file = "table.toml"\n',
     "sync.ca_file: {folder}/table.toml: not a PEM certificate"),
    ('pit = "http://pit.lan"\nca_file = "casino-ca.pem"\n',
     "sync.ca_file: a CA to check the pit's certificate needs an https:// [sync] pit"),
])
def test_config_check_refuses_a_ca_file_it_cannot_use(tmp_path: Path, sync: str,
                                                      reason: str) -> None:
    make_ca(tmp_path, "casino-ca")
    path = _table_toml(tmp_path, "[sync]\n" + sync)
    with pytest.raises(ConfigError) as why:
        load(path)
    assert reason.format(folder=tmp_path) in str(why.value)
