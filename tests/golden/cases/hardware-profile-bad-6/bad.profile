# ok
pci:v1
pci:v2 DEVNAME=../etc/passwd
