"""Looot (Chevallier and Escoffier, Gigamic 2024; German edition "Neuland"), on the generic
rules layer. Rules are cited by their line of the German rule text (``DE:20``) and by the
module's rule ids (``LO-R1`` .. ``LO-R23``); the module's README lists them."""
