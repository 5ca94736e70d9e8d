# unitguard hardware profile: one device per line,
#   MODALIAS [KEY=VALUE]...     or     - [KEY=VALUE]...  (no modalias)
# A laptop: Intel CPU, Intel graphics, a USB Bluetooth controller, a
# touchpad, no serial port and no NVIDIA GPU.
cpu:type:x86,ven0000fam0006mod008C:feature:,0000,0001 SUBSYSTEM=cpu DRIVER=processor
pci:v00008086d00009A49sv00001028sd00000A38bc03sc00i00 SUBSYSTEM=pci DRIVER=i915
usb:v8087p0026d0002dcE0dsc01dp01icE0isc01ip01in00 SUBSYSTEM=usb DRIVER=btusb
- SUBSYSTEM=bluetooth DEVPATH=/devices/pci0000:00/0000:00:14.0/usb3/3-10/3-10:1.0/bluetooth/hci0
- SUBSYSTEM=input DEVNAME=input/event5 MAJOR=13 MINOR=69 ID_INPUT=1 ID_INPUT_TOUCHPAD=1
- SUBSYSTEM=block DEVNAME=nvme0n1 MAJOR=259 MINOR=0 DEVLINK=/dev/disk/by-label/data
