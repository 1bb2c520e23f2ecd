"""Train the dice reader's two networks on synthetic photographs, on one CPU core, and
export them to ONNX for OpenCV's DNN module (issue 28).

    python -m training.dice.synth --out data/dice-synth --count 2000 --seed 1 --jobs 1
    OMP_NUM_THREADS=1 nice -n 19 python -m training.dice.train detector --data data/dice-synth
    OMP_NUM_THREADS=1 nice -n 19 python -m training.dice.train faces --data data/dice-synth

Each writes `vision/dice/models/dice_<part>.onnx` and beside it `dice_<part>.json`: the
command, data seed and count, seed, epochs, losses, validation figures and (faces) the
confidence under which a die is "unsure".  Every tenth image (index 9, 19, ...) is kept for
validation.  Needs the `train` extra (torch 2.13.0 CPU, onnx): `pip install -e '.[train]'`.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from training.dice.evaluate import THRESHOLDS, iou
from training.dice.finds import finds_crops
from training.dice.labels import is_val as _is_val
from training.dice.labels import load_labels
from training.dice.model import FACE_CLASSES, Detector, FaceNet
from training.dice.realset import is_table
from vision.dice.prep import (
    CROP_SIZE,
    DET_SIZE,
    DET_STRIDE,
    crop,
    crop_box,
    dihedral,
    letterbox,
    to_blob,
)
from vision.dice.reader import DiceReader

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "vision" / "dice" / "models"
BOX_UNIT = 32.0  # the detector's width/height outputs are in units of 32 input pixels
NOT_A_DIE = FACE_CLASSES - 1


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# -- detector ------------------------------------------------------------------------------


def _dihedral(img: np.ndarray, boxes: np.ndarray, nw: int, nh: int, k: int) -> tuple:
    """One of the 8 flips/turns of the photo's part of the square (top-left nw x nh)."""
    part = img[:nh, :nw]
    b = boxes.copy()
    if k & 1:  # mirror left-right
        part = part[:, ::-1]
        b[:, [0, 2]] = nw - b[:, [2, 0]]
    if k & 2:  # mirror top-bottom
        part = part[::-1]
        b[:, [1, 3]] = nh - b[:, [3, 1]]
    if k & 4:  # transpose
        part = part.transpose(1, 0, 2)
        b = b[:, [1, 0, 3, 2]]
        nw, nh = nh, nw
    out = np.full_like(img, img[-1, -1])
    out[:nh, :nw] = part
    return out, b


def det_targets(
    boxes: np.ndarray, size: int = DET_SIZE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat map (1, S, S), box targets (4, S, S) and where they count (S, S)."""
    s = size // DET_STRIDE
    heat = np.zeros((s, s), np.float32)
    reg = np.zeros((4, s, s), np.float32)
    mask = np.zeros((s, s), np.float32)
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / DET_STRIDE, (y0 + y1) / 2 / DET_STRIDE
        ix, iy = min(s - 1, int(cx)), min(s - 1, int(cy))
        sigma = max(0.7, 0.12 * min(x1 - x0, y1 - y0) / DET_STRIDE)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        np.maximum(heat, g, out=heat)
        reg[:, iy, ix] = ((x1 - x0) / BOX_UNIT, (y1 - y0) / BOX_UNIT, cx - ix, cy - iy)
        mask[iy, ix] = 1.0
    return heat[None], reg, mask


def det_loss(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, mask: torch.Tensor):
    p = out[:, :1].clamp(1e-4, 1 - 1e-4)
    pos = (heat == 1).float()
    n = pos.sum().clamp(min=1)
    focal = (
        -(
            pos * (1 - p) ** 2 * torch.log(p)
            + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p)
        ).sum()
        / n
    )
    m = mask[:, None]
    box = (F.l1_loss(out[:, 1:], reg, reduction="none") * m).sum() / n
    return focal + box, focal.item(), box.item()


def decode(out: np.ndarray, heat_min: float, top: int = 100) -> list[tuple[float, ...]]:
    """(score, x0, y0, x1, y1) in the square's pixels from one detector output (5, S, S).
    The same decoding as vision/dice/reader.py, kept here so training has no app import."""
    heat = out[0]
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= heat_min)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:top]
    found = []
    for y, x in zip(ys[order], xs[order], strict=True):
        w, h = out[1, y, x] * BOX_UNIT, out[2, y, x] * BOX_UNIT
        cx, cy = (x + out[3, y, x]) * DET_STRIDE, (y + out[4, y, x]) * DET_STRIDE
        found.append((float(heat[y, x]), cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return found


def match(found: Sequence[Sequence[float]], truth: Sequence[Sequence[float]], thr: float = 0.5):
    """Greedy one-to-one matching by IoU, best finds first: list of (found_i, truth_i)."""
    pairs, used = [], set()
    for i, f in enumerate(found):
        best, bj = thr, -1
        for j, t in enumerate(truth):
            if j not in used and (v := iou(f, t)) >= best:
                best, bj = v, j
        if bj >= 0:
            used.add(bj)
            pairs.append((i, bj))
    return pairs


def composite(
    crops: list[tuple[np.ndarray, list[float]]],
    rng: np.random.Generator,
    ground: np.ndarray | None = None,
    taken: Sequence[Sequence[float]] = (),
) -> tuple[np.ndarray, list[list[float]]]:
    """Real dice laid on a table: 1 to 6 crops (each with its own bit of ground round the
    die), scaled so the die is 4% to 14% of the table's short side, on a plain table the
    colour of a crop's edge with a soft gradient and grain, or on `ground` (a rendered photo)
    where they miss the boxes `taken`.  Returns the photo and the dice's boxes."""
    if ground is None:
        w, h = [(640, 480), (960, 720), (1280, 720), (720, 960)][int(rng.integers(4))]
        first = crops[int(rng.integers(len(crops)))][0]
        edge = np.concatenate([first[0], first[-1], first[:, 0], first[:, -1]])
        colour = np.median(edge, axis=0).astype(np.float32)
        ramp = np.linspace(rng.uniform(0.8, 1.0), rng.uniform(1.0, 1.2), w, dtype=np.float32)
        img = colour[None, None] * ramp[None, :, None] * np.ones((h, 1, 1), np.float32)
        img += rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
        img = np.clip(img, 0, 255).astype(np.uint8)
    else:
        img = ground.copy()
        h, w = img.shape[:2]
    boxes: list[list[float]] = []
    busy = [list(b) for b in taken]
    for _ in range(int(rng.integers(1, 7))):
        crop_img, box = crops[int(rng.integers(len(crops)))]
        side = max(box[2] - box[0], box[3] - box[1])
        k = rng.uniform(0.04, 0.14) * min(h, w) / side
        ch, cw = crop_img.shape[:2]
        nw, nh = max(4, round(cw * k)), max(4, round(ch * k))
        if nw >= w or nh >= h:
            continue
        x, y = int(rng.integers(0, w - nw)), int(rng.integers(0, h - nh))
        b = [x + box[0] * nw / cw, y + box[1] * nh / ch, x + box[2] * nw / cw, y + box[3] * nh / ch]
        patch = [x, y, x + nw, y + nh]
        if any(iou(patch, o) > 0 or _inside(o, patch) for o in busy):
            continue
        img[y : y + nh, x : x + nw] = cv2.resize(crop_img, (nw, nh), interpolation=cv2.INTER_AREA)
        busy.append(patch)
        boxes.append(b)
    return img, boxes


def _inside(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def load_onnx_detector(net: Detector, path: Path) -> None:
    """Start from an exported detector (its batch norms folded into its convolutions): the
    convolutions in the order the network runs them, each batch norm the identity."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    blocks = [net.s2[0], net.s4[0], net.s4[1], net.s8[0], net.s8[1], net.s16[0], net.s16[1],
              net.s32[0], net.s32[1], net.l16, net.l8, net.m8, net.l4, net.m4]  # fmt: skip
    assert len(convs) == len(blocks) + 2, "another network"
    with torch.no_grad():
        for node, block in zip(convs, blocks, strict=False):
            conv, bn = block[0], block[1]
            w = weights[node.input[1]]
            assert tuple(conv.weight.shape) == w.shape, (node.name, w.shape)
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for node, head in zip(convs[-2:], (net.heat, net.box), strict=True):
            head.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            head.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))


def train_detector(a: argparse.Namespace) -> dict:
    rows = load_labels(a.data, a.limit)
    _log(f"{len(rows)} images; letterboxing")
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)
    real_train = real_rows(a.real, "train") if a.real else []
    tables = [r for r in real_train if is_table(r)]  # whole tables' photos, as they are
    extra = (a.real_scenes + len(tables)) if a.real else 0
    imgs = np.zeros((len(rows) + extra, DET_SIZE, DET_SIZE, 3), np.uint8)
    boxes, sizes = [], []
    for i, row in enumerate(rows):
        img = cv2.imread(row["path"])
        imgs[i], scale = letterbox(img)
        b = np.array([d["box"] for d in row["dice"]], np.float32).reshape(-1, 4) * scale
        boxes.append(b)
        sizes.append((round(row["width"] * scale), round(row["height"] * scale)))
    val = [i for i, r in enumerate(rows) if _is_val(r)]
    train = [i for i, r in enumerate(rows) if not _is_val(r)]
    if extra:
        real = [(cv2.imread(str(a.real / r["image"])), r["dice"][0]["box"])
                for r in real_train if not is_table(r)]  # fmt: skip
        rendered = list(train)
        for k in range(a.real_scenes):
            i = len(rows) + k
            if k % 2:  # on a rendered training photo, clear of its dice
                row = rows[rendered[int(rng.integers(len(rendered)))]]
                ground = cv2.imread(row["path"])
                img, bx = composite(real, rng, ground, [d["box"] for d in row["dice"]])
                bx = [d["box"] for d in row["dice"]] + bx
            else:  # on a plain table, as the evaluation set lays its close-ups
                img, bx = composite(real, rng)
            imgs[i], scale = letterbox(img)
            boxes.append(np.array(bx, np.float32).reshape(-1, 4) * scale)
            sizes.append((round(img.shape[1] * scale), round(img.shape[0] * scale)))
            train.append(i)
        for k, r in enumerate(tables):  # each kept once, drawn `real_tables` times an epoch
            i = len(rows) + a.real_scenes + k
            img = cv2.imread(str(a.real / r["image"]))
            imgs[i], scale = letterbox(img)
            boxes.append(np.array([d["box"] for d in r["dice"]], np.float32).reshape(-1, 4) * scale)
            sizes.append((round(img.shape[1] * scale), round(img.shape[0] * scale)))
            train.extend([i] * a.real_tables)
        _log(f"{a.real_scenes} photos of real dice laid on tables, {len(tables)} photos of "
             f"real tables {a.real_tables} times each")  # fmt: skip
    net = Detector()
    if a.init:
        load_onnx_detector(net, a.init)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * math.ceil(len(train) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, a.lr, total_steps=steps, pct_start=0.1)
    history = []
    for epoch in range(a.stop_after or a.epochs):
        net.train()
        if a.init:
            _freeze_bn(net)
        order = rng.permutation(train)
        tot = [0.0, 0.0, 0]
        t0 = time.time()
        for start in range(0, len(order), a.batch):
            idx = order[start : start + a.batch]
            xb, hb, rb, mb = [], [], [], []
            for i in idx:
                nw, nh = sizes[i]
                img, b = _dihedral(imgs[i], boxes[i], nw, nh, int(rng.integers(8)))
                img = img.astype(np.float32)
                img = (img - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-30, 30)
                img *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
                xb.append(np.clip(img, 0, 255))
                h, r, m = det_targets(b)
                hb.append(h), rb.append(r), mb.append(m)
            x = torch.from_numpy(to_blob(np.stack(xb)))
            out = net(x)
            loss, lf, lb = det_loss(
                out, torch.from_numpy(np.stack(hb)), torch.from_numpy(np.stack(rb)),
                torch.from_numpy(np.stack(mb)),
            )  # fmt: skip
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot[0] += lf
            tot[1] += lb
            tot[2] += 1
        rec = {"epoch": epoch + 1, "heat_loss": tot[0] / tot[2], "box_loss": tot[1] / tot[2]}
        rec.update(eval_detector(net, imgs, boxes, val, a.heat))
        if len(a.data) > 1:  # a mixed set: each look's recall and precision on its own
            for folder in a.data:
                part = [i for i in val if Path(rows[i]["path"]).is_relative_to(folder)]
                rec[str(folder)] = eval_detector(net, imgs, boxes, part, a.heat)
        rec["seconds"] = round(time.time() - t0)
        history.append(rec)
        _log(json.dumps(rec))
        # Each epoch's network is written, so a run stopped early still leaves one to try.
        export(net, torch.zeros(1, 3, DET_SIZE, DET_SIZE), a.out / "dice_detector.onnx", False)
    return {
        "images": len(train), "validation_images": len(val), "history": history,
        "real_scenes": a.real_scenes if a.real else 0,
        "real_tables": [len(tables), a.real_tables] if tables else None, "started_from": str(a.init) if a.init else None,
        "heat_threshold": a.heat, "input": DET_SIZE, "stride": DET_STRIDE, "box_unit": BOX_UNIT,
    }  # fmt: skip


@torch.no_grad()
def eval_detector(
    net: Detector, imgs: np.ndarray, boxes: list, val: list[int], heat: float
) -> dict:
    net.eval()
    tp = nf = nt = 0
    for s in range(0, len(val), 32):
        idx = val[s : s + 32]
        out = net(torch.from_numpy(to_blob(imgs[idx]))).numpy()
        for o, i in zip(out, idx, strict=True):
            found = [f[1:] for f in decode(o, heat)]
            tp += len(match(found, boxes[i].tolist()))
            nf += len(found)
            nt += len(boxes[i])
    return {"val_recall": round(tp / max(1, nt), 4), "val_precision": round(tp / max(1, nf), 4)}


# -- faces ---------------------------------------------------------------------------------


def face_crops(
    rows: list[dict], data: Path, rng: np.random.Generator, per_die: int, negatives: int
):
    """Crops of each die with its box shifted and scaled a little (a detector's box is never
    exact), and crops of the table where no die is (class "not a die")."""
    xs, ys = [], []
    for row in rows:
        img = cv2.imread(row.get("path") or str(data / row["image"]))
        h, w = img.shape[:2]
        bxs = [d["box"] for d in row["dice"]]
        for d in row["dice"]:
            cx, cy, side = crop_box(d["box"])
            for _ in range(per_die):
                j = side / CROP_MARGIN_
                xs.append(
                    crop(
                        img, cx + rng.normal(0, 0.08) * j, cy + rng.normal(0, 0.08) * j,
                        side * math.exp(rng.normal(0, 0.12)),
                    )
                )  # fmt: skip
                ys.append(d["face"] - 1)
        sides = [crop_box(b)[2] for b in bxs] or [60.0]
        for _ in range(negatives):
            side = float(rng.choice(sides)) * rng.uniform(0.8, 1.3)
            side = min(side, min(w, h) - 1.0)  # a close-up's die: the crop no wider than the photo
            cx, cy = rng.uniform(side / 2, w - side / 2), rng.uniform(side / 2, h - side / 2)
            sq = (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)
            # A crop that holds most of a die is no negative; one with a sliver of die is.
            if any(iou(sq, b) > 0.15 for b in bxs):
                continue
            xs.append(crop(img, cx, cy, side))
            ys.append(NOT_A_DIE)
    return np.stack(xs), np.array(ys, np.int64)


CROP_MARGIN_ = 1.2


def _augment_crops(x: np.ndarray, rng: np.random.Generator, grey: float = 0.0) -> np.ndarray:
    x = dihedral(x, int(rng.integers(8))).astype(np.float32)
    n = len(x)
    # A phone's softness and noise on some crops: blurred, or shrunk and grown back (a small
    # die's pips), then grain.
    for i in np.nonzero(rng.random(n) < 0.3)[0]:
        if rng.random() < 0.5:
            x[i] = cv2.GaussianBlur(x[i], (0, 0), rng.uniform(0.4, 1.2))
        else:
            s = int(rng.integers(16, 40))
            x[i] = cv2.resize(cv2.resize(x[i], (s, s), interpolation=cv2.INTER_AREA),
                              x.shape[1:3], interpolation=cv2.INTER_LINEAR)  # fmt: skip
    x += rng.normal(0, 1, x.shape).astype(np.float32) * rng.uniform(0, 8, (n, 1, 1, 1)).astype(
        np.float32
    )
    x = (x - 128) * rng.uniform(0.7, 1.3, (n, 1, 1, 1)) + 128 + rng.uniform(-30, 30, (n, 1, 1, 1))
    x *= rng.uniform(0.85, 1.15, (n, 1, 1, 3)).astype(np.float32)
    if grey > 0:
        # A grey-scale camera, or light that drains a die's colour.
        g = rng.random(n) < grey
        x[g] = x[g].mean(axis=3, keepdims=True)
    return np.clip(x, 0, 255)


def _real_crops(rows: list[dict], folder: Path, rng: np.random.Generator, repeat: int):
    """`repeat` crops of each real die; a whole table's photo gives as many patches of its
    ground as of its dice, "not a die" on real carpet, weave and wood."""
    crops_only = [r for r in rows if not is_table(r)]
    tables = [r for r in rows if is_table(r)]
    parts = [face_crops(crops_only, folder, rng, repeat, 0)] if crops_only else []
    for r in tables:
        parts.append(face_crops([r], folder, rng, repeat, repeat * len(r["dice"])))
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def real_rows(folder: Path, split: str) -> list[dict]:
    """The labelled real photographs of one split in `folder`/labels.json (the layout of
    tests/fixtures/dice-real/, with a "split" per photo: training/dice/real/)."""
    record = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    return [r for r in record["photos"] if r.get("split") == split]


def load_onnx_faces(net: FaceNet, path: Path) -> None:
    """Start from an exported classifier: its convolutions carry the batch norms folded in,
    so each batch norm here starts as the identity (and stays frozen, see `_freeze_bn`)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    blocks = [m for m in net.body if isinstance(m, torch.nn.Sequential)]
    last = net.body[-2]
    assert len(convs) == len(blocks) + 1 and isinstance(last, torch.nn.Conv2d), "other network"
    with torch.no_grad():
        for node, block in zip(convs, blocks, strict=False):
            conv, bn = block[0], block[1]
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        last.weight.copy_(torch.from_numpy(weights[convs[-1].input[1]].copy()))
        last.bias.copy_(torch.from_numpy(weights[convs[-1].input[2]].copy()))


def _freeze_bn(net: torch.nn.Module) -> None:
    """Batch norms keep their running figures (a warm start's folded ones) while training."""
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def train_faces(a: argparse.Namespace) -> dict:
    rows = load_labels(a.data, a.limit)
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)
    tr = [r for r in rows if not _is_val(r)]
    va = [r for r in rows if _is_val(r)]
    _log(f"{len(rows)} images; cutting crops")
    xt, yt = face_crops(tr, a.data[0], rng, a.per_die, a.negatives)
    xv, yv = face_crops(va, a.data[0], np.random.default_rng(a.seed + 1), 1, a.negatives)
    real_train = real_cal = 0
    xr = yr = None
    rt: list[dict] = []
    if a.real:
        rt, rc = real_rows(a.real, "train"), real_rows(a.real, "calibration")
        if a.real_balance:
            # A source with few dice gets more crops of each, (most / its count) ** balance
            # times --real-repeat, so a second source of 12 dice is not drowned by one of 151.
            sources: dict[str, list[dict]] = {}
            for r in rt:
                sources.setdefault(r.get("source", ""), []).append(r)
            most = max(len(v) for v in sources.values())
            for part in sources.values():
                repeat = round(a.real_repeat * (most / len(part)) ** a.real_balance)
                xa, ya = _real_crops(part, a.real, rng, repeat)
                xt, yt = np.concatenate([xt, xa]), np.concatenate([yt, ya])
        else:
            xa, ya = _real_crops(rt, a.real, rng, a.real_repeat)
            xt, yt = np.concatenate([xt, xa]), np.concatenate([yt, ya])
        xr, yr = face_crops(rc, a.real, np.random.default_rng(a.seed + 2), 4, 0)
        real_train, real_cal = len(rt), len(rc)
    finds: dict[str, int] = {}
    if a.finds:
        # The detector's own finds on the training photos: its false finds as "not a die";
        # on the real tables' photos too (carpet, weave, a pip found as a die).
        tables = [{**r, "path": str(a.real / r["image"])} for r in rt if is_table(r)]
        xf, yf, finds = finds_crops(tr + tables, DiceReader(a.finds, face_threshold=0.0))
        xt, yt = np.concatenate([xt, xf]), np.concatenate([yt, yf])
        _log(f"the detector's own finds: {finds}")
    _log(f"{len(xt)} training crops ({real_train} real dice), {len(xv)} validation crops")
    net = FaceNet()
    if a.init:
        load_onnx_faces(net, a.init)
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-4)
    steps = a.epochs * math.ceil(len(xt) / a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, a.lr, total_steps=steps, pct_start=0.1)
    history = []
    for epoch in range(a.stop_after or a.epochs):
        net.train()
        if a.init:
            _freeze_bn(net)
        order = rng.permutation(len(xt))
        tot, nb, t0 = 0.0, 0, time.time()
        for s in range(0, len(order), a.batch):
            idx = np.sort(order[s : s + a.batch])
            x = torch.from_numpy(to_blob(_augment_crops(xt[idx], rng, a.grey)))
            logits = net(x).flatten(1)
            loss = F.cross_entropy(logits, torch.from_numpy(yt[idx]), label_smoothing=a.smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
            nb += 1
        probs = face_probs(net, xv)
        rec = {"epoch": epoch + 1, "loss": tot / nb, **face_figures(probs, yv, a.target_wrong)}
        if xr is not None and yr is not None:
            rec["real_calibration_accuracy"] = round(
                float((face_probs(net, xr).argmax(1) == yr).mean()), 4
            )
        rec["seconds"] = round(time.time() - t0)
        history.append(rec)
        _log(json.dumps(rec))
        export(net, torch.zeros(1, 3, CROP_SIZE, CROP_SIZE), a.out / "dice_faces.onnx", True)
    last = history[-1]
    return {
        "crops": len(xt), "validation_crops": len(xv), "history": history,
        "face_threshold": last["threshold"], "classes": ["1", "2", "3", "4", "5", "6", "not a die"],
        "input": CROP_SIZE, "real_training_dice": real_train, "real_calibration_dice": real_cal,
        "started_from": str(a.init) if a.init else None,
        "detector_finds": {"detector": str(a.finds), **finds} if a.finds else None,
    }  # fmt: skip


@torch.no_grad()
def face_probs(net: FaceNet, x: np.ndarray) -> np.ndarray:
    net.eval()
    out = [
        torch.softmax(net(torch.from_numpy(to_blob(x[s : s + 256]))).flatten(1), 1).numpy()
        for s in range(0, len(x), 256)
    ]
    return np.concatenate(out)


def face_figures(probs: np.ndarray, y: np.ndarray, target_wrong: float) -> dict:
    """Accuracy on dice, and the lowest confidence at which at most `target_wrong` of the
    dice answered are wrong (the "unsure" threshold), with the share answered there."""
    dice = y != NOT_A_DIE
    pred = probs.argmax(1)
    conf = probs.max(1)
    acc = float((pred[dice] == y[dice]).mean())
    threshold = 1.0
    for t in THRESHOLDS:
        ans = dice & (conf >= t)
        wrong = float((pred[ans] != y[ans]).sum()) / max(1, int(ans.sum()))
        if wrong <= target_wrong:
            threshold = float(t)
            break
    ans = dice & (conf >= threshold)
    return {
        "val_accuracy": round(acc, 4),
        "threshold": round(threshold, 6),
        "answered": round(float(ans.sum()) / max(1, int(dice.sum())), 4),
        "negatives_caught": round(float((pred[~dice] == NOT_A_DIE).mean()), 4)
        if (~dice).any()
        else None,
    }


# -- export --------------------------------------------------------------------------------


def export(net: torch.nn.Module, dummy: torch.Tensor, path: Path, dynamic: bool) -> None:
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (dummy,), str(path), opset_version=13, input_names=["input"],
        output_names=["output"], dynamo=False,
        dynamic_axes={"input": {0: "n"}, "output": {0: "n"}} if dynamic else None,
    )  # fmt: skip
    _log(f"wrote {path} ({path.stat().st_size} bytes)")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.train", description=__doc__)
    ap.add_argument("part", choices=("detector", "faces"))
    ap.add_argument(
        "--data", type=Path, nargs="+", required=True,
        help="folders from training.dice.synth (several: one mixed set, each split alike)",
    )  # fmt: skip
    ap.add_argument("--out", type=Path, default=MODELS)
    ap.add_argument("--limit", type=int, help="use only the first N images of each folder")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument(
        "--stop-after", type=int,
        help="stop after this many epochs of the --epochs schedule (a run cut at a deadline)",
    )  # fmt: skip
    ap.add_argument("--batch", type=int)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--heat", type=float, default=0.3, help="detector: a centre's least score")
    ap.add_argument("--per-die", type=int, default=2, help="faces: crops per die")
    ap.add_argument("--negatives", type=int, default=3, help="faces: table crops per image")
    ap.add_argument("--target-wrong", type=float, default=0.01)
    ap.add_argument(
        "--smoothing", type=float, default=0.0,
        help="faces: label smoothing (0: it caps the confidence the unsure threshold needs)",
    )  # fmt: skip
    ap.add_argument(
        "--real", type=Path,
        help="faces: a folder of labelled real photos (training/dice/real) added to the crops",
    )  # fmt: skip
    ap.add_argument("--real-repeat", type=int, default=40, help="faces: crops per real die")
    ap.add_argument(
        "--real-tables", type=int, default=10,
        help="detector: times each real whole table's photo is in an epoch",
    )  # fmt: skip
    ap.add_argument(
        "--real-balance", type=float, default=0.0,
        help="faces: a real source's crops per die grow by (largest source / its dice) ** this",
    )  # fmt: skip
    ap.add_argument("--grey", type=float, default=0.0, help="faces: share of crops made grey")
    ap.add_argument(
        "--real-scenes", type=int, default=0,
        help="detector: photos made of --real's training dice laid on tables",
    )  # fmt: skip
    ap.add_argument(
        "--finds", type=Path,
        help="faces: also train on this model folder's detector finds (training/dice/finds.py)",
    )  # fmt: skip
    ap.add_argument("--init", type=Path, help="start from this exported network (ONNX)")
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    cv2.setNumThreads(1)
    a.batch = a.batch or (16 if a.part == "detector" else 128)
    t0 = time.time()
    rec = train_detector(a) if a.part == "detector" else train_faces(a)
    data_line = json.loads((a.data[0] / "labels.jsonl").open().readline() or "{}")
    record = {
        "command": "python -m training.dice.train " + " ".join(argv or sys.argv[1:]),
        "data": " ".join(map(str, a.data)),
        "first_image_size": [data_line.get("width"), data_line.get("height")],
        "seed": a.seed, "epochs": a.epochs, "stopped_after": a.stop_after, "batch": a.batch,
        "lr": a.lr,
        "torch": torch.__version__, "python": platform.python_version(),
        "train_seconds": round(time.time() - t0), **rec,
    }  # fmt: skip
    path = a.out / f"dice_{a.part}.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    _log(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
