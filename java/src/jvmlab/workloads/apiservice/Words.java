package jvmlab.workloads.apiservice;

/** The vocabulary the catalog and the customers are made of. */
final class Words {
    static final String[] CATEGORIES = {
        "kitchen", "garden", "office", "outdoor", "audio", "lighting", "bath", "toys", "sports", "travel",
        "storage", "pets", "tools", "bedroom", "fitness", "camping"};
    static final String[] ADJECTIVES = {
        "compact", "foldable", "ergonomic", "classic", "rugged", "slim", "modular", "wireless", "premium",
        "heavy-duty", "lightweight", "vintage", "smart", "portable", "quiet", "insulated", "adjustable",
        "handmade", "waterproof", "stackable"};
    static final String[] MATERIALS = {
        "bamboo", "oak", "steel", "aluminium", "ceramic", "linen", "wool", "glass", "walnut", "cotton",
        "copper", "leather", "cork", "granite", "silicone", "recycled plastic"};
    static final String[] NOUNS = {
        "lamp", "kettle", "chair", "backpack", "speaker", "planter", "organiser", "blanket", "bottle",
        "headset", "stool", "grinder", "tent", "mat", "shelf", "clock", "cutting board", "toolbox", "lantern",
        "basket", "desk", "hammock", "cushion", "scale"};
    static final String[] COLOURS = {
        "black", "white", "sand", "forest green", "navy", "terracotta", "graphite", "ivory", "mustard", "slate"};
    static final String[] BRANDS = {
        "Nordvik", "Alpenhaus", "Kettle & Co", "Lumio", "Treeline", "Urbanist", "Hearth", "Polaris",
        "Fjordline", "Maple Works", "Solvent", "Basecamp", "Oakridge", "Brightside"};
    static final String[] COUNTRIES = {
        "Portugal", "Denmark", "Vietnam", "Poland", "Italy", "Mexico", "Japan", "Germany", "Turkey", "Canada"};
    static final String[] FIRST_NAMES = {
        "Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kofi", "Lena",
        "Mateo", "Nadia", "Oskar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wen", "Yara"};
    static final String[] LAST_NAMES = {
        "Almeida", "Berg", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ivanova", "Jansen",
        "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Rossi", "Schmidt", "Tanaka", "Weber"};
    static final String[] CITIES = {
        "Lisbon", "Aarhus", "Lyon", "Krakow", "Turin", "Leipzig", "Ghent", "Bilbao", "Graz", "Tampere",
        "Brno", "Utrecht"};
    static final String[] REGIONS = {"north", "south", "east", "west", "central", "islands"};
    static final String[] TIERS = {"basic", "basic", "basic", "silver", "silver", "gold", "platinum"};
    static final String[] ORDER_STATES = {
        "delivered", "delivered", "delivered", "delivered", "shipped", "processing", "cancelled", "returned"};
    static final String[] SEASONS = {"SPRING", "SUMMER", "AUTUMN", "WINTER", "WELCOME", "LOYALTY", "FLASH"};
    static final String[] CLAIMS = {
        "built to last for years of daily use", "easy to clean and to store",
        "designed with feedback from thousands of customers", "made in a certified low-emission factory",
        "backed by a no-questions-asked return policy", "tested against drops, heat and moisture",
        "shipped in fully recyclable packaging", "a favourite of professionals and hobbyists alike"};

    private Words() {
    }

    static String pick(String[] words, long hash) {
        return words[Mix.below(hash, words.length)];
    }

    static String capitalised(String word) {
        return Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}
