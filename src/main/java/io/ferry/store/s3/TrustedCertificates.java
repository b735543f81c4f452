package io.ferry.store.s3;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** A TLS context that trusts the system's CAs and those of a PEM bundle (an on-premises store's private CA). */
final class TrustedCertificates {
  private TrustedCertificates() {}

  static SSLContext context(Path bundle) {
    try {
      KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
      trusted.load(null, null);
      TrustManagerFactory system = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      system.init((KeyStore) null);
      int n = 0;
      for (TrustManager tm : system.getTrustManagers()) {
        if (tm instanceof X509TrustManager x509) {
          for (X509Certificate ca : x509.getAcceptedIssuers()) trusted.setCertificateEntry("system-" + n++, ca);
        }
      }
      Collection<? extends Certificate> own;
      try (InputStream in = Files.newInputStream(bundle)) {
        own = CertificateFactory.getInstance("X.509").generateCertificates(in);
      }
      if (own.isEmpty()) throw new GeneralSecurityException("it holds no certificate");
      for (Certificate ca : own) trusted.setCertificateEntry("bundle-" + n++, ca);
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trusted);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new UncheckedIOException(new IOException("cannot read the CA bundle " + bundle + " (ca-bundle): " + e.getMessage(), e));
    }
  }
}
