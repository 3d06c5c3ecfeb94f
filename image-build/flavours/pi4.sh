# shellcheck shell=bash
# The Raspberry Pi 4 flavour of image-build/build: Debian 12's own kernel (linux-image-arm64)
# and Debian's raspi-firmware, which copies the kernel, its initramfs and the device trees
# to the boot partition and writes config.txt naming them (kernel=vmlinuz-<version>,
# initramfs initrd.img-<version>); ours is appended to it. Sourced by the build, which sets
# $mirror and $suite first; sets what the build and `image-build/build --print-plan` use.
flavour_title="Raspberry Pi 4 (Debian 12's kernel and firmware)"
image_name=tableside-pi4-arm64.img
image_sources=("deb $mirror $suite main non-free-firmware")
sources=("${image_sources[@]}")  # what mmdebstrap gets: the same
# shellcheck source=image-build/flavours/table-packages
source "$here/flavours/table-packages"
packages=(systemd-sysv udev dbus kmod raspi-firmware linux-image-arm64 initramfs-tools
          "${table_packages[@]}")
# The boot partition's files that start the Pi (raspi-firmware's names).
boot_kernel="vmlinuz-<version>"
boot_initramfs="initrd.img-<version>"
boot_dtb=bcm2711-rpi-4-b.dtb
# Debian's raspi-firmware writes config.txt: ours goes after it.
config_txt_mode=append
# No dtoverlay line: Debian's kernel is the mainline one, whose Pi 4 device tree
# (bcm2711-rpi-4-b.dtb) has the KMS display pipeline (vc4, both HDMI ports) in it already,
# and Debian ships none of Raspberry Pi's overlays; a line naming one the card lacks is
# refused by the build (image-build/check-overlays). The official 7" DSI touch panel needs
# Raspberry Pi's kernel and its overlays: the pi4-rpi flavour (docs/technician.md, "Screens
# and touch").
config_txt='
# Tableside: a Raspberry Pi 4, 64-bit, KMS for the dealer'"'"'s and the players'"'"' screens.
arm_64bit=1
max_framebuffers=2
disable_overscan=1
enable_uart=1'
# The header's UART (GPIO 14 and 15, the mini UART while Bluetooth has the other) is ttyS1
# under Debian's kernel (the mainline device tree's serial1): a console there too, beside
# cmdline.txt's serial0 (Raspberry Pi's name).
serial_console="console=ttyS1,115200"
# Overlays the boot partition must hold besides those config.txt names: none.
required_overlays=()
# Debian's arm64 kernel: 4 KB memory pages.
page_size=4096
# Nothing to check before the build, nothing more for mmdebstrap.
flavour_hooks=()
flavour_check() { :; }
