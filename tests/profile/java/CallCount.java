/**
 * A program whose calls jvmlab's tests count exactly: it prints "ready", then calls {@code Target.hit}
 * exactly N times (N: the system property calls.n, default 1000) and {@code Target.other} N / 2 times, where
 * the calls happen only after the ready line and a start signal:
 * <ul>
 * <li>{@code go}: the first line on stdin (the test starts counting, then writes "go");</li>
 * <li>{@code pause}: calls.pauseMs milliseconds after the ready line (experiments: counting starts once the
 * workload is ready).</li>
 * </ul>
 * It prints "done N" and then, with calls.stay=true, waits for stdin to close; else it exits.
 * Compiles with {@code javac --release 8}.
 */
public final class CallCount {
    static final class Target {
        static long sink;

        static int hit(int x) {
            sink += x;
            return x * 31;
        }

        static int other(int x) {
            sink -= x;
            return x;
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.getInteger("calls.n", 1000);
        long pauseMs = Long.getLong("calls.pauseMs", -1L);
        boolean stay = Boolean.getBoolean("calls.stay");
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        if (pauseMs >= 0) {
            Thread.sleep(pauseMs);
        } else {
            in.readLine();
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += Target.hit(i);
            if (i % 2 == 0) {
                total += Target.other(i);
            }
        }
        System.out.println("done " + n + " " + total);
        System.out.flush();
        if (stay) {
            while (in.readLine() != null) {
                // until stdin closes
            }
        }
    }
}
