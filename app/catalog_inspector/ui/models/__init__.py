"""Item models over core data: lazy, diffed, plain text only."""
