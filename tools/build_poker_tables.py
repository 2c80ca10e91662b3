"""Write vecgames/poker/data/seven_card_tables.npz from ``build_tables()``."""

import numpy as np

from vecgames.poker.seven_card_build import DATA_FILE, build_tables

if __name__ == "__main__":
    tables = build_tables()
    DATA_FILE.parent.mkdir(exist_ok=True)
    np.savez_compressed(DATA_FILE, **tables)
    print(DATA_FILE, {k: v.shape for k, v in tables.items()})
