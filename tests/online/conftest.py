"""A real Redis for the online tests: redis-server started on a free loopback port in the
test's temporary folder (tabletop/online/server.py), stopped after the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.online.server import RedisCluster, RedisServer, redis_server_binary


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def module_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis for the tests of a module that share a game played once."""
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def module_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """A Redis Cluster of three nodes (masters, no replicas) for the tests of a module."""
    if redis_server_binary() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    cluster = RedisCluster(tmp_path_factory.mktemp("cluster"), masters=3).start()
    try:
        yield cluster
    finally:
        cluster.stop()
