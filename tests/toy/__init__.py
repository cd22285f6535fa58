"""Race: a small dice game written on the generic rules layer, the worked example of
docs/modules.md. Its rules, by section:

- R1 Each player has ``cubes`` cubes (3; the quick variant 2) on the start of the track.
  Players take turns in seating order.
- R2 A player's cubes never leave the track.
- R3 A space between the start and home holds at most ``crowd`` cubes (2); the crowded
  variant plays without this rule.
- R4 A turn begins with a roll of the die.
- R5 The player then shares the pips among their cubes, each moving forward at most the
  spaces it has left to home; a cube that would end on a full space (R3) stops on the
  nearest space behind it with room. Or the player moves one cube by hand, exactly the
  pips forward (home when fewer spaces are left), and ends the turn.
- R6 The first player with every cube home wins; the game ends there.
"""
