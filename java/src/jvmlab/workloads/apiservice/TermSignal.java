package jvmlab.workloads.apiservice;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Makes SIGTERM a normal exit (status 0, shutdown hooks run: the service's, and the JVM's own such as a JFR
 * dump) instead of the JVM's exit status 143. Through sun.misc.Signal (module jdk.unsupported, JDK 8 to 25),
 * reached by reflection because {@code javac --release 8} does not expose it.
 */
final class TermSignal implements InvocationHandler {
    private TermSignal() {
    }

    /** False where the JVM does not let us handle SIGTERM (-Xrs, no sun.misc): then it exits with 143. */
    static boolean install() {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object proxy = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, new TermSignal());
            signal.getMethod("handle", signal, handler)
                    .invoke(null, signal.getConstructor(String.class).newInstance("TERM"), proxy);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        if (method.getName().equals("handle")) {
            System.exit(0);
            return null;
        } else if (method.getName().equals("hashCode")) {
            return System.identityHashCode(proxy);
        } else if (method.getName().equals("equals")) {
            return proxy == args[0];
        }
        return "SIGTERM: exit 0";
    }
}
