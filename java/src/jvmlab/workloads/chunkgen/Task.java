package jvmlab.workloads.chunkgen;

import jvmlab.workloads.CommandLine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A pre-generation task: every chunk of a square area, in rings from the centre, on a pool of workers, each
 * chunk saved to the world's region files; progress lines as it goes, a summary at the end.
 */
public final class Task {
    private final Options options;
    private final PrintStream out;
    private final AtomicReference<Throwable> failure = new AtomicReference<Throwable>();
    private static final long OUTSIDE_A_CHUNK = Long.MIN_VALUE;
    // x and z of the first failure, packed: recorded without allocating
    private volatile long failedChunk = OUTSIDE_A_CHUNK;

    private Task(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** Runs chunkgen with a command line; returns the exit status (0 done, 1 failed, 2 bad command line). */
    public static int main(String[] args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (CommandLine.Invalid e) {
            System.err.println("chunkgen: " + e.getMessage());
            return 2;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return 0;
        }
        try {
            return new Task(options, System.out).run();
        } catch (IOException e) {
            System.err.println("chunkgen: " + e.getMessage());
            return 1;
        }
    }

    private int run() throws IOException {
        Options o = options;
        long total = o.chunks();
        out.printf(Locale.ROOT, "chunkgen: %d chunks (radius %d around %d, %d), %d threads, seed %d, into %s%n",
                total, o.radius, o.centerX, o.centerZ, o.threads, o.seed, o.out.getPath());
        WorldGenerator world = new WorldGenerator(o.seed, o.out, o.cache);
        Progress progress = new Progress(total, o.reportMs, out).start();
        ExecutorService workers = Executors.newFixedThreadPool(o.threads, new Named("chunkgen-worker-", failure));
        try {
            int[] order = Spiral.square(o.centerX, o.centerZ, o.radius);
            for (int i = 0; i < order.length; i += 2) {
                workers.execute(chunk(world, progress, order[i], order[i + 1]));
            }
            workers.shutdown();
            awaitAll(workers);
        } finally {
            workers.shutdownNow();
            progress.stop();
            world.close();
        }
        Throwable failed = failure.get();
        if (failed != null) {
            long chunk = failedChunk;
            System.err.println(chunk == OUTSIDE_A_CHUNK ? "chunkgen: a worker failed; stopping"
                    : "chunkgen: chunk " + (int) (chunk >> 32) + ", " + (int) chunk + " failed; stopping");
            failed.printStackTrace();
            return 1;
        }
        summary(world, progress);
        return 0;
    }

    private Runnable chunk(final WorldGenerator world, final Progress progress, final int x, final int z) {
        return new Runnable() {
            @Override
            public void run() {
                if (failure.get() != null) {
                    return;
                }
                try {
                    world.generate(x, z);
                    progress.chunkDone();
                } catch (Throwable t) { // often OutOfMemoryError: allocate nothing here, or the other tasks run on
                    if (failure.compareAndSet(null, t)) {
                        failedChunk = ((long) x << 32) | (z & 0xFFFFFFFFL);
                    }
                }
            }
        };
    }

    /**
     * Until every chunk is done or one failed: an OutOfMemoryError can also strike outside a chunk (in the
     * pool's own code, or as a worker that died is replaced), and kill workers with chunks still queued, which
     * the pool would then wait for forever.
     */
    private void awaitAll(ExecutorService workers) {
        try {
            while (!workers.awaitTermination(100, TimeUnit.MILLISECONDS) && failure.get() == null) {
                // the progress thread reports meanwhile
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void summary(WorldGenerator world, Progress progress) {
        double seconds = progress.elapsedSeconds();
        long done = progress.done();
        out.printf(Locale.ROOT, "Task finished: %d chunks in %.2f s (average rate %.1f cps)%n",
                done, seconds, done / seconds);
        long side = 2L * options.radius + 3; // the area and the border of neighbours decoration reads
        out.printf(Locale.ROOT, "World: %d region files, %.1f MB (chunk data %.1f MB compressed); "
                        + "terrain of %d chunks made, %d again after the cache had dropped them; checksum %016x%n",
                world.regionCount(), world.regionBytes() / 1e6, world.compressedBytes() / 1e6,
                side * side, world.terrainsMade() - side * side, world.checksum());
    }

    private static final class Named implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger(1);
        private final Thread.UncaughtExceptionHandler recorder;

        Named(String prefix, final AtomicReference<Throwable> failure) {
            this.prefix = prefix;
            // what escapes a chunk's own catch (the pool's code ran out of heap): recorded without allocating
            this.recorder = new Thread.UncaughtExceptionHandler() {
                @Override
                public void uncaughtException(Thread thread, Throwable e) {
                    failure.compareAndSet(null, e);
                }
            };
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, prefix + next.getAndIncrement());
            t.setDaemon(true); // a failure in main ends the JVM even if a worker is still busy
            t.setUncaughtExceptionHandler(recorder);
            return t;
        }
    }
}
