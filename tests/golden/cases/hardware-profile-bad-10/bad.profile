pci:v1 ID_X=
