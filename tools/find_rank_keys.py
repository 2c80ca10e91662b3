"""Search the 13 rank keys of the 7-card evaluator (run once; the result is pasted into
vecgames/poker/seven_card_tables.py, whose test re-checks the uniqueness property).

Greedy: for rank r = 0..12 take the smallest key above the previous one such that every
multiset of ranks 0..r with at most 4 of a rank and at most 7 cards has a distinct key sum.
"""

import numpy as np
from numba import njit


@njit(cache=False)
def _extend(sums, sizes, key, seen):
    # True when adding 0..4 copies of `key` to every multiset keeps all sums distinct.
    n = sums.shape[0]
    ok = True
    marked = 0
    for i in range(n):
        for c in range(5):
            if sizes[i] + c > 7:
                break
            s = sums[i] + c * key
            if seen[s]:
                ok = False
                break
            seen[s] = True
            marked += 1
        if not ok:
            break
    # undo marks
    for i in range(n):
        for c in range(5):
            if sizes[i] + c > 7:
                break
            s = sums[i] + c * key
            seen[s] = False
    return ok


def main():
    sums = np.zeros(1, np.int64)
    sizes = np.zeros(1, np.int64)
    keys = []
    seen = np.zeros(1 << 27, np.bool_)
    key = 0
    for _ in range(13):
        key += 1
        while not _extend(sums, sizes, key, seen):
            key += 1
        keys.append(key)
        new_s, new_z = [], []
        for c in range(5):
            m = sizes + c <= 7
            new_s.append(sums[m] + c * key)
            new_z.append(sizes[m] + c)
        sums, sizes = np.concatenate(new_s), np.concatenate(new_z)
        print(len(keys), key, len(sums), int(sums.max()))
    print(keys)


if __name__ == "__main__":
    main()
