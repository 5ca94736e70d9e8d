pci:v1
pci:v2 DEVLINK=disk/by-label/x
