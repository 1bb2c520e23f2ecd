"""The two small networks of the dice reader (PyTorch, for training only; the app runs
their ONNX export through OpenCV's DNN module).

Why two: a die is 13 to 60 pixels across at the detector's 320-pixel input, which is enough
to find it but not to count its pips (a pip there is one or two pixels).  So a detector
finds dice on the shrunk photo, and a face classifier reads each one from a crop of the
full-size photo.  Both are plain 3x3 convolutions, batch norm and ReLU, which train fast on
one CPU core, export to ONNX operators cv2.dnn runs, and stay far under 15 MB.
"""

from __future__ import annotations

import torch
from torch import nn


def _conv(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)
    )


class Detector(nn.Module):
    """CenterNet-style: at stride 4, a heat map of die centres (sigmoid), the box's width
    and height (over 32 input pixels) and the centre's offset within its cell."""

    def __init__(self, w: int = 16) -> None:
        super().__init__()
        self.s2 = nn.Sequential(_conv(3, w // 2, 2))  # 160
        self.s4 = nn.Sequential(_conv(w // 2, w, 2), _conv(w, w))  # 80
        self.s8 = nn.Sequential(_conv(w, 2 * w, 2), _conv(2 * w, 2 * w))  # 40
        self.s16 = nn.Sequential(_conv(2 * w, 4 * w, 2), _conv(4 * w, 4 * w))  # 20
        self.s32 = nn.Sequential(_conv(4 * w, 4 * w, 2), _conv(4 * w, 4 * w))  # 10
        self.l16 = _conv(4 * w, 2 * w, k=1)
        self.l8 = _conv(2 * w, 2 * w, k=1)
        self.l4 = _conv(w, 2 * w, k=1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.m8 = _conv(2 * w, 2 * w)
        self.m4 = _conv(2 * w, 2 * w)
        self.heat = nn.Conv2d(2 * w, 1, 1)
        self.box = nn.Conv2d(2 * w, 4, 1)
        nn.init.constant_(self.heat.bias, -2.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p16 = self.l16(f16 + self.up(f32))
        p8 = self.m8(self.l8(f8) + self.up(p16))
        p4 = self.m4(self.l4(f4) + self.up(p8))
        return torch.cat([torch.sigmoid(self.heat(p4)), self.box(p4)], 1)


FACE_CLASSES = 7  # faces 1 to 6, then "not a die" (a detector's false find)


class FaceNet(nn.Module):
    """A die's crop (48x48) to seven scores: faces 1-6 and "not a die".  Ends in a 1x1
    convolution and a global average, so the ONNX graph takes any batch size."""

    def __init__(self, w: int = 16) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _conv(3, w), nn.MaxPool2d(2),  # 24
            _conv(w, 2 * w), _conv(2 * w, 2 * w), nn.MaxPool2d(2),  # 12
            _conv(2 * w, 4 * w), _conv(4 * w, 4 * w), nn.MaxPool2d(2),  # 6
            _conv(4 * w, 4 * w),
            nn.Conv2d(4 * w, FACE_CLASSES, 1),
            nn.AdaptiveAvgPool2d(1),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)
