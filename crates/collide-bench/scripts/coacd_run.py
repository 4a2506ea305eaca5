"""CoACD on the inputs `decompose_compare` wrote: for every OUT_DIR/NAME.input.obj, writes
NAME.coacd.obj (one `o` group per convex piece) and NAME.coacd.json ({"seconds": wall time of
coacd.run_coacd, "cpu_seconds": CPU time of all its threads, "version": the package's}). CoACD runs at its defaults (threshold 0.05), seed fixed.

    python -m venv /tmp/coacd-venv && /tmp/coacd-venv/bin/pip install coacd numpy
    /tmp/coacd-venv/bin/python crates/collide-bench/scripts/coacd_run.py OUT_DIR

The OBJ reader takes `v` and triangle `f` lines, which is all decompose_compare writes.
"""
import importlib.metadata
import json
import pathlib
import sys
import time

import coacd
import numpy as np


def read_obj(path):
    vertices, faces = [], []
    for line in path.read_text().splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "v":
            vertices.append([float(x) for x in parts[1:4]])
        elif parts[0] == "f":
            faces.append([int(x.split("/")[0]) - 1 for x in parts[1:4]])
    return np.array(vertices, dtype=np.float64), np.array(faces, dtype=np.int32)


def write_pieces(path, pieces):
    lines, offset = [], 0
    for i, (vs, fs) in enumerate(pieces):
        lines.append(f"o piece{i}")
        lines.extend(f"v {x} {y} {z}" for x, y, z in vs)
        lines.extend(f"f {a + 1 + offset} {b + 1 + offset} {c + 1 + offset}" for a, b, c in fs)
        offset += len(vs)
    path.write_text("\n".join(lines) + "\n")


def main():
    out = pathlib.Path(sys.argv[1])
    coacd.set_log_level("error")
    version = importlib.metadata.version("coacd")
    for src in sorted(out.glob("*.input.obj")):
        name = src.name[: -len(".input.obj")]
        vertices, faces = read_obj(src)
        mesh = coacd.Mesh(vertices, faces)
        start, cpu_start = time.perf_counter(), time.process_time()
        pieces = coacd.run_coacd(mesh, threshold=0.05, seed=0)
        seconds = time.perf_counter() - start
        cpu_seconds = time.process_time() - cpu_start
        write_pieces(out / f"{name}.coacd.obj", pieces)
        (out / f"{name}.coacd.json").write_text(json.dumps(
            {"seconds": seconds, "cpu_seconds": cpu_seconds, "version": version}
        ))
        print(
            f"{name}: {len(pieces)} pieces in {seconds:.2f} s ({cpu_seconds:.2f} s CPU)",
            flush=True,
        )


if __name__ == "__main__":
    main()
