import pytest

from tabletop.modules import find_module


@pytest.fixture(scope="session")
def greenland():
    return find_module("greenland")
