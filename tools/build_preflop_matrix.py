"""Compute the exact 169 x 169 heads-up preflop matrix and write
vecgames/poker/data/preflop_headsup.npz (about two minutes on 2 cores)."""

import time

import numpy as np

from vecgames.poker.preflop import MATRIX_FILE, compute_preflop_matrix

if __name__ == "__main__":
    start = time.perf_counter()
    counts = compute_preflop_matrix()
    elapsed = time.perf_counter() - start
    np.savez_compressed(MATRIX_FILE, **counts)
    print(f"{MATRIX_FILE}: {elapsed:.1f} s")
