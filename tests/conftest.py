import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The toy game of tests/toy is game code outside rules_assist (docs/modules.md).
os.environ.setdefault("TABLETOP_GAME_PACKAGES", "tests")
# Rendered faces are kept between runs in the user's cache folder (tabletop/ui/face_store.py):
# the suite, and every program it starts, keeps them in a folder of its own, removed at its end.
_CACHE = tempfile.mkdtemp(prefix="tabletop-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)
