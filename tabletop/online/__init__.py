"""Live games across machines on Redis Streams: the referee (referee.py), a seat's client
(client.py), the keys, users and messages (streams.py), a Redis launcher (server.py)."""
