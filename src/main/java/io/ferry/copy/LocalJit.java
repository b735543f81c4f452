package io.ferry.copy;

import io.ferry.config.BucketConfig;
import io.ferry.config.DestinationConfig;
import io.ferry.config.S3EndpointConfig;
import io.ferry.config.SourceConfig;
import io.ferry.config.StoreConfig;
import io.ferry.store.checksums.Digests;
import java.util.Locale;

/**
 * Which JIT compilers a local run's JVM wants (jobs/env.sh's FERRY_JIT), from what its copies do to every byte. HotSpot's
 * first compiler alone costs a job of small objects and of signed uploads less CPU than a late second one (it does not
 * spend a core compiling start-up code), but has none of the second's AES intrinsics: a job whose bytes
 * cross TLS keeps the second compiler, late. MD5 and SHA-256 run per byte too, at the same cost under either compiler
 * where BoringSSL's load ({@link Digests}); signed uploads keep the second compiler where they do not, and where the
 * body carries a checksum trailer ({@code checksum-mode = when-supported}), which the SDK signs with the JDK's SHA-256.
 * (Uploads to a bucket with Object Lock take that form too, found only at run time: they run under C1 with the JDK's
 * SHA-256.)
 */
public enum LocalJit {
  C1("c1"),
  LATE_C2("late-c2");

  private final String name;

  LocalJit(String name) {
    this.name = name;
  }

  /** As FERRY_JIT names it. */
  public String flag() {
    return name;
  }

  public static LocalJit of(SourceConfig source, DestinationConfig destination) {
    return of(source, destination, Digests.implementation().equals("boringssl"));
  }

  /** @param nativeDigests whether {@link Digests} are BoringSSL's (else the JDK's, with intrinsics only under C2) */
  static LocalJit of(SourceConfig source, DestinationConfig destination, boolean nativeDigests) {
    if (overTls(source.store()) || overTls(destination.store())) return LATE_C2;
    if (CopyMethod.choose(source, destination) != CopyMethod.STREAM_TO_BUCKET) return C1;
    S3EndpointConfig to = ((BucketConfig) destination.store()).endpoint();
    if (to.unsignedPayload()) return C1;
    // with a checksum trailer the SDK's own encoder signs the body, with the JDK's SHA-256
    boolean trailer = to.checksumMode() == S3EndpointConfig.ChecksumMode.WHEN_SUPPORTED;
    return nativeDigests && !trailer ? C1 : LATE_C2;
  }

  private static boolean overTls(StoreConfig store) {
    // a bucket's bytes cross its endpoint's connection; AWS's own endpoints ("") are https
    return store instanceof BucketConfig b && !plainHttp(b.endpoint());
  }

  private static boolean plainHttp(S3EndpointConfig endpoint) {
    return endpoint.endpoint().toLowerCase(Locale.ROOT).startsWith("http://");
  }
}
