"""shade.nn: PyTorch's layers over shade arrays (torch.nn names), and shade.nn.functional.

Parameters are shade arrays with requires_grad set; ``module(x)`` records the forward for
``backward()``. ``state_dict()`` is a dict of arrays and ``save(path)`` writes it as .npz.
"""
import sys as _sys

from ._shade import _nn

functional = _nn.functional
# `import shade.nn.functional as F` finds the bound submodule here.
_sys.modules[__name__ + ".functional"] = functional

Module = _nn.Module
Linear = _nn.Linear
Conv2d = _nn.Conv2d
BatchNorm2d = _nn.BatchNorm2d
ReLU = _nn.ReLU
MaxPool2d = _nn.MaxPool2d
Flatten = _nn.Flatten
Dropout = _nn.Dropout
Sequential = _nn.Sequential
manual_seed = _nn.manual_seed

__all__ = ["functional", "Module", "Linear", "Conv2d", "BatchNorm2d", "ReLU", "MaxPool2d",
           "Flatten", "Dropout", "Sequential", "manual_seed"]
