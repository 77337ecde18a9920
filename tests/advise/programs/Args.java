// key=value arguments of the programs in this directory, and pacing of an allocation rate.
import java.util.HashMap;
import java.util.Map;

final class Args {
    private final Map<String, String> opts = new HashMap<>();

    Args(String[] args) {
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected key=value, got " + a);
            }
            opts.put(a.substring(0, eq), a.substring(eq + 1));
        }
    }

    double num(String key, double dflt) {
        String v = opts.get(key);
        return v == null ? dflt : Double.parseDouble(v);
    }

    int integer(String key, int dflt) {
        return (int) num(key, dflt);
    }

    /** Sleeps while a thread that started at `startNanos` is ahead of `perSecond` units (0: no pacing). */
    static void pace(long startNanos, double done, double perSecond) {
        if (perSecond <= 0) {
            return;
        }
        long ahead = startNanos + (long) (done / perSecond * 1e9) - System.nanoTime();
        if (ahead > 1_000_000) {
            try {
                Thread.sleep(ahead / 1_000_000, (int) (ahead % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
