package jvmlab.workloads.apiservice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The product catalog, as a database would return it: products 1 to {@code size}, each made from the seed
 * and its id alone (the same product on every run). Making one costs what reading and mapping a row with its
 * joins costs: tens of objects and a few KB of strings.
 */
final class Catalog {
    static final int RELATED = 6;
    private static final long CATEGORY = 1;
    private static final long PRICE = 2;
    private static final long DETAILS = 3;
    private static final long LINKS = 4;

    private final long seed;
    private final int size;

    Catalog(long seed, int size) {
        this.seed = seed;
        this.size = size;
    }

    int size() {
        return size;
    }

    boolean contains(long id) {
        return id >= 1 && id <= size;
    }

    String category(long id) {
        return Words.pick(Words.CATEGORIES, Mix.hash(seed, id, CATEGORY));
    }

    long priceCents(long id) {
        long h = Mix.hash(seed, id, PRICE);
        long euros = 5 + Mix.below(h, 20) * Mix.below(h >>> 20, 25);
        return euros * 100 + (Mix.below(h >>> 40, 4) == 0 ? 0 : 99);
    }

    /** The id-th product; {@code contains(id)} must hold. */
    Product product(long id) {
        Random r = new Random(Mix.hash(seed, id, DETAILS));
        String category = category(id);
        String adjective = Words.pick(Words.ADJECTIVES, r.nextLong());
        String material = Words.pick(Words.MATERIALS, r.nextLong());
        String noun = Words.pick(Words.NOUNS, r.nextLong());
        String brand = Words.pick(Words.BRANDS, r.nextLong());
        String name = Words.capitalised(adjective) + " " + material + " " + noun + " " + (char) ('A' + r.nextInt(26))
                + (100 + r.nextInt(900));
        return new Product(id, String.format(Locale.ROOT, "SKU-%08d", id), name, brand, category, priceCents(id),
                10 + r.nextInt(41), r.nextInt(5000), r.nextInt(8) == 0 ? 0 : r.nextInt(500),
                tags(r, category, adjective, material), attributes(r, material), description(r, name, brand, noun),
                images(r, id), related(id));
    }

    private static List<String> tags(Random r, String category, String adjective, String material) {
        List<String> tags = new ArrayList<String>();
        tags.add(category);
        tags.add(adjective);
        tags.add(material);
        int extra = 1 + r.nextInt(5);
        for (int i = 0; i < extra; i++) {
            String tag = Words.pick(i % 2 == 0 ? Words.ADJECTIVES : Words.COLOURS, r.nextLong());
            if (!tags.contains(tag)) {
                tags.add(tag);
            }
        }
        return tags;
    }

    private static Map<String, String> attributes(Random r, String material) {
        Map<String, String> a = new LinkedHashMap<String, String>();
        a.put("colour", Words.pick(Words.COLOURS, r.nextLong()));
        a.put("material", material);
        a.put("weight", String.format(Locale.ROOT, "%.2f kg", 0.1 + r.nextInt(2500) / 100.0));
        a.put("dimensions", (10 + r.nextInt(90)) + " x " + (10 + r.nextInt(90)) + " x " + (2 + r.nextInt(60)) + " cm");
        a.put("warranty", (1 + r.nextInt(5)) + " years");
        a.put("origin", Words.pick(Words.COUNTRIES, r.nextLong()));
        return a;
    }

    private static String description(Random r, String name, String brand, String noun) {
        StringBuilder text = new StringBuilder(768);
        text.append("The ").append(name).append(" by ").append(brand).append(" is a ")
                .append(Words.pick(Words.ADJECTIVES, r.nextLong())).append(' ').append(noun).append(", ")
                .append(Words.pick(Words.CLAIMS, r.nextLong())).append('.');
        int sentences = 3 + r.nextInt(5);
        for (int i = 0; i < sentences; i++) {
            int first = r.nextInt(Words.ADJECTIVES.length);
            int second = (first + 1 + r.nextInt(Words.ADJECTIVES.length - 1)) % Words.ADJECTIVES.length;
            text.append(' ').append(Words.capitalised(Words.ADJECTIVES[first])).append(" and ")
                    .append(Words.ADJECTIVES[second]).append(", finished in ")
                    .append(Words.pick(Words.COLOURS, r.nextLong())).append(" ")
                    .append(Words.pick(Words.MATERIALS, r.nextLong())).append(": ")
                    .append(Words.pick(Words.CLAIMS, r.nextLong())).append('.');
        }
        return text.toString();
    }

    private static List<String> images(Random r, long id) {
        int count = 2 + r.nextInt(5);
        List<String> images = new ArrayList<String>(count);
        for (int i = 0; i < count; i++) {
            images.add("https://cdn.example.com/products/" + id + "/" + i + "-1200x" + (800 + 100 * r.nextInt(5))
                    + ".jpg");
        }
        return images;
    }

    private long[] related(long id) {
        long[] related = new long[RELATED];
        for (int i = 0; i < RELATED; i++) {
            related[i] = Mix.id(Mix.hash(seed, id, LINKS + i), size);
        }
        return related;
    }
}
