package jvmlab.workloads.chunkgen;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/**
 * A chunk as saved: the NBT layout of Anvil region files (sections of 16 x 16 x 16 blocks, each a palette
 * of block states and indices packed into longs; sky light as 4-bit values; biomes per 4 x 4 x 4 cell;
 * height maps packed 9 bits a value), compressed with zlib.
 */
final class ChunkSerializer {
    static final int DATA_VERSION = 2586;

    private ChunkSerializer() {
    }

    static byte[] compressed(Chunk chunk) throws IOException {
        Nbt.Compound root = toNbt(chunk);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
        Deflater deflater = new Deflater();
        try {
            DataOutputStream out = new DataOutputStream(
                    new BufferedOutputStream(new DeflaterOutputStream(bytes, deflater)));
            root.writeRoot(out);
            out.close();
        } finally {
            deflater.end();
        }
        return bytes.toByteArray();
    }

    static Nbt.Compound toNbt(Chunk chunk) {
        Nbt.Compound level = new Nbt.Compound()
                .putInt("xPos", chunk.x)
                .putInt("zPos", chunk.z)
                .putLong("LastUpdate", 0)
                .putLong("InhabitedTime", 0)
                .putString("Status", "full")
                .putByte("isLightOn", 1)
                .put("Biomes", new Nbt.IntArray(biomes(chunk)))
                .put("Heightmaps", heightmaps(chunk))
                .put("Sections", sections(chunk))
                .put("Entities", new Nbt.ListTag(Nbt.COMPOUND))
                .put("TileEntities", new Nbt.ListTag(Nbt.COMPOUND));
        return new Nbt.Compound().putInt("DataVersion", DATA_VERSION).put("Level", level);
    }

    private static int[] biomes(Chunk chunk) {
        int[] out = new int[1024];
        for (int y = 0; y < 64; y++) {
            for (int z = 0; z < 4; z++) {
                for (int x = 0; x < 4; x++) {
                    out[(y << 4) | (z << 2) | x] = chunk.biome(x * 4 + 2, z * 4 + 2).id;
                }
            }
        }
        return out;
    }

    private static Nbt.Compound heightmaps(Chunk chunk) {
        return new Nbt.Compound()
                .put("MOTION_BLOCKING", new Nbt.LongArray(pack(chunk.motionBlocking, 9)))
                .put("WORLD_SURFACE", new Nbt.LongArray(pack(chunk.worldSurface, 9)))
                .put("OCEAN_FLOOR", new Nbt.LongArray(pack(chunk.oceanFloor, 9)));
    }

    private static Nbt.ListTag sections(Chunk chunk) {
        Nbt.ListTag list = new Nbt.ListTag(Nbt.COMPOUND);
        for (int s = 0; s < Chunk.SECTIONS; s++) {
            if (!chunk.sectionEmpty(s)) {
                list.add(section(chunk, s));
            }
        }
        return list;
    }

    private static Nbt.Compound section(Chunk chunk, int s) {
        int[] paletteIndex = new int[Blocks.COUNT];
        Arrays.fill(paletteIndex, -1);
        int[] indices = new int[4096];
        Nbt.ListTag palette = new Nbt.ListTag(Nbt.COMPOUND);
        int size = 0;
        for (int i = 0; i < 4096; i++) {
            int block = chunk.blocks[s * 4096 + i];
            if (paletteIndex[block] < 0) {
                paletteIndex[block] = size++;
                palette.add(blockState(block));
            }
            indices[i] = paletteIndex[block];
        }
        int bits = Math.max(4, 32 - Integer.numberOfLeadingZeros(size - 1));
        return new Nbt.Compound()
                .putByte("Y", s)
                .put("Palette", palette)
                .put("BlockStates", new Nbt.LongArray(pack(indices, bits)))
                .put("SkyLight", new Nbt.ByteArray(nibbles(chunk.skyLight, s * 4096)));
    }

    private static Nbt.Compound blockState(int block) {
        Nbt.Compound state = new Nbt.Compound().putString("Name", Blocks.name(block));
        String[] properties = Blocks.properties(block);
        if (properties.length > 0) {
            Nbt.Compound p = new Nbt.Compound();
            for (int i = 0; i < properties.length; i += 2) {
                p.putString(properties[i], properties[i + 1]);
            }
            state.put("Properties", p);
        }
        return state;
    }

    /** Values of {@code bits} bits, as many as fit whole in each long, lowest bits first. */
    static long[] pack(int[] values, int bits) {
        int perLong = 64 / bits;
        long[] out = new long[(values.length + perLong - 1) / perLong];
        for (int i = 0; i < values.length; i++) {
            out[i / perLong] |= (long) values[i] << ((i % perLong) * bits);
        }
        return out;
    }

    /** 4096 light levels from {@code offset}, two per byte, the even index in the low half. */
    private static byte[] nibbles(byte[] levels, int offset) {
        byte[] out = new byte[2048];
        for (int i = 0; i < 4096; i += 2) {
            out[i >> 1] = (byte) ((levels[offset + i] & 15) | (levels[offset + i + 1] << 4));
        }
        return out;
    }
}
