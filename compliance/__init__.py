"""compliance: stake-threshold compliance checker for Chinese card and mahjong game logs."""

__version__ = "0.1.0"
