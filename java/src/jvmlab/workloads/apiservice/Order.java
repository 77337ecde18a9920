package jvmlab.workloads.apiservice;

import java.time.LocalDate;
import java.util.List;

/** An order: its lines, and its totals once a pricing rule and shipping are applied. */
final class Order {
    static final long FREE_SHIPPING_CENTS = 5000;
    static final long SHIPPING_CENTS = 490;

    final String id;
    final long userId;
    final long placedOnDay;
    final String status;
    final List<OrderLine> lines;
    final long subtotalCents;
    final String campaign;
    final long discountCents;
    final long shippingCents;

    Order(String id, long userId, long placedOnDay, String status, List<OrderLine> lines, String campaign,
            long discountCents) {
        this.id = id;
        this.userId = userId;
        this.placedOnDay = placedOnDay;
        this.status = status;
        this.lines = lines;
        this.subtotalCents = subtotal(lines);
        this.campaign = campaign;
        this.discountCents = discountCents;
        this.shippingCents = subtotalCents - discountCents >= FREE_SHIPPING_CENTS ? 0 : SHIPPING_CENTS;
    }

    static long subtotal(List<OrderLine> lines) {
        long cents = 0;
        for (OrderLine line : lines) {
            cents += line.amountCents();
        }
        return cents;
    }

    static int items(List<OrderLine> lines) {
        int items = 0;
        for (OrderLine line : lines) {
            items += line.quantity;
        }
        return items;
    }

    long totalCents() {
        return subtotalCents - discountCents + shippingCents;
    }

    void write(JsonWriter w) {
        w.beginObject().field("id", id).field("userId", userId)
                .field("placedOn", LocalDate.ofEpochDay(placedOnDay).toString()).field("status", status);
        w.name("lines").beginArray();
        for (OrderLine line : lines) {
            line.write(w);
        }
        w.endArray().field("items", items(lines)).name("subtotal").money(subtotalCents).field("campaign", campaign)
                .name("discount").money(discountCents).name("shipping").money(shippingCents).name("total")
                .money(totalCents()).field("currency", "EUR").endObject();
    }
}
