"""One package per game, and the catalogue of them (``catalog``).

``vecgames.games()`` lists them (``vecgames.list_games``): the top-level package makes this
package callable (``vecgames.api``), so the games themselves import nothing above them.
"""
