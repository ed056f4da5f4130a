"""Learned levels: the training pipeline (Expert Iteration over the game's observation tensor and
action ids) behind ``grimoire train``. Inference lives in ``grimoire.agents`` (``net``, ``expert``)
and needs only NumPy; training uses NumPy, or PyTorch with the ``train`` extra."""

from .pipeline import TrainConfig, run

__all__ = ["TrainConfig", "run"]
