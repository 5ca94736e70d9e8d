pci:v1

# Ã( bad
