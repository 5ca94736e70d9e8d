pci:v1 X=ab
