"""The rules assistant: reads the table as a particular game, checks moves, runs procedures. No Qt."""
