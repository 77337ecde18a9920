package jvmlab.workloads.chunkgen;

/**
 * A field sampled at the corners of cells (4 x 8 x 4 blocks) over a chunk and interpolated trilinearly at
 * every block: noise is costly, so it is evaluated 825 times instead of 65,536.
 */
final class CellGrid {
    static final int CELL_XZ = 4;
    static final int CELL_Y = 8;
    static final int CORNERS_XZ = ProtoChunk.SIZE / CELL_XZ + 1;
    static final int CORNERS_Y = ProtoChunk.HEIGHT / CELL_Y + 1;
    static final int CORNERS = CORNERS_XZ * CORNERS_XZ * CORNERS_Y;

    /** Receives the interpolated value at each block. */
    interface BlockVisitor {
        void visit(int x, int y, int z, double value);
    }

    private CellGrid() {
    }

    /** Index of corner (i, j, k): i along x, j along y, k along z. */
    static int corner(int i, int j, int k) {
        return (i * CORNERS_XZ + k) * CORNERS_Y + j;
    }

    static void forEachBlock(double[] field, BlockVisitor visitor) {
        for (int ci = 0; ci < CORNERS_XZ - 1; ci++) {
            for (int ck = 0; ck < CORNERS_XZ - 1; ck++) {
                for (int cj = 0; cj < CORNERS_Y - 1; cj++) {
                    cell(field, ci, cj, ck, visitor);
                }
            }
        }
    }

    private static void cell(double[] f, int ci, int cj, int ck, BlockVisitor visitor) {
        double d000 = f[corner(ci, cj, ck)];
        double d001 = f[corner(ci, cj, ck + 1)];
        double d100 = f[corner(ci + 1, cj, ck)];
        double d101 = f[corner(ci + 1, cj, ck + 1)];
        double d010 = f[corner(ci, cj + 1, ck)];
        double d011 = f[corner(ci, cj + 1, ck + 1)];
        double d110 = f[corner(ci + 1, cj + 1, ck)];
        double d111 = f[corner(ci + 1, cj + 1, ck + 1)];
        for (int dy = 0; dy < CELL_Y; dy++) {
            double ty = dy / (double) CELL_Y;
            int y = cj * CELL_Y + dy;
            for (int dx = 0; dx < CELL_XZ; dx++) {
                double tx = dx / (double) CELL_XZ;
                double z0 = PerlinNoise.lerp(ty, PerlinNoise.lerp(tx, d000, d100), PerlinNoise.lerp(tx, d010, d110));
                double z1 = PerlinNoise.lerp(ty, PerlinNoise.lerp(tx, d001, d101), PerlinNoise.lerp(tx, d011, d111));
                for (int dz = 0; dz < CELL_XZ; dz++) {
                    visitor.visit(ci * CELL_XZ + dx, y, ck * CELL_XZ + dz, PerlinNoise.lerp(dz / (double) CELL_XZ, z0, z1));
                }
            }
        }
    }
}
