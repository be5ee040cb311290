"""Certificate steps written from typed proof objects: one module per rule family.

Each module writes the steps of one family of docs/certificates.md §6 and is the
only place that knows their JSON; the checker reads them back in its rule module
of the same family.
"""
