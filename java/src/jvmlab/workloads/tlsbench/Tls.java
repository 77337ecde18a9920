package jvmlab.workloads.tlsbench;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** The key pair (tlsbench.p12 beside these classes, see make-keystore.sh) and the TLS 1.2 contexts. */
final class Tls {
    static final String PROTOCOL = "TLSv1.2";
    static final String[] PROTOCOLS = {PROTOCOL};
    private static final String ALIAS = "tlsbench";

    private Tls() {
    }

    /** The server's context: the key pair, no client authentication. */
    static SSLContext server(Settings settings) throws IOException, GeneralSecurityException {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keyStore(settings), settings.password.toCharArray());
        SSLContext context = SSLContext.getInstance(PROTOCOL);
        context.init(kmf.getKeyManagers(), null, null);
        return context;
    }

    /** The client's context: it trusts the server's certificate and nothing else. */
    static SSLContext client(Settings settings) throws IOException, GeneralSecurityException {
        Certificate cert = keyStore(settings).getCertificate(ALIAS);
        if (cert == null) {
            throw new GeneralSecurityException("the keystore has no entry '" + ALIAS + "'");
        }
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trusted);
        SSLContext context = SSLContext.getInstance(PROTOCOL);
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    private static KeyStore keyStore(Settings settings) throws IOException, GeneralSecurityException {
        InputStream in = settings.keystore.isEmpty()
                ? Tls.class.getResourceAsStream("tlsbench.p12")
                : new FileInputStream(settings.keystore);
        if (in == null) {
            throw new IOException("no tlsbench.p12 beside the classes of " + Tls.class.getName()
                    + ": build them with `make java`, or give -Dtls.keystore=FILE");
        }
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, settings.password.toCharArray());
            return ks;
        } finally {
            in.close();
        }
    }
}
