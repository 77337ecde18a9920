"""The hints table: every hint loads and compiles; each fires on its evidence and not without it."""

from __future__ import annotations

from jvmlab.profile.diff import FrameChange
from jvmlab.regress.hints import EventDelta, hints, match_hints
from jvmlab.stats import Change


def frame(name, base, new, significant=True, q=0.001):
    return FrameChange(
        name, "java", 0.0, 0.0, base, new, new - base - 0.01, new - base + 0.01, 0.99, q, significant
    )


def event(name, base, new, significant=True):
    pct = (new / base - 1) * 100 if base else None
    return EventDelta(name, base, new, Change(pct, None, None, 0.99, 0.001, 0.001, significant))


def test_every_hint_has_a_title_a_change_and_evidence_to_match():
    ids = [h.id for h in hints()]
    assert len(ids) == len(set(ids)) >= 10
    for h in hints():
        assert h.title and h.change and (h.frames or h.events), h.id


def test_tls_handshake_frames_and_the_handshake_event_point_at_extended_master_secret():
    frames = [
        frame("sun.security.ssl.ECDHKeyExchange$ECDHEKAGenerator.createKeyDerivation", 0.01, 0.12),
        frame("sun.security.rsa.RSACore.crtCrypt", 0.02, 0.30),
        frame("java.util.HashMap.get", 0.05, 0.04),
    ]
    (top, *_) = match_hints(frames, [event("jdk.TLSHandshake", 2890, 0)], base_major=21, new_major=21)
    assert top.hint.id == "tls-ems" and top.hint.flag == "-Djdk.tls.useExtendedMasterSecret=false"
    assert [f.frame for f in top.frames] == [frames[0].frame, frames[1].frame] and top.events


def test_insignificant_or_shrinking_frames_are_no_evidence():
    frames = [
        frame("sun.security.rsa.RSACore.crtCrypt", 0.02, 0.30, significant=False, q=0.5),
        frame("sun.security.ssl.CertificateVerify$T12CertificateVerifyProducer.produce", 0.3, 0.1),
    ]
    assert match_hints(frames, [event("jdk.TLSHandshake", 100, 101, significant=False)]) == []


def test_a_hint_about_a_jdk_release_needs_that_release_between_the_sides():
    frames = [frame("ObjectSynchronizer::enter", 0.01, 0.2)]
    assert [m.hint.id for m in match_hints(frames, [], base_major=11, new_major=17)] == ["biased-locking"]
    assert match_hints(frames, [], base_major=17, new_major=17) == []
    assert match_hints(frames, [], base_major=None, new_major=None) == []


def test_without_a_ci_a_large_share_change_still_counts():
    frames = [
        frame("sun.security.provider.NativePRNG$RandomIO.readFully", 0.0, 0.10, significant=False, q=None)
    ]
    assert [m.hint.id for m in match_hints(frames, [])] == ["secure-random-blocking"]


def test_an_event_named_with_a_direction_is_evidence_only_that_way():
    fewer, more = event("throwables", 33001, 4477), event("throwables", 4477, 33001)
    assert match_hints([], [fewer]) == []
    assert [m.hint.id for m in match_hints([], [more])] == ["exceptions"]


def test_more_calls_of_a_full_handshake_method_point_at_extended_master_secret():
    calls = event("calls:sun.security.ssl.CertificateMessage$T12CertificateProducer.produce", 0, 2390)
    (top,) = match_hints([], [calls])
    assert top.hint.id == "tls-ems" and top.events == (calls,)
    assert match_hints([], [event(calls.event, 2390, 1)]) == []


def test_an_event_count_that_barely_moved_is_no_evidence_even_when_significant():
    assert match_hints([], [event("jdk.TLSHandshake", 1000, 1002)]) == []
