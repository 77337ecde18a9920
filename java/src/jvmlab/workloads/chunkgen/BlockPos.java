package jvmlab.workloads.chunkgen;

/** An immutable block position, as game code passes them around by the million. */
final class BlockPos {
    final int x;
    final int y;
    final int z;

    BlockPos(int x, int y, int z) {
        this.x = x;
        this.y = y;
        this.z = z;
    }

    BlockPos offset(int dx, int dy, int dz) {
        return new BlockPos(x + dx, y + dy, z + dz);
    }

    BlockPos up(int n) {
        return new BlockPos(x, y + n, z);
    }

    BlockPos down() {
        return new BlockPos(x, y - 1, z);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BlockPos)) {
            return false;
        }
        BlockPos p = (BlockPos) o;
        return p.x == x && p.y == y && p.z == z;
    }

    @Override
    public int hashCode() {
        return (y + z * 31) * 31 + x;
    }
}
