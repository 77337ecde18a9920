package jvmlab.workloads.chunkgen;

import java.util.ArrayDeque;

/**
 * Sky light within a chunk: full light straight down each column until something opaque, dimmed by water
 * and leaves; then spread sideways and down, one level less per block, into overhangs and cave mouths
 * (breadth-first over block positions, the way a game's light engine queues its updates).
 */
final class SkyLight {
    private static final int[][] DIRECTIONS = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, 1, 0}};

    private SkyLight() {
    }

    static void compute(Chunk chunk) {
        columns(chunk);
        spread(chunk, seeds(chunk));
    }

    private static void columns(Chunk chunk) {
        for (int z = 0; z < Chunk.SIZE; z++) {
            for (int x = 0; x < Chunk.SIZE; x++) {
                int level = 15;
                for (int y = Chunk.HEIGHT - 1; y >= 0 && level > 0; y--) {
                    level = Math.max(0, level - Blocks.opacity(chunk.get(x, y, z)));
                    chunk.skyLight[ProtoChunk.index(x, y, z)] = (byte) level;
                }
            }
        }
    }

    /** Lit blocks next to a darker block that light can enter. */
    private static ArrayDeque<BlockPos> seeds(Chunk chunk) {
        ArrayDeque<BlockPos> queue = new ArrayDeque<BlockPos>();
        for (int y = 0; y < Chunk.HEIGHT; y++) {
            for (int z = 0; z < Chunk.SIZE; z++) {
                for (int x = 0; x < Chunk.SIZE; x++) {
                    int level = chunk.skyLight[ProtoChunk.index(x, y, z)];
                    if (level > 1 && hasDarkerNeighbour(chunk, x, y, z, level)) {
                        queue.add(new BlockPos(x, y, z));
                    }
                }
            }
        }
        return queue;
    }

    private static boolean hasDarkerNeighbour(Chunk chunk, int x, int y, int z, int level) {
        for (int[] d : DIRECTIONS) {
            int nx = x + d[0];
            int ny = y + d[1];
            int nz = z + d[2];
            if (inside(nx, ny, nz) && canEnter(chunk, nx, ny, nz, level)) {
                return true;
            }
        }
        return false;
    }

    private static boolean canEnter(Chunk chunk, int x, int y, int z, int level) {
        int opacity = Blocks.opacity(chunk.get(x, y, z));
        return opacity < 15 && chunk.skyLight[ProtoChunk.index(x, y, z)] < level - Math.max(1, opacity);
    }

    private static void spread(Chunk chunk, ArrayDeque<BlockPos> queue) {
        while (!queue.isEmpty()) {
            BlockPos p = queue.poll();
            int level = chunk.skyLight[ProtoChunk.index(p.x, p.y, p.z)];
            for (int[] d : DIRECTIONS) {
                BlockPos n = p.offset(d[0], d[1], d[2]);
                if (inside(n.x, n.y, n.z) && canEnter(chunk, n.x, n.y, n.z, level)) {
                    int opacity = Blocks.opacity(chunk.get(n.x, n.y, n.z));
                    chunk.skyLight[ProtoChunk.index(n.x, n.y, n.z)] = (byte) (level - Math.max(1, opacity));
                    queue.add(n);
                }
            }
        }
    }

    private static boolean inside(int x, int y, int z) {
        return x >= 0 && x < Chunk.SIZE && z >= 0 && z < Chunk.SIZE && y >= 0 && y < Chunk.HEIGHT;
    }
}
