package jvmlab.workloads.apiservice;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * What a compiled campaign does: a percentage off subtotals from a minimum, up to a cap. The invocation
 * handler behind each campaign's {@link PricingRule} proxy; its terms come from the seed and the campaign's
 * slot, so a campaign compiled again behaves the same.
 */
final class RuleHandler implements InvocationHandler {
    private final String campaign;
    private final int priority;
    private final int percent;
    private final long minimumCents;
    private final int minimumItems;
    private final long capCents;

    RuleHandler(long seed, int slot) {
        long h = Mix.hash(seed, slot, 21);
        campaign = Words.pick(Words.SEASONS, h) + "-" + slot;
        priority = Mix.below(h >>> 8, 10);
        percent = 5 + Mix.below(h >>> 16, 21);
        minimumCents = 1000L * Mix.below(h >>> 24, 10);
        minimumItems = 1 + Mix.below(h >>> 32, 3);
        capCents = 1000L * (2 + Mix.below(h >>> 40, 19));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        String name = method.getName();
        if (name.equals("applies")) {
            return (Long) args[0] >= minimumCents && (Integer) args[1] >= minimumItems;
        } else if (name.equals("discountCents")) {
            return Math.min(capCents, (Long) args[0] * percent / 100);
        } else if (name.equals("campaign")) {
            return campaign;
        } else if (name.equals("priority")) {
            return priority;
        } else if (name.equals("describe") || name.equals("toString")) {
            return campaign + ": " + percent + "% off from " + minimumCents / 100 + " EUR and " + minimumItems
                    + " items, at most " + capCents / 100 + " EUR";
        } else if (name.equals("hashCode")) {
            return System.identityHashCode(proxy);
        } else if (name.equals("equals")) {
            return proxy == args[0];
        }
        throw new UnsupportedOperationException(method.toString());
    }
}
