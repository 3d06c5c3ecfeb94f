"""The table's computer as table.toml sets it up: its network, its time servers, the
technicians' SSH keys and the names of its serial devices (provisioning writes them to the
data partition, kiosk/provision.py; the SD image reads them from there, image-build/).

    [network]
    address = "dhcp"                    # or a static address with its prefix: "10.20.0.31/24"
    gateway = "10.20.0.1"               # a static address only
    dns = ["10.20.0.2"]                 # a static address only (DHCP brings its own)
    ntp = ["ntp1.casino.lan"]           # the time servers (none: DHCP's, then Debian's pool)

    [technicians]
    ssh_keys = ["ssh-ed25519 AAAA... tech@laptop"]

    [devices.shoe]
    port = "/dev/tableside-shoe"
    usb_port = "1.3"                    # the USB port it is plugged into, or
    usb_serial = "A10KQ3XY"             # its adapter's serial number

Everything here is optional: a table without `[network]` takes its address by DHCP, one
without technicians' keys runs no SSH server.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from kiosk.rules.errors import UnreadableInput


class Reader(Protocol):
    """kiosk/config.py's reader of table.toml: typed look-ups that fail with the line."""

    data: dict[str, Any]

    def known(self, where: str, key: str) -> None: ...
    def section(self, name: str, required: bool = True) -> dict[str, Any]: ...
    def text(self, sec: dict[str, Any], where: str, key: str, default: str | None = None
             ) -> str: ...
    def fail(self, section: str, key: str, reason: str) -> NoReturn: ...

SECTIONS = ("network", "technicians")
"""The sections of table.toml read here (the devices' naming keys are in `[devices.<role>]`)."""

KEY_TYPES = ("ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
             "ecdsa-sha2-nistp521", "ssh-rsa", "sk-ssh-ed25519@openssh.com",
             "sk-ecdsa-sha2-nistp256@openssh.com")
"""The public key types OpenSSH's server takes for a login (DSA is refused by it)."""

NETWORK_FILE = "10-tableside.network"
TIMESYNC_FILE = "10-tableside.conf"
KEYS_FILE = "technician_keys"
DEVICES_RULES = "90-tableside-devices.rules"
HOSTNAME_RE = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                         r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
USB_PORT_RE = re.compile(r"[0-9]+(\.[0-9]+){0,6}")
SERIAL_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")


class SshKeyError(UnreadableInput):
    """A technician's public key that is not one (the line and the reason, in words)."""


@dataclass(frozen=True, slots=True)
class NetworkConfig:
    """`[network]`: DHCP (`address` empty) or a static address with its prefix."""

    address: str = ""  # "10.20.0.31/24"; "" for DHCP
    gateway: str = ""
    dns: tuple[str, ...] = ()
    ntp: tuple[str, ...] = ()

    @property
    def dhcp(self) -> bool:
        return not self.address


@dataclass(frozen=True, slots=True)
class DeviceName:
    """Where a serial device is found, for its stable name /dev/tableside-<role>."""

    role: str
    usb_port: str = ""  # "1.3": the port path under the Pi's USB hub
    usb_serial: str = ""  # the adapter's serial number (udev's ID_SERIAL_SHORT)


@dataclass(frozen=True, slots=True)
class HostConfig:
    """What provisioning writes for the table's computer, from table.toml."""

    network: NetworkConfig = field(default_factory=NetworkConfig)
    ssh_keys: tuple[str, ...] = ()
    device_names: tuple[DeviceName, ...] = ()


def read_host(reader: Reader) -> HostConfig:
    """`[network]`, `[technicians]` and the devices' naming keys, each mistake a
    `ConfigError` naming its line (called by kiosk/config.py)."""
    net = reader.section("network", required=False)
    address = reader.text(net, "network", "address", "dhcp").strip()
    gateway = reader.text(net, "network", "gateway") if "gateway" in net else ""
    dns = _list(reader, net, "network", "dns")
    ntp = _list(reader, net, "network", "ntp")
    if address.lower() == "dhcp":
        address = ""
        for key, given in (("gateway", gateway), ("dns", dns)):
            if given:
                reader.fail("network", key, 'only with a static address (address = "dhcp" '
                                            "takes it from the DHCP server)")
    else:
        try:
            iface = ipaddress.ip_interface(address)
        except ValueError:
            reader.fail("network", "address", f'{address!r} is neither "dhcp" nor an address '
                                              'with its prefix, like "10.20.0.31/24"')
        if "/" not in address or iface.network.prefixlen == iface.max_prefixlen:
            reader.fail("network", "address", f"{address!r} needs its prefix, like "
                                              f'"{iface.ip}/24"')
        if not gateway:
            reader.fail("network", "gateway", "is required with a static address")
        try:
            gw = ipaddress.ip_address(gateway)
        except ValueError:
            reader.fail("network", "gateway", f"{gateway!r} is not an IP address")
        if gw not in iface.network:
            reader.fail("network", "gateway", f"{gateway} is not in the table's network "
                                              f"{iface.network}")
        if not dns:
            reader.fail("network", "dns", "is required with a static address: the pit's "
                                          "and the time servers' names need it")
    for server in dns:
        try:
            ipaddress.ip_address(server)
        except ValueError:
            reader.fail("network", "dns", f"{server!r} is not an IP address")
    for server in ntp:
        if not _is_host(server):
            reader.fail("network", "ntp", f"{server!r} is not a host name or an IP address")
    techs = reader.section("technicians", required=False)
    keys = _list(reader, techs, "technicians", "ssh_keys")
    for n, key in enumerate(keys, 1):
        try:
            check_key(key)
        except SshKeyError as exc:
            reader.fail("technicians", "ssh_keys", f"key {n}: {exc}")
    return HostConfig(NetworkConfig(address, gateway, tuple(dns), tuple(ntp)), tuple(keys),
                      _device_names(reader))


def _list(reader: Reader, sec: dict[str, Any], where: str, key: str) -> list[str]:
    reader.known(where, key)
    value = sec.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip()
                                              for v in value):
        reader.fail(where, key, 'must be a list of texts in quotes, like ["a", "b"]')
    return [v.strip() for v in value]


def _is_host(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return len(name) <= 253 and HOSTNAME_RE.fullmatch(name) is not None
    return True


def _device_names(reader: Reader) -> tuple[DeviceName, ...]:
    devices = reader.data.get("devices", {})
    if not isinstance(devices, dict):
        return ()  # kiosk/config.py says what is wrong with it
    out = []
    for role, sec in devices.items():
        if not isinstance(sec, dict):
            continue
        where = f"devices.{role}"
        port = reader.text(sec, where, "usb_port") if "usb_port" in sec else ""
        serial = reader.text(sec, where, "usb_serial") if "usb_serial" in sec else ""
        if not (port or serial):
            continue
        if port and serial:
            reader.fail(where, "usb_serial", "give usb_port or usb_serial, not both")
        if port and not USB_PORT_RE.fullmatch(port):
            reader.fail(where, "usb_port", f"{port!r} is not a USB port like \"1.3\" (the "
                                           "numbers after usb-0: in udevadm's ID_PATH)")
        if serial and not SERIAL_RE.fullmatch(serial):
            reader.fail(where, "usb_serial", f"{serial!r} is not a serial number (letters, "
                                             "digits, '.', '_', '-')")
        named = f"/dev/tableside-{role}"
        if sec.get("port") != named:
            reader.fail(where, "port", f"must be \"{named}\": that is the name usb_port or "
                                       "usb_serial gives the device")
        out.append(DeviceName(role, port, serial))
    return tuple(out)


def check_key(line: str) -> str:
    """One OpenSSH public key line (`type base64 [comment]`), returned as given; raises
    `SshKeyError` saying why it is not one (options before the key are refused)."""
    parts = line.split()
    if not parts:
        raise SshKeyError("empty")
    if parts[0] not in KEY_TYPES:
        raise SshKeyError(f"{_short(parts[0])} is not a public key type OpenSSH logs in with "
                        f"({', '.join(KEY_TYPES[:2])}, ...); give the line of the .pub file")
    if len(parts) < 2:
        raise SshKeyError(f"{parts[0]} without its key")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise SshKeyError(f"{parts[0]}: the key is not base64") from None
    size = int.from_bytes(blob[:4], "big") if len(blob) >= 4 else -1
    if blob[4:4 + size] != parts[0].encode():
        raise SshKeyError(f"{parts[0]}: the key inside is not a {parts[0]} key")
    return line.strip()


def _short(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:21] + "...")


def keys_from_file(text: str, name: str) -> tuple[str, ...]:
    """The keys of an authorized_keys-style file (`technicians.pub` on the boot partition):
    one a line, blank lines and # comments skipped; `SshKeyError` names the bad line."""
    keys = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            keys.append(check_key(line))
        except SshKeyError as exc:
            raise SshKeyError(f"{name}, line {n}: {exc}") from None
    return tuple(keys)


# --- what provisioning writes (kiosk/provision.py) --------------------------------------------

def network_file(net: NetworkConfig) -> str:
    """systemd-networkd's configuration for the table's wired network card."""
    lines = ["# Written by `tableside provision` from table.toml's [network]: do not edit,",
             "# provision the table again instead (docs/technician.md, \"The network\").",
             "[Match]", "Type=ether", "", "[Network]"]
    if net.dhcp:
        lines.append("DHCP=yes")
    else:
        lines += [f"Address={net.address}", f"Gateway={net.gateway}",
                  *(f"DNS={server}" for server in net.dns)]
    lines += ["LinkLocalAddressing=no", "IPv6AcceptRA=no"]
    if net.dhcp:
        lines += ["", "[DHCPv4]", "UseNTP=yes", "UseDNS=yes"]
    return "\n".join(lines) + "\n"


def timesync_file(net: NetworkConfig) -> str:
    """systemd-timesyncd's time servers, or "" when table.toml names none."""
    if not net.ntp:
        return ""
    return ("# Written by `tableside provision` from table.toml's [network] ntp.\n"
            f"[Time]\nNTP={' '.join(net.ntp)}\n")


def keys_file(keys: tuple[str, ...]) -> str:
    """The technicians' authorized keys (OpenSSH's format), or "" for none."""
    if not keys:
        return ""
    unique = list(dict.fromkeys(keys))
    return ("# Written by `tableside provision`: the technicians who may log in over SSH.\n"
            + "\n".join(unique) + "\n")


def devices_rules(names: tuple[DeviceName, ...]) -> str:
    """udev rules naming each device `tableside-<role>` by its USB port or serial number."""
    lines = ["# Written by `tableside provision` from table.toml's [devices.<role>] usb_port",
             "# and usb_serial: each device's stable name (docs/technician.md).\n"]
    for d in names:
        match = (f'ENV{{ID_PATH}}=="*-usb-0:{d.usb_port}:1.0"' if d.usb_port
                 else f'ENV{{ID_SERIAL_SHORT}}=="{d.usb_serial}"')
        lines.append(f'SUBSYSTEM=="tty", {match}, SYMLINK+="tableside-{d.role}", '
                     'GROUP="dialout", MODE="0660"')
    return "\n".join(lines) + "\n"
