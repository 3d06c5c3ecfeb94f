# shellcheck shell=bash
# The Raspberry Pi 4 flavour with Raspberry Pi's kernel, for the official 7" DSI touch panel.
# Debian 12's kernel (6.1, the pi4 flavour) has the panel's display drivers but not what
# the panel needs on a Pi 4: its touch controller has no interrupt line, which Debian's
# touch driver requires where Raspberry Pi's polls, and Debian's device tree takes no
# overlay (no __symbols__), where Raspberry Pi's has the overlays that describe the panel. This
# flavour takes Raspberry Pi's 64-bit kernel for the Pi 3 and 4, linux-image-rpi-v8, from
# Raspberry Pi's archive beside Debian's packages (image-build/flavours/raspberrypi-archive).
# Raspberry Pi's raspi-firmware copies the Pi 4's firmware (start4.elf, fixup4.dat), the
# kernel as kernel8.img, the initramfs as initramfs8, the device trees and the overlays to
# the boot partition; rpi-customize does it again at the end of the build and stops it if
# one is missing. The firmware loads the panel's overlay itself when a panel is connected
# (display_auto_detect), so the same card runs a table with two HDMI screens or with the
# panel and one HDMI screen. docs/technician.md, "Raspberry Pi's kernel".
#
# Sourced by the build, which sets $flavour, $mirror, $suite, $rpi_archive and $rpi_key first.
flavour_title="Raspberry Pi 4 with the DSI touch panel (Raspberry Pi's kernel and firmware from ${rpi_archive%/})"
image_name=tableside-pi4-rpi-arm64.img
rpi_kernel=v8
# shellcheck source=image-build/flavours/raspberrypi-archive
source "$here/flavours/raspberrypi-archive"
boot_kernel=kernel8.img
boot_initramfs=initramfs8
boot_dtb=bcm2711-rpi-4-b.dtb
config_txt='# Tableside: a Raspberry Pi 4, 64-bit, with Raspberry Pi'"'"'s kernel: KMS for the dealer'"'"'s
# and the players'"'"' screens, and the official 7" DSI touch panel when one is connected.
# The Pi 4 loads start4.elf, which reads this file, loads the device tree for the board
# (bcm2711-rpi-4-b.dtb) and then the kernel and initramfs named here (Raspberry Pi'"'"'s
# raspi-firmware copies them from /boot at every kernel install).
[pi4]
kernel=kernel8.img
initramfs initramfs8 followkernel
arm_64bit=1
'"$rpi_config_all"
# Besides those config.txt names: the Pi 4's form of vc4-kms-v3d (the firmware picks it
# through overlays/overlay_map.dtb) and the 7" panel's, which display_auto_detect loads.
required_overlays=(vc4-kms-v3d-pi4 vc4-kms-dsi-7inch)
# Raspberry Pi's v8 kernel: 4 KB memory pages.
page_size=4096
