"""What OpenJ9 does with an option (facts from the OpenJ9 documentation's option pages and its
"Switching to OpenJ9" table, docs/flags.md#openj9): OpenJ9 has no -XX:+PrintFlagsFinal, accepts the HotSpot
options listed there, ignores every other -XX: option (unless -XX:-IgnoreUnrecognizedXXColonOptions), and
refuses an -X option it does not know ("JVMJ9VM007E Command-line option unrecognised").
"""

from __future__ import annotations

import re

from jvmlab.jdk.collectors import COLLECTORS, OPENJ9_POLICIES

# HotSpot options OpenJ9 takes as they are.
COMPATIBLE_X = ("-Xmn", "-Xms", "-Xmx", "-Xss", "-Xint", "-Xnoclassgc", "-Xrs", "-Xcheck:jni", "-Xverify",
                "-Xbootclasspath", "-Xfuture", "-Xlog:gc")  # fmt: skip
COMPATIBLE_XX = frozenset(
    ("ConcGCThreads", "CompactStrings", "DisableExplicitGC", "ExitOnOutOfMemoryError",
     "HeapDumpOnOutOfMemoryError", "HeapDumpPath", "IgnoreUnrecognizedVMOptions", "InitialHeapSize",
     "InitialRAMPercentage", "OnOutOfMemoryError", "MaxDirectMemorySize", "MaxHeapSize", "MaxRAMPercentage",
     "ParallelCMSThreads", "ParallelGCThreads", "UseCompressedOops", "UseContainerSupport",
     "IgnoreUnrecognizedXXColonOptions")
)  # fmt: skip
# OpenJ9's own -X options (prefixes: the value follows the name).
OWN_X = ("-Xgcpolicy:", "-Xverbosegclog", "-Xshareclasses", "-Xgcthreads", "-Xconcurrentslack",
         "-Xconcurrentlevel", "-Xconcurrentbackground", "-Xgc:", "-Xmns", "-Xmnx", "-Xmos", "-Xmox", "-Xmoi",
         "-Xmca", "-Xmco", "-Xmso", "-Xmine", "-Xminf", "-Xmaxe", "-Xmaxf", "-Xmaxt", "-Xmint", "-Xjit",
         "-Xaot", "-Xnojit", "-Xnoaot", "-Xtune:virtualized", "-Xquickstart", "-Xdisableexplicitgc",
         "-Xenableexplicitgc", "-Xdump", "-Xnuma:none", "-Xcompressedrefs", "-Xnocompressedrefs", "-Xsoftmx",
         "-Xlp", "-Xloa", "-Xnoloa", "-Xloainitial", "-Xloamaximum", "-Xloaminimum", "-Xscmx", "-Xclassgc",
         "-Xcompactgc", "-Xnocompactgc", "-Xcompactexplicitgc", "-Xnocompactexplicitgc", "-Xtrace",
         "-Xsyslog", "-Xcodecache", "-Xcodecachetotal", "-Xalwaysclassgc", "-Xtgc", "-Xiss", "-Xssi",
         "-Xshareclasses", "-Xscminaot", "-Xscmaxaot", "-Xscminjitdata", "-Xscmaxjitdata", "-Xgcworkpackets",
         "-Xcomp", "-Xdiagnosticscollector", "-Xenableexcessivegc", "-Xdisableexcessivegc",
         # the rest of the documentation's -X option index (openj9-docs mkdocs.yml, "JVM -X options")
         "-Xaggressive", "-Xargencoding", "-XCEEHDLR", "-Xcheck", "-XcompilationThreads", "-Xconmeter",
         "-Xdisablejavadump", "-Xdisablestringconstantgc", "-Xenablestringconstantgc", "-Xfastresolve",
         "-Xifa", "-Xjni", "-Xlinenumbers", "-Xnolinenumbers", "-XlockReservation", "-Xlockword", "-Xlog",
         "-Xmcrs", "-Xmo", "-Xmr", "-Xmrx", "-Xsigcatch", "-Xnosigcatch", "-Xsigchain", "-Xnosigchain",
         "-Xsignal", "-Xoptionsfile", "-Xrdbginfo", "-XsamplingExpirationTime", "-Xscdmx",
         "-Xsoftrefthreshold", "-Xthr", "-XtlhPrefetch", "-Xtune:throughput", "-Xzero", "-Xsyslog",
         "-XXallowvmshutdown", "-XXnosuballoc32bitmem", "-XXsetHWPrefetch")  # fmt: skip
# OpenJ9's own -XX: options (its documentation's -XX option pages): taken, not ignored.
OWN_XX = frozenset(
    ("AdaptiveGCThreading", "ClassRelationshipVerifier", "codecachetotal", "CRIURestoreNonPortableMode",
     "DisclaimJitScratch", "EnableCPUMonitor", "EnableCRIUSupport", "EnsureHashed", "GlobalLockReservation",
     "HandleSIGABRT", "handleSIGUSR2", "handleSIGXFSZ", "HeapManagementMXBeanCompatibility",
     "IdleTuningCompactOnIdle", "IdleTuningGcOnIdle", "IdleTuningMinFreeHeapOnIdle",
     "IdleTuningMinIdleWaitTime", "InterleaveMemory", "JITInlineWatches", "JITServerAddress",
     "JITServerAOTCacheName", "JITServerAOTmx", "JITServerHealthProbes", "JITServerLogConnections",
     "JITServerMetrics", "JITServerPort", "JITServerShareROMClasses", "JITServerSSLCert", "JITServerSSLKey",
     "JITServerSSLRootCerts", "JITServerTimeout", "JITServerUseAOTCache", "LazySymbolResolution",
     "LegacyXlogOption", "MergeCompilerOptions", "OpenJ9CommandLineEnv",
     "OriginalJDK8HeapSizeCompatibilityMode", "PageAlignDirectMemory", "PortableSharedCache",
     "PrintFlagsFinal", "ReadIPInfoForRAS", "ReduceCPUMonitorOverhead", "RuntimeInstrumentation",
     "ShareAnonymousClasses", "ShareClassesDisableBCI", "ShareClassesEnableBCI", "SharedCacheHardLimit",
     "ShareOrphans", "ShareUnsafeClasses", "ShowCarrierFrames", "ShowHiddenFrames", "ShowNativeStackSymbols",
     "ShowUnmountedThreadStacks", "StackTraceInThrowable", "TransparentHugePage", "UseGCStartupHints",
     "UseJITServer", "UseZlibNX", "VerboseVerification", "VMLockClassLoader")
)  # fmt: skip
# HotSpot options with an OpenJ9 counterpart (None: none is needed); a collector's is in its row of the
# collector table.
EQUIVALENTS: dict[str, tuple[str | None, str]] = {
    "-Xcomp": ("-Xjit:count=0", "compiles every method on its first call"),
    "+UseNUMA": (None, "OpenJ9 is NUMA-aware by default (-Xnuma:none turns it off)"),
    **{f"+{c.flag}": c.openj9 for c in COLLECTORS if c.openj9 is not None},
    "MaxGCPauseMillis": ("-Xgcpolicy:metronome -Xgc:targetPauseTime=N", "only metronome has a pause goal"),
    "MetaspaceSize": (None, "OpenJ9 keeps classes outside the heap without a metaspace threshold"),
    "MaxMetaspaceSize": (None, "OpenJ9 keeps classes outside the heap without a metaspace limit"),
    "ReservedCodeCacheSize": ("-Xcodecachetotal", "the JIT's total code cache"),
}
# Its error for an option it does not know: "JVMJ9VM007E Command-line option unrecognised: -Xfoo".
UNRECOGNISED = re.compile(r"option unrecogni[sz]ed: (\S+)")
_XX = re.compile(r"^-XX:([+-]?)([A-Za-z0-9_]+)(=.*)?$")


def openj9_verdict(option: str) -> tuple[str, str | None, str | None]:
    """(status, replacement, note) of one option on OpenJ9: ok, ignored (an -XX: option OpenJ9 does not
    know: it starts and does nothing with it) or refused (an -X option it does not know, a policy it has
    not)."""
    m = _XX.match(option)
    if m is not None:
        sign, name, _ = m.groups()
        if name in COMPATIBLE_XX:
            return "ok", None, "a HotSpot option OpenJ9 takes for compatibility"
        if name in OWN_XX:
            return "ok", None, "an OpenJ9 option"
        replacement, why = EQUIVALENTS.get(sign + name) or EQUIVALENTS.get(name) or (None, "")
        note = "OpenJ9 ignores -XX: options it does not know" + (f"; {why}" if why else "")
        return "ignored", replacement, note
    if option.startswith("-Xgcpolicy:"):
        policy = option.split(":", 1)[1]
        if policy not in OPENJ9_POLICIES:
            return "refused", None, f"OpenJ9's policies: {', '.join(OPENJ9_POLICIES)}"
        return "ok", None, None
    if option in EQUIVALENTS:
        replacement, why = EQUIVALENTS[option]
        return "ok", replacement, why
    if option == "-X" or option.startswith(OWN_X + COMPATIBLE_X) or not option.startswith("-X"):
        return "ok", None, None
    return "refused", None, "OpenJ9 refuses an -X option it does not know (JVMJ9VM007E)"
