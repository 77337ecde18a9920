package jvmlab.workloads.apiservice;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** The catalog endpoints: a product page with its related products, and search with facets. */
final class CatalogApi {
    private static final int MAX_QUERY = 200;
    private static final int MAX_WORDS = 8;
    private static final int CANDIDATES_PER_WORD = 40;
    private static final long POSTINGS = 31;
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}-]+");

    private final Catalog catalog;
    private final ProductCache cache;
    private final long seed;

    CatalogApi(Catalog catalog, ProductCache cache, long seed) {
        this.catalog = catalog;
        this.cache = cache;
        this.seed = seed;
    }

    /** GET /api/products/{id}. */
    HttpResponse product(long id) throws HttpException {
        if (!catalog.contains(id)) {
            throw HttpException.of(404, "no product " + id);
        }
        Product p = cache.get(id);
        JsonWriter w = new JsonWriter(4096).beginObject().name("product");
        p.writeDetail(w);
        w.name("related").beginArray();
        for (long related : p.related) {
            cache.get(related).writeSummary(w);
        }
        return HttpResponse.json(200, w.endArray().endObject());
    }

    /** GET /api/search?q=words&limit=20&offset=0. */
    HttpResponse search(QueryString params) throws HttpException {
        String q = params.get("q");
        if (q == null || q.trim().isEmpty() || q.length() > MAX_QUERY) {
            throw HttpException.of(400, "q must be 1 to " + MAX_QUERY + " characters");
        }
        int limit = params.integer("limit", 20, 1, 100);
        int offset = params.integer("offset", 0, 0, 1000);
        List<String> words = words(q);
        if (words.isEmpty()) {
            throw HttpException.of(400, "q has no word to search for");
        }
        List<Hit> hits = rank(words);
        JsonWriter w = new JsonWriter(16384).beginObject().field("query", q).field("total", hits.size())
                .field("offset", offset).field("limit", limit).name("hits").beginArray();
        for (Hit hit : hits.subList(Math.min(offset, hits.size()), Math.min(offset + limit, hits.size()))) {
            w.beginObject().field("score", hit.score).name("product");
            hit.product.writeSummary(w);
            w.endObject();
        }
        w.endArray().name("facets");
        facets(w, hits);
        return HttpResponse.json(200, w.endObject());
    }

    private static final class Hit {
        final Product product;
        final int score;

        Hit(Product product, int score) {
            this.product = product;
            this.score = score;
        }
    }

    /** Lower-case words of the query, distinct, at most MAX_WORDS. */
    private static List<String> words(String q) {
        Set<String> words = new LinkedHashSet<String>();
        for (String word : NON_WORD.split(q.toLowerCase(Locale.ROOT))) {
            if (!word.isEmpty() && words.size() < MAX_WORDS) {
                words.add(word);
            }
        }
        return new ArrayList<String>(words);
    }

    /** The candidates the index gives for the words (its postings), scored on their text, best first. */
    private List<Hit> rank(List<String> words) {
        Set<Long> ids = new LinkedHashSet<Long>();
        for (String word : words) {
            long posting = Mix.hash(seed, word.hashCode(), POSTINGS);
            for (int i = 0; i < CANDIDATES_PER_WORD; i++) {
                ids.add(Mix.id(Mix.hash(posting, i), catalog.size()));
            }
        }
        List<Hit> hits = new ArrayList<Hit>(ids.size());
        for (Long id : ids) {
            Product p = cache.get(id);
            hits.add(new Hit(p, p.relevance(words) * 10 + p.ratingTenths / 10));
        }
        Collections.sort(hits, new Comparator<Hit>() {
            @Override
            public int compare(Hit a, Hit b) {
                int byScore = Integer.compare(b.score, a.score);
                return byScore != 0 ? byScore : Long.compare(a.product.id, b.product.id);
            }
        });
        return hits;
    }

    /** How many of the candidates are in each category and of each brand. */
    private static void facets(JsonWriter w, List<Hit> hits) {
        Map<String, Integer> categories = new TreeMap<String, Integer>();
        Map<String, Integer> brands = new TreeMap<String, Integer>();
        for (Hit hit : hits) {
            count(categories, hit.product.category);
            count(brands, hit.product.brand);
        }
        w.beginObject();
        counts(w, "category", categories);
        counts(w, "brand", brands);
        w.endObject();
    }

    private static void count(Map<String, Integer> counts, String key) {
        Integer n = counts.get(key);
        counts.put(key, n == null ? 1 : n + 1);
    }

    private static void counts(JsonWriter w, String name, Map<String, Integer> counts) {
        w.name(name).beginArray();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            w.beginObject().field("value", e.getKey()).field("count", e.getValue()).endObject();
        }
        w.endArray();
    }
}
