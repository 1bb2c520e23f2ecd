"""Rendered dice photographs: each `render_plan.Plan` built in Blender and path traced by
Cycles on the CPU, then put through the same camera as `synth.py`'s photos (issue 28).

Runs in its own environment, because Blender's Python module is large and only training
needs it (training/README.md, "The thirteenth"):

    python3 -m venv /tmp/render && /tmp/render/bin/pip install bpy==4.5.15 opencv-python-headless==4.10.0.84 numpy==1.26.4
    PYTHONPATH=. OMP_NUM_THREADS=1 /tmp/render/bin/python -m training.dice.render \
        --out data/dice-render --count 1500 --seed 1

It writes what `synth.py` writes (`images/NNNNNN.jpg` and `labels.jsonl`, the same fields),
so `train.py` and `calibrate.py` read both alike.  `--start N` grows a set; two processes
given halves of the indices (`--start`, `--count`) into two folders make the same images
as one.  The labels come from the plan and the camera's projection, never from the pixels.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import bpy  # type: ignore[import-not-found]
import cv2
import numpy as np
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Matrix, Vector  # type: ignore[import-not-found]

from training.dice import render_plan as rp
from training.dice.synth import _cheap_camera, _postprocess

MIN_VISIBLE = 0.6  # a die hidden more than this by a nearer one is left out of the scene


def _principled(name: str, rgb: Sequence[float], roughness: float) -> bpy.types.Material:
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    p = m.node_tree.nodes["Principled BSDF"]
    p.inputs["Base Color"].default_value = (*rgb, 1.0)
    p.inputs["Roughness"].default_value = roughness
    return m


def _die_mesh(style: rp.DieStyle, name: str) -> tuple[bpy.types.Object, np.ndarray]:
    """A die of side 1 at the origin, its pips cut in, and its outline's points (for boxes)."""
    bpy.ops.mesh.primitive_cube_add(size=1)
    die = bpy.context.object
    die.name = name
    bev = die.modifiers.new("round", "BEVEL")
    bev.width = style.bevel
    bev.segments = 3
    body = _principled(name + " body", style.rgb, style.roughness)
    p = body.node_tree.nodes["Principled BSDF"]
    if style.clear:
        p.inputs["Transmission Weight"].default_value = 1.0
        p.inputs["IOR"].default_value = 1.5
    else:
        p.inputs["Subsurface Weight"].default_value = 0.15
        p.inputs["Subsurface Scale"].default_value = 0.03
        p.inputs["Coat Weight"].default_value = 0.3
    die.data.materials.append(body)
    outline = np.array(
        [v.co[:] for v in die.evaluated_get(bpy.context.evaluated_depsgraph_get()).data.vertices]
    )
    pip = _principled(name + " pips", style.pip_rgb, 0.5)
    red = _principled(name + " red", (0.6, 0.02, 0.02), 0.4)
    cutters = []
    r = style.pip_radius
    d = max(style.pip_depth * r, 0.002)
    big = 1.6 if style.red_one else 1.0
    for value in range(1, 7):
        n, u, v = rp.face_frame(value)
        for a, b in rp.pips(value, style):
            rr = r * big if value == 1 else r
            dd = d * big if value == 1 else d
            if style.pip_depth < 0.15:  # flush casino pips: a shallow flat-bottomed pit
                centre = n * (0.5 - dd / 2) + u * a + v * b
                bpy.ops.mesh.primitive_cylinder_add(
                    radius=rr, depth=dd * 2, vertices=20, location=Vector(centre)
                )
                c = bpy.context.object
                c.rotation_mode = "QUATERNION"
                c.rotation_quaternion = Vector((0, 0, 1)).rotation_difference(Vector(n))
            else:
                big_r = (rr * rr + dd * dd) / (2 * dd)
                centre = n * (0.5 + big_r - dd) + u * a + v * b
                bpy.ops.mesh.primitive_uv_sphere_add(
                    radius=big_r, segments=20, ring_count=10, location=Vector(centre)
                )
                c = bpy.context.object
            c.data.materials.append(red if value == 1 and style.red_one else pip)
            cutters.append(c)
    bpy.ops.object.select_all(action="DESELECT")
    for c in cutters:
        c.select_set(True)
    bpy.context.view_layer.objects.active = cutters[0]
    bpy.ops.object.join()
    cutter = bpy.context.object
    boo = die.modifiers.new("pips", "BOOLEAN")
    boo.object = cutter
    boo.operation = "DIFFERENCE"
    boo.solver = "EXACT"
    boo.material_mode = "TRANSFER"
    bpy.context.view_layer.objects.active = die
    bpy.ops.object.modifier_apply(modifier="round")
    bpy.ops.object.modifier_apply(modifier="pips")
    bpy.data.objects.remove(cutter)
    for poly in die.data.polygons:
        poly.use_smooth = False
    return die, outline


def _ground(plan: rp.Plan) -> None:
    bpy.ops.mesh.primitive_plane_add(size=400, location=(0, 0, 0))
    plane = bpy.context.object
    m = bpy.data.materials.new("ground")
    m.use_nodes = True
    nt = m.node_tree
    p = nt.nodes["Principled BSDF"]
    coord = nt.nodes.new("ShaderNodeTexCoord")
    mapping = nt.nodes.new("ShaderNodeMapping")
    mapping.inputs["Scale"].default_value = (plan.ground_scale,) * 3
    nt.links.new(coord.outputs["Object"], mapping.inputs["Vector"])
    base = plan.ground_rgb
    ramp = nt.nodes.new("ShaderNodeValToRGB")
    darker = tuple(c * 0.55 for c in base)
    ramp.color_ramp.elements[0].color = (*darker, 1)
    ramp.color_ramp.elements[1].color = (*base, 1)
    rough = {"felt": 1.0, "carpet": 1.0, "fabric": 0.9, "paper": 0.8, "wood": 0.45}
    p.inputs["Roughness"].default_value = rough.get(plan.ground, 0.6)
    if plan.ground == "wood":
        tex = nt.nodes.new("ShaderNodeTexWave")
        tex.inputs["Scale"].default_value = 0.3
        tex.inputs["Distortion"].default_value = 6.0
        tex.inputs["Detail"].default_value = 4.0
        brown = (0.35, 0.18, 0.07)
        ramp.color_ramp.elements[0].color = (*(c * 0.5 for c in brown), 1)
        ramp.color_ramp.elements[1].color = (*(min(1.0, c * (0.8 + base[0])) for c in brown), 1)
        out = tex.outputs["Fac"]
    elif plan.ground == "board":
        tex = nt.nodes.new("ShaderNodeTexChecker")
        tex.inputs["Scale"].default_value = 0.15
        tex.inputs["Color1"].default_value = (0.85, 0.85, 0.8, 1)
        tex.inputs["Color2"].default_value = (*base, 1)
        nt.links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
        nt.links.new(tex.outputs["Color"], p.inputs["Base Color"])
        out = None
    elif plan.ground == "fabric":
        tex = nt.nodes.new("ShaderNodeTexWave")
        tex.inputs["Scale"].default_value = 2.0
        tex.wave_profile = "TRI" if plan.ground_scale > 1.2 else "SIN"
        out = tex.outputs["Fac"]
    else:  # felt, tray, carpet, paper: one colour and its grain
        tex = nt.nodes.new("ShaderNodeTexNoise")
        fine = {"carpet": 40.0, "felt": 25.0, "paper": 8.0}.get(plan.ground, 3.0)
        tex.inputs["Scale"].default_value = fine
        tex.inputs["Detail"].default_value = 8.0
        ramp.color_ramp.elements[0].color = (*(c * 0.8 for c in base), 1)
        if plan.ground in ("carpet", "felt"):
            bump = nt.nodes.new("ShaderNodeBump")
            bump.inputs["Strength"].default_value = 0.4
            nt.links.new(tex.outputs["Fac"], bump.inputs["Height"])
            nt.links.new(bump.outputs["Normal"], p.inputs["Normal"])
        out = tex.outputs["Fac"]
    if out is not None:
        nt.links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
        nt.links.new(out, ramp.inputs["Fac"])
        nt.links.new(ramp.outputs["Color"], p.inputs["Base Color"])
    plane.data.materials.append(m)


def _tokens(plan: rp.Plan, rng: np.random.Generator, reach: float) -> None:
    """Other things on the table: cubes and discs, never on a die."""
    for i in range(plan.tokens):
        for _ in range(20):
            x, y = rng.uniform(-reach, reach, 2)
            if all(math.hypot(x - d.x, y - d.y) > 2.2 for d in plan.dice):
                break
        else:
            continue
        size = float(rng.uniform(0.4, 1.5))
        h = float(rng.uniform(0.1, 0.6)) * size
        if rng.random() < 0.5:
            bpy.ops.mesh.primitive_cylinder_add(radius=size / 2, depth=h, location=(x, y, h / 2))
        else:
            bpy.ops.mesh.primitive_cube_add(size=1, location=(x, y, h / 2))
            bpy.context.object.scale = (size, size * rng.uniform(0.5, 1.5), h)
        bpy.context.object.rotation_euler[2] = float(rng.uniform(0, math.pi))
        rgb = tuple(float(c) for c in rng.uniform(0.02, 0.8, 3))
        bpy.context.object.data.materials.append(_principled(f"token {i}", rgb, 0.5))


def _camera(plan: rp.Plan) -> bpy.types.Object:
    el = min(plan.elevation, math.radians(89.5))
    target = Vector((0.0, 0.0, 0.5))
    at = target + plan.distance * Vector(
        (math.cos(el) * math.cos(plan.azimuth), math.cos(el) * math.sin(plan.azimuth), math.sin(el))
    )
    bpy.ops.object.camera_add(location=at)
    cam = bpy.context.object
    cam.rotation_mode = "QUATERNION"
    cam.rotation_quaternion = (target - at).to_track_quat("-Z", "Y")
    cam.data.lens = plan.focal_mm
    cam.data.sensor_width = 36
    cam.data.sensor_fit = "AUTO"
    cam.data.clip_start = 0.05
    cam.data.clip_end = 1000
    bpy.context.scene.camera = cam
    return cam


def _light(plan: rp.Plan) -> None:
    bpy.ops.object.light_add(type="SUN")
    sun = bpy.context.object
    sun.rotation_euler = (math.pi / 2 - plan.sun_elevation, 0.0, plan.sun_azimuth + math.pi / 2)
    sun.data.angle = plan.sun_angle
    sun.data.energy = plan.sun_strength
    world = bpy.data.worlds.new("room")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*plan.ambient_rgb, 1)
    bg.inputs["Strength"].default_value = plan.ambient
    bpy.context.scene.world = world


def _setup(plan: rp.Plan) -> bpy.types.Scene:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = plan.samples
    sc.cycles.use_denoising = True  # OpenImageDenoise: its fast setting, a third of the time
    sc.cycles.denoising_quality = "FAST"
    sc.cycles.denoising_prefilter = "NONE"
    sc.cycles.max_bounces = 8
    sc.cycles.diffuse_bounces = 2
    sc.cycles.glossy_bounces = 2
    sc.cycles.transmission_bounces = 8
    sc.cycles.volume_bounces = 0
    sc.cycles.caustics_reflective = False
    sc.cycles.caustics_refractive = False
    sc.cycles.seed = 0
    sc.render.threads_mode = "FIXED"
    sc.render.threads = 1
    sc.render.resolution_x = plan.width
    sc.render.resolution_y = plan.height
    sc.render.resolution_percentage = 100
    sc.render.image_settings.file_format = "PNG"
    sc.view_settings.view_transform = "AgX"
    sc.view_settings.exposure = plan.exposure
    return sc


def _project(sc: bpy.types.Scene, cam: bpy.types.Object, pts: np.ndarray) -> np.ndarray:
    """World points to the image's pixels (x right, y down)."""
    out = []
    for p in pts:
        c = world_to_camera_view(sc, cam, Vector(p))
        out.append((c.x * sc.render.resolution_x, (1 - c.y) * sc.render.resolution_y, c.z))
    return np.array(out)


def _visible(hulls: list[np.ndarray], depths: list[float], w: int, h: int) -> list[float]:
    """Each die's share of its outline not hidden by a nearer die."""
    owner = np.full((h, w), -1, np.int32)
    for i in sorted(range(len(hulls)), key=lambda i: -depths[i]):  # far to near
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(hulls[i]).astype(np.int32), 1)
        owner[mask > 0] = i
    shares = []
    for i, hull in enumerate(hulls):
        area = max(cv2.contourArea(np.round(hull).astype(np.float32)), 1.0)
        shares.append(float((owner == i).sum()) / area)
    return shares


def make(seed: int, index: int) -> tuple[bytes, dict[str, object]]:
    """Image `index` of the rendered set `seed`: its JPEG bytes and its labels line."""
    plan = rp.plan(seed, index)
    rng = np.random.default_rng([seed, index, 29])
    sc = _setup(plan)
    _ground(plan)
    _light(plan)
    cam = _camera(plan)
    meshes = [_die_mesh(s, f"set {i}") for i, s in enumerate(plan.styles)]
    for obj, _ in meshes:
        obj.hide_render = True
    reach = max((math.hypot(d.x, d.y) for d in plan.dice), default=1.0) + 4
    _tokens(plan, rng, reach)
    placed = []
    for k, pose in enumerate(plan.dice):
        src, outline = meshes[pose.style]
        obj = src.copy()
        obj.name = f"die {k}"
        obj.hide_render = False
        bpy.context.collection.objects.link(obj)
        r = rp.rotation(pose)
        t = np.array([pose.x, pose.y, 0.5])
        obj.matrix_world = Matrix.Translation(Vector(t)) @ Matrix(r.tolist()).to_4x4()
        world = outline @ r.T + t
        px = _project(sc, cam, world)
        hull = cv2.convexHull(px[:, :2].astype(np.float32)).reshape(-1, 2)
        placed.append((obj, rp.top_face(r), px, hull, float(px[:, 2].mean())))
    w, h = plan.width, plan.height
    inside = [
        i for i, p in enumerate(placed)
        if p[2][:, 0].min() >= 0 and p[2][:, 1].min() >= 0
        and p[2][:, 0].max() < w and p[2][:, 1].max() < h
    ]  # fmt: skip
    shares = dict(zip(inside, _visible([placed[i][3] for i in inside],
                                       [placed[i][4] for i in inside], w, h), strict=True))  # fmt: skip
    dice = []
    for i, (obj, face, px, _, _) in enumerate(placed):
        share = shares.get(i, 0.0)
        obj.hide_render = share < MIN_VISIBLE  # off the image or hidden: out of the scene
        if obj.hide_render:
            continue
        x0, y0 = np.floor(px[:, :2].min(0)).astype(int)
        x1, y1 = np.ceil(px[:, :2].max(0)).astype(int)
        dice.append({"box": [int(x0), int(y0), int(x1), int(y1)],
                     "face": face,
                     "visible": round(min(share, 1.0), 3)})  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        sc.render.filepath = str(Path(tmp) / "frame.png")
        bpy.ops.render.render(write_still=True)
        img = cv2.imread(sc.render.filepath, cv2.IMREAD_COLOR).astype(np.float32)
    img = _postprocess(rng, img)
    if plan.cheap:
        img = _cheap_camera(rng, img)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, plan.quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    line: dict[str, object] = {"image": f"images/{index:06d}.jpg", "width": w, "height": h,
                               "dice": dice}  # fmt: skip
    return buf.tobytes(), line


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.dice.render", description=__doc__)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--count", type=int, required=True, help="render images up to this index")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    (a.out / "images").mkdir(parents=True, exist_ok=True)
    mode = "a" if a.start else "w"
    t0 = time.time()
    with open(a.out / "labels.jsonl", mode, encoding="utf-8", newline="\n") as labels:
        for i in range(a.start, a.count):
            data, line = make(a.seed, i)
            (a.out / "images" / f"{i:06d}.jpg").write_bytes(data)
            labels.write(json.dumps(line, separators=(",", ":")) + "\n")
            labels.flush()
            done = i - a.start + 1
            print(f"{i}: {len(line['dice'])} dice, {(time.time() - t0) / done:.1f} s an image",
                  file=sys.stderr, flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
