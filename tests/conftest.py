import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The toy game of tests/toy is game code outside rules_assist (docs/modules.md).
os.environ.setdefault("TABLETOP_GAME_PACKAGES", "tests")
