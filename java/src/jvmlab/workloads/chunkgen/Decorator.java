package jvmlab.workloads.chunkgen;

import java.util.Random;

/**
 * Decorates a chunk: ore veins and stone blobs, trees (those of the eight neighbours too, where their
 * leaves reach over the border), grass and cacti, snow and ice. Everything comes from seeds of chunk
 * coordinates and the terrain of the neighbours, so a chunk comes out the same in any order and thread
 * (and trigonometry is StrictMath, the same on every JDK).
 */
final class Decorator {
    private static final long ORE_SALT = 0x9E3779B97F4A7C15L;
    private static final long TREE_SALT = 0x632BE59BD9B4E019L;
    private static final long DETAIL_SALT = 0x85EBCA6B27D4EB4FL;
    /** block, veins per chunk, blocks per vein, lowest y, highest y */
    private static final int[][] ORES = {
        {Blocks.GRAVEL, 8, 33, 0, 256},
        {Blocks.GRANITE, 10, 33, 0, 80},
        {Blocks.DIORITE, 10, 33, 0, 80},
        {Blocks.COAL_ORE, 20, 17, 0, 128},
        {Blocks.IRON_ORE, 20, 9, 0, 64},
        {Blocks.GOLD_ORE, 2, 9, 0, 32},
        {Blocks.REDSTONE_ORE, 8, 8, 0, 16},
        {Blocks.DIAMOND_ORE, 1, 8, 0, 16},
        {Blocks.LAPIS_ORE, 1, 7, 0, 32},
    };

    private final long seed;

    Decorator(long seed) {
        this.seed = seed;
    }

    /** {@code around}: the terrain of the 3 x 3 chunks centred on this one, row by row (z, then x). */
    void decorate(Chunk chunk, ProtoChunk[] around) {
        Random ores = TerrainGenerator.chunkRandom(seed, chunk.x, chunk.z, ORE_SALT);
        for (int[] ore : ORES) {
            for (int i = 0; i < ore[1]; i++) {
                vein(chunk, ores, (byte) ore[0], ore[2], ore[3], ore[4]);
            }
        }
        for (ProtoChunk neighbour : around) {
            trees(chunk, neighbour);
        }
        details(chunk, TerrainGenerator.chunkRandom(seed, chunk.x, chunk.z, DETAIL_SALT));
    }

    /** A vein: spheres along a short random line, replacing stone, clipped to the chunk. */
    private static void vein(Chunk chunk, Random r, byte block, int size, int minY, int maxY) {
        double angle = r.nextFloat() * Math.PI;
        double x = chunk.x * 16 + r.nextInt(16);
        double z = chunk.z * 16 + r.nextInt(16);
        double y = minY + r.nextInt(maxY - minY);
        double x1 = x + StrictMath.sin(angle) * size / 8;
        double x2 = x - StrictMath.sin(angle) * size / 8;
        double z1 = z + StrictMath.cos(angle) * size / 8;
        double z2 = z - StrictMath.cos(angle) * size / 8;
        double y1 = y + r.nextInt(3) - 2;
        double y2 = y + r.nextInt(3) - 2;
        for (int i = 0; i < size; i++) {
            double t = i / (double) size;
            double cx = x1 + (x2 - x1) * t;
            double cy = y1 + (y2 - y1) * t;
            double cz = z1 + (z2 - z1) * t;
            double radius = ((StrictMath.sin(t * Math.PI) + 1) * r.nextDouble() * size / 16 + 1) / 2;
            sphere(chunk, block, cx, cy, cz, radius);
        }
    }

    private static void sphere(Chunk chunk, byte block, double cx, double cy, double cz, double radius) {
        int x0 = PerlinNoise.floor(cx - radius);
        int y0 = Math.max(1, PerlinNoise.floor(cy - radius));
        int z0 = PerlinNoise.floor(cz - radius);
        int x1 = PerlinNoise.floor(cx + radius);
        int y1 = Math.min(Chunk.HEIGHT - 1, PerlinNoise.floor(cy + radius));
        int z1 = PerlinNoise.floor(cz + radius);
        double r2 = radius * radius;
        for (int x = x0; x <= x1; x++) {
            for (int y = y0; y <= y1; y++) {
                for (int z = z0; z <= z1; z++) {
                    double dx = x + 0.5 - cx;
                    double dy = y + 0.5 - cy;
                    double dz = z + 0.5 - cz;
                    if (dx * dx + dy * dy + dz * dz < r2) {
                        BlockPos p = new BlockPos(x, y, z);
                        if (Blocks.isBaseStone(chunk.getWorld(p))) {
                            chunk.setWorld(p, block);
                        }
                    }
                }
            }
        }
    }

    /** The trees rooted in {@code from} (this chunk or a neighbour), the parts of them inside {@code chunk}. */
    private void trees(Chunk chunk, ProtoChunk from) {
        Random r = TerrainGenerator.chunkRandom(seed, from.x, from.z, TREE_SALT);
        Biome main = from.biome(8, 8);
        int count = main.treesPerChunk + (r.nextInt(10) == 0 ? 1 : 0);
        for (int i = 0; i < count; i++) {
            int lx = r.nextInt(16);
            int lz = r.nextInt(16);
            int height = 4 + r.nextInt(4);
            long shape = r.nextLong();
            Biome biome = from.biome(lx, lz);
            int y = from.surface[ProtoChunk.column(lx, lz)];
            int ground = y > 0 ? from.get(lx, y - 1, lz) : Blocks.AIR;
            boolean soil = ground == Blocks.GRASS_BLOCK || ground == Blocks.DIRT || ground == Blocks.SNOW_BLOCK;
            if (biome.tree == Biome.Tree.NONE || !soil || y + height + 3 >= Chunk.HEIGHT) {
                continue;
            }
            BlockPos base = new BlockPos(from.x * 16 + lx, y, from.z * 16 + lz);
            Random leaves = new Random(shape);
            if (biome.tree == Biome.Tree.SPRUCE) {
                spruce(chunk, base, height + 2, leaves);
            } else {
                boolean birch = biome.tree == Biome.Tree.BIRCH;
                broadleaf(chunk, base, height, leaves, birch ? Blocks.BIRCH_LOG : Blocks.OAK_LOG,
                        birch ? Blocks.BIRCH_LEAVES : Blocks.OAK_LEAVES);
            }
        }
    }

    private static void broadleaf(Chunk chunk, BlockPos base, int height, Random r, byte log, byte leaves) {
        for (int dy = height - 3; dy <= height; dy++) {
            int radius = dy >= height - 1 ? 1 : 2;
            for (int dx = -radius; dx <= radius; dx++) {
                for (int dz = -radius; dz <= radius; dz++) {
                    boolean corner = Math.abs(dx) == radius && Math.abs(dz) == radius;
                    boolean skip = corner && (dy == height || r.nextInt(2) == 0);
                    if (!skip) {
                        leaf(chunk, base.offset(dx, dy, dz), leaves);
                    }
                }
            }
        }
        trunk(chunk, base, height, log);
    }

    private static void spruce(Chunk chunk, BlockPos base, int height, Random r) {
        int radius = 0;
        int widest = 2 + r.nextInt(2);
        for (int dy = height; dy >= 2; dy--) {
            for (int dx = -radius; dx <= radius; dx++) {
                for (int dz = -radius; dz <= radius; dz++) {
                    if (radius == 0 || Math.abs(dx) != radius || Math.abs(dz) != radius) {
                        leaf(chunk, base.offset(dx, dy, dz), Blocks.SPRUCE_LEAVES);
                    }
                }
            }
            radius = radius >= widest ? 1 : radius + 1;
        }
        leaf(chunk, base.up(height + 1), Blocks.SPRUCE_LEAVES);
        trunk(chunk, base, height, Blocks.SPRUCE_LOG);
    }

    private static void leaf(Chunk chunk, BlockPos p, byte leaves) {
        int current = chunk.getWorld(p);
        if (Blocks.isAir(current) || current == Blocks.TALL_GRASS || current == Blocks.SNOW) {
            chunk.setWorld(p, leaves);
        }
    }

    private static void trunk(Chunk chunk, BlockPos base, int height, byte log) {
        if (chunk.getWorld(base.down()) == Blocks.GRASS_BLOCK) {
            chunk.setWorld(base.down(), Blocks.DIRT);
        }
        for (int dy = 0; dy < height; dy++) {
            BlockPos p = base.up(dy);
            int current = chunk.getWorld(p);
            if (current != -1 && current != Blocks.BEDROCK && !Blocks.isFluid(current)) {
                chunk.setWorld(p, log);
            }
        }
    }

    /** Grass and cacti on the surface, ice on cold water, snow on cold ground. */
    private static void details(Chunk chunk, Random r) {
        for (int lz = 0; lz < 16; lz++) {
            for (int lx = 0; lx < 16; lx++) {
                Biome biome = chunk.biome(lx, lz);
                int y = top(chunk, lx, lz);
                if (y <= 0 || y >= Chunk.HEIGHT - 3) {
                    continue;
                }
                int ground = chunk.get(lx, y - 1, lz);
                if (biome.isCold() && ground == Blocks.WATER && y - 1 == TerrainGenerator.SEA_LEVEL) {
                    chunk.set(lx, y - 1, lz, Blocks.ICE);
                } else if (biome.isCold() && Blocks.blocksMotion(ground) && !Blocks.isFluid(ground)) {
                    chunk.set(lx, y, lz, Blocks.SNOW);
                } else if (ground == Blocks.GRASS_BLOCK && r.nextInt(biome == Biome.PLAINS ? 4 : 12) == 0) {
                    chunk.set(lx, y, lz, Blocks.TALL_GRASS);
                } else if (ground == Blocks.SAND && biome == Biome.DESERT && r.nextInt(60) == 0) {
                    for (int h = 0, n = 1 + r.nextInt(3); h < n; h++) {
                        chunk.set(lx, y + h, lz, Blocks.CACTUS);
                    }
                }
            }
        }
    }

    private static int top(Chunk chunk, int lx, int lz) {
        int y = Chunk.HEIGHT - 1;
        while (y >= 0 && Blocks.isAir(chunk.get(lx, y, lz))) {
            y--;
        }
        return y + 1;
    }
}
