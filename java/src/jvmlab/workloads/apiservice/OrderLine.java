package jvmlab.workloads.apiservice;

/** One product of an order, with the price it was sold at. */
final class OrderLine {
    final long productId;
    final String sku;
    final String name;
    final int quantity;
    final long unitPriceCents;

    OrderLine(Product product, int quantity) {
        this.productId = product.id;
        this.sku = product.sku;
        this.name = product.name;
        this.quantity = quantity;
        this.unitPriceCents = product.priceCents;
    }

    long amountCents() {
        return quantity * unitPriceCents;
    }

    void write(JsonWriter w) {
        w.beginObject().field("productId", productId).field("sku", sku).field("name", name)
                .field("quantity", quantity).name("unitPrice").money(unitPriceCents).name("amount")
                .money(amountCents()).endObject();
    }
}
