"""The boot test's time server (tests/image/ntp.py), checked on this machine: it answers an
SNTP client's request as a stratum 1 server, with the request's transmit time as its origin
(systemd-timesyncd refuses an answer without it) and the time it was asked."""

from __future__ import annotations

import socket
import struct

from tests.image.ntp import NTP_EPOCH, TimeServer, answer, ntp_time


def test_an_answer_is_a_stratum_1_servers_with_the_requests_origin() -> None:
    request = bytes([0x23]) + bytes(39) + b"ORIGIN!!"  # LI 0, version 4, mode 3 (client)
    reply = answer(request, 1_795_000_000.5)
    assert reply is not None and len(reply) == 48
    assert reply[0] == 0x24 and reply[1] == 1  # version 4, mode 4 (server); stratum 1
    assert reply[12:16] == b"LOCL" and reply[24:32] == b"ORIGIN!!"
    assert struct.unpack("!I", reply[32:36])[0] == 1_795_000_000 + NTP_EPOCH
    assert reply[32:40] == ntp_time(1_795_000_000.5)
    assert answer(bytes([0x24]) + bytes(47), 0.0) is None  # a server's packet: no answer
    assert answer(b"short", 0.0) is None


def test_it_answers_over_udp() -> None:
    server = TimeServer(port=0).start()
    try:
        port = server.sock.getsockname()[1]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
            client.settimeout(5)
            client.sendto(bytes([0x23]) + bytes(39) + b"12345678", ("127.0.0.1", port))
            reply, _ = client.recvfrom(512)
    finally:
        server.stop()
    assert reply[24:32] == b"12345678" and server.answered == 1
