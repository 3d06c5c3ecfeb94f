# shellcheck shell=bash
# The Raspberry Pi 5 flavour of image-build/build. Debian 12's kernel does not run the Pi 5
# (BCM2712): it takes Raspberry Pi's kernel, linux-image-rpi-2712, from Raspberry Pi's own
# archive beside Debian's packages (image-build/flavours/raspberrypi-archive). Raspberry Pi's
# raspi-firmware copies the kernel to the boot partition as kernel_2712.img, the initramfs
# as initramfs_2712, the device trees (bcm2712-rpi-5-b.dtb, bcm2712d0-rpi-5-b.dtb for the
# D0 stepping) and the overlays; rpi-customize does those copies again at the end of the
# build, whatever order dpkg ran the hooks in, and stops the build if one is missing. The
# Pi 5's bootloader is in its EEPROM, not on the card. docs/technician.md, "Raspberry Pi's
# kernel".
#
# Sourced by the build, which sets $flavour, $mirror, $suite, $rpi_archive and $rpi_key first.
flavour_title="Raspberry Pi 5 (Raspberry Pi's kernel and firmware from ${rpi_archive%/})"
image_name=tableside-pi5-arm64.img
rpi_kernel=2712
# shellcheck source=image-build/flavours/raspberrypi-archive
source "$here/flavours/raspberrypi-archive"
boot_kernel=kernel_2712.img
boot_initramfs=initramfs_2712
boot_dtb=bcm2712-rpi-5-b.dtb
config_txt='# Tableside: a Raspberry Pi 5, 64-bit, KMS for the dealer'"'"'s and the players'"'"' screens.
# The Pi 5 starts from the bootloader in its EEPROM, which reads this file, loads the
# device tree for the board (bcm2712-rpi-5-b.dtb, or bcm2712d0-rpi-5-b.dtb on a D0 board)
# and then the kernel and initramfs named here (Raspberry Pi'"'"'s raspi-firmware copies them
# from /boot at every kernel install).
[pi5]
kernel=kernel_2712.img
initramfs initramfs_2712 followkernel
# the header'"'"'s UART (GPIO 14 and 15) on, beside the 3-pin debug connector'"'"'s
dtparam=uart0=on
'"$rpi_config_all"
# Besides those config.txt names, the boot partition must hold the official 7" DSI touch
# panel's overlay, which display_auto_detect loads (docs/technician.md, "Screens and touch").
required_overlays=(vc4-kms-v3d-pi5 vc4-kms-dsi-7inch)
# Raspberry Pi's 2712 kernel: 16 KB memory pages, so every program and
# library on the card must be aligned to them (image-build/check-pages).
page_size=16384
# On the Pi 5, serial0 is the UART of the 3-pin debug connector (ttyAMA10), not the header's:
# the banner and a login prompt on the header's too (uart0, ttyAMA0), as on the Pi 4.
serial_console="console=ttyAMA0,115200"
