package jvmlab.workloads.chunkgen;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * One Anvil region file: 32 x 32 chunks. An 8 KiB header (per chunk: the offset and length of its data in
 * 4 KiB sectors, then a time stamp), then each chunk as its length, compression type 2 (zlib) and data,
 * padded to whole sectors. Chunks are appended; the header is written on close.
 */
final class RegionFile implements Closeable {
    static final int SECTOR = 4096;
    private static final int ZLIB = 2;
    private static final int MAX_SECTORS = 255;

    private final RandomAccessFile file;
    private final int[] locations = new int[1024];
    private final int[] timestamps = new int[1024];
    private int nextSector = 2;
    private long bytes;

    RegionFile(File path) throws IOException {
        file = new RandomAccessFile(path, "rw");
        file.setLength(0);
        file.write(new byte[2 * SECTOR]);
    }

    synchronized void write(int chunkX, int chunkZ, byte[] data) throws IOException {
        int sectors = (data.length + 5 + SECTOR - 1) / SECTOR;
        if (sectors > MAX_SECTORS) {
            throw new IOException("chunk " + chunkX + ", " + chunkZ + " needs " + sectors + " sectors (at most 255)");
        }
        long position = (long) nextSector * SECTOR;
        file.seek(position);
        file.writeInt(data.length + 1);
        file.writeByte(ZLIB);
        file.write(data);
        file.write(new byte[sectors * SECTOR - data.length - 5]);
        int index = (chunkX & 31) + (chunkZ & 31) * 32;
        locations[index] = (nextSector << 8) | sectors;
        timestamps[index] = (int) (System.currentTimeMillis() / 1000);
        nextSector += sectors;
        bytes = (long) nextSector * SECTOR;
    }

    synchronized long size() {
        return Math.max(bytes, 2L * SECTOR);
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            file.seek(0);
            for (int location : locations) {
                file.writeInt(location);
            }
            for (int timestamp : timestamps) {
                file.writeInt(timestamp);
            }
        } finally {
            file.close();
        }
    }
}
