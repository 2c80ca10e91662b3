"""Interactive games: a person against the computer (``vecgames play GAME``)."""
