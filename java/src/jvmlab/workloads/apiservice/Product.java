package jvmlab.workloads.apiservice;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A product of the catalog as the service holds it: the object graph a product row and its joins load into. */
final class Product {
    final long id;
    final String sku;
    final String name;
    final String brand;
    final String category;
    final long priceCents;
    final int ratingTenths;
    final int reviews;
    final int stock;
    final List<String> tags;
    final Map<String, String> attributes;
    final String description;
    final List<String> images;
    final long[] related;
    final long footprintBytes;

    Product(long id, String sku, String name, String brand, String category, long priceCents, int ratingTenths,
            int reviews, int stock, List<String> tags, Map<String, String> attributes, String description,
            List<String> images, long[] related) {
        this.id = id;
        this.sku = sku;
        this.name = name;
        this.brand = brand;
        this.category = category;
        this.priceCents = priceCents;
        this.ratingTenths = ratingTenths;
        this.reviews = reviews;
        this.stock = stock;
        this.tags = tags;
        this.attributes = attributes;
        this.description = description;
        this.images = images;
        this.related = related;
        this.footprintBytes = footprint();
    }

    private long footprint() {
        return Footprint.OBJECT + 14 * Footprint.REFERENCE + Footprint.string(sku) + Footprint.string(name)
                + Footprint.string(brand) + Footprint.string(category) + Footprint.strings(tags)
                + Footprint.map(attributes) + Footprint.string(description) + Footprint.strings(images)
                + 16 + 8L * related.length;
    }

    /** How well the product matches lower-case query words: name and tags count more than the text. */
    int relevance(List<String> words) {
        String title = name.toLowerCase(Locale.ROOT);
        String text = description.toLowerCase(Locale.ROOT);
        int score = 0;
        for (String word : words) {
            if (title.contains(word)) {
                score += 10;
            }
            if (tags.contains(word) || category.equals(word)) {
                score += 5;
            }
            if (text.contains(word)) {
                score += 2;
            }
        }
        return score;
    }

    /** The fields of a listing: search hits, related products. */
    void writeSummary(JsonWriter w) {
        w.beginObject().field("id", id).field("sku", sku).field("name", name).field("brand", brand)
                .field("category", category);
        w.name("price").money(priceCents).name("rating").tenths(ratingTenths).field("inStock", stock > 0);
        w.field("image", images.get(0)).endObject();
    }

    /** Every field: the product page. */
    void writeDetail(JsonWriter w) {
        w.beginObject().field("id", id).field("sku", sku).field("name", name).field("brand", brand)
                .field("category", category).name("price").money(priceCents).field("currency", "EUR")
                .name("rating").tenths(ratingTenths).field("reviews", reviews).field("stock", stock);
        w.name("tags").beginArray();
        for (String tag : tags) {
            w.value(tag);
        }
        w.endArray().name("attributes").beginObject();
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            w.field(e.getKey(), e.getValue());
        }
        w.endObject().field("description", description).name("images").beginArray();
        for (String image : images) {
            w.value(image);
        }
        w.endArray().endObject();
    }
}
