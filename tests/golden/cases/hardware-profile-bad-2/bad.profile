pci:v1 subsystem=pci
