"""Reading the worlds chunkgen saves, independently of its Java code: Anvil region files read here, the
chunks' NBT decoded by nbtlib. Every structural rule of the format is checked as it is read."""

from __future__ import annotations

import io
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import nbtlib
import numpy as np

SECTOR = 4096
ZLIB = 2
REGION_NAME = re.compile(r"r\.(-?\d+)\.(-?\d+)\.mca")


@dataclass(frozen=True)
class SavedChunk:
    x: int
    z: int
    level: nbtlib.Compound  # the "Level" compound
    data_version: int

    def blocks(self) -> tuple[np.ndarray, list[str]]:
        """Blocks as indices into the returned names, shape (y 256, z 16, x 16); air where no section is."""
        names = ["minecraft:air"]
        out = np.zeros((256, 16, 16), dtype=np.int32)
        for section in self.level["Sections"]:
            y = int(section["Y"])
            palette = [str(p["Name"]) for p in section["Palette"]]
            indices = unpack(np.asarray(section["BlockStates"]), len(palette))
            assert indices.max() < len(palette), (
                f"chunk {self.x}, {self.z} section {y}: index past the palette"
            )
            out[y * 16 : (y + 1) * 16] = (indices + len(names)).reshape(16, 16, 16)
            names += palette
        return out, names

    def heightmap(self, name: str) -> np.ndarray:
        return unpack(np.asarray(self.level["Heightmaps"][name]), 0, bits=9, count=256).reshape(16, 16)


def unpack(longs: np.ndarray, palette_size: int, *, bits: int | None = None, count: int = 4096) -> np.ndarray:
    """Values packed whole into 64-bit longs, lowest bits first (the format of 1.16 and later)."""
    if bits is None:
        bits = max(4, (palette_size - 1).bit_length())
    per_long = 64 // bits
    expected = -(-count // per_long)
    words = np.asarray(longs, dtype=np.int64).view(np.uint64)
    assert len(words) == expected, (
        f"{len(words)} longs for {count} values of {bits} bits, expected {expected}"
    )
    i = np.arange(count)
    shifts = ((i % per_long) * bits).astype(np.uint64)
    return ((words[i // per_long] >> shifts) & np.uint64((1 << bits) - 1)).astype(np.int64)


def read_region(path: Path) -> list[SavedChunk]:
    """The chunks of one region file, checked: header entries point past the header at sectors used by one
    chunk only, lengths fit their sectors, zlib compression, and each chunk sits at its own header index."""
    m = REGION_NAME.fullmatch(path.name)
    assert m, f"{path.name}: not a region file name"
    rx, rz = int(m[1]), int(m[2])
    data = path.read_bytes()
    assert len(data) % SECTOR == 0, f"{path}: size {len(data)} is not whole sectors"
    used: set[int] = set()
    chunks = []
    for index in range(1024):
        (location,) = struct.unpack_from(">I", data, index * 4)
        if location == 0:
            continue
        offset, sectors = location >> 8, location & 0xFF
        assert offset >= 2 and (offset + sectors) * SECTOR <= len(data), f"{path}: entry {index} out of file"
        span = set(range(offset, offset + sectors))
        assert not span & used, f"{path}: entry {index} overlaps another chunk"
        used |= span
        length, compression = struct.unpack_from(">IB", data, offset * SECTOR)
        assert compression == ZLIB and length + 4 <= sectors * SECTOR, f"{path}: entry {index} length/type"
        raw = zlib.decompress(data[offset * SECTOR + 5 : offset * SECTOR + 4 + length])
        root = nbtlib.File.parse(io.BytesIO(raw))
        level = root["Level"]
        chunk = SavedChunk(int(level["xPos"]), int(level["zPos"]), level, int(root["DataVersion"]))
        assert (chunk.x >> 5, chunk.z >> 5) == (rx, rz), f"{path}: holds chunk {chunk.x}, {chunk.z}"
        assert (chunk.x & 31) + (chunk.z & 31) * 32 == index, f"{path}: chunk {chunk.x}, {chunk.z} at {index}"
        chunks.append(chunk)
    return chunks


def read_world(world: Path) -> dict[tuple[int, int], SavedChunk]:
    chunks: dict[tuple[int, int], SavedChunk] = {}
    for path in sorted((world / "region").glob("*.mca")):
        for c in read_region(path):
            assert (c.x, c.z) not in chunks, f"chunk {c.x}, {c.z} saved twice"
            chunks[(c.x, c.z)] = c
    return chunks
