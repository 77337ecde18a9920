package jvmlab.workloads.chunkgen;

/** The block types: a byte id each, with the namespaced name and state properties of the saved format. */
final class Blocks {
    static final byte AIR = 0;
    static final byte STONE = 1;
    static final byte GRASS_BLOCK = 2;
    static final byte DIRT = 3;
    static final byte BEDROCK = 4;
    static final byte WATER = 5;
    static final byte LAVA = 6;
    static final byte SAND = 7;
    static final byte SANDSTONE = 8;
    static final byte GRAVEL = 9;
    static final byte CLAY = 10;
    static final byte SNOW_BLOCK = 11;
    static final byte ICE = 12;
    static final byte OAK_LOG = 13;
    static final byte OAK_LEAVES = 14;
    static final byte SPRUCE_LOG = 15;
    static final byte SPRUCE_LEAVES = 16;
    static final byte BIRCH_LOG = 17;
    static final byte BIRCH_LEAVES = 18;
    static final byte COAL_ORE = 19;
    static final byte IRON_ORE = 20;
    static final byte GOLD_ORE = 21;
    static final byte REDSTONE_ORE = 22;
    static final byte DIAMOND_ORE = 23;
    static final byte LAPIS_ORE = 24;
    static final byte CACTUS = 25;
    static final byte TALL_GRASS = 26;
    static final byte SNOW = 27;
    static final byte CAVE_AIR = 28;
    static final byte GRANITE = 29;
    static final byte DIORITE = 30;
    static final int COUNT = 31;

    private static final String[] NAMES = new String[COUNT];
    private static final String[][] PROPERTIES = new String[COUNT][];
    /** How much sky light a block takes away as light passes through it (15: none passes). */
    private static final int[] OPACITY = new int[COUNT];

    static {
        define(AIR, "air", 0);
        define(STONE, "stone", 15);
        define(GRASS_BLOCK, "grass_block", 15, "snowy", "false");
        define(DIRT, "dirt", 15);
        define(BEDROCK, "bedrock", 15);
        define(WATER, "water", 1, "level", "0");
        define(LAVA, "lava", 15, "level", "0");
        define(SAND, "sand", 15);
        define(SANDSTONE, "sandstone", 15);
        define(GRAVEL, "gravel", 15);
        define(CLAY, "clay", 15);
        define(SNOW_BLOCK, "snow_block", 15);
        define(ICE, "ice", 1);
        define(OAK_LOG, "oak_log", 15, "axis", "y");
        define(OAK_LEAVES, "oak_leaves", 1, "distance", "1", "persistent", "false");
        define(SPRUCE_LOG, "spruce_log", 15, "axis", "y");
        define(SPRUCE_LEAVES, "spruce_leaves", 1, "distance", "1", "persistent", "false");
        define(BIRCH_LOG, "birch_log", 15, "axis", "y");
        define(BIRCH_LEAVES, "birch_leaves", 1, "distance", "1", "persistent", "false");
        define(COAL_ORE, "coal_ore", 15);
        define(IRON_ORE, "iron_ore", 15);
        define(GOLD_ORE, "gold_ore", 15);
        define(REDSTONE_ORE, "redstone_ore", 15, "lit", "false");
        define(DIAMOND_ORE, "diamond_ore", 15);
        define(LAPIS_ORE, "lapis_ore", 15);
        define(CACTUS, "cactus", 0, "age", "0");
        define(TALL_GRASS, "grass", 0);
        define(SNOW, "snow", 0, "layers", "1");
        define(CAVE_AIR, "cave_air", 0);
        define(GRANITE, "granite", 15);
        define(DIORITE, "diorite", 15);
    }

    private Blocks() {
    }

    private static void define(byte id, String name, int opacity, String... properties) {
        NAMES[id] = "minecraft:" + name;
        PROPERTIES[id] = properties;
        OPACITY[id] = opacity;
    }

    static String name(int id) {
        return NAMES[id];
    }

    /** Alternating property names and values. */
    static String[] properties(int id) {
        return PROPERTIES[id];
    }

    static int opacity(int id) {
        return OPACITY[id];
    }

    static boolean isAir(int id) {
        return id == AIR || id == CAVE_AIR;
    }

    /** Blocks that stop motion: the MOTION_BLOCKING height map counts these and fluids. */
    static boolean blocksMotion(int id) {
        return !isAir(id) && id != TALL_GRASS && id != SNOW;
    }

    static boolean isFluid(int id) {
        return id == WATER || id == LAVA;
    }

    /** What ores and caves may replace. */
    static boolean isBaseStone(int id) {
        return id == STONE || id == GRANITE || id == DIORITE;
    }
}
