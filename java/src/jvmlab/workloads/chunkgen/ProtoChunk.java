package jvmlab.workloads.chunkgen;

/**
 * A chunk's terrain before decoration: blocks (16 x 256 x 16, one byte each), the biome of every column and
 * the height of its highest block. Neighbouring chunks read it (where their trees stand), so once made it
 * is never changed.
 */
final class ProtoChunk {
    static final int SIZE = 16;
    static final int HEIGHT = 256;
    static final int VOLUME = SIZE * SIZE * HEIGHT;

    final int x;
    final int z;
    final byte[] blocks = new byte[VOLUME];
    final byte[] biomes = new byte[SIZE * SIZE];
    /** Per column: one above the highest block that is not air (0: an empty column). */
    final int[] surface = new int[SIZE * SIZE];

    ProtoChunk(int x, int z) {
        this.x = x;
        this.z = z;
    }

    static int index(int x, int y, int z) {
        return (y << 8) | (z << 4) | x;
    }

    static int column(int x, int z) {
        return (z << 4) | x;
    }

    int get(int x, int y, int z) {
        return blocks[index(x, y, z)];
    }

    void set(int x, int y, int z, byte block) {
        blocks[index(x, y, z)] = block;
    }

    Biome biome(int x, int z) {
        return Biome.byOrdinal(biomes[column(x, z)]);
    }

    void computeSurface() {
        for (int z = 0; z < SIZE; z++) {
            for (int x = 0; x < SIZE; x++) {
                int y = HEIGHT - 1;
                while (y >= 0 && Blocks.isAir(blocks[index(x, y, z)])) {
                    y--;
                }
                surface[column(x, z)] = y + 1;
            }
        }
    }
}
