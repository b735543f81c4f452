package io.ferry.store.s3.http;

import io.ferry.store.checksums.Digests;
import io.ferry.store.limits.ThreadBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A request body in SigV4 streaming form ({@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}, the SDK's form for a body sent
 * over plain http): the body in chunks of {@value #CHUNK} bytes, each preceded by its size and a signature chained
 * from the request's own, then an empty signed chunk. The bytes are the SDK signer's, byte for byte
 * ({@code SignedChunksTest}), at a fraction of the cost: the SDK's encoder allocates two fresh arrays per chunk (the
 * chunk and the chunk encoded) and hands them out a chunk part per read; this one reuses a buffer per thread, one
 * digest and one HMAC per body, and fills every read.
 *
 * <p>Only the payload is encoded here: the request's headers (its {@code Authorization} with the seed signature,
 * {@code Content-Length} of the encoded body, {@code x-amz-decoded-content-length}) are the SDK signer's.
 *
 * <p>A thread reads one body at a time (as {@code BulkHttpClient} sends one request at a time per thread): the chunk
 * buffer is the reading thread's, taken at the first read.
 */
public final class SignedChunks extends InputStream {
  /** The SDK signer's chunk size: the Content-Length it signs is computed for it. */
  public static final int CHUNK = 128 * 1024;
  public static final String STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
  private static final ThreadBuffers BUFFERS = new ThreadBuffers();
  private static final Pattern AUTHORIZATION = Pattern.compile("Credential=[^/]+/([^,]+), .*Signature=([0-9a-f]{64})");
  private static final byte[] CRLF = {'\r', '\n'};
  private static final HexFormat HEX = HexFormat.of(); // lower case, as SigV4 signs

  private final InputStream payload;
  private final String prefix; // "AWS4-HMAC-SHA256-PAYLOAD\n<time>\n<scope>\n"
  private final String emptyHash;
  private final MessageDigest sha256;
  private final Mac hmac;
  private byte[] data;
  private long remaining;
  private String previous;
  private boolean finished;
  // what is being sent: the header of a chunk, its data, then CRLF
  private byte[] header = new byte[0];
  private int headerAt;
  private int dataLength;
  private int dataAt;
  private int crlfAt = CRLF.length;

  private SignedChunks(Seed seed, InputStream payload) {
    this.payload = payload;
    this.remaining = seed.length;
    this.previous = seed.signature;
    this.prefix = "AWS4-HMAC-SHA256-PAYLOAD\n" + seed.time + "\n" + seed.scope + "\n";
    byte[] signingKey = seed.key;
    try {
      this.sha256 = Digests.sha256(); // every byte of the body: BoringSSL's where it loads
      this.hmac = Mac.getInstance("HmacSHA256");
      hmac.init(new SecretKeySpec(signingKey, "HmacSHA256"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 and HmacSHA256 are part of every JDK", e);
    }
    this.emptyHash = HEX.formatHex(sha256.digest());
  }

  /** What a signed request's body is encoded with: the seed signature, its time and scope, the signing key. */
  public static final class Seed {
    private final long length;
    private final String time;
    private final String scope;
    private final String signature;
    private final byte[] key;

    private Seed(long length, String time, String scope, String signature, byte[] key) {
      this.length = length;
      this.time = time;
      this.scope = scope;
      this.signature = signature;
      this.key = key;
    }

    /** The encoded body of {@code payload}, which must hold the length the request was signed for. */
    public SignedChunks encode(InputStream payload) {
      return new SignedChunks(this, payload);
    }

    @Override
    public String toString() {
      return "Seed[" + scope + "]"; // never the key
    }
  }

  /**
   * The seed of a request the SDK signer signed for streaming: {@code headers} are the signed request's, {@code secret}
   * the secret key it was signed with. Null when the request is not in that form (unsigned, a checksum trailer), so
   * that the SDK's own encoding goes.
   */
  public static Seed seed(Map<String, List<String>> headers, String secret) {
    if (!STREAMING_SIGNED.equals(first(headers, "x-amz-content-sha256"))) return null;
    String authorization = first(headers, "Authorization");
    String time = first(headers, "X-Amz-Date");
    String decoded = first(headers, "x-amz-decoded-content-length");
    if (authorization == null || time == null || decoded == null) return null;
    Matcher m = AUTHORIZATION.matcher(authorization);
    if (!m.find()) return null;
    String scope = m.group(1); // <yyyyMMdd>/<region>/<service>/aws4_request
    String[] parts = scope.split("/");
    if (parts.length != 4) return null;
    return new Seed(Long.parseLong(decoded), time, scope, m.group(2), signingKey(secret, parts[0], parts[1], parts[2]));
  }

  private static String first(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) return e.getValue().get(0);
    }
    return null;
  }

  /** The last signing key derived: it changes with the day, the secret and the scope, not per request. */
  private static volatile DerivedKey last;

  /** Held with a digest of the secret, not the secret. */
  private record DerivedKey(byte[] secretDigest, String scope, byte[] key) {
    @Override
    public String toString() {
      return "DerivedKey[" + scope + "]"; // never the key
    }
  }

  public static byte[] signingKey(String secret, String date, String region, String service) {
    String scope = date + "/" + region + "/" + service;
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
    DerivedKey cached = last;
    if (cached != null && cached.scope.equals(scope) && MessageDigest.isEqual(cached.secretDigest, digest)) return cached.key;
    byte[] key = derive(secret, date, region, service);
    last = new DerivedKey(digest, scope, key);
    return key;
  }

  private static byte[] derive(String secret, String date, String region, String service) {
    byte[] key = ("AWS4" + secret).getBytes(StandardCharsets.UTF_8);
    for (String step : new String[] {date, region, service, "aws4_request"}) key = hmac(key, step);
    return key;
  }

  private static byte[] hmac(byte[] key, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) return 0;
    int n = 0;
    while (n < len) {
      if (headerAt < header.length) {
        int k = Math.min(len - n, header.length - headerAt);
        System.arraycopy(header, headerAt, b, off + n, k);
        headerAt += k;
        n += k;
      } else if (dataAt < dataLength) {
        int k = Math.min(len - n, dataLength - dataAt);
        System.arraycopy(data, dataAt, b, off + n, k);
        dataAt += k;
        n += k;
      } else if (crlfAt < CRLF.length) {
        int k = Math.min(len - n, CRLF.length - crlfAt);
        System.arraycopy(CRLF, crlfAt, b, off + n, k);
        crlfAt += k;
        n += k;
      } else if (!next()) {
        break;
      }
    }
    return n == 0 ? -1 : n;
  }

  /** The next chunk: the body's next bytes, or the final empty chunk; false once that has been sent. */
  private boolean next() throws IOException {
    if (finished) return false;
    if (data == null) data = BUFFERS.get(CHUNK);
    int size = (int) Math.min(CHUNK, remaining);
    int got = 0;
    int idle = 0;
    while (got < size) {
      int r = payload.read(data, got, size - got);
      if (r < 0) throw new IOException("the request body ended " + (remaining - got) + " bytes short of its "
          + "x-amz-decoded-content-length");
      if (r == 0 && ++idle > 1000) throw new IOException("the request body returned nothing 1000 times in a row");
      got += r;
    }
    remaining -= size;
    sha256.update(data, 0, size);
    String signature = HEX.formatHex(hmac.doFinal((prefix + previous + "\n" + emptyHash + "\n" + HEX.formatHex(sha256.digest()))
        .getBytes(StandardCharsets.US_ASCII)));
    previous = signature;
    String head = Integer.toHexString(size) + ";chunk-signature=" + signature + "\r\n";
    header = head.getBytes(StandardCharsets.US_ASCII);
    headerAt = 0;
    dataLength = size;
    dataAt = 0;
    crlfAt = 0;
    if (size == 0) finished = true; // the final chunk: "0;chunk-signature=...\r\n\r\n"
    return true;
  }

  @Override
  public void close() throws IOException {
    payload.close();
  }
}
