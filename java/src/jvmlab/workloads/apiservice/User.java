package jvmlab.workloads.apiservice;

import java.time.LocalDate;

/** A customer account. */
final class User {
    final long id;
    final String name;
    final String email;
    final String tier;
    final String city;
    final long memberSinceDay;

    User(long id, String name, String email, String tier, String city, long memberSinceDay) {
        this.id = id;
        this.name = name;
        this.email = email;
        this.tier = tier;
        this.city = city;
        this.memberSinceDay = memberSinceDay;
    }

    void write(JsonWriter w) {
        w.beginObject().field("id", id).field("name", name).field("email", email).field("tier", tier)
                .field("city", city).field("memberSince", LocalDate.ofEpochDay(memberSinceDay).toString())
                .endObject();
    }
}
