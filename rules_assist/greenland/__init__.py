"""Greenland (Phil Eklund): the module's game code. No Qt.

deck.py     the deck's rows in Greenland's terms, the abilities vocabulary, the deck check
setup.py    section C: every variant's setup, and positions for rules questions
reading.py  the table read as Greenland: rows, cultures, elders, colonists, husbands
position.py positions ("suppose the table looks like this") read from TOML
card_view.py how a card's face shows its data
"""
