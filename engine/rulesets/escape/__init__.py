"""ESCAPE, 1 vs 1: I.S.C. against the Resistance in L.A.B. 03 (being written)."""
