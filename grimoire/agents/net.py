"""The learned networks' file format and NumPy forward pass live in the core (``grimoire/core/net.py``),
where the games read their shipped networks too (a game imports no interface); this name stays for
the agents, the training pipeline and the scripts."""

from ..core.net import FORMAT, Network, init, load, masked_softmax, save, weights_hash

__all__ = ["FORMAT", "Network", "init", "load", "masked_softmax", "save", "weights_hash"]
