package jvmlab.workloads.bigcode;

/**
 * What every generated class implements: {@code call(k, data, x)} runs its method {@code m<k>(data, x)}
 * through a {@code tableswitch}, so the driver reaches any of the thousands of methods without reflection.
 */
public interface Kernel {
    int call(int method, int[] data, int x);
}
