"""Exact equilibrium solving of small two-player games (docs/liars_dice_solver.md)."""
