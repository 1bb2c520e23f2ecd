"""Ordinary dice read by the camera (issue 28): `reader.DiceReader` finds each d6 in a
photo and reads its top face with two small ONNX models in `models/`, run by OpenCV's DNN
module; `prep` holds the pixels the models see, shared with `training/dice/`."""
