package jvmlab.workloads.chunkgen;

import java.util.zip.CRC32;

/** A finished chunk: its own copy of the terrain, decorated and lit, with its height maps. */
final class Chunk {
    static final int SIZE = ProtoChunk.SIZE;
    static final int HEIGHT = ProtoChunk.HEIGHT;
    static final int SECTIONS = HEIGHT / 16;

    final int x;
    final int z;
    final byte[] blocks;
    final byte[] biomes;
    /** Sky light 0-15 per block, same layout as blocks. */
    final byte[] skyLight = new byte[ProtoChunk.VOLUME];
    final int[] worldSurface = new int[SIZE * SIZE];
    final int[] motionBlocking = new int[SIZE * SIZE];
    final int[] oceanFloor = new int[SIZE * SIZE];

    Chunk(ProtoChunk proto) {
        x = proto.x;
        z = proto.z;
        blocks = proto.blocks.clone();
        biomes = proto.biomes.clone();
    }

    int get(int x, int y, int z) {
        return blocks[ProtoChunk.index(x, y, z)];
    }

    void set(int x, int y, int z, byte block) {
        blocks[ProtoChunk.index(x, y, z)] = block;
    }

    /** The block at a world position, or -1 when it is outside this chunk. */
    int getWorld(BlockPos p) {
        int lx = p.x - x * SIZE;
        int lz = p.z - z * SIZE;
        if (lx < 0 || lx >= SIZE || lz < 0 || lz >= SIZE || p.y < 0 || p.y >= HEIGHT) {
            return -1;
        }
        return get(lx, p.y, lz);
    }

    /** Sets a block at a world position if it is inside this chunk. */
    void setWorld(BlockPos p, byte block) {
        int lx = p.x - x * SIZE;
        int lz = p.z - z * SIZE;
        if (lx >= 0 && lx < SIZE && lz >= 0 && lz < SIZE && p.y >= 0 && p.y < HEIGHT) {
            set(lx, p.y, lz, block);
        }
    }

    Biome biome(int x, int z) {
        return Biome.byOrdinal(biomes[ProtoChunk.column(x, z)]);
    }

    /** Whether section {@code s} (16 blocks high) holds anything but air. */
    boolean sectionEmpty(int s) {
        for (int i = s * 4096, end = i + 4096; i < end; i++) {
            if (!Blocks.isAir(blocks[i])) {
                return false;
            }
        }
        return true;
    }

    void computeHeightmaps() {
        for (int lz = 0; lz < SIZE; lz++) {
            for (int lx = 0; lx < SIZE; lx++) {
                int column = ProtoChunk.column(lx, lz);
                worldSurface[column] = highest(lx, lz, 0);
                motionBlocking[column] = highest(lx, lz, 1);
                oceanFloor[column] = highest(lx, lz, 2);
            }
        }
    }

    /** One above the highest block of a kind: 0 any non-air, 1 motion-blocking or fluid, 2 solid ground. */
    private int highest(int lx, int lz, int kind) {
        for (int y = HEIGHT - 1; y >= 0; y--) {
            int b = get(lx, y, lz);
            boolean counts = kind == 0 ? !Blocks.isAir(b)
                    : kind == 1 ? Blocks.blocksMotion(b) : Blocks.blocksMotion(b) && !Blocks.isFluid(b);
            if (counts) {
                return y + 1;
            }
        }
        return 0;
    }

    /** A hash of the blocks and biomes, the same whichever thread made the chunk and when. */
    long checksum() {
        CRC32 crc = new CRC32();
        crc.update(blocks, 0, blocks.length);
        crc.update(biomes, 0, biomes.length);
        crc.update(skyLight, 0, skyLight.length);
        return crc.getValue() * 0x9E3779B97F4A7C15L + (x * 1_000_003L + z);
    }
}
