# shellcheck shell=bash
# The Raspberry Pi 5 flavour of image-build/build. Debian 12's kernel does not run the Pi 5
# (BCM2712): it takes Raspberry Pi's kernel, linux-image-rpi-2712, from Raspberry Pi's own
# archive (what Raspberry Pi OS bookworm uses), beside Debian's packages. With that archive
# in the sources apt takes Raspberry Pi's raspi-firmware (its epoch is higher than
# Debian's): its kernel and initramfs hooks copy the kernel to the boot partition as
# kernel_2712.img, the initramfs as initramfs_2712, the device trees (bcm2712-rpi-5-b.dtb,
# bcm2712d0-rpi-5-b.dtb for the D0 stepping) and the overlays; it writes no config.txt, so
# ours is the whole file. pi5-customize does those copies again at the end of the build,
# whatever order dpkg ran the hooks in, and stops the build if one is missing. The Pi 5's
# bootloader is in its EEPROM, not on the card. docs/technician.md, "Raspberry Pi 5".
#
# Sourced by the build, which sets $mirror, $suite, $rpi_archive and $rpi_key first.
flavour_title="Raspberry Pi 5 (Raspberry Pi's kernel and firmware from $rpi_archive)"
image_name=tableside-pi5-arm64.img
rpi_archive="${rpi_archive%/}"
# Raspberry Pi Archive Signing Key (RSA 2048, 2012), as published in Raspberry Pi's pi-gen
# (stage0/00-configure-apt/files/raspberrypi.gpg.key) and rpi-image-gen
# (keydir/raspberrypi-archive-keyring.gpg); the key itself is not shipped here.
rpi_fingerprint=CF8A1AF502A2AA2D763BAE7E82B129927FA3303E
rpi_keyring_path=/usr/share/keyrings/raspberrypi-archive-keyring.gpg
image_sources=("deb $mirror $suite main non-free-firmware"
               "deb [signed-by=$rpi_keyring_path] $rpi_archive $suite main")
sources=()  # set by flavour_check, with the key it verified
packages=(systemd-sysv udev dbus kmod raspi-firmware linux-image-rpi-2712 initramfs-tools
          raspberrypi-archive-keyring
          e2fsprogs dosfstools ca-certificates python3 python3-venv
          libgl1 libegl1 libgl1-mesa-dri libgles2 libmtdev1 libdrm2 libgbm1 libinput10
          systemd-timesyncd systemd-resolved netbase iproute2 fdisk less
          openssh-server sudo
          overlayroot busybox
          xserver-xorg-core x11-xserver-utils)  # both screens on one KMS device: Xorg, xrandr
# What must be in Raspberry Pi's archive, checked before anything is built.
rpi_packages=(linux-image-rpi-2712 raspi-firmware raspberrypi-archive-keyring)
boot_kernel=kernel_2712.img
boot_initramfs=initramfs_2712
boot_dtb=bcm2712-rpi-5-b.dtb
config_txt_mode=write
config_txt='# Tableside: a Raspberry Pi 5, 64-bit, KMS for the dealer'"'"'s and the players'"'"' screens.
# The Pi 5 starts from the bootloader in its EEPROM, which reads this file, loads the
# device tree for the board (bcm2712-rpi-5-b.dtb, or bcm2712d0-rpi-5-b.dtb on a D0 board)
# and then the kernel and initramfs named here (Raspberry Pi'"'"'s raspi-firmware copies them
# from /boot at every kernel install).
[pi5]
kernel=kernel_2712.img
initramfs initramfs_2712 followkernel
[all]
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
disable_overscan=1
enable_uart=1'
flavour_hooks=()  # set by flavour_check
# Besides those config.txt names, the boot partition must hold the official 7" DSI touch
# panel's overlay (Raspberry Pi's kernel ships it; docs/technician.md, "Screens and touch").
required_overlays=(vc4-kms-dsi-7inch)
# Raspberry Pi's kernel knows serial0 (the header's UART): no other console name needed.
serial_console=""

rpi_refuse() {
  say "pi5: $*"
  exit 1
}

# $1 URL, $2 file: apt's own downloader (it honours the machine's apt proxy settings); one
# try, 20 s at most for a silent server. The reason, if it fails, in $2.log.
rpi_fetch() {
  /usr/lib/apt/apt-helper -o Acquire::Retries=0 -o Acquire::http::Timeout=20 \
    -o Acquire::https::Timeout=20 download-file "$1" "$2" >"$2.log" 2>&1 && [ -s "$2" ]
}
rpi_reason() {
  local why
  why="$(sed -n 's/^ \{1,\}//p' "$1" | head -n 1)"
  [ -n "$why" ] || why="$(grep -m 1 '^E:' "$1" | sed 's/^E: //')"
  echo "${why:-no answer}"
}

# Before the tools, the wheels and the 15-20 minutes of the root: Raspberry Pi's archive
# answers, its key is Raspberry Pi's (by fingerprint), it signed the archive's index, and
# the index holds the kernel and firmware packages.
flavour_check() {
  local key fingerprints index ext missing p
  rpi_work="$(mktemp -d)"
  trap 'rm -rf "$rpi_work"' EXIT
  chmod 0755 "$rpi_work"  # apt reads the key as its own user, _apt
  say "pi5: checking Raspberry Pi's archive, $rpi_archive"
  if ! rpi_fetch "$rpi_archive/dists/$suite/InRelease" "$rpi_work/InRelease"; then
    say "pi5: Raspberry Pi's archive cannot be reached: $rpi_archive/dists/$suite/InRelease: $(rpi_reason "$rpi_work/InRelease.log")"
    rpi_refuse "a Raspberry Pi 5 image needs Raspberry Pi's kernel from that archive: build it on a machine that reaches it, or name a mirror of it with --rpi-archive URL (docs/technician.md, \"Raspberry Pi 5\"); nothing was built"
  fi
  key="$rpi_key"
  if [ -z "$key" ] && [ -r "$rpi_keyring_path" ]; then
    key="$rpi_keyring_path"
  fi
  if [ -z "$key" ]; then
    rpi_refuse "no key for Raspberry Pi's archive: give it with --rpi-key FILE (from a Raspberry Pi OS machine's $rpi_keyring_path, or Raspberry Pi's raspberrypi-archive-keyring package; docs/technician.md, \"Raspberry Pi 5\"); it is checked against the fingerprint $rpi_fingerprint"
  fi
  [ -r "$key" ] || rpi_refuse "$key: cannot be read"
  command -v gpg >/dev/null || rpi_refuse "checking the archive's key needs gpg: apt-get install gnupg"
  mkdir -m 0700 "$rpi_work/gnupg"
  if head -c 64 "$key" | grep -q -- '-----BEGIN PGP'; then
    GNUPGHOME="$rpi_work/gnupg" gpg --batch --dearmor <"$key" >"$rpi_work/keyring.gpg" 2>/dev/null \
      || rpi_refuse "$key: not an OpenPGP key"
  else
    cp "$key" "$rpi_work/keyring.gpg"
  fi
  chmod 0644 "$rpi_work/keyring.gpg"
  fingerprints="$(GNUPGHOME="$rpi_work/gnupg" gpg --batch --show-keys --with-colons "$rpi_work/keyring.gpg" 2>/dev/null \
    | awk -F: '$1 == "pub" { want = 1; next } want && $1 == "fpr" { print $10; want = 0 }' | tr '\n' ' ')"
  fingerprints="${fingerprints% }"
  if [ "$fingerprints" != "$rpi_fingerprint" ]; then
    rpi_refuse "$key is not Raspberry Pi's archive key: its fingerprint is ${fingerprints:-unreadable}, Raspberry Pi's is $rpi_fingerprint (and the file must hold that key alone)"
  fi
  if ! gpgv --keyring "$rpi_work/keyring.gpg" "$rpi_work/InRelease" >"$rpi_work/gpgv.log" 2>&1; then
    rpi_refuse "$rpi_archive/dists/$suite/InRelease is not signed by Raspberry Pi's key ($(grep -m 1 -E 'BAD|NO_PUBKEY|no signature|Can.t check' "$rpi_work/gpgv.log" || echo 'gpgv refused it'))"
  fi
  index=""
  for ext in .xz .gz ""; do
    if rpi_fetch "$rpi_archive/dists/$suite/main/binary-arm64/Packages$ext" "$rpi_work/Packages$ext"; then
      case "$ext" in
        .xz) xz -dc "$rpi_work/Packages.xz" >"$rpi_work/index";;
        .gz) gzip -dc "$rpi_work/Packages.gz" >"$rpi_work/index";;
        *) cp "$rpi_work/Packages" "$rpi_work/index";;
      esac
      index="$rpi_work/index"
      break
    fi
  done
  [ -n "$index" ] || rpi_refuse "$rpi_archive has no arm64 package index for $suite main"
  missing=()
  for p in "${rpi_packages[@]}"; do
    grep -qx "Package: $p" "$index" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] || rpi_refuse "$rpi_archive $suite main (arm64) lacks ${missing[*]}"
  say "pi5: Raspberry Pi's archive answers, signed by $rpi_fingerprint, with ${rpi_packages[*]}"
  # mmdebstrap's apt runs on this machine: it reads the key verified here; pi5-customize
  # points the image's sources at the raspberrypi-archive-keyring package's copy.
  sources=("deb $mirror $suite main non-free-firmware"
           "deb [signed-by=$rpi_work/keyring.gpg] $rpi_archive $suite main")
  flavour_hooks=("--customize-hook=\"$here/flavours/pi5-customize\" \"\$1\" \"$rpi_work/keyring.gpg\"")
}
