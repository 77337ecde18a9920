package jvmlab.workloads.apiservice;

/** A row of the sales table as the batch report reads it: fresh strings per row, as a database driver makes. */
final class Sale {
    private static final long FOOTPRINT_BYTES = Footprint.OBJECT + 3 * 8 + 2 * 4 + 3 * Footprint.REFERENCE;

    final long orderId;
    final long productId;
    final String category;
    final String region;
    final int hour;
    final int quantity;
    final long amountCents;

    Sale(long orderId, long productId, String category, String region, int hour, int quantity, long amountCents) {
        this.orderId = orderId;
        this.productId = productId;
        this.category = category;
        this.region = region;
        this.hour = hour;
        this.quantity = quantity;
        this.amountCents = amountCents;
    }

    /** The row's heap size, its strings and its slot in the list included. */
    long footprintBytes() {
        return FOOTPRINT_BYTES + Footprint.string(category) + Footprint.string(region);
    }
}
