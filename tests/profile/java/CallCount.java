/**
 * A program whose calls jvmlab's tests count exactly: it prints "ready", then calls {@code Target.hit}
 * exactly N times (N: the system property calls.n, default 1000) and {@code Target.other} N / 2 times, where
 * the calls happen only after the ready line and a start signal:
 * <ul>
 * <li>{@code go}: the first line on stdin (the test starts counting, then writes "go");</li>
 * <li>{@code pause}: calls.pauseMs milliseconds after the ready line (experiments: counting starts once the
 * workload is ready);</li>
 * <li>{@code recorded}: with calls.untilRecorded=true, once a JFR recording runs in this JVM (experiments on
 * JDK 25, where counting is a recording started once the workload is ready: no race with a slow attach).</li>
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
        if (Boolean.getBoolean("calls.untilRecorded")) {
            untilRecorded();
        } else if (pauseMs >= 0) {
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

    /**
     * Waits (up to a minute) until a JFR recording is running, then a little longer for its method timing to
     * reach the classes; reflection, as jdk.jfr is not in Java 8's API.
     */
    private static void untilRecorded() throws Exception {
        Object recorder = Class.forName("jdk.jfr.FlightRecorder").getMethod("getFlightRecorder").invoke(null);
        java.lang.reflect.Method recordings = recorder.getClass().getMethod("getRecordings");
        for (int i = 0; i < 1200 && !running((java.util.List<?>) recordings.invoke(recorder)); i++) {
            Thread.sleep(50);
        }
        Thread.sleep(300);
    }

    private static boolean running(java.util.List<?> recordings) throws Exception {
        for (Object r : recordings) {
            if ("RUNNING".equals(String.valueOf(r.getClass().getMethod("getState").invoke(r)))) {
                return true;
            }
        }
        return false;
    }
}
