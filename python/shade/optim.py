"""shade.optim: SGD, Adam and AdamW with PyTorch 1.13's update rules (torch.optim names).

``step()`` reads each parameter's ``.grad``; ``zero_grad(set_to_none=False)`` clears them;
``state_dict()`` / ``load_state_dict()`` hold the moments, step counts and hyperparameters.
"""
from ._shade import _optim

Optimizer = _optim.Optimizer
SGD = _optim.SGD
Adam = _optim.Adam
AdamW = _optim.AdamW

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]
