package jvmlab.workloads.chunkgen;

import java.util.Random;

/**
 * Caves: winding tunnels and rooms started from every chunk within {@link #RANGE} chunks (seeded by that
 * chunk, so each chunk carves its share of tunnels that cross it, in any order), and large caverns where a
 * 3D noise is low. Lava fills what is carved below y 11. Trigonometry is StrictMath: the same bits
 * interpreted or compiled, on every JDK, so that a world is the same whatever ran it.
 */
final class CaveCarver {
    private static final int RANGE = 8;
    private static final long TUNNEL_SALT = 0x2545F4914F6CDD1DL;
    private static final int LAVA_LEVEL = 10;
    private static final double PI = Math.PI;

    private final long seed;
    private final OctaveNoise cheese;

    CaveCarver(long seed) {
        this.seed = seed;
        cheese = new OctaveNoise(new Random(seed ^ 0xCAFEL), 4, 64);
    }

    void carve(ProtoChunk chunk) {
        chunk.computeSurface();
        carveCaverns(chunk);
        for (int dz = -RANGE; dz <= RANGE; dz++) {
            for (int dx = -RANGE; dx <= RANGE; dx++) {
                startTunnels(chunk, chunk.x + dx, chunk.z + dz);
            }
        }
    }

    private void carveCaverns(final ProtoChunk chunk) {
        double[] field = new double[CellGrid.CORNERS];
        for (int i = 0; i < CellGrid.CORNERS_XZ; i++) {
            for (int k = 0; k < CellGrid.CORNERS_XZ; k++) {
                for (int j = 0; j < CellGrid.CORNERS_Y; j++) {
                    double x = chunk.x * 16 + i * CellGrid.CELL_XZ;
                    double z = chunk.z * 16 + k * CellGrid.CELL_XZ;
                    field[CellGrid.corner(i, j, k)] = cheese.sample(x, j * CellGrid.CELL_Y * 1.6, z);
                }
            }
        }
        CellGrid.forEachBlock(field, new CellGrid.BlockVisitor() {
            @Override
            public void visit(int x, int y, int z, double value) {
                if (value < -0.42 && y > 4 && y < chunk.surface[ProtoChunk.column(x, z)] - 10) {
                    carveBlock(chunk, x, y, z);
                }
            }
        });
    }

    private void startTunnels(ProtoChunk chunk, int originX, int originZ) {
        Random r = TerrainGenerator.chunkRandom(seed, originX, originZ, TUNNEL_SALT);
        if (r.nextInt(7) != 0) {
            return;
        }
        int starts = r.nextInt(r.nextInt(r.nextInt(15) + 1) + 1);
        for (int s = 0; s < starts; s++) {
            double x = originX * 16 + r.nextInt(16);
            double y = r.nextInt(r.nextInt(120) + 8);
            double z = originZ * 16 + r.nextInt(16);
            int tunnels = 1;
            if (r.nextInt(4) == 0) {
                tunnel(chunk, r.nextLong(), x, y, z, 1 + r.nextFloat() * 6, 0, 0, -1, 0, 0.5);
                tunnels += r.nextInt(4);
            }
            for (int t = 0; t < tunnels; t++) {
                double yaw = r.nextFloat() * PI * 2;
                double pitch = (r.nextFloat() - 0.5) * 0.25;
                double width = r.nextFloat() * 2 + r.nextFloat();
                if (r.nextInt(10) == 0) {
                    width *= r.nextFloat() * r.nextFloat() * 3 + 1;
                }
                tunnel(chunk, r.nextLong(), x, y, z, width, yaw, pitch, 0, 0, 1.0);
            }
        }
    }

    /**
     * Walks a tunnel from (x, y, z), carving an ellipsoid at each step that touches the chunk. A step of -1
     * makes a room (one wide ellipsoid). Tunnels fork once, about halfway.
     */
    private void tunnel(ProtoChunk chunk, long tunnelSeed, double x, double y, double z, double width,
            double yaw, double pitch, int step, int length, double squash) {
        Random r = new Random(tunnelSeed);
        double centerX = chunk.x * 16 + 8;
        double centerZ = chunk.z * 16 + 8;
        if (length <= 0) {
            int most = RANGE * 16 - 16;
            length = most - r.nextInt(most / 4);
        }
        boolean room = step == -1;
        if (room) {
            step = length / 2;
        }
        int forkAt = r.nextInt(length / 2) + length / 4;
        boolean steep = r.nextInt(6) == 0;
        double yawTurn = 0;
        double pitchTurn = 0;
        for (; step < length; step++) {
            double radius = 1.5 + StrictMath.sin(step * PI / length) * width;
            double cosPitch = StrictMath.cos(pitch);
            x += StrictMath.cos(yaw) * cosPitch;
            y += StrictMath.sin(pitch);
            z += StrictMath.sin(yaw) * cosPitch;
            pitch *= steep ? 0.92 : 0.7;
            pitch += pitchTurn * 0.1;
            yaw += yawTurn * 0.1;
            pitchTurn *= 0.9;
            yawTurn *= 0.75;
            pitchTurn += (r.nextFloat() - r.nextFloat()) * r.nextFloat() * 2;
            yawTurn += (r.nextFloat() - r.nextFloat()) * r.nextFloat() * 4;
            if (!room && step == forkAt && width > 1) {
                tunnel(chunk, r.nextLong(), x, y, z, r.nextFloat() * 0.5 + 0.5, yaw - PI / 2, pitch / 3, step, length, 1.0);
                tunnel(chunk, r.nextLong(), x, y, z, r.nextFloat() * 0.5 + 0.5, yaw + PI / 2, pitch / 3, step, length, 1.0);
                return;
            }
            if (!room && r.nextInt(4) == 0) {
                continue;
            }
            double toX = x - centerX;
            double toZ = z - centerZ;
            double left = length - step;
            double reach = width + 2 + 16;
            if (toX * toX + toZ * toZ - left * left > reach * reach) {
                return; // too far to ever reach this chunk
            }
            if (Math.abs(toX) <= 8 + radius * 2 && Math.abs(toZ) <= 8 + radius * 2) {
                ellipsoid(chunk, x, y, z, radius, radius * squash);
            }
            if (room) {
                return;
            }
        }
    }

    private void ellipsoid(ProtoChunk chunk, double x, double y, double z, double radius, double radiusY) {
        int baseX = chunk.x * 16;
        int baseZ = chunk.z * 16;
        int minX = Math.max(0, PerlinNoise.floor(x - radius) - baseX - 1);
        int maxX = Math.min(16, PerlinNoise.floor(x + radius) - baseX + 1);
        int minY = Math.max(1, PerlinNoise.floor(y - radiusY) - 1);
        int maxY = Math.min(248, PerlinNoise.floor(y + radiusY) + 1);
        int minZ = Math.max(0, PerlinNoise.floor(z - radius) - baseZ - 1);
        int maxZ = Math.min(16, PerlinNoise.floor(z + radius) - baseZ + 1);
        if (minX >= maxX || minZ >= maxZ || minY >= maxY || touchesWater(chunk, minX, maxX, minY, maxY, minZ, maxZ)) {
            return;
        }
        for (int bx = minX; bx < maxX; bx++) {
            double dx = (bx + baseX + 0.5 - x) / radius;
            for (int bz = minZ; bz < maxZ; bz++) {
                double dz = (bz + baseZ + 0.5 - z) / radius;
                if (dx * dx + dz * dz >= 1) {
                    continue;
                }
                for (int by = maxY - 1; by >= minY; by--) {
                    double dy = (by + 0.5 - y) / radiusY;
                    if (dy > -0.7 && dx * dx + dy * dy + dz * dz < 1) {
                        carveBlock(chunk, bx, by, bz);
                    }
                }
            }
        }
    }

    private static boolean touchesWater(ProtoChunk chunk, int minX, int maxX, int minY, int maxY, int minZ, int maxZ) {
        for (int bx = minX; bx < maxX; bx++) {
            for (int bz = minZ; bz < maxZ; bz++) {
                for (int by = maxY; by >= minY - 1 && by >= 0; by--) {
                    if (chunk.get(bx, Math.min(by, ProtoChunk.HEIGHT - 1), bz) == Blocks.WATER) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void carveBlock(ProtoChunk chunk, int x, int y, int z) {
        int block = chunk.get(x, y, z);
        if (block == Blocks.BEDROCK || block == Blocks.WATER || Blocks.isAir(block)) {
            return;
        }
        chunk.set(x, y, z, y <= LAVA_LEVEL ? Blocks.LAVA : Blocks.CAVE_AIR);
    }
}
