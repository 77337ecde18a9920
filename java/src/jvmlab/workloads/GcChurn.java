package jvmlab.workloads;

/** Placeholder replaced by the allocating workload; kept so the Java build has a source. */
public final class GcChurn {
    public static void main(String[] args) {
        System.out.println("GcChurn");
    }
}
