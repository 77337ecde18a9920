#!/usr/bin/env bash
# Makes tlsbench.p12, the self-signed key pair of the tlsbench workload (committed; run again only to
# replace it): RSA 2048, CN=localhost with localhost and 127.0.0.1 as subject alternative names, valid for
# 100 years, in a PKCS12 keystore with the password "tlsbench". The server uses its key, the client trusts
# its certificate only. Needs a JDK's keytool (JAVA_HOME, else PATH); JDK 11.0.12 or newer read it.
set -euo pipefail
cd "$(dirname "$0")"
KEYTOOL="${JAVA_HOME:+$JAVA_HOME/bin/}keytool"
rm -f tlsbench.p12
"$KEYTOOL" -genkeypair -noprompt -alias tlsbench -keyalg RSA -keysize 2048 -sigalg SHA256withRSA \
    -dname "CN=localhost" -ext "san=dns:localhost,ip:127.0.0.1" -validity 36500 \
    -storetype PKCS12 -keystore tlsbench.p12 -storepass tlsbench -keypass tlsbench
"$KEYTOOL" -list -v -keystore tlsbench.p12 -storepass tlsbench | grep -E "^(Owner|Valid|Signature algorithm|Subject Public Key)"
