package jvmlab.workloads.chunkgen;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The terrain of recently generated chunks, shared by the workers: decorating a chunk needs its eight
 * neighbours' terrain. Each is made once by whichever worker asks first (the others wait for it), and
 * dropped oldest first beyond {@code capacity}, as a server unloads chunks behind the generation front.
 */
final class ProtoCache {
    /** Makes the terrain of one chunk. */
    interface Maker {
        ProtoChunk make(int chunkX, int chunkZ);
    }

    private final Maker maker;
    private final int capacity;
    private final ConcurrentHashMap<Long, FutureTask<ProtoChunk>> chunks = new ConcurrentHashMap<Long, FutureTask<ProtoChunk>>();
    private final ConcurrentLinkedQueue<Long> age = new ConcurrentLinkedQueue<Long>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicLong made = new AtomicLong();

    ProtoCache(Maker maker, int capacity) {
        this.maker = maker;
        this.capacity = capacity;
    }

    ProtoChunk get(final int chunkX, final int chunkZ) {
        Long key = ((long) chunkX << 32) ^ (chunkZ & 0xFFFFFFFFL);
        FutureTask<ProtoChunk> task = chunks.get(key);
        if (task == null) {
            FutureTask<ProtoChunk> mine = new FutureTask<ProtoChunk>(new java.util.concurrent.Callable<ProtoChunk>() {
                @Override
                public ProtoChunk call() {
                    return maker.make(chunkX, chunkZ);
                }
            });
            task = chunks.putIfAbsent(key, mine);
            if (task == null) {
                task = mine;
                mine.run();
                made.incrementAndGet();
                age.add(key);
                if (size.incrementAndGet() > capacity) {
                    evictOldest();
                }
            }
        }
        return result(task);
    }

    private void evictOldest() {
        Long oldest = age.poll();
        if (oldest != null) {
            chunks.remove(oldest);
            size.decrementAndGet();
        }
    }

    private static ProtoChunk result(FutureTask<ProtoChunk> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new RuntimeException(cause);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How many terrains were made, counting those made again after they were dropped. */
    long made() {
        return made.get();
    }
}
