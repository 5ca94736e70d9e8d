pci:v1 MAJOR=4
